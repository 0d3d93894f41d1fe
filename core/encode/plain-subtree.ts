/**
 * The fast path of every encoder: a subtree that all six SDKs relay without a change of value or
 * spelling is written from the document's text, not value by value. On a 5 MB payload the value-
 * by-value writer builds a node, a path and an output piece for each of some 180,000 values; for
 * a subtree of plain values (the parser's columns say which) every SDK writes the written text
 * without its whitespace, only Go reorders it (json.Marshal sorts map keys), and no encoder has
 * anything to note about it.
 *
 * A slot is plain when its own token is one every SDK writes as is: a number or string the parser
 * marked so (`Flag.PlainNumber`, `Flag.WrittenAsIs`, which leave out escapes), a boolean or null,
 * an array, or a non-empty object whose keys are printable ASCII without escapes, none twice and
 * none made of digits only (Node orders such keys first, PHP writes "0", "1", … as a list). A
 * subtree is plain when every slot in it is; a subtree is a run of slots, so one prefix count of
 * the slots that are not plain answers for any subtree in constant time.
 * test/core/encode/plain-subtree.test.ts holds the claim: the same bytes and notes as the writer.
 */
import { forEachValue, type ValueNode } from '../model/tree';
import { Flag, Kind, type Columns } from '../parse/columns';
import { columnsOf, type ParsedText } from '../parse/document';
import { compactLength, compactTail, compactText } from './compact-text';

/** Per parse: how many slots before each slot are not plain (`count + 1` entries). */
const notPlainBefore = new WeakMap<Columns, Int32Array>();

/**
 * Per parse: the texts of the plain subtrees written so far, by slot (Go's sorted ones by `~slot`).
 * A version made from the previous one by a value edit (`ParsedText.edit`) takes them over: a
 * subtree the edit is outside of is written as before, and the one it is inside is the previous
 * text with the edited token replaced. So what reads a body whole after each edit in a 5 MB
 * payload (a send, a body parsed back, the per-SDK comparison) writes the few values around the
 * edit, not the megabytes of the payload again.
 */
const writtenTexts = new WeakMap<Columns, Map<number, string>>();

/** The text `node` is written as by every SDK (`sortKeys`: Go's order), or undefined when its subtree is not plain. */
export function plainSubtreeText(node: ValueNode, sortKeys: boolean): string | undefined {
  const origin = columnsOf(node);
  if (!origin || !isPlainSubtree(origin.document, origin.slot)) return undefined;
  const { document, slot } = origin;
  return writtenText(document, slot, sortKeys, carryFrom(document, slot, sortKeys ? ~slot : slot));
}

/** The subtree's text: known, carried over from the previous version's, or written now. */
function writtenText(document: ParsedText, slot: number, sortKeys: boolean, carry: Carry | undefined): string {
  const key = sortKeys ? ~slot : slot;
  const known = writtenTexts.get(document.columns)?.get(key);
  if (known !== undefined) return known;
  const carried = carry && carriedText(document, slot, carry);
  const text = carried ?? (sortKeys ? sortedText(document.columns, document.text, slot) : compactText(document.text, document.columns.start[slot], document.columns.end[slot]));
  remember(document, key, text);
  return text;
}

function remember(document: ParsedText, key: number, text: string): void {
  let texts = writtenTexts.get(document.columns);
  if (!texts) {
    texts = new Map();
    writtenTexts.set(document.columns, texts);
  }
  texts.set(key, text);
}

/**
 * What a writer holds of a text it may never need whole: its length in UTF-16 units and in UTF-8
 * bytes, its ends, and the text itself, made when first asked for.
 */
export interface WrittenPiece {
  readonly length: number;
  readonly utf8Length: number;
  text(): string;
  /** The first `units` code units (all of them when fewer). */
  head(units: number): string;
  /** The last `units` code units (all of them when fewer). */
  tail(units: number): string;
}

/**
 * The written text of `node` as `plainSubtreeText` makes it, as a piece whose length, UTF-8 length
 * and ends are read from the parser's columns without writing the text: a preview of a 5 MB
 * payload shows its count and its ends, and only what needs the bytes themselves writes them.
 * Undefined when the subtree is not plain.
 */
export function plainSubtreePiece(node: ValueNode, sortKeys: boolean): WrittenPiece | undefined {
  const origin = columnsOf(node);
  if (!origin || !isPlainSubtree(origin.document, origin.slot)) return undefined;
  const { document, slot } = origin;
  const key = sortKeys ? ~slot : slot;
  // What carrying the previous version's text over needs is taken now, while this version still
  // links to it (the encoder lets go of that link before anyone reads the text); nothing is read
  // or spliced until the text is.
  const carry = writtenTexts.get(document.columns)?.has(key) ? undefined : carryFrom(document, slot, key);
  return new PlainPiece(document, slot, sortKeys, carry);
}

/**
 * A plain subtree's text, known by its parse: the columns it is read from stay in use as long as
 * the piece does (one-shot callers that recycle their columns read no piece after that).
 */
class PlainPiece implements WrittenPiece {
  private size: readonly [number, number] | undefined;

  constructor(
    private readonly document: ParsedText,
    private readonly slot: number,
    private readonly sortKeys: boolean,
    /** Dropped once the text is made: it holds the previous version's text. */
    private carry: Carry | undefined,
  ) {}

  get length(): number {
    return (this.size ??= compactSize(this.document.columns, this.document.text, this.slot))[0];
  }

  get utf8Length(): number {
    return (this.size ??= compactSize(this.document.columns, this.document.text, this.slot))[1];
  }

  text(): string {
    const text = writtenText(this.document, this.slot, this.sortKeys, this.carry);
    this.carry = undefined;
    return text;
  }

  // The ends are read from the document's text even when the whole is known: a text carried over
  // is a splice of the previous one, and slicing it would copy all of it first.
  head(units: number): string {
    // Go's sorted order puts any key first: written whole.
    if (this.sortKeys) return this.text().slice(0, units);
    const { columns, text } = this.document;
    return compactText(text, columns.start[this.slot], columns.end[this.slot], units);
  }

  tail(units: number): string {
    if (this.sortKeys) {
      const whole = this.text();
      return whole.slice(Math.max(0, whole.length - units));
    }
    const { columns, text } = this.document;
    return compactTail(text, columns.start[this.slot], columns.end[this.slot], units);
  }
}

/**
 * The length of a plain subtree's compact text in UTF-16 units and in UTF-8 bytes, from its slots:
 * every token as written, a colon per key, the brackets, and a comma between siblings. A plain
 * subtree's keys, numbers and literals are ASCII, and its strings hold no surrogate, so a string
 * that is not `PlainAscii` is the only token whose bytes are counted one by one.
 */
function compactSize(columns: Columns, text: string, root: number): readonly [number, number] {
  const { info, start, end, keyStart, keyEnd, next, parent } = columns;
  const last = next[root];
  let units = 0;
  let extraBytes = 0;
  let separators = 0;
  for (let slot = root; slot < last; slot++) {
    const flags = info[slot];
    const kind = flags & Flag.KindMask;
    // A key, with its colon (array items have none).
    if (slot !== root && (info[parent[slot]] & Flag.KindMask) === Kind.Object) units += keyEnd[slot] - keyStart[slot] + 1;
    if (kind === Kind.Object || kind === Kind.Array) {
      units += 2;
      // Its children less one: the commas between them.
      if (next[slot] > slot + 1) separators--;
      continue;
    }
    units += end[slot] - start[slot];
    if (kind === Kind.String && !(flags & Flag.PlainAscii)) {
      for (let at = start[slot] + 1; at < end[slot] - 1; at++) {
        const code = text.charCodeAt(at);
        if (code >= 0x80) extraBytes += code < 0x800 ? 1 : 2;
      }
    }
  }
  // Every slot but the root is some container's child: the commas are the children less one per non-empty container.
  units += last - root - 1 + separators;
  return [units, units + extraBytes];
}

/** True when nothing in `node`'s subtree can make an encoder note or refuse anything (no duplicate key, no surrogate). */
export function isPlainNode(node: ValueNode): boolean {
  const origin = columnsOf(node);
  return origin !== undefined && isPlainSubtree(origin.document, origin.slot);
}

/**
 * What carrying the previous version's text of a plain subtree over needs: that text, and, when the
 * edit is inside the subtree, the edited slot and its token as it was. Taken from the version's
 * link to the previous one; reading none of the text.
 */
interface Carry {
  readonly before: string;
  readonly edited?: { readonly slot: number; readonly oldToken: string };
}

/** The carry for this version of the subtree; undefined when the previous version's text is not known or cannot be carried. */
function carryFrom(document: ParsedText, slot: number, key: number): Carry | undefined {
  const edit = document.edit;
  const before = edit && writtenTexts.get(edit.previous.columns)?.get(key);
  if (!edit || before === undefined) return undefined;
  // Slots are numbered as in the previous version: a value edit moves offsets, not slots.
  if (edit.slot < slot || edit.slot >= document.columns.next[slot]) return { before };
  // Go's order (a sorted text's key is ~slot) puts the edited value elsewhere in the text: written again.
  if (key !== slot) return undefined;
  const { previous } = edit;
  return { before, edited: { slot: edit.slot, oldToken: previous.text.slice(previous.columns.start[edit.slot], previous.columns.end[edit.slot]) } };
}

/** The previous version's text with the edited token replaced; undefined when it does not hold the old token where this version puts it. */
function carriedText(document: ParsedText, slot: number, carry: Carry): string | undefined {
  const { before, edited } = carry;
  if (!edited) return before;
  // The text before the edited token is the same in both versions: its compact length is counted in this one.
  const { columns, text } = document;
  const at = compactLength(text, columns.start[slot], columns.start[edited.slot]);
  // A plain token is written as it is spelled; anything else would be a text this memo did not make.
  if (before.substr(at, edited.oldToken.length) !== edited.oldToken) return undefined;
  const newToken = text.slice(columns.start[edited.slot], columns.end[edited.slot]);
  return before.slice(0, at) + newToken + before.slice(at + edited.oldToken.length);
}

/**
 * Visits every value in `root` as `forEachValue` does, but none inside a plain subtree: nothing
 * there is an escape, a surrogate, a repeated key, a long integer or a number that overflows,
 * which is all the walks that use this look for.
 */
export function forEachValueOutsidePlain(root: ValueNode, visit: (node: ValueNode) => void): void {
  forEachValue(root, visit, (node) => (node.kind === 'object' || node.kind === 'array') && isPlainNode(node));
}

/** The deepest nesting of the document `root` was parsed from (the root container counts as 1), when the columns know it. */
export function documentDepth(root: ValueNode): number | undefined {
  const origin = columnsOf(root);
  return origin && origin.slot === 0 ? origin.columns.depth : undefined;
}

function isPlainSubtree(document: ParsedText, slot: number): boolean {
  const { columns } = document;
  let counts = notPlainBefore.get(columns);
  if (!counts) {
    counts = carriedCounts(document) ?? countNotPlain(columns, document.text);
    notPlainBefore.set(columns, counts);
  }
  return counts[columns.next[slot]] === counts[slot];
}

/** The previous version's counts, when its edited value is as plain as it was (the counts depend on nothing else). */
function carriedCounts(document: ParsedText): Int32Array | undefined {
  const edit = document.edit;
  const before = edit && notPlainBefore.get(edit.previous.columns);
  if (!edit || !before) return undefined;
  const { previous, slot } = edit;
  const wasPlain = plainToken(previous.columns, previous.text, slot, previous.columns.info[slot]);
  return wasPlain === plainToken(document.columns, document.text, slot, document.columns.info[slot]) ? before : undefined;
}

function countNotPlain(columns: Columns, text: string): Int32Array {
  const { info, count } = columns;
  const counts = new Int32Array(count + 1);
  let seen = 0;
  for (let slot = 0; slot < count; slot++) {
    counts[slot] = seen;
    if (!plainToken(columns, text, slot, info[slot])) seen++;
  }
  // The `next` of the last subtree is `count`.
  counts[count] = seen;
  return counts;
}

function plainToken(columns: Columns, text: string, slot: number, flags: number): boolean {
  switch (flags & Flag.KindMask) {
    case Kind.None:
      return false;
    case Kind.Number:
      return (flags & Flag.PlainNumber) !== 0;
    case Kind.String:
      return (flags & Flag.WrittenAsIs) !== 0;
    case Kind.Object:
      return plainKeys(columns, text, slot);
    default:
      return (flags & Flag.KindMask) !== Kind.Array || (flags & Flag.Closed) !== 0;
  }
}

/** Up to this many keys, an object's keys are told apart by comparing each with those before it (no Set made per object). */
const KEYS_COMPARED_DIRECTLY = 16;

/** A closed, non-empty object whose keys are distinct, written without escapes, and not digits only. */
function plainKeys(columns: Columns, text: string, slot: number): boolean {
  const { info, next, keys, keyStart, keyEnd } = columns;
  if (!(info[slot] & Flag.Closed) || next[slot] === slot + 1) return false;
  let seen: Set<string> | undefined;
  let count = 0;
  for (let child = slot + 1; child < next[slot]; child = next[child]) {
    const key = keys[child];
    if (key === undefined || keyEnd[child] - keyStart[child] !== key.length + 2 || text.charCodeAt(keyStart[child]) !== 0x22) return false;
    let digitsOnly = key.length > 0;
    for (let i = 0; i < key.length; i++) {
      const code = key.charCodeAt(i);
      if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false;
      if (code < 0x30 || code > 0x39) digitsOnly = false;
    }
    if (digitsOnly) return false;
    // Most objects have a few keys: compared with the ones before; a Set only for a large object.
    if (!seen && count === KEYS_COMPARED_DIRECTLY) {
      seen = new Set();
      for (let earlier = slot + 1; earlier !== child; earlier = next[earlier]) seen.add(keys[earlier]!);
    }
    if (seen) {
      if (seen.has(key)) return false;
      seen.add(key);
    } else {
      for (let earlier = slot + 1; earlier !== child; earlier = next[earlier]) if (keys[earlier] === key) return false;
    }
    count++;
  }
  return true;
}

/** The subtree written with every object's keys in code-point order (plain keys are ASCII: `<` is that order). */
function sortedText(columns: Columns, text: string, root: number): string {
  const { info, next, keys, start, end } = columns;
  const parts: string[] = [];
  // Slots to write, or closing brackets (as strings), last first: documents can nest deeply.
  const stack: (number | string)[] = [root];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if (typeof task === 'string') {
      parts.push(task);
      continue;
    }
    const kind = info[task] & Flag.KindMask;
    if (kind !== Kind.Object && kind !== Kind.Array) {
      parts.push(text.slice(start[task], end[task]));
      continue;
    }
    const children: number[] = [];
    for (let child = task + 1; child < next[task]; child = next[child]) children.push(child);
    if (kind === Kind.Object) children.sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1));
    parts.push(kind === Kind.Object ? '{' : '[');
    stack.push(kind === Kind.Object ? '}' : ']');
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push(children[i]);
      if (kind === Kind.Object) stack.push(`"${keys[children[i]]}":`);
      if (i > 0) stack.push(',');
    }
  }
  return parts.join('');
}
