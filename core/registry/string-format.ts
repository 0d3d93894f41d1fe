/**
 * Whether a string meets a `format` as payload-schema judges it: the formats registered in the
 * shared ajv instance (ajv-formats, with the linear `url`). A format ajv does not know checks
 * nothing, as in payload-schema. Examples and masks ask this, so a value the editor writes into
 * a fixture passes the schema it was made for.
 */
import { ajvInstance } from './ajv-instances';

export function meetsFormat(format: unknown, value: string): boolean {
  if (typeof format !== 'string') return true;
  const definition: unknown = ajvInstance('all', false).formats[format];
  if (definition === undefined || definition === true) return true;
  if (typeof definition === 'object' && definition !== null && 'type' in definition && definition.type !== undefined && definition.type !== 'string') return true;
  const validate: unknown = typeof definition === 'object' && definition !== null && 'validate' in definition ? definition.validate : definition;
  if (validate instanceof RegExp) return validate.test(value);
  if (typeof validate === 'function') return validate(value) === true;
  if (typeof validate === 'string') return new RegExp(validate, 'u').test(value);
  return true;
}
