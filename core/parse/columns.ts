/**
 * The parser's output: the document as columns (typed arrays indexed by slot) instead of one
 * object per value. A slot is the root, an array item or an object property (with or without a
 * value); slots are numbered in document order, so a slot's subtree is the run of slots from it
 * up to `next[slot]`, and its children are `slot + 1`, then `next[child]` onwards.
 *
 * Rules that visit every value of a large payload read these columns directly; everything else
 * reads the node tree of `core/model/tree.ts`, which is built from them lazily (`./document.ts`).
 */

import { writtenAsIsByAll } from '../contract/written-as-is';
import { detachedString } from '../model/detached-string';

/** The value kind of a slot (the low three bits of `info`). */
export const enum Kind {
  /** A property whose value is missing (`"job":` while typing). */
  None = 0,
  Object = 1,
  Array = 2,
  String = 3,
  Number = 4,
  Boolean = 5,
  Null = 6,
}

/** Flags in `info` above the kind. */
export const enum Flag {
  KindMask = 7,
  /** A container whose closing bracket was found. */
  Closed = 8,
  /** A number literal without fraction or exponent. */
  Integer = 16,
  /** The boolean `true`. */
  True = 32,
  /** The slot is an object property (it has a key). */
  Keyed = 64,
  /**
   * A string whose value is not simply its text between the quotes (escapes, single quotes, a
   * bare word, no closing quote): the value is in `decoded`.
   */
  Decoded = 128,
  /** A string of printable ASCII only, without escapes: every SDK writes it exactly as it is. */
  PlainAscii = 256,
  /** A number literal every SDK writes exactly as it is (`writtenAsIsBySix` in core/contract/written-as-is.ts). */
  PlainNumber = 512,
  /**
   * A string without escapes whose every code unit all six SDKs write as is (`writtenAsIsByAll` in
   * core/encode/strings.ts): every `PlainAscii` string, and one with letters such as "é" or "抹"
   * but no surrogates, controls or characters an encoder escapes. Decided while the parser (or an
   * incremental reparse) has the characters at hand, so the rules need not read them again.
   */
  WrittenAsIs = 1024,
  /** A number literal that starts with a minus sign. */
  Negative = 2048,
}

/**
 * The flags of a string token's content `text[from..to)` without escapes, given `seen`: every code
 * unit + 1 ORed together (below 0x80 exactly when all are printable ASCII, DEL excluded).
 */
export function plainStringFlags(text: string, from: number, to: number, seen: number): number {
  if (seen < 0x80) return Flag.PlainAscii | Flag.WrittenAsIs;
  for (let i = from; i < to; i++) if (!writtenAsIsByAll(text.charCodeAt(i))) return 0;
  return Flag.WrittenAsIs;
}

export interface Columns {
  /** Number of slots in use. */
  readonly count: number;
  /** Kind | flags. */
  readonly info: Uint16Array;
  /** The value's range (`end` exclusive); unused for `Kind.None`. */
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** The slot of the object or array that holds this one; -1 for the root. */
  readonly parent: Int32Array;
  /** The first slot after this slot's subtree. */
  readonly next: Int32Array;
  /** Keyed slots: the key token (quotes included) and the colon (-1 when missing). */
  readonly keyStart: Int32Array;
  readonly keyEnd: Int32Array;
  readonly colon: Int32Array;
  /** Number slots marked `Flag.PlainNumber`: the value (the parser converts those while their digits are at hand). */
  readonly values: Float64Array;
  /** Keyed slots: the decoded key. */
  readonly keys: readonly (string | undefined)[];
  /** The values of the `Flag.Decoded` string slots; every other string is its text between the quotes. */
  readonly decoded: ReadonlyMap<number, string>;
  /** The deepest nesting of containers in the document (1 for `{}`, 0 without any): a bound on every subtree's. */
  readonly depth: number;
  /**
   * How many number slots of the document lack `Flag.PlainNumber`. With none, no number anywhere
   * is beyond a double's range or an integer literal of more than 15 digits, and a walk looking
   * for one need not run (a 5 MB payload took two such walks per analysis).
   */
  readonly unplainNumbers: number;
}

/** 1 for a number slot's flags without `Flag.PlainNumber` (counted in `Columns.unplainNumbers`), else 0. */
export function unplainNumber(flags: number): number {
  return (flags & Flag.KindMask) === Kind.Number && !(flags & Flag.PlainNumber) ? 1 : 0;
}

/**
 * The one value edited since the previous version, for a check that answers from what it knew of
 * that version: the previous version's columns and the edited slot (slots are the same in both).
 */
export interface ColumnsEdit {
  readonly previous: Columns;
  readonly edited: number;
}

/** The value of a String slot (not copied until asked for: most are never read). */
export function stringValue(columns: Columns, text: string, slot: number): string {
  return columns.info[slot] & Flag.Decoded ? columns.decoded.get(slot)! : text.slice(columns.start[slot] + 1, columns.end[slot] - 1);
}

/** The child slots of one container at a time, in a buffer that grows as needed and is reused by a walk that is not reentrant. */
export class ChildSlots {
  slots = new Int32Array(64);

  /** Puts the child slots of `container` into `slots`, in order; returns how many there are. */
  collect(next: Int32Array, container: number): number {
    let count = 0;
    for (let child = container + 1; child < next[container]; child = next[child]) {
      if (count === this.slots.length) {
        const grown = new Int32Array(count * 2);
        grown.set(this.slots);
        this.slots = grown;
      }
      this.slots[count++] = child;
    }
    return count;
  }
}

/**
 * True when `shape` holds exactly the keys of the properties of the object at `object`, in order:
 * read off the columns as they stand, so an object whose key sequence was seen before costs one
 * comparison per key and no copy of its child slots.
 */
export function sameKeys(shape: readonly string[] | undefined, columns: Pick<Columns, 'keys' | 'next'>, object: number): boolean {
  if (shape === undefined) return false;
  const { keys, next } = columns;
  let i = 0;
  for (let child = object + 1, last = next[object]; child < last; child = next[child], i++) if (i === shape.length || shape[i] !== keys[child]) return false;
  return i === shape.length;
}

/** The keys of the first `count` slots in `children`, detached from the document's text: a shape is kept after the document is gone. */
export function keysOf(keys: readonly (string | undefined)[], children: Int32Array, count: number): string[] {
  const sequence = new Array<string>(count);
  for (let i = 0; i < count; i++) sequence[i] = detachedString(keys[children[i]]!);
  return sequence;
}

/**
 * How deeply containers nest in a slot's subtree (1 for `{}`, 0 for a scalar) and how many values
 * it holds, read off the columns in one loop: what payload validation needs to know before it
 * runs, without walking the plain value again. Every copy of a duplicated key counts (the plain
 * value keeps one), which only matters for a payload near the all-errors limit.
 */
export function subtreeShape(columns: Columns, slot: number): { depth: number; values: number } {
  const { info, next } = columns;
  // The `next` of each open container, innermost last: a slot at or past it has left that container.
  const open: number[] = [];
  let depth = 0;
  let values = 0;
  for (let at = slot, last = next[slot]; at < last; at++) {
    while (open.length > 0 && at >= open[open.length - 1]) open.pop();
    const kind = info[at] & Flag.KindMask;
    if (kind === Kind.None) continue;
    values++;
    if (kind === Kind.Object || kind === Kind.Array) {
      open.push(next[at]);
      if (open.length > depth) depth = open.length;
    }
  }
  return { depth, values };
}
