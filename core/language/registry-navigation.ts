/**
 * Registry navigation and hovers: from an envelope's URN to its registry entry, from a `data` key
 * to its property in the schema file, and from a registry entry back to its URN.
 */
import { quotedUrn, routingUrn } from '../contract/urn';
import { MAX_QUOTED_PATH, shortened } from '../model/describe-value';
import { toJsValue } from '../model/js-value';
import { asObject, locateAtCursor, type ObjectNode, type ParsedDocument, type StringNode, type ValueNode } from '../model/tree';
import { schemaSummary } from '../registry/schema-words';
import { codeSpan, escapeMarkdown, linkTarget } from './markdown';
import { descriptionMarkdown, fieldsTable } from './schema-markdown';
import { isSensitive, maskFits, maskValue, sensitiveCategory } from '../registry/pii';
import { payloadPathInEnvelope, schemaKeyAt, subschemaAt } from '../registry/schema-path';
import type { Registry, RegistryEntry } from '../registry/types';

/** A place in another file: its absolute path and an offset range of that file's text. */
export interface FileLocation {
  readonly path: string;
  /** The text of that file, so an adapter can turn offsets into positions. */
  readonly text: string;
  readonly offset: number;
  readonly end: number;
}

/** What the cursor is on, as far as the registry cares. */
type Target =
  | { kind: 'urn'; node: StringNode; entry: RegistryEntry | undefined }
  | { kind: 'data-key'; entry: RegistryEntry; path: (string | number)[]; offset: number; end: number; value: ValueNode | undefined };

function targetAt(doc: ParsedDocument, offset: number, registry: Registry): Target | undefined {
  const root = asObject(doc.root);
  if (!root) return undefined;
  const resolved = routingUrn(root);
  const location = locateAtCursor(doc.root, offset);
  const node = location.node;
  if (resolved && node === resolved.node && !location.inKeyOf) {
    return { kind: 'urn', node: resolved.node, entry: registry.byUrn.get(resolved.node.value) };
  }
  const key = location.inKeyOf;
  const entry = resolved ? registry.byUrn.get(resolved.node.value) : undefined;
  if (!key || !entry) return undefined;
  const parentPath = payloadPathInEnvelope(key.parent as ObjectNode, root);
  if (!parentPath) return undefined;
  return { kind: 'data-key', entry, path: [...parentPath, key.key], offset: key.keyOffset, end: key.keyEnd, value: key.value };
}

/** Go to definition: the URN's entry in registry.json, or a data key's property in the schema. */
export function registryDefinition(doc: ParsedDocument, offset: number, registry: Registry): FileLocation | undefined {
  const target = targetAt(doc, offset, registry);
  if (!target) return undefined;
  if (target.kind === 'urn') {
    if (!target.entry) return undefined;
    return { path: registry.path, text: registry.doc.text, offset: target.entry.urnOffset, end: target.entry.urnEnd };
  }
  const schema = target.entry.schema;
  if (!schema?.doc) return undefined;
  const property = schemaKeyAt(schema.doc, target.path);
  return property ? { path: schema.path, text: schema.doc.text, offset: property.keyOffset, end: property.keyEnd } : undefined;
}

/** Hover markdown for a URN (its entry) or a data key (its field schema), with the range hovered. */
export function registryHover(doc: ParsedDocument, offset: number, registry: Registry): { contents: string; offset: number; end: number } | undefined {
  const target = targetAt(doc, offset, registry);
  if (!target) return undefined;
  if (target.kind === 'urn') {
    const entry = target.entry;
    if (!entry) return undefined;
    const lines = [
      `**${codeSpan(quotedUrn(entry.urn))}**`,
      '',
      `owner: ${escapeMarkdown(shortened(entry.owner ?? '—'))} · status: ${escapeMarkdown(shortened(entry.status ?? '—'))}`,
      '',
      // No link to a file refused unread: the editor would read it (outside the workspace, a pipe, a device).
      entry.schema && !entry.schema.notToOpen ? `schema: [${escapeMarkdown(shortened(entry.schemaRef, MAX_QUOTED_PATH))}](${linkTarget(entry.schema.path)})` : `schema: ${escapeMarkdown(shortened(entry.schemaRef, MAX_QUOTED_PATH))}`,
      '',
      entry.schema?.error ? `⚠ ${escapeMarkdown(entry.schema.error)}` : fieldsTable(entry.schema?.value),
    ];
    return { contents: lines.join('\n'), offset: target.node.offset, end: target.node.end };
  }
  const field = subschemaAt(target.entry.schema?.value, target.path);
  if (!field) return undefined;
  const parent = subschemaAt(target.entry.schema?.value, target.path.slice(0, -1));
  const required = Array.isArray(parent?.required) && (parent!.required as unknown[]).includes(target.path[target.path.length - 1]);
  const name = target.path.map((step) => (typeof step === 'number' ? '[]' : shortened(step))).join('.').replace(/\.\[\]/g, '[]');
  const lines = [`**${codeSpan(`data.${name}`)}** · ${escapeMarkdown(schemaSummary(field))} · ${required ? 'required' : 'optional'}`];
  if (typeof field.description === 'string') lines.push('', descriptionMarkdown(field.description));
  if (typeof field.pattern === 'string') lines.push('', `pattern: ${codeSpan(shortened(field.pattern, 200))}`);
  if (isSensitive(field)) lines.push('', `x-gdpr-sensitive${sensitiveCategory(field) ? `: ${escapeMarkdown(sensitiveCategory(field)!)}` : ''} — ${maskAdvice(field, target.value)}`);
  lines.push('', `from the schema of ${codeSpan(quotedUrn(target.entry.urn))}`);
  return { contents: lines.join('\n'), offset: target.offset, end: target.end };
}

/**
 * What a fixture writes in a sensitive field: the mask pii-in-fixture's fix writes, where the
 * field's schema holds it; where it cannot (an e-mail format, an integer, an enum), a made-up value,
 * as pii-in-fixture then says nothing.
 */
function maskAdvice(field: Record<string, unknown>, value: ValueNode | undefined): string {
  const masks = value ? [maskValue(toJsValue(value))] : ['***', 'a***'];
  const fitting = masks.find((mask) => maskFits(field, mask));
  if (fitting === undefined) return 'no mask meets its schema: write a made-up value in fixtures.';
  return value ? `mask it in fixtures: ${codeSpan(JSON.stringify(fitting))}.` : 'mask it in fixtures.';
}

/** Find references from an envelope: the entry of the URN it routes on, when the cursor is on that URN. */
export function routedEntryAt(doc: ParsedDocument, offset: number, registry: Registry): RegistryEntry | undefined {
  const target = targetAt(doc, offset, registry);
  return target?.kind === 'urn' ? target.entry : undefined;
}

/**
 * Go to definition in registry.json: from an entry's schema path to the start of its file, on the
 * terms its document link has (schemaLinks): an editor without document links (Neovim) gets there too.
 */
export function schemaPathDefinition(registry: Registry, offset: number): FileLocation | undefined {
  const entry = registry.entries.find((candidate) => offset >= candidate.schemaOffset && offset <= candidate.schemaEnd);
  const schema = entry?.schema;
  if (!schema || schema.notToOpen) return undefined;
  return { path: schema.path, text: schema.doc?.text ?? '', offset: 0, end: 0 };
}

/** The registry entry whose `urn` value (or object) holds `offset` in registry.json. */
export function registryEntryAt(registry: Registry, offset: number): RegistryEntry | undefined {
  return registry.entries.find((entry) => offset >= entry.offset && offset <= entry.end);
}

/** Document links in registry.json: each entry's schema path to its file, but for a file refused unread (outside the workspace folder, a named pipe, a device). */
export function schemaLinks(registry: Registry): { offset: number; end: number; path: string }[] {
  return registry.entries.flatMap((entry) => (entry.schema && !entry.schema.notToOpen ? [{ offset: entry.schemaOffset + 1, end: entry.schemaEnd - 1, path: entry.schema.path }] : []));
}
