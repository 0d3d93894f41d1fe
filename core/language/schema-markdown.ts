/** Markdown about payload schemas for hovers and completion documentation, in the words of ../registry/schema-words.ts; the schema's own text escaped (./markdown.ts). */
import { literal, shortened } from '../model/describe-value';
import { isSensitive, sensitiveCategory } from '../registry/pii';
import { schemaSummary } from '../registry/schema-words';
import { withWrittenNumbers } from '../registry/written-numbers';
import { codeSpan, escapeMarkdown, tableCode } from './markdown';
import type { RegistryEntry } from '../registry/types';

/** The most enum values a table cell lists, as a message lists them (schema-words.ts listValues). */
const MAX_LISTED = 10;

/** A markdown table of a schema's top-level fields: type, required, enum, x-gdpr-sensitive. */
export function fieldsTable(schema: Record<string, unknown> | undefined): string {
  const properties = schema?.properties;
  if (typeof properties !== 'object' || properties === null) return '_The schema declares no fields._';
  const required = new Set(Array.isArray(schema!.required) ? (schema!.required as string[]) : []);
  const rows = Object.entries(properties as Record<string, unknown>).map(([key, field]) => {
    const f = (field ?? {}) as Record<string, unknown>;
    // Each value and the field's name as a message quotes them (shortened), and at most the first ten values.
    const enumText = Array.isArray(f.enum) ? `${f.enum.slice(0, MAX_LISTED).map((v) => tableCode(literal(v))).join(' ')}${f.enum.length > MAX_LISTED ? ` … (${f.enum.length - MAX_LISTED} more)` : ''}` : '';
    const sensitive = isSensitive(f) ? escapeMarkdown(sensitiveCategory(f) ?? 'yes') : '';
    return `| ${tableCode(shortened(key))} | ${escapeMarkdown(schemaSummary(withWrittenNumbers({ ...f, enum: undefined }, f)))} | ${required.has(key) ? 'yes' : ''} | ${enumText} | ${sensitive} |`;
  });
  return ['| field | type | required | enum | x-gdpr-sensitive |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** The required fields of an entry's schema, as markdown (completion documentation). */
export function requiredFieldsMarkdown(entry: RegistryEntry): string {
  const schema = entry.schema?.value;
  if (!schema) return entry.schema?.error ? `Schema unusable: ${escapeMarkdown(entry.schema.error)}` : 'No schema loaded.';
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (required.length === 0) return 'No required `data` fields.';
  return ['Required `data` fields:', ...required.map((key) => `- ${codeSpan(shortened(String(key)))}: ${escapeMarkdown(schemaSummary(properties[key]))}`)].join('\n');
}
