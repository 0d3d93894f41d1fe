/**
 * Why an SDK's bytes differ from the published ones, in words: "key order only" when both bodies
 * hold the same keys and values (Go writes a map's keys sorted), else what differs where: a value
 * changed or a number written otherwise first (what a consumer would read differently), in the
 * body's order, then the keys dropped and the keys added, each kind named once. A key that is gone
 * while a key of the same name in another case now holds its value was read into that key by a
 * reader that matches keys regardless of case (Go reads `Attempts` into `attempts`): said so, not
 * as a drop and a changed value. Both bodies are read with the strict parser, so `1.0` and `1`
 * stay different texts and big numbers keep every digit.
 */
import type { ArrayNode, ObjectNode, PropertyNode, ValueNode } from '../model/tree';
import { numberLiteral, shortened } from '../model/describe-value';
import { parseText } from '../parse/parser';

/** At most this many reasons are named; the rest are counted. */
const MAX_REASONS = 3;
/** At most this many keys are named in "drops …" or "adds …"; the rest are counted. */
const MAX_KEYS = 4;

export function whyDifferent(published: string, other: string): string {
  const a = parseText(published).root;
  const b = parseText(other).root;
  if (!a || !b) return 'not the same JSON';
  const reasons: string[] = [];
  const dropped: string[] = [];
  const added: string[] = [];
  let reordered = false;
  // A pair to compare at a path; or, with `from`, a key that holds the value of `from`, said in
  // the body's order where its own value would have been compared.
  const stack: [ValueNode, ValueNode, string, string?][] = [[a, b, '']];
  while (stack.length > 0) {
    const [left, right, path, from] = stack.pop()!;
    if (from !== undefined) {
      reasons.push(`${path} holds ${from}'s value (keys read regardless of case)`);
      continue;
    }
    if (left.kind !== right.kind) {
      reasons.push(`${path || 'the body'} is ${describe(right)}, not ${describe(left)}`);
      continue;
    }
    switch (left.kind) {
      case 'object': {
        const rightObject = right as ObjectNode;
        const leftKeys = left.properties.map((property) => property.key);
        const rightKeys = rightObject.properties.map((property) => property.key);
        // Each side's first copy of a key, by name: looked up once per key, not searched for.
        const leftFirst = firstCopies(left);
        const rightFirst = firstCopies(rightObject);
        const folded = foldedKeys(left, rightObject, leftFirst, rightFirst, published, other);
        const foldedFrom = new Set(folded.values());
        for (const key of leftKeys) if (!rightFirst.has(key) && !foldedFrom.has(key)) dropped.push(join(path, key));
        for (const key of rightKeys) if (!leftFirst.has(key)) added.push(join(path, key));
        const shared = leftKeys.filter((key) => rightFirst.has(key));
        if (shared.join('\u0000') !== rightKeys.filter((key) => leftFirst.has(key)).join('\u0000')) reordered = true;
        // Pushed last first, so the stack gives them back in the body's order.
        for (const key of shared.reverse()) {
          const l = leftFirst.get(key)?.value;
          const r = rightFirst.get(key)?.value;
          const from = folded.get(key);
          if (l && r) stack.push(from === undefined ? [l, r, join(path, key)] : [l, r, join(path, key), join(path, from)]);
        }
        break;
      }
      case 'array': {
        const rightArray = right as ArrayNode;
        if (left.items.length !== rightArray.items.length) reasons.push(`${path} has ${rightArray.items.length} items, not ${left.items.length}`);
        for (let i = Math.min(left.items.length, rightArray.items.length) - 1; i >= 0; i--) stack.push([left.items[i], rightArray.items[i], `${path}[${i}]`]);
        break;
      }
      case 'number': {
        const r = right as Extract<ValueNode, { kind: 'number' }>;
        if (left.raw !== r.raw) reasons.push(`${path} is written ${numberLiteral(r.raw)}, not ${numberLiteral(left.raw)} (${numberChange(left, r)})`);
        break;
      }
      case 'string': {
        if (left.value !== (right as Extract<ValueNode, { kind: 'string' }>).value) reasons.push(`${path} holds a different string`);
        else if (published.slice(left.offset, left.end) !== other.slice(right.offset, right.end)) reasons.push(`${path}: the same string, escaped otherwise`);
        break;
      }
      default:
        if (published.slice(left.offset, left.end) !== other.slice(right.offset, right.end)) reasons.push(`${path} is ${describe(right)}, not ${describe(left)}`);
    }
  }
  if (dropped.length > 0) reasons.push(`drops ${keyList(dropped)}`);
  if (added.length > 0) reasons.push(`adds ${keyList(added)}`);
  if (reasons.length === 0) return reordered ? 'key order only: the same keys and values, in another order' : 'whitespace only';
  const named = reasons.slice(0, MAX_REASONS).join('; ');
  const more = reasons.length > MAX_REASONS ? `; and ${reasons.length - MAX_REASONS} more` : '';
  return `${named}${more}${reordered ? '; keys in another order too' : ''}`;
}

/**
 * The keys of `right` that hold, instead of their own value in `left`, the value of a key of
 * `left` spelt the same regardless of case that `right` no longer has: key → the key read into it.
 * Only on that evidence: a reader that drops an unknown `Attempts` and keeps `attempts` as it was
 * (Java) dropped it, and is said to.
 */
function foldedKeys(left: ObjectNode, right: ObjectNode, leftFirst: ReadonlyMap<string, PropertyNode>, rightFirst: ReadonlyMap<string, PropertyNode>, published: string, other: string): Map<string, string> {
  const folded = new Map<string, string>();
  const textOf = (node: ValueNode, text: string) => text.slice(node.offset, node.end);
  // Per key in lower case, the last key of `left` spelt so that `right` no longer has: the one a
  // reader that matches regardless of case keeps (the last it reads). A key `right` has is never
  // it, so neither is the kept key itself.
  let gone: Map<string, PropertyNode> | undefined;
  for (const kept of right.properties) {
    const before = leftFirst.get(kept.key);
    if (!before?.value || !kept.value || textOf(before.value, published) === textOf(kept.value, other)) continue;
    if (!gone) {
      gone = new Map();
      for (const property of left.properties) if (!rightFirst.has(property.key)) gone.set(property.key.toLowerCase(), property);
    }
    const from = gone.get(kept.key.toLowerCase());
    if (from?.value && textOf(from.value, published) === textOf(kept.value, other)) folded.set(kept.key, from.key);
  }
  return folded;
}

/** The first property of each key of `object` (a key written twice is found at its first copy). */
function firstCopies(object: ObjectNode): Map<string, PropertyNode> {
  const first = new Map<string, PropertyNode>();
  for (const property of object.properties) if (!first.has(property.key)) first.set(property.key, property);
  return first;
}

/**
 * What a number's new spelling changes: nothing (`1.50` and `1.5e0`), only the decimal digits of
 * one double (JDK 17's `9.999999999999999E22` for `1e+23`: every reader decodes both to the same
 * float64, as both are floats to every SDK), or the number (`9007199254740992` for
 * `…993`: the SDKs that read integers exactly see another value).
 */
function numberChange(before: { raw: string; value: number; isIntegerLiteral: boolean }, after: { raw: string; value: number; isIntegerLiteral: boolean }): string {
  if (sameDecimal(before.raw, after.raw)) return 'the same number';
  if (!before.isIntegerLiteral && !after.isIntegerLiteral && before.value === after.value) return 'the same float64, in other digits';
  return 'a different number';
}

/** True when two JSON number texts are the same decimal number (`1.50` and `1.5e0`; not 2^53+1 and 2^53). */
function sameDecimal(a: string, b: string): boolean {
  return canonicalDecimal(a) === canonicalDecimal(b);
}

/** sign, significant digits and exponent of a JSON number text: `-0.0150` → `-15e-3`. */
function canonicalDecimal(raw: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  if (!match) return raw;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  let power = Number(exponent) - fraction.length;
  if (digits === '') return '0';
  const trailing = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trailing);
  power += trailing;
  return `${sign}${digits}e${power}`;
}

function keyList(paths: readonly string[]): string {
  if (paths.length <= MAX_KEYS) return paths.length === 1 ? paths[0]! : `${paths.slice(0, -1).join(', ')} and ${paths[paths.length - 1]}`;
  return `${paths.slice(0, MAX_KEYS).join(', ')} and ${paths.length - MAX_KEYS} more`;
}

/** The path of `key` below `path` as the reasons name it: each key shortened as a message quotes one. */
function join(path: string, key: string): string {
  return path ? `${path}.${shortened(key)}` : shortened(key);
}

function describe(node: ValueNode): string {
  return node.kind === 'object' ? 'an object' : node.kind === 'array' ? 'an array' : node.kind;
}
