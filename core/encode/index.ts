/**
 * The per-SDK byte preview: what each of the six SDKs writes when it decodes an envelope and
 * encodes it again (a relay: retry, dead-letter, redrive), byte for byte, from the facts' §3 and
 * §8. The .NET encoder follows code and documentation only (UNVERIFIED).
 */
import { ParsedText } from '../parse/document';
import { reparse, sameOrReparsed, type TextChange } from '../parse/incremental';
import { parseJson } from '../parse/parser';
import { asObject, type ObjectNode, type ParsedDocument } from '../model/tree';
import { encodeDotnet } from './dotnet';
import { encodeGo } from './go';
import { encodeJava } from './java';
import { encodeNode } from './node';
import { encodePhp } from './php';
import { encodePython } from './python';
import type { EncodeResult, SdkName } from './types';
import { maxDepth, type SdkEncoder } from './writer';

export { SDK_LABELS, SDK_NAMES } from './types';
export type { EncodeNote, EncodeResult, SdkName } from './types';

const ENCODERS: Readonly<Record<SdkName, SdkEncoder>> = {
  node: encodeNode,
  php: encodePhp,
  python: encodePython,
  go: encodeGo,
  java: encodeJava,
  dotnet: encodeDotnet,
};

/** Options of `encodeEnvelope`. */
export interface EncodeOptions {
  /**
   * Values that replace `meta.id`, `meta.created_at` and `meta.queue` before encoding (the preview
   * mints fresh ids; a send to another queue names it in the body too).
   */
  readonly overrides?: { readonly metaId?: string; readonly createdAt?: number; readonly queue?: string };
  /** Kept from one encoding of an envelope to the next: see EncodeMemo. */
  readonly memo?: EncodeMemo;
}

/**
 * What the previous version of an envelope was written from (the overrides applied), set by each
 * encoding. When one value is all that differs, the subtrees of plain values are carried over
 * from that writing (./plain-subtree.ts) instead of being written again: a preview following
 * edits in a large payload.
 */
export interface EncodeMemo {
  written?: ParsedDocument;
}

/** The bytes (as text; encode as UTF-8) `sdk` writes when it relays this envelope, with notes. */
export function encodeEnvelope(doc: ParsedDocument, sdk: SdkName, options?: EncodeOptions): EncodeResult {
  if (doc.syntaxProblems.length > 0) {
    const count = doc.syntaxProblems.length;
    return { ok: false, error: `Fix the JSON syntax errors first (${count} ${count === 1 ? 'problem' : 'problems'}): no SDK decodes a document that is not JSON.`, notes: [] };
  }
  if (!asObject(doc.root)) {
    return { ok: false, error: 'The document is not a JSON object: an envelope is one JSON object, and every SDK decoder rejects anything else.', notes: [] };
  }
  const splices = options?.overrides ? overrideSplices(doc, options.overrides) : [];
  const text = splicedText(doc.text, splices);
  const memo = options?.memo;
  // Parsed from what the previous version was written from, the written texts carry over.
  const fromPrevious = memo?.written instanceof ParsedText ? sameOrReparsed(memo.written, text, { keepPreviousLink: true }) : undefined;
  const target = fromPrevious ?? (splices.length > 0 ? parseSpliced(doc, splices) : doc);
  const root = target.root as ObjectNode;
  const encoded = ENCODERS[sdk]({ doc: target, root, depth: maxDepth(root) });
  // A parse made here has carried its texts over now: its link would keep earlier versions alive.
  // The caller's own document (and the memo's, reused as it is) keep theirs: the caller's analysis
  // of its next version may still need them.
  if (target instanceof ParsedText && target !== doc && target !== memo?.written) target.forgetEdit();
  if (memo) memo.written = target;
  return encoded;
}

interface Splice {
  readonly offset: number;
  readonly end: number;
  readonly text: string;
}

/**
 * Where `meta.id` / `meta.created_at` / `meta.queue` are replaced (every occurrence, so duplicates
 * agree) or, when absent, appended to `meta`, last first; without a `meta` object, nowhere.
 */
function overrideSplices(doc: ParsedDocument, overrides: NonNullable<EncodeOptions['overrides']>): Splice[] {
  const splices: Splice[] = [];
  for (const property of (doc.root as ObjectNode).properties) {
    const meta = property.key === 'meta' ? asObject(property.value) : undefined;
    if (meta) overrideMeta(meta, overrides, splices);
  }
  return splices.sort((a, b) => b.offset - a.offset);
}

/** `text` with the splices (last first) made, in one concatenation. */
function splicedText(text: string, splices: readonly Splice[]): string {
  if (splices.length === 0) return text;
  const parts: string[] = [];
  let end = text.length;
  for (const splice of splices) {
    parts.push(text.slice(splice.end, end), splice.text);
    end = splice.offset;
  }
  parts.push(text.slice(0, end));
  return parts.reverse().join('');
}

/** The document with the splices (last first) made, parsed. */
function parseSpliced(doc: ParsedDocument, splices: readonly Splice[]): ParsedDocument {
  // Each replaced value is parsed from the document before it (a few milliseconds on 5 MB, where a
  // parse of the whole text takes a tenth of a second); an appended key means a parse of the whole.
  let text = doc.text;
  let current: ParsedDocument | undefined = doc;
  for (const splice of splices) {
    const before = text;
    text = text.slice(0, splice.offset) + splice.text + text.slice(splice.end);
    // A value replaced by itself (a queue named as it is already) changes nothing to parse.
    if (text === before) continue;
    current = current instanceof ParsedText ? reparse(current, text, spliceChange(before, splice), { keepPreviousLink: current === doc }) : undefined;
  }
  return current ?? parseJson(text);
}

/** The span a splice changes, without what the old and new token share at either end (their quotes, a common start). */
function spliceChange(text: string, splice: Splice): TextChange {
  let from = splice.offset;
  let oldEnd = splice.end;
  let newEnd = splice.offset + splice.text.length;
  while (from < oldEnd && from < newEnd && text.charCodeAt(from) === splice.text.charCodeAt(from - splice.offset)) from++;
  while (oldEnd > from && newEnd > from && text.charCodeAt(oldEnd - 1) === splice.text.charCodeAt(newEnd - 1 - splice.offset)) {
    oldEnd--;
    newEnd--;
  }
  return { from, oldEnd, newEnd };
}

function overrideMeta(meta: ObjectNode, overrides: NonNullable<EncodeOptions['overrides']>, splices: Splice[]): void {
  const appended: string[] = [];
  const replace = (key: string, text: string) => {
    let found = false;
    for (const property of meta.properties) {
      if (property.key !== key || !property.value) continue;
      found = true;
      splices.push({ offset: property.value.offset, end: property.value.end, text });
    }
    if (!found) appended.push(`${JSON.stringify(key)}:${text}`);
  };
  if (overrides.metaId !== undefined) replace('id', JSON.stringify(overrides.metaId));
  if (overrides.queue !== undefined) replace('queue', JSON.stringify(overrides.queue));
  if (overrides.createdAt !== undefined) {
    if (!Number.isFinite(overrides.createdAt)) throw new RangeError('overrides.createdAt must be a finite number');
    replace('created_at', JSON.stringify(overrides.createdAt));
  }
  if (appended.length === 0) return;
  const properties = meta.properties;
  const last = properties[properties.length - 1];
  const at = last ? (last.value?.end ?? last.keyEnd) : meta.offset + 1;
  splices.push({ offset: at, end: at, text: (last ? ',' : '') + appended.join(',') });
}
