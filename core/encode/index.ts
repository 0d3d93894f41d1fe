/**
 * The per-SDK byte preview: what each of the six SDKs writes when it decodes an envelope and
 * encodes it again (a relay: retry, dead-letter, redrive), byte for byte, from the facts' §3 and
 * §8. The .NET encoder follows code and documentation only (UNVERIFIED).
 */
import { ParsedText } from '../parse/document';
import { sameOrReparsed } from '../parse/incremental';
import { asObject, type ObjectNode, type ParsedDocument, type PropertyNode, type ValueNode } from '../model/tree';
import { encodeDotnet } from './dotnet';
import { encodeGo } from './go';
import { encodeJava } from './java';
import { encodeNode } from './node';
import { encodePhp } from './php';
import { encodePython } from './python';
import type { EncodeResult, SdkName } from './types';
import { maxDepth, type EncodeInput, type SdkEncoder } from './writer';

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
 * The document the previous version of an envelope was written from (before the overrides), set
 * by each encoding. When one value is all that differs, the subtrees of plain values are carried over
 * from that writing (./plain-subtree.ts) instead of being written again: a preview following
 * edits in a large payload.
 */
export interface EncodeMemo {
  written?: ParsedDocument;
}

/** The bytes (as text; encode as UTF-8) `sdk` writes when it relays this envelope, with notes. */
export function encodeEnvelope(doc: ParsedDocument, sdk: SdkName, options?: EncodeOptions): EncodeResult {
  return encodeEnvelopeFrom(doc, sdk, options).result;
}

/**
 * `encodeEnvelope`'s result with what the SDK's encoder was given: the envelope's root with the
 * overrides applied, and its depth (undefined when the document cannot be encoded at all).
 */
export function encodeEnvelopeFrom(doc: ParsedDocument, sdk: SdkName, options?: EncodeOptions): { readonly result: EncodeResult; readonly input?: EncodeInput } {
  if (doc.syntaxProblems.length > 0) {
    const count = doc.syntaxProblems.length;
    return { result: { ok: false, error: `Fix the JSON syntax errors first (${count} ${count === 1 ? 'problem' : 'problems'}): no SDK decodes a document that is not JSON.`, notes: [] } };
  }
  if (!asObject(doc.root)) {
    return { result: { ok: false, error: 'The document is not a JSON object: an envelope is one JSON object, and every SDK decoder rejects anything else.', notes: [] } };
  }
  const memo = options?.memo;
  const target = documentToWrite(memo?.written, doc);
  const root = target.root as ObjectNode;
  // The overrides replace values in the tree, not the text: the megabytes of a payload are neither
  // copied nor parsed again for a fresh meta.id, and its written text stays with this document.
  const written = options?.overrides ? withOverrides(root, options.overrides) : root;
  // The overrides replace or append scalars in meta: the depth is the document's.
  const input: EncodeInput = { root: written, depth: maxDepth(root) };
  const encoded = ENCODERS[sdk](input);
  // A parse made here has taken what carrying its texts over needs now: its link would keep earlier versions alive.
  // The caller's own document (and the memo's, reused as it is) keep theirs: the caller's analysis
  // of its next version may still need them.
  if (target instanceof ParsedText && target !== doc && target !== memo?.written) target.forgetEdit();
  if (memo) memo.written = target;
  return { result: encoded, input };
}

/**
 * The document to write: `doc`, or, when the memo's document is the version it was edited from by
 * one value (however many versions were skipped), `doc`'s text parsed from that one, which brings
 * the written texts of its plain subtrees along (./plain-subtree.ts). The texts written for a
 * document are kept with its columns: for the editor's own parse, as long as its parse cache keeps
 * that version.
 */
function documentToWrite(previous: ParsedDocument | undefined, doc: ParsedDocument): ParsedDocument {
  if (!(previous instanceof ParsedText) || previous === doc) return doc;
  // The editor's own parse of this version already links to it.
  if (doc instanceof ParsedText && doc.edit?.previous === previous) return doc;
  return sameOrReparsed(previous, doc.text, { keepPreviousLink: true }) ?? doc;
}

type Overrides = NonNullable<EncodeOptions['overrides']>;

/** The keys of `meta` the overrides replace, in the order a missing one is appended. */
const OVERRIDDEN_KEYS = ['id', 'queue', 'created_at'] as const;

/**
 * `root` with `meta.id` / `meta.queue` / `meta.created_at` replaced (every occurrence, so
 * duplicates agree) or, when absent, appended to `meta` in that order; without a `meta` object,
 * unchanged. Only the root and `meta` are new nodes, made for the encoders (which read keys, kinds
 * and values, not where a node is): every other value is the document's own.
 */
function withOverrides(root: ObjectNode, overrides: Overrides): ObjectNode {
  const replaced = new Map<string, string | number>();
  if (overrides.metaId !== undefined) replaced.set('id', overrides.metaId);
  if (overrides.queue !== undefined) replaced.set('queue', overrides.queue);
  if (overrides.createdAt !== undefined) replaced.set('created_at', overrides.createdAt);
  const copy: ObjectNode = { kind: 'object', offset: root.offset, end: root.end, parent: undefined, property: undefined, closed: root.closed, properties: [] };
  for (const property of root.properties) {
    const meta = property.key === 'meta' ? asObject(property.value) : undefined;
    copy.properties.push(propertyOf(copy, property, meta ? overriddenMeta(meta, copy, replaced) : property.value));
  }
  return copy;
}

function overriddenMeta(meta: ObjectNode, parent: ObjectNode, replaced: ReadonlyMap<string, string | number>): ObjectNode {
  const createdAt = replaced.get('created_at');
  if (typeof createdAt === 'number' && !Number.isFinite(createdAt)) throw new RangeError('overrides.createdAt must be a finite number');
  const copy: ObjectNode = { kind: 'object', offset: meta.offset, end: meta.end, parent, property: undefined, closed: meta.closed, properties: [] };
  const present = new Set<string>();
  for (const property of meta.properties) {
    const value = replaced.get(property.key);
    if (value === undefined || !property.value) {
      copy.properties.push(propertyOf(copy, property, property.value));
      continue;
    }
    present.add(property.key);
    copy.properties.push(propertyOf(copy, property, overrideValue(value, copy, property.value.offset, property.value.end)));
  }
  // Appended where the text would have them: before the closing brace.
  const at = meta.end - 1;
  for (const key of OVERRIDDEN_KEYS) {
    const value = replaced.get(key);
    if (value === undefined || present.has(key)) continue;
    copy.properties.push(propertyOf(copy, { key, keyOffset: at, keyEnd: at, colonOffset: at }, overrideValue(value, copy, at, at)));
  }
  return copy;
}

/** A property of `parent` with the key and places of `from` and the value `value`. */
function propertyOf(parent: ObjectNode, from: Pick<PropertyNode, 'key' | 'keyOffset' | 'keyEnd' | 'colonOffset'>, value: ValueNode | undefined): PropertyNode {
  return { key: from.key, keyOffset: from.keyOffset, keyEnd: from.keyEnd, colonOffset: from.colonOffset, value, parent };
}

/** The replacing value as a parse of its JSON text would give it (`-0` is written `0`, and read back as 0). */
function overrideValue(value: string | number, parent: ObjectNode, offset: number, end: number): ValueNode {
  if (typeof value === 'string') return { kind: 'string', value, offset, end, parent, property: undefined };
  const raw = JSON.stringify(value);
  return { kind: 'number', raw, value: Number(raw), isIntegerLiteral: !/[.eE]/.test(raw), offset, end, parent, property: undefined };
}
