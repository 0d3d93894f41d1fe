/** Short human descriptions of schemas and entries, for completion details and hovers. */
import { isSensitive, sensitiveCategory } from './pii';
import type { RegistryEntry } from './types';

/** "integer ≥ 1", "one of USD, EUR", "string (email)", "object", … */
export function describeSchemaType(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return 'any';
  const s = schema as Record<string, unknown>;
  if ('const' in s) return `always ${JSON.stringify(s.const)}`;
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  const type = Array.isArray(s.type) ? s.type.join(' | ') : typeof s.type === 'string' ? s.type : 'any';
  const bounds: string[] = [];
  if (typeof s.minimum === 'number') bounds.push(`≥ ${s.minimum}`);
  if (typeof s.exclusiveMinimum === 'number') bounds.push(`> ${s.exclusiveMinimum}`);
  if (typeof s.maximum === 'number') bounds.push(`≤ ${s.maximum}`);
  if (typeof s.exclusiveMaximum === 'number') bounds.push(`< ${s.exclusiveMaximum}`);
  if (typeof s.format === 'string') bounds.push(`(${s.format})`);
  if (typeof s.minLength === 'number' && s.minLength > 0) bounds.push(`min length ${s.minLength}`);
  return [type, ...bounds].join(' ');
}

/** A markdown table of a schema's top-level fields: type, required, enum, x-gdpr-sensitive. */
export function fieldsTable(schema: Record<string, unknown> | undefined): string {
  const properties = schema?.properties;
  if (typeof properties !== 'object' || properties === null) return '_The schema declares no fields._';
  const required = new Set(Array.isArray(schema!.required) ? (schema!.required as string[]) : []);
  const rows = Object.entries(properties as Record<string, unknown>).map(([key, field]) => {
    const f = (field ?? {}) as Record<string, unknown>;
    const enumText = Array.isArray(f.enum) ? f.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' ') : '';
    const sensitive = isSensitive(f) ? (sensitiveCategory(f) ?? 'yes') : '';
    return `| \`${key}\` | ${describeSchemaType({ ...f, enum: undefined })} | ${required.has(key) ? 'yes' : ''} | ${enumText} | ${sensitive} |`;
  });
  return ['| field | type | required | enum | x-gdpr-sensitive |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** The required fields of an entry's schema, as markdown (completion documentation). */
export function requiredFieldsMarkdown(entry: RegistryEntry): string {
  const schema = entry.schema?.value;
  if (!schema) return entry.schema?.error ? `Schema unusable: ${entry.schema.error}` : 'No schema loaded.';
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (required.length === 0) return 'No required `data` fields.';
  return ['Required `data` fields:', ...required.map((key) => `- \`${key}\`: ${describeSchemaType(properties[key])}`)].join('\n');
}
