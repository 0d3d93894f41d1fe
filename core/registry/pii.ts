/**
 * GDPR-sensitive fields: which payload paths a schema marks `x-gdpr-sensitive`, whether a value
 * is masked the way the registry tool masks it (a string keeps its first character then `***`;
 * anything else becomes "***"), the masked form, and whether the field's schema can hold it.
 */
import { linearRegExp } from './linear-regex';
import { meetsFormat } from './string-format';

/** True when the schema marks a field sensitive (`true` or a non-empty category string). */
export function isSensitive(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const mark = (schema as Record<string, unknown>)['x-gdpr-sensitive'];
  return mark === true || (typeof mark === 'string' && mark !== '');
}

/** The category of a sensitive field (`email`, `national_id`), or undefined for plain `true`. */
export function sensitiveCategory(schema: unknown): string | undefined {
  const mark = (schema as Record<string, unknown> | null)?.['x-gdpr-sensitive'];
  return typeof mark === 'string' && mark !== '' ? mark : undefined;
}

/** True when a value is already masked (`"a***"`, `"***"`), or null. */
export function isMasked(value: unknown): boolean {
  if (value === null) return true;
  return typeof value === 'string' && /^[^*]?\*\*\*$/u.test(value);
}

/** The masked form of a value, as the registry tool's --mask writes it. */
export function maskValue(value: unknown): string {
  if (typeof value === 'string' && value.length > 0) return `${Array.from(value)[0]}***`;
  return '***';
}

/**
 * True when `masked` passes the keywords of the field's own schema that a mask can fail: its
 * `type` (a mask is a string), `const`, `enum`, `minLength`, `maxLength`, `pattern`, and a
 * `format` payload-schema checks (draft-07's: `a***` is no e-mail address, no date, no UUID). A
 * field that cannot hold a mask (an integer, an enum of codes, an e-mail address) has no masked
 * form that its schema accepts: a masked fixture would fail it.
 */
export function maskFits(schema: unknown, masked: string): boolean {
  if (typeof schema !== 'object' || schema === null) return true;
  const record = schema as Record<string, unknown>;
  const type = record.type;
  if (typeof type === 'string' && type !== 'string') return false;
  if (Array.isArray(type) && !type.includes('string')) return false;
  if ('const' in record && record.const !== masked) return false;
  if (Array.isArray(record.enum) && !record.enum.includes(masked)) return false;
  // JSON Schema counts a string's length in code points.
  const length = Array.from(masked).length;
  if (typeof record.minLength === 'number' && length < record.minLength) return false;
  if (typeof record.maxLength === 'number' && length > record.maxLength) return false;
  if (typeof record.pattern === 'string' && linearRegExp(record.pattern)?.test(masked) === false) return false;
  return meetsFormat(record.format, masked);
}
