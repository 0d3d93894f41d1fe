/**
 * Whether a value is one an envelope field takes without a finding of its own (wrong-type,
 * invalid-value, invalid-uuid, invalid-urn, timestamp-unit, unknown-lang,
 * unsupported-schema-version). A fix that renames or moves a key into the field is applied by fix
 * all only then; otherwise the author decides what the field should hold.
 */
import { fieldsOf, isBlank, isMillisecondRange, isUuid, misspeltFields, type EnvelopeScope } from './envelope';
import { checkUrnNaming } from './urn';
import type { ObjectNode, PropertyNode, ValueNode } from '../model/tree';

/** The largest attempts every consumer reads as written (Java reads a 32-bit int). */
const INT32_MAX = 2 ** 31 - 1;

/** True or false for a field of `scope` named `name`; undefined when the scope has no such field. */
export function valueFitsField(scope: EnvelopeScope, name: string, value: ValueNode): boolean | undefined {
  const spec = fieldsOf(scope).find((field) => field.name === name);
  if (!spec) return undefined;
  if (scope === 'meta' && name === 'schema_version') return value.kind === 'number' && value.isIntegerLiteral && value.value === 1;
  switch (spec.type) {
    case 'string':
      return value.kind === 'string' && !isBlank(value.value);
    case 'nullable-string':
      return value.kind === 'null' || (value.kind === 'string' && !isBlank(value.value));
    case 'uuid':
      return value.kind === 'string' && isUuid(value.value);
    case 'urn':
      return value.kind === 'string' && checkUrnNaming(value.value) === undefined;
    case 'object':
      return value.kind === 'object';
    case 'integer':
      return value.kind === 'number' && value.isIntegerLiteral && value.value >= 0 && value.value <= INT32_MAX;
    case 'timestamp':
      return value.kind === 'number' && value.isIntegerLiteral && isMillisecondRange(value.value);
    case 'enum':
      return value.kind === 'string' && (spec.values ?? []).includes(value.value);
  }
}

/**
 * Whether fix all renames `written`, a key of `object` written for the field `name` another way,
 * onto that field: a key that differs only in case (case-mismatch's fix) or only in `-`, `_` or
 * camelCase (missing-field's), holding a value the field takes. A letter off is the author's to confirm.
 */
export function renamedByFixAll(scope: EnvelopeScope, object: ObjectNode, written: PropertyNode, name: string): boolean {
  if (!written.value || valueFitsField(scope, name, written.value) !== true) return false;
  return written.key.toLowerCase() === name || misspeltFields(scope, object).get(written)?.exact === true;
}
