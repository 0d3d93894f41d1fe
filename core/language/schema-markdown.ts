/** Markdown about payload schemas for hovers and completion documentation, in the words of ../registry/schema-words.ts; the schema's own text escaped (./markdown.ts). */
import { literal, shortened } from '../model/describe-value';
import { isSensitive, sensitiveCategory } from '../registry/pii';
import { schemaSummary } from '../registry/schema-words';
import { withWrittenNumbers } from '../registry/written-numbers';
import { codeSpan, escapeMarkdown, tableCode } from './markdown';
import type { RegistryEntry } from '../registry/types';
import { digitGroups } from '../model/count-words';

/**
 * The most fields a hover's table lists, and required fields a URN's completion names: the schema
 * is the checkout's, and one of 2,000 fields with long enum values made a hover of 2.7 MB, which
 * the editor renders as Markdown on the pointer's pause.
 */
const MAX_LISTED_FIELDS = 50;
/** The most enum values a table cell shows, each as a message quotes a value (shortened). */
const MAX_CELL_VALUES = 5;

/** A markdown table of a schema's top-level fields: type, required, enum, x-gdpr-sensitive (the first MAX_LISTED_FIELDS). */
export function fieldsTable(schema: Record<string, unknown> | undefined): string {
  const properties = schema?.properties;
  if (typeof properties !== 'object' || properties === null) return '_The schema declares no fields._';
  const required = new Set(Array.isArray(schema!.required) ? (schema!.required as string[]) : []);
  const fields = Object.entries(properties as Record<string, unknown>);
  const rows = fields.slice(0, MAX_LISTED_FIELDS).map(([key, field]) => {
    const f = (field ?? {}) as Record<string, unknown>;
    const values = Array.isArray(f.enum) ? f.enum : [];
    const enumText = [...values.slice(0, MAX_CELL_VALUES).map((v) => tableCode(literal(v))), ...(values.length > MAX_CELL_VALUES ? [`… (${digitGroups(values.length - MAX_CELL_VALUES)} more)`] : [])].join(' ');
    const sensitive = isSensitive(f) ? escapeMarkdown(shortened(sensitiveCategory(f) ?? 'yes')) : '';
    return `| ${tableCode(shortened(key))} | ${escapeMarkdown(shortened(schemaSummary(withWrittenNumbers({ ...f, enum: undefined }, f)), 200))} | ${required.has(key) ? 'yes' : ''} | ${enumText} | ${sensitive} |`;
  });
  const more = fields.length > MAX_LISTED_FIELDS ? ['', `_… and ${digitGroups(fields.length - MAX_LISTED_FIELDS)} more fields, not listed here._`] : [];
  return ['| field | type | required | enum | x-gdpr-sensitive |', '| --- | --- | --- | --- | --- |', ...rows, ...more].join('\n');
}

/** The most characters of a schema's description a hover or a completion's documentation shows (then `…`). */
const MAX_SHOWN_DESCRIPTION = 2000;

/** A field's description as a hover or a completion's documentation shows it: its start when long, escaped. */
export function descriptionMarkdown(description: string): string {
  return escapeMarkdown(shortened(description, MAX_SHOWN_DESCRIPTION));
}

/** The required fields of an entry's schema, as markdown (completion documentation; the first MAX_LISTED_FIELDS). */
export function requiredFieldsMarkdown(entry: RegistryEntry): string {
  const schema = entry.schema?.value;
  if (!schema) return entry.schema?.error ? `Schema unusable: ${escapeMarkdown(entry.schema.error)}` : 'No schema loaded.';
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (required.length === 0) return 'No required `data` fields.';
  const listed = required.slice(0, MAX_LISTED_FIELDS).map((key) => `- ${codeSpan(shortened(String(key)))}: ${escapeMarkdown(shortened(schemaSummary(properties[key]), 200))}`);
  const more = required.length > MAX_LISTED_FIELDS ? [`- … and ${digitGroups(required.length - MAX_LISTED_FIELDS)} more required fields`] : [];
  return ['Required `data` fields:', ...listed, ...more].join('\n');
}
