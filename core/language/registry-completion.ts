/**
 * Completion from the registry: URNs in `job`/`urn` (owner and status as detail, the schema's
 * required fields as documentation, active first, deprecated tagged), and inside `data` the
 * schema's properties not yet present (required first, with value skeletons), `enum`/`const`
 * values and `true`/`false` for booleans.
 */
import type { CoreCompletionItem } from './completion-item';
import { commaBefore, nextSignificant, type Slot } from './completion-slot';
import { scopeOfObject } from '../contract/scope';
import { routingUrn } from '../contract/urn';
import { escapeSnippet, valueSnippet } from './snippet';
import { asObject, type ObjectNode, type ParsedDocument } from '../model/tree';
import { shortened } from '../model/describe-value';
import { exampleValue } from '../registry/example';
import { payloadPathInEnvelope, subschemaAt } from '../registry/schema-path';
import { schemaSummary } from '../registry/schema-words';
import { showInvisible } from './markdown';
import { descriptionMarkdown, requiredFieldsMarkdown } from './schema-markdown';
import { isDeprecatedStatus, type Registry, type RegistryEntry } from '../registry/types';

/**
 * At most this many URNs are offered at once: a registry of 300,000 entries made one completion
 * take over a minute. Past it, the URNs that hold what has been typed (its characters in order, as
 * the editor filters) are offered, and the list says it is incomplete, so the editor asks again as
 * the user types or deletes.
 */
export const MAX_URN_ITEMS = 1_000;

/** Registry items for a slot, or undefined when the slot is not one the registry knows about; `typed` is the value's text before the cursor. */
export function registryCompletions(doc: ParsedDocument, slot: Slot, registry: Registry, typed = ''): { items: CoreCompletionItem[]; incomplete: boolean } | undefined {
  const root = asObject(doc.root);
  if (!root) return undefined;
  if (slot.kind === 'value' && slot.property.parent === root && (slot.property.key === 'job' || slot.property.key === 'urn')) {
    return urnItems(slot, registry, typed);
  }
  const entry = urnEntry(root, registry);
  const schema = entry?.schema?.value;
  if (!schema) return undefined;
  const complete = (items: CoreCompletionItem[] | undefined) => items && { items, incomplete: false };
  if (slot.kind === 'key') {
    const path = payloadPathInEnvelope(slot.object, root);
    return path ? complete(keyItems(doc, slot, subschemaAt(schema, path), schema)) : undefined;
  }
  const path = payloadPathInEnvelope(slot.property.parent, root);
  if (!path) return undefined;
  return complete(valueItems(slot, subschemaAt(schema, [...path, slot.property.key])));
}

/**
 * The entry of the URN the envelope routes on (`job`, else the `urn` alias), as written: the one
 * validation judges `data` by, so completion offers no field of a schema it does not apply.
 */
function urnEntry(root: ObjectNode, registry: Registry): RegistryEntry | undefined {
  const routed = routingUrn(root);
  return routed && registry.byUrn.get(routed.node.value);
}

function isDeprecated(entry: RegistryEntry): boolean {
  return isDeprecatedStatus(entry.status);
}

function urnItems(slot: Extract<Slot, { kind: 'value' }>, registry: Registry, typed: string): { items: CoreCompletionItem[]; incomplete: boolean } {
  let entries = registry.entries;
  let incomplete = false;
  if (entries.length > MAX_URN_ITEMS) {
    const wanted = typed.replace(/^"/, '').toLowerCase();
    const matching = wanted === '' ? entries : entries.filter((entry) => holdsInOrder(entry.urn.toLowerCase(), wanted));
    // Active URNs before deprecated ones, as the sort text orders them.
    const ordered = matching.length > MAX_URN_ITEMS ? [...matching.filter((entry) => !isDeprecated(entry)), ...matching.filter(isDeprecated)] : matching;
    // Incomplete whenever the typed text chose the slice: after a backspace, the list must be asked for again.
    incomplete = true;
    entries = ordered.slice(0, MAX_URN_ITEMS);
  }
  return { items: entries.map((entry) => urnItem(slot, entry)), incomplete };
}

/** Whether `text` holds the characters of `wanted` in order (not necessarily side by side). */
function holdsInOrder(text: string, wanted: string): boolean {
  let at = 0;
  for (let i = 0; i < text.length && at < wanted.length; i++) if (text[i] === wanted[at]) at++;
  return at === wanted.length;
}

function urnItem(slot: Extract<Slot, { kind: 'value' }>, entry: RegistryEntry): CoreCompletionItem {
  return {
    label: entry.urn,
    kind: 'value' as const,
    // Plain text, not Markdown, but a bidirectional override in it still reorders what the list shows;
    // the owner and status shortened as a message quotes them (the label, filtered on as typed, is whole).
    detail: showInvisible([entry.owner ? `owner: ${shortened(entry.owner)}` : undefined, entry.status ? `status: ${shortened(entry.status)}` : undefined].filter(Boolean).join(' · ')) || 'registered',
    documentation: requiredFieldsMarkdown(entry),
    insertText: JSON.stringify(entry.urn),
    isSnippet: false,
    offset: slot.offset,
    end: slot.end,
    sortText: `${isDeprecated(entry) ? '1' : '0'}_${entry.urn}`,
    ...(isDeprecated(entry) ? { deprecated: true } : {}),
  };
}

/** `root`: the payload schema `schema` is part of (its `$ref`s point into it). */
function keyItems(doc: ParsedDocument, slot: Extract<Slot, { kind: 'key' }>, schema: Record<string, unknown> | undefined, root: unknown): CoreCompletionItem[] | undefined {
  const properties = schema?.properties;
  if (typeof properties !== 'object' || properties === null) return undefined;
  // Only offer keys of the payload schema when the object is a payload object, not the envelope.
  if (scopeOfObject(slot.object) !== 'data' && !isBelowData(slot.object)) return undefined;
  const required = new Set(Array.isArray(schema!.required) ? (schema!.required as string[]) : []);
  // The object's keys gathered once (the key being typed over is not one): each schema property
  // looked for among them was the square of the two for a payload as large as its schema.
  const written = new Set<string>();
  for (const property of slot.object.properties) if (property !== slot.replacing) written.add(property.key);
  const present = (key: string) => written.has(key);
  const hasColon = slot.replacing !== undefined && slot.replacing.colonOffset >= 0;
  const needsComma = !hasColon && nextSignificant(doc.text, slot.end) === '"';
  return Object.entries(properties as Record<string, unknown>)
    .filter(([key]) => !present(key))
    .map(([key, propertySchema]) => {
      const keyText = JSON.stringify(key);
      const description = typeof (propertySchema as Record<string, unknown>)?.description === 'string' ? String((propertySchema as Record<string, unknown>).description) : undefined;
      return {
        label: key,
        kind: 'property' as const,
        detail: `${required.has(key) ? 'required' : 'optional'} · ${schemaSummary(propertySchema)}`,
        ...(description ? { documentation: descriptionMarkdown(description) } : {}),
        // In the snippet the key's `\`, `$` and `}` are escaped as well: `"$type"` would be a variable, `\\` one backslash.
        insertText: hasColon ? keyText : `${escapeSnippet(keyText)}: ${valueSnippet(exampleValue(propertySchema, { key, root }))}${needsComma ? ',' : ''}`,
        isSnippet: !hasColon,
        offset: slot.offset,
        end: slot.end,
        ...commaBefore(slot),
        sortText: `${required.has(key) ? '0' : '1'}_${key}`,
      };
    });
}

function isBelowData(object: ObjectNode): boolean {
  let current: ObjectNode['parent'] = object.parent;
  while (current) {
    if (current.kind === 'object' && scopeOfObject(current) === 'data') return true;
    current = current.parent;
  }
  return false;
}

function valueItems(slot: Extract<Slot, { kind: 'value' }>, schema: Record<string, unknown> | undefined): CoreCompletionItem[] | undefined {
  if (!schema) return undefined;
  const values: unknown[] = [];
  if ('const' in schema) values.push(schema.const);
  else if (Array.isArray(schema.enum)) values.push(...schema.enum);
  else if (schema.type === 'boolean') values.push(true, false);
  if (values.length === 0) return undefined;
  return values.map((value, index) => ({
    label: JSON.stringify(value),
    kind: 'enum' as const,
    detail: schemaSummary(schema),
    insertText: JSON.stringify(value),
    isSnippet: false,
    offset: slot.offset,
    end: slot.end,
    sortText: String(index).padStart(3, '0'),
  }));
}
