/**
 * Parsing a new version of a document from the parse of the previous one, when the edit between
 * them stays inside one string value or turns one number literal into another: the usual
 * keystroke in a fixture (typing in a value). The result is exactly what `parseJson(text)` gives
 * (the differential check in test/oracle/ compares them); anything else (an edit that touches
 * structure or a key, a file with syntax problems) answers undefined and the caller parses from
 * scratch.
 */
import { Char } from './chars';
import { Flag, Kind, plainStringFlags, unplainNumber, type Columns } from './columns';
import { readPlainNumber } from '../contract/written-as-is';
import { ParsedText } from './document';

/** Chunks compared at once while looking for the edit (native string comparison). */
const CHUNK = 1 << 14;

/** Where two versions of a text differ: old[from, oldEnd) became text[from, newEnd). */
export interface TextChange {
  readonly from: number;
  readonly oldEnd: number;
  readonly newEnd: number;
}

/** The one span in which `text` differs from `old` (common prefix and suffix compared natively). */
export function textChange(old: string, text: string): TextChange {
  const from = commonPrefix(old, text);
  const suffix = commonSuffix(old, text, Math.min(old.length, text.length) - from);
  return { from, oldEnd: old.length - suffix, newEnd: text.length - suffix };
}

export interface ReparseOptions {
  /**
   * `previous` keeps its own link to the version before it. By default the link is dropped (the
   * next version replaces it, and versions never chain in memory); a caller that only derives a
   * passing variant of a document someone else still analyses (the preview's version made from its
   * last one) keeps it.
   */
  readonly keepPreviousLink?: boolean;
}

/**
 * `previous` itself when `text` is its text, else the parse of `text` built from it when one string
 * or number value is what differs, else undefined: what a caller that keeps an earlier version
 * (and not the editor's edit) asks.
 */
export function sameOrReparsed(previous: ParsedText, text: string, options: ReparseOptions = {}): ParsedText | undefined {
  return previous.text === text ? previous : reparse(previous, text, textChange(previous.text, text), options);
}

/** The parse of `text` built from `previous`, or undefined when the edit is not a simple one. */
export function reparse(previous: ParsedText, text: string, change: TextChange = textChange(previous.text, text), options: ReparseOptions = {}): ParsedText | undefined {
  const old = previous.text;
  if (previous.syntaxProblems.length > 0 || old === text) return undefined;
  const columns = previous.columns;
  if (columns.count === 0) return undefined;
  const { from, oldEnd, newEnd } = change;
  const slot = stringAround(columns, from, oldEnd);
  if (slot < 0) return reparseNumber(previous, text, change, options);
  const { start, end } = columns;
  const delta = text.length - old.length;
  // The new token must be a clean string: no quote, backslash or control character inside, and
  // (so that the previous version's columns stay true) not one the parser had to decode.
  if (columns.info[slot] & Flag.Decoded) return undefined;
  const contentStart = start[slot] + 1;
  const contentEnd = end[slot] - 1 + delta;
  // Every code + 1 ORed, as the parser does: below 0x80 when the string is plain printable ASCII.
  let seen = 0;
  for (let i = from; i < newEnd; i++) {
    const code = text.charCodeAt(i);
    if (code === Char.Quote || code === Char.Backslash || code < Char.Space) return undefined;
    seen |= code + 1;
  }
  // The rest of the token must have been plain too (an escape elsewhere in it decodes differently).
  for (let i = contentStart; i < from; i++) {
    const code = text.charCodeAt(i);
    if (code === Char.Backslash) return undefined;
    seen |= code + 1;
  }
  for (let i = newEnd; i < contentEnd; i++) {
    const code = text.charCodeAt(i);
    if (code === Char.Backslash) return undefined;
    seen |= code + 1;
  }
  const flags = (columns.info[slot] & ~(Flag.PlainAscii | Flag.WrittenAsIs)) | plainStringFlags(text, contentStart, contentEnd, seen);
  let info = columns.info;
  if (flags !== info[slot]) {
    info = info.slice(0, columns.count);
    info[slot] = flags;
  }
  const next = movedColumns(columns, info, columns.values, slot, oldEnd, delta);
  // The previous version needs its own predecessor no longer: versions never chain in memory.
  if (!options.keepPreviousLink) previous.forgetEdit();
  return new ParsedText(text, next, [], { previous, slot, threshold: oldEnd, delta, kind: 'string' });
}

/**
 * A number literal edited into another (a digit typed, deleted or replaced): the same columns with
 * that slot's flags and value decided again as the parser decides them; the value-local rules then
 * reuse the previous version's findings and check the edited number only (core/rules/analyze.ts).
 */
function reparseNumber(previous: ParsedText, text: string, change: TextChange, options: ReparseOptions): ParsedText | undefined {
  const columns = previous.columns;
  const { from, oldEnd, newEnd } = change;
  const slot = numberAround(columns, from, oldEnd);
  if (slot < 0) return undefined;
  const delta = text.length - previous.text.length;
  const tokenStart = columns.start[slot];
  const tokenEnd = columns.end[slot] + delta;
  if (newEnd > tokenEnd || tokenEnd <= tokenStart) return undefined;
  const literal = text.slice(tokenStart, tokenEnd);
  if (!NUMBER_LITERAL.test(literal)) return undefined;
  const integer = !/[.eE]/.test(literal);
  const values = columns.values.slice(0, columns.count);
  const plain = readPlainNumber(text, tokenStart, tokenEnd, integer, values, slot) ? Flag.PlainNumber : 0;
  const info = columns.info.slice(0, columns.count);
  info[slot] = (info[slot] & Flag.Keyed) | Kind.Number | (integer ? Flag.Integer : 0) | plain | (literal.charCodeAt(0) === Char.Minus ? Flag.Negative : 0);
  const next = movedColumns(columns, info, values, slot, oldEnd, delta);
  // Typed before the literal's first character, the edit starts where the token does: the token stays where it was.
  next.start[slot] = tokenStart;
  if (!options.keepPreviousLink) previous.forgetEdit();
  return new ParsedText(text, next, [], { previous, slot, threshold: oldEnd, delta, kind: 'number' });
}

/** A JSON number literal, whole (RFC 8259). */
const NUMBER_LITERAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The number value slot whose literal holds old[from, to) (its ends included), or -1. */
function numberAround(columns: Columns, from: number, to: number): number {
  const slot = scalarAround(columns, from, to);
  return slot >= 0 && (columns.info[slot] & Flag.KindMask) === Kind.Number ? slot : -1;
}

/** The string value slot whose content (between its quotes) holds old[from, to), or -1. */
function stringAround(columns: Columns, from: number, to: number): number {
  const slot = scalarAround(columns, from, to);
  return slot >= 0 && (columns.info[slot] & Flag.KindMask) === Kind.String && columns.start[slot] < from && to < columns.end[slot] ? slot : -1;
}

/**
 * The scalar value slot whose range holds old[from, to), or -1: walks down from the root
 * through the children whose value range holds the edit.
 */
function scalarAround(columns: Columns, from: number, to: number): number {
  const { info, start, end, next } = columns;
  let slot = 0;
  if (!(start[0] <= from && to <= end[0])) return -1;
  while (true) {
    const kind = info[slot] & Flag.KindMask;
    if (kind !== Kind.Object && kind !== Kind.Array) return kind !== Kind.None && start[slot] <= from && to <= end[slot] ? slot : -1;
    let inner = -1;
    for (let child = slot + 1; child < next[slot]; child = next[child]) {
      if ((info[child] & Flag.KindMask) === Kind.None) continue;
      if (start[child] > from) break;
      if (to <= end[child]) {
        inner = child;
        break;
      }
    }
    if (inner < 0) return -1;
    slot = inner;
  }
}

/**
 * The columns after an edit that left every slot in place: `info` and `values` as given, every
 * offset at or after `oldEnd` moved by `delta`. The parser's property order exactly
 * (core/parse/parser.ts), so that every reader of columns sees one object shape.
 */
function movedColumns(columns: Columns, info: Uint16Array, values: Float64Array, slot: number, oldEnd: number, delta: number): Columns {
  // Slots are in document order: no slot up to the edited one starts, or has its key or colon,
  // after the edit (only the ends of the edited value and its containers lie beyond it).
  const after = slot + 1;
  return {
    count: columns.count,
    info,
    start: shifted(columns.start, columns.count, oldEnd, delta, after),
    end: shifted(columns.end, columns.count, oldEnd, delta, 0),
    parent: columns.parent,
    next: columns.next,
    keyStart: shifted(columns.keyStart, columns.count, oldEnd, delta, after),
    keyEnd: shifted(columns.keyEnd, columns.count, oldEnd, delta, after),
    colon: shifted(columns.colon, columns.count, oldEnd, delta, after),
    values,
    keys: columns.keys,
    decoded: columns.decoded,
    depth: columns.depth,
    // Only the edited slot's flags changed.
    unplainNumbers: columns.unplainNumbers - unplainNumber(columns.info[slot]) + unplainNumber(info[slot]),
  };
}

/** A copy of the first `count` offsets with every offset at or after `threshold`, from slot `from` on, moved by `delta`. */
function shifted(offsets: Int32Array, count: number, threshold: number, delta: number, from: number): Int32Array {
  const copy = offsets.slice(0, count);
  if (delta !== 0) for (let i = from; i < count; i++) if (copy[i] >= threshold) copy[i] += delta;
  return copy;
}

/** The length of the common prefix of two strings (chunks compared natively, then characters). */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let at = 0;
  for (let size = CHUNK; size >= 1; size >>= 4) {
    while (at + size <= max && a.slice(at, at + size) === b.slice(at, at + size)) at += size;
  }
  while (at < max && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/** The length of the common suffix of two strings, at most `limit`. */
function commonSuffix(a: string, b: string, limit: number): number {
  let length = 0;
  for (let size = CHUNK; size >= 1; size >>= 4) {
    while (length + size <= limit && a.slice(a.length - length - size, a.length - length) === b.slice(b.length - length - size, b.length - length)) length += size;
  }
  while (length < limit && a.charCodeAt(a.length - 1 - length) === b.charCodeAt(b.length - 1 - length)) length++;
  return length;
}
