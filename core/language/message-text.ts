/**
 * A message read from a queue, as the editor shows it and saves it: pretty-printed with the
 * project's formatter (number text and escapes copied verbatim, unlike JSON.stringify), a
 * fixture file name from its URN, and, when the user asks, a fresh `meta.id` and `created_at`.
 */
import { applyEdits, type TextEdit } from '../model/edits';
import type { Fresh } from '../model/fresh';
import { replaceValue } from '../model/property-edits';
import { asObject, getValue } from '../model/tree';
import { parseJson } from '../parse/parser';
import { urnNameParts } from '../contract/urn';
import { formatDocument } from './format';

/** The body pretty-printed (two spaces, a final newline); a body that is not JSON is shown as it came. */
export function formattedMessage(text: string): string {
  const doc = parseJson(text);
  const edits = formatDocument(doc, { tabSize: 2, insertSpaces: true, eol: '\n', finalNewline: true });
  return edits.length > 0 ? applyEdits(text, edits) : text;
}

/** `urn:babel:orders:created` → `orders-created.babel.json`; without a usable URN, `message.babel.json`. */
export function fixtureFileName(urn: string): string {
  const stem = urnNameParts(urn)
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${stem || 'message'}.babel.json`;
}

/** The text with `meta.id` replaced by a fresh UUID and `meta.created_at` by now (trace_id kept: it correlates). */
export function withRenewedIds(text: string, fresh: Fresh): string {
  const doc = parseJson(text);
  const meta = asObject(getValue(asObject(doc.root), 'meta'));
  const edits: TextEdit[] = [];
  const id = getValue(meta, 'id');
  if (id) edits.push(replaceValue(id, JSON.stringify(fresh.uuid())));
  const createdAt = getValue(meta, 'created_at');
  if (createdAt) edits.push(replaceValue(createdAt, String(fresh.now())));
  return applyEdits(text, edits);
}
