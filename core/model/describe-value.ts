/** Short descriptions of values for messages ("the string \"0\"", "an array"). */
import type { ValueNode } from './tree';

const MAX_SHOWN = 40;

/** Describes a value in a few words for a diagnostic message. */
export function describeValue(value: ValueNode): string {
  switch (value.kind) {
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'string': {
      const shown = value.value.length > MAX_SHOWN ? `${value.value.slice(0, MAX_SHOWN)}…` : value.value;
      return `the string ${JSON.stringify(shown)}`;
    }
    case 'number':
      return `the number ${value.raw.length > MAX_SHOWN ? `${value.raw.slice(0, MAX_SHOWN)}…` : value.raw}`;
    case 'boolean':
      return `the boolean ${value.value}`;
    case 'null':
      return 'null';
  }
}
