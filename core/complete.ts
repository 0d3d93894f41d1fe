/**
 * Completion for the contract: the keys an object still lacks (with value skeletons), the
 * `meta.lang` and `dead_letter.reason` enums, and `1` for `schema_version`.
 */
import { fieldsOf, fieldSpec, URN_ALIAS_FIELD, type EnvelopeScope, type FieldSpec } from './envelope';
import type { Fresh } from './fresh';
import { asEnvelopeScope, scopeOfObject } from './scope';
import { skeletonValue } from './skeletons';
import { getProperty, locate, type ObjectNode, type ParsedDocument, type PropertyNode } from './tree';

export interface CoreCompletionItem {
  readonly label: string;
  readonly kind: 'property' | 'value' | 'enum';
  readonly detail?: string;
  /** Markdown. */
  readonly documentation?: string;
  /** Snippet syntax when `isSnippet`, plain text otherwise. */
  readonly insertText: string;
  readonly isSnippet: boolean;
  /** The range the item replaces. */
  readonly offset: number;
  readonly end: number;
  readonly sortText?: string;
  readonly preselect?: boolean;
}

/** Where the cursor is, as far as completion cares. */
type Slot =
  | { kind: 'key'; object: ObjectNode; replacing: PropertyNode | undefined; offset: number; end: number }
  | { kind: 'value'; property: PropertyNode; offset: number; end: number };

/** The completion items at `offset`. */
export function complete(doc: ParsedDocument, offset: number, fresh: Fresh): CoreCompletionItem[] {
  const slot = findSlot(doc, offset);
  if (!slot) return [];
  if (slot.kind === 'key') {
    const scope = asEnvelopeScope(scopeOfObject(slot.object));
    return scope ? keyItems(doc, slot, scope, fresh) : [];
  }
  const scope = asEnvelopeScope(scopeOfObject(slot.property.parent));
  return scope ? valueItems(slot, scope, fresh) : [];
}

function findSlot(doc: ParsedDocument, offset: number): Slot | undefined {
  const location = locate(doc.root, offset);
  if (location.inKeyOf) {
    const property = location.inKeyOf;
    return { kind: 'key', object: property.parent, replacing: property, offset: property.keyOffset, end: property.keyEnd };
  }
  const node = location.node;
  if (!node) return undefined;
  if (node.kind !== 'object' && node.kind !== 'array') {
    if (!node.property || offset < node.offset) return undefined;
    return { kind: 'value', property: node.property, offset: node.offset, end: node.end };
  }
  if (node.kind !== 'object' || offset <= node.offset) return undefined;
  const previous = previousSignificant(doc.text, offset);
  if (previous === undefined) return undefined;
  const char = doc.text[previous];
  if (char === ':') {
    const property = node.properties.find((candidate) => candidate.colonOffset === previous);
    return property && !property.value ? { kind: 'value', property, offset, end: offset } : undefined;
  }
  if (char === '{' || char === ',') return { kind: 'key', object: node, replacing: undefined, offset, end: offset };
  return undefined;
}

function previousSignificant(text: string, offset: number): number | undefined {
  for (let i = offset - 1; i >= 0; i--) if (!/\s/.test(text[i])) return i;
  return undefined;
}

function nextSignificant(text: string, offset: number): string | undefined {
  for (let i = offset; i < text.length; i++) if (!/\s/.test(text[i])) return text[i];
  return undefined;
}

function keyItems(doc: ParsedDocument, slot: Extract<Slot, { kind: 'key' }>, scope: EnvelopeScope, fresh: Fresh): CoreCompletionItem[] {
  const present = (key: string) => {
    const property = getProperty(slot.object, key);
    return property !== undefined && property !== slot.replacing;
  };
  const candidates: FieldSpec[] = fieldsOf(scope).filter((field) => !present(field.name));
  if (scope === 'root' && present('urn')) candidates.splice(candidates.findIndex((field) => field.name === 'job'), 1);
  const hasColon = slot.replacing !== undefined && slot.replacing.colonOffset >= 0;
  const needsComma = !hasColon && nextSignificant(doc.text, slot.end) === '"';
  return candidates.map((field) => {
    const value = skeletonValue(scope, field.name, fresh);
    const keyText = JSON.stringify(field.name);
    const insertText = hasColon ? keyText : `${keyText}: ${valueSnippet(value)}${needsComma ? ',' : ''}`;
    return {
      label: field.name,
      kind: 'property' as const,
      detail: `${field.required ? 'required' : 'optional'} · ${scope === 'root' ? '' : `${scope}.`}${field.name}`,
      documentation: field.doc,
      insertText,
      isSnippet: !hasColon,
      offset: slot.offset,
      end: slot.end,
      sortText: `${field.required ? '0' : '1'}_${String(fieldsOf(scope).indexOf(field)).padStart(2, '0')}`,
    };
  });
}

function valueItems(slot: Extract<Slot, { kind: 'value' }>, scope: EnvelopeScope, fresh: Fresh): CoreCompletionItem[] {
  const key = slot.property.key;
  const spec = fieldSpec(scope, key);
  if (!spec || spec === URN_ALIAS_FIELD) return [];
  const base = { offset: slot.offset, end: slot.end, isSnippet: false };
  if (spec.values) {
    return spec.values.map((value, index) => ({
      ...base,
      label: value,
      kind: 'enum' as const,
      detail: `${scope}.${key}`,
      insertText: JSON.stringify(value),
      sortText: String(index).padStart(2, '0'),
    }));
  }
  const value = skeletonValue(scope, key, fresh);
  if (value === undefined || (value !== null && typeof value === 'object')) return [];
  const path = scope === 'root' ? key : `${scope}.${key}`;
  return [{ ...base, label: JSON.stringify(value), kind: 'value', detail: `${path}: ${describe(key)}`, insertText: JSON.stringify(value), preselect: true }];
}

function describe(key: string): string {
  if (key === 'schema_version') return 'the only supported version';
  if (key === 'created_at' || key === 'failed_at') return 'now, in Unix milliseconds';
  if (key === 'trace_id' || key === 'id') return 'a fresh UUID';
  return 'default';
}

/** A value as snippet text: strings become a selected placeholder, objects a laid-out block. */
function valueSnippet(value: unknown): string {
  if (typeof value === 'string') return `"\${1:${escapeSnippet(JSON.stringify(value).slice(1, -1))}}"`;
  if (value !== null && typeof value === 'object') {
    if (Object.keys(value).length === 0) return '{$1}';
    return escapeSnippet(JSON.stringify(value, null, '\t'));
  }
  return `\${1:${escapeSnippet(JSON.stringify(value))}}`;
}

function escapeSnippet(text: string): string {
  return text.replace(/[\\$}]/g, '\\$&');
}
