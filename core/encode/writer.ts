/**
 * The machinery every SDK encoder shares: a value model (how one SDK decodes and re-encodes a
 * JSON value), an iterative writer (explicit stack: documents can nest 100,000 levels), paths
 * for notes, and the note collector.
 */
import type { ObjectNode, ValueNode } from '../model/tree';
import { sameNumber } from './numbers';
import { documentDepth, plainSubtreePiece, type WrittenPiece } from './plain-subtree';
import { attachWrittenText, WrittenText } from './written-text';
import { isPlainAscii } from '../contract/written-as-is';
import { codePointLabel, escapeCodePoint, escapeString, JSON_STRINGIFY_STYLE, type EscapeResult, type EscapeStyle } from './strings';
import { SDK_LABELS, type EncodeNote, type EncodeResult, type NumberText, type SdkName } from './types';

/** Where a value sits: a chain of keys and indexes from the root (the root itself is undefined). */
export interface Path {
  readonly parent: Path | undefined;
  readonly key: string | number;
}

/** Extends a path by one key or index. */
export function child(parent: Path | undefined, key: string | number): Path {
  return { parent, key };
}

const SIMPLE_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** Paths longer than this many steps keep their first and last steps only (a note per level of a deep file must not be megabytes). */
const MAX_PATH_STEPS = 40;
/** Keys longer than this are shown cut (a megabyte key in every note would make megabytes of notes). */
const MAX_KEY_SHOWN = 100;

/** `data.items[2].price`, `meta.ext`, `data["a.b"]`; built only when a note needs it. */
export function pathText(path: Path | undefined): string {
  const parts: string[] = [];
  for (let p = path; p; p = p.parent) {
    if (typeof p.key === 'number') parts.push(`[${p.key}]`);
    else if (p.key.length > MAX_KEY_SHOWN) parts.push(`[${JSON.stringify(p.key.slice(0, MAX_KEY_SHOWN))}…]`);
    else if (SIMPLE_KEY.test(p.key)) parts.push(p.parent ? `.${p.key}` : p.key);
    else parts.push(`[${JSON.stringify(p.key)}]`);
  }
  parts.reverse();
  if (parts.length <= MAX_PATH_STEPS) return parts.join('');
  const head = MAX_PATH_STEPS / 4;
  const tail = MAX_PATH_STEPS - head;
  return `${parts.slice(0, head).join('')}…(${parts.length - MAX_PATH_STEPS} levels)…${parts.slice(-tail).join('')}`;
}

/** The path of a dotted envelope location such as `meta.id` (keys without dots only). */
export function dottedPath(dotted: string): Path {
  let path: Path | undefined;
  for (const part of dotted.split('.')) path = child(path, part);
  return path!;
}

/** True for the top-level `data` path. */
export function isDataPath(path: Path | undefined): boolean {
  return path !== undefined && path.parent === undefined && path.key === 'data';
}

const MAX_NOTES = 200;

/** Collects notes, at most MAX_NOTES of them plus one line saying how many were left out. */
export class Notes {
  readonly list: EncodeNote[] = [];
  private skipped = 0;

  add(kind: EncodeNote['kind'], message: string, path?: Path | string): void {
    if (this.list.length >= MAX_NOTES) {
      this.skipped++;
      return;
    }
    const where = typeof path === 'string' ? path : path ? pathText(path) : undefined;
    this.list.push(where === undefined ? { kind, message } : { kind, message, path: where });
  }

  /** The notes, with a closing line when some were left out. */
  finish(): EncodeNote[] {
    if (this.skipped > 0) this.list.push({ kind: 'representation', message: `${this.skipped} more notes are not listed.` });
    return this.list;
  }
}

/** A key and value of an object as the SDK holds it after decoding (duplicates resolved). */
export interface Entry {
  readonly key: string;
  readonly value: ValueNode;
}

/** An object as the SDK re-emits it: an object in some key order, or (PHP) a JSON array. */
export type ObjectLayout =
  | { readonly kind: 'object'; readonly entries: readonly Entry[] }
  | { readonly kind: 'list'; readonly items: readonly ValueNode[]; readonly reason: 'empty' | 'list-like' };

/** How one SDK decodes and re-encodes JSON values it does not know the meaning of. */
export interface ValueModel {
  readonly sdk: SdkName;
  readonly style: EscapeStyle;
  /** The number literal as the SDK re-emits it. */
  number(raw: string, isIntegerLiteral: boolean): NumberText;
  /** The object's entries in output order. */
  object(node: ObjectNode): ObjectLayout;
  /** Why the relay fails on a lone surrogate (styles whose `loneSurrogate` is `error`). */
  loneSurrogateError(code: number): string;
  /** What a replaced lone surrogate becomes, for the note. */
  readonly replacedSurrogateText?: string;
  /** A remark appended to the note on an escape this SDK writes (a version caveat). */
  escapeRemark?(char: string): string | undefined;
  /** Extra note on a number this SDK writes (Java's JDK 17 digits). */
  numberNote?(raw: string, text: string): string | undefined;
  /** Every object is written with its keys sorted (Go's json.Marshal of a map); the others keep the written order. */
  readonly sortsKeys?: true;
}

/** A piece of output: encoded text, a string to escape, a document subtree, or a built object. */
export type Out =
  | { readonly kind: 'raw'; readonly text: string }
  | { readonly kind: 'string'; readonly value: string; readonly path: Path | undefined }
  | { readonly kind: 'node'; readonly node: ValueNode; readonly path: Path | undefined }
  | { readonly kind: 'object'; readonly entries: readonly OutEntry[]; readonly path: Path | undefined };

/** One key of a built object. */
export interface OutEntry {
  readonly key: string;
  readonly value: Out;
}

/** Thrown inside the writer when the SDK's relay fails; caught by `write`. */
class RelayFailure extends Error {}

type Task = string | Out;

/** Writes `root` compactly as the SDK would, or returns the SDK's failure. */
export function write(root: Out, model: ValueModel, notes: Notes): { text: WrittenText } | { error: string } {
  const parts: (string | WrittenPiece)[] = [];
  const stack: Task[] = [root];
  try {
    while (stack.length > 0) {
      const task = stack.pop()!;
      if (typeof task === 'string') {
        parts.push(task);
        continue;
      }
      switch (task.kind) {
        case 'raw':
          parts.push(task.text);
          break;
        case 'string':
          parts.push(encodeString(model, task.value, task.path, notes));
          break;
        case 'object':
          pushObject(stack, task.entries, task.path, model, notes);
          break;
        case 'node':
          expandNode(stack, parts, task.node, task.path, model, notes);
          break;
      }
    }
  } catch (error) {
    if (error instanceof RelayFailure) return { error: error.message };
    throw error;
  }
  return { text: new WrittenText(parts) };
}

function pushObject(stack: Task[], entries: readonly OutEntry[], path: Path | undefined, model: ValueModel, notes: Notes): void {
  const keys = entries.map((entry) => encodeString(model, entry.key, child(path, entry.key), notes));
  stack.push('}');
  for (let i = entries.length - 1; i >= 0; i--) {
    stack.push(entries[i].value);
    stack.push(`${keys[i]}:`);
    if (i > 0) stack.push(',');
  }
  stack.push('{');
}

function expandNode(stack: Task[], parts: (string | WrittenPiece)[], node: ValueNode, path: Path | undefined, model: ValueModel, notes: Notes): void {
  if (node.kind === 'object' || node.kind === 'array') {
    // A subtree every SDK writes as written (./plain-subtree.ts): from the text, when it is read, with nothing to note.
    const plain = plainSubtreePiece(node, model.sortsKeys === true);
    if (plain !== undefined) {
      parts.push(plain);
      return;
    }
  }
  switch (node.kind) {
    case 'null':
      parts.push('null');
      return;
    case 'boolean':
      parts.push(node.value ? 'true' : 'false');
      return;
    case 'number':
      parts.push(encodeNumber(model, node.raw, node.isIntegerLiteral, path, notes));
      return;
    case 'string':
      parts.push(encodeString(model, node.value, path, notes));
      return;
    case 'array': {
      pushItems(stack, node.items, path, (i) => i);
      return;
    }
    case 'object': {
      const layout = model.object(node);
      if (layout.kind === 'list') {
        noteList(layout.reason, path, model, notes);
        pushItems(stack, layout.items, path, (i) => String(i));
        return;
      }
      pushObject(
        stack,
        layout.entries.map((entry) => ({ key: entry.key, value: { kind: 'node', node: entry.value, path: child(path, entry.key) } as Out })),
        path,
        model,
        notes,
      );
      return;
    }
  }
}

function pushItems(stack: Task[], items: readonly ValueNode[], path: Path | undefined, key: (i: number) => string | number): void {
  stack.push(']');
  for (let i = items.length - 1; i >= 0; i--) {
    stack.push({ kind: 'node', node: items[i], path: child(path, key(i)) });
    if (i > 0) stack.push(',');
  }
  stack.push('[');
}

function noteList(reason: 'empty' | 'list-like', path: Path | undefined, model: ValueModel, notes: Notes): void {
  // facts §3 and §8: PHP's json_decode(…, true) makes {} and [] the same empty array, and a map
  // with keys "0".."n-1" a list, so json_encode writes both as JSON arrays.
  const label = SDK_LABELS[model.sdk];
  if (isDataPath(path)) {
    notes.add(
      'contract',
      reason === 'empty'
        ? `${label} writes empty data as [] (the contract says data is an object; Python, Node, Go, Java and .NET consumers reject data: []).`
        : `${label} writes data, whose keys are "0", "1", …, as a JSON array (the contract says data is an object).`,
      path,
    );
  } else {
    notes.add('lossy', reason === 'empty' ? `${label} writes this empty object as [].` : `${label} writes this object (keys "0", "1", …) as a JSON array.`, path);
  }
}

/** The number text for `raw`, with its note; throws RelayFailure when the SDK cannot write it. */
export function encodeNumber(model: ValueModel, raw: string, isIntegerLiteral: boolean, path: Path | undefined, notes: Notes): string {
  const result = model.number(raw, isIntegerLiteral);
  if ('error' in result) throw new RelayFailure(path ? `${pathText(path)}: ${result.error}` : result.error);
  const { text } = result;
  // Most numbers come back exactly as written: no exact-value comparison (BigInt) for those.
  if (text !== raw) {
    if (!sameNumber(text, raw)) notes.add('lossy', `${raw} is written as ${text}${result.why ? ` (${result.why})` : ''}.`, path);
    else notes.add('representation', `${raw} is written as ${text}.`, path);
  }
  const extra = model.numberNote?.(raw, text);
  if (extra) notes.add('representation', extra, path);
  return text;
}

/** The string token for `value`, with its note; throws RelayFailure when the SDK cannot write it. */
export function encodeString(model: ValueModel, value: string, path: Path | undefined, notes: Notes): string {
  const result: EscapeResult = escapeString(model.style, value);
  if ('error' in result) throw new RelayFailure(`${path ? `${pathText(path)}: ` : ''}${model.loneSurrogateError(result.code)}`);
  if (result.replacedSurrogate) {
    notes.add('lossy', `a lone surrogate is written as ${model.replacedSurrogateText ?? 'a replacement'}.`, path);
  } else if (model.sdk !== 'node') {
    const difference = firstEscapeDifference(model, value);
    if (difference) notes.add('representation', difference, path);
  }
  return result.text;
}

/** "U+2028 is written as \u2028" for the first code point this SDK escapes unlike JSON.stringify. */
function firstEscapeDifference(model: ValueModel, value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (isPlainAscii(code)) continue;
    const width = code >= 0xd800 && code <= 0xdbff && i + 1 < value.length && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    const char = value.slice(i, i + width);
    const mine = escapeCodePoint(model.style, char);
    if (mine !== escapeCodePoint(JSON_STRINGIFY_STYLE, char)) {
      const remark = model.escapeRemark?.(char);
      return `${codePointLabel(char)} is written as ${mine === char ? 'the character itself' : mine}${remark ? ` (${remark})` : ''}.`;
    }
    i += width - 1;
  }
  return undefined;
}

/**
 * The object's properties with duplicates resolved as a map does it (JSON.parse, PHP arrays,
 * Python dicts, LinkedHashMap, Dictionary): the first key's position, the last key's value.
 */
export function dedupe(node: ObjectNode, keyOf: (key: string) => string = (key) => key): Entry[] {
  const entries: Entry[] = [];
  let index: Map<string, number> | undefined;
  for (const property of node.properties) {
    if (!property.value) continue;
    const key = keyOf(property.key);
    if (!index) index = new Map();
    const at = index.get(key);
    if (at === undefined) {
      index.set(key, entries.length);
      entries.push({ key, value: property.value });
    } else {
      entries[at] = { key, value: property.value };
    }
  }
  return entries;
}

/** The value of the last property named `key` (what map.get, TryGetProperty and dict[key] read). */
export function lastValue(object: ObjectNode | undefined, key: string): ValueNode | undefined {
  if (!object) return undefined;
  const properties = object.properties;
  for (let i = properties.length - 1; i >= 0; i--) if (properties[i].key === key && properties[i].value) return properties[i].value;
  return undefined;
}

/** The deepest nesting of objects and arrays in the document (the root container counts as 1). */
export function maxDepth(root: ValueNode): number {
  const known = documentDepth(root);
  if (known !== undefined) return known;
  let deepest = 0;
  const stack: { node: ValueNode; depth: number }[] = [{ node: root, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node.kind === 'object') {
      if (depth > deepest) deepest = depth;
      for (const property of node.properties) if (property.value && (property.value.kind === 'object' || property.value.kind === 'array')) stack.push({ node: property.value, depth: depth + 1 });
    } else if (node.kind === 'array') {
      if (depth > deepest) deepest = depth;
      for (const item of node.items) if (item.kind === 'object' || item.kind === 'array') stack.push({ node: item, depth: depth + 1 });
    }
  }
  return deepest;
}

/** What every SDK encoder receives: the envelope's root object (the document's, or a copy with overridden `meta` values) and its depth. */
export interface EncodeInput {
  readonly root: ObjectNode;
  readonly depth: number;
}

/** One SDK's relay: decode the envelope as that SDK does, encode it again. */
export type SdkEncoder = (input: EncodeInput) => EncodeResult;

/** The result of writing `out`, with the notes collected so far. */
export function finish(out: Out, model: ValueModel, notes: Notes): EncodeResult {
  const written = write(out, model, notes);
  if ('error' in written) return { ok: false, error: written.error, notes: notes.finish() };
  const text = written.text;
  // The text is made when first read: writtenTextOf(result) reads its length and ends without it.
  return attachWrittenText(
    {
      ok: true,
      get text() {
        return text.text();
      },
      notes: notes.finish(),
    },
    text,
  );
}
