/**
 * GDPR-sensitive fields: which payload paths a schema marks `x-gdpr-sensitive`, whether a value
 * is masked the way the registry tool masks it (a string keeps its first character then `***`;
 * anything else becomes "***"), and the masked form.
 */

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
