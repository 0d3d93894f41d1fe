/**
 * whyDifferent (core/message/difference.ts) on bodies of many keys: a preview of every SDK compares
 * each SDK's body with the published one, and the comparison looked each key up in the other
 * body's list (and, for keys read regardless of case, in both lists again). The answers must stay
 * those of that scan, kept below as the oracle; the time must grow with the keys, not their square.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { whyDifferent } from '../../../core/message/difference';
import type { ArrayNode, ObjectNode, ValueNode } from '../../../core/model/tree';
import { parseText } from '../../../core/parse/parser';
import { fastestMs } from '../../support/fastest';

/** At most this many reasons are named; the rest are counted. */
const MAX_REASONS = 3;
/** At most this many keys are named in "drops …" or "adds …"; the rest are counted. */
const MAX_KEYS = 4;

function scannedWhyDifferent(published: string, other: string): string {
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
        const folded = foldedKeys(left, rightObject, published, other);
        for (const key of leftKeys) if (!rightKeys.includes(key) && ![...folded.values()].includes(key)) dropped.push(join(path, key));
        for (const key of rightKeys) if (!leftKeys.includes(key)) added.push(join(path, key));
        const shared = leftKeys.filter((key) => rightKeys.includes(key));
        if (shared.join('\u0000') !== rightKeys.filter((key) => leftKeys.includes(key)).join('\u0000')) reordered = true;
        // Pushed last first, so the stack gives them back in the body's order.
        for (const key of shared.reverse()) {
          const l = left.properties.find((property) => property.key === key)?.value;
          const r = rightObject.properties.find((property) => property.key === key)?.value;
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
        if (left.raw !== r.raw) reasons.push(`${path} is written ${r.raw}, not ${left.raw} (${numberChange(left, r)})`);
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
function foldedKeys(left: ObjectNode, right: ObjectNode, published: string, other: string): Map<string, string> {
  const folded = new Map<string, string>();
  const textOf = (node: ValueNode, text: string) => text.slice(node.offset, node.end);
  for (const kept of right.properties) {
    const before = left.properties.find((property) => property.key === kept.key);
    if (!before?.value || !kept.value || textOf(before.value, published) === textOf(kept.value, other)) continue;
    const lower = kept.key.toLowerCase();
    // The last such key: a reader that matches regardless of case keeps the last it reads.
    for (let i = left.properties.length - 1; i >= 0; i--) {
      const from = left.properties[i]!;
      if (from.key === kept.key || from.key.toLowerCase() !== lower || right.properties.some((candidate) => candidate.key === from.key)) continue;
      if (from.value && textOf(from.value, published) === textOf(kept.value, other)) folded.set(kept.key, from.key);
      break;
    }
  }
  return folded;
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

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function describe(node: ValueNode): string {
  return node.kind === 'object' ? 'an object' : node.kind === 'array' ? 'an array' : node.kind;
}

const keyName = fc.constantFrom('a', 'A', 'b', 'B', 'attempts', 'Attempts', 'ATTEMPTS', 'c');
const scalar = fc.constantFrom('1', '2', '1.0', '"x"', '"y"', 'null', 'true');
const value: fc.Arbitrary<string> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('object') as fc.Arbitrary<string>, tie('array') as fc.Arbitrary<string>),
  object: fc.array(fc.tuple(keyName, tie('value') as fc.Arbitrary<string>), { maxLength: 6 }).map((pairs) => `{${pairs.map(([k, v]) => `"${k}":${v}`).join(',')}}`),
  array: fc.array(tie('value') as fc.Arbitrary<string>, { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
})).value;

test('whyDifferent answers as the scan it replaced: repeated keys, keys in another case, keys dropped and added, nested', () => {
  fc.assert(
    fc.property(value, value, (published, other) => assert.equal(whyDifferent(published, other), scannedWhyDifferent(published, other))),
    { seed: 20261207, numRuns: 20000 },
  );
  // Keys read into a namesake in another case, with repeats on both sides.
  for (const [published, other] of [
    ['{"a":1,"A":2,"a":3}', '{"a":2}'],
    ['{"Attempts":1,"attempts":0,"ATTEMPTS":1}', '{"attempts":1,"ATTEMPTS":1}'],
    ['{"Attempts":1,"attempts":0}', '{"attempts":1,"Attempts":1}'],
  ]) assert.equal(whyDifferent(published, other), scannedWhyDifferent(published, other));
});

test('comparing bodies of many keys: four times the keys cost about four times the time, not sixteen', () => {
  const bodies = (count: number) => {
    const keys = Array.from({ length: count }, (_, i) => i);
    return [
      `{${keys.map((i) => `"amount_${i}":12.5,"Total_${i}":1`).join(',')}}`,
      `{${keys.map((i) => `"total_${i}":1,"amount_${i}":12.50`).join(',')}}`,
    ] as const;
  };
  const time = (count: number) => {
    const [published, other] = bodies(count);
    return fastestMs(3, () => whyDifferent(published, other));
  };
  time(500);
  const small = time(2_000);
  const large = time(8_000);
  assert.ok(large <= 8 * small + 50, `2,000 keys ${small.toFixed(0)} ms, 8,000 keys ${large.toFixed(0)} ms`);
});
