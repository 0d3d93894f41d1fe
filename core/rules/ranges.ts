/** The ranges findings sit on: a key token, or a value token (a container by its opening bracket). */
import type { PropertyNode, ValueNode } from '../model/tree';
import type { Range } from './context';

/** The range of a property's key token. */
export function keyRange(property: PropertyNode): Range {
  return { offset: property.keyOffset, end: property.keyEnd };
}

/** A scalar's whole token; only the opening bracket of an object or array, so a big block is not one long underline. */
export function tokenRange(value: ValueNode): Range {
  return value.kind === 'object' || value.kind === 'array' ? { offset: value.offset, end: value.offset + 1 } : value;
}
