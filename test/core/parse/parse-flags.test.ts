/**
 * The per-token flags the parser sets while a token's characters are at hand, which the rules
 * trust instead of reading the text again: PlainAscii and WrittenAsIs on strings, Negative on
 * numbers. Each must mean exactly what its definition says, after a fresh parse and after an
 * incremental reparse alike.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { writtenAsIsByAll } from '../../../core/contract/written-as-is';
import { Flag, Kind } from '../../../core/parse/columns';
import { reparse } from '../../../core/parse/incremental';
import { parseText } from '../../../core/parse/parser';

const SEED = 20261130;

/** Characters of every class the flags tell apart. */
const CHARACTERS = ['a', 'Z', '0', ' ', '~', '\u007f', '\u0085', '\u00a0', 'é', 'ß', '抹', '\u2028', '\u2029', '\u200b', '\ue000', '😀', '\ud800', '\\n', '\\u00e9', '\\"'];

function expectedStringFlags(content: string): number {
  if (content.includes('\\')) return Flag.Decoded;
  const codes = [...content].flatMap((char) => Array.from({ length: char.length }, (_, i) => char.charCodeAt(i)));
  const ascii = codes.every((code) => code >= 0x20 && code < 0x7f);
  const asIs = codes.every((code) => writtenAsIsByAll(code));
  return (ascii ? Flag.PlainAscii : 0) | (asIs ? Flag.WrittenAsIs : 0);
}

const FLAGS = Flag.PlainAscii | Flag.WrittenAsIs | Flag.Decoded;

describe('parser flags', () => {
  test('strings: PlainAscii and WrittenAsIs exactly when every code unit qualifies, never with escapes', () => {
    const content = fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 6 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(content, (value) => {
        const doc = parseText(`{"k": "${value}"}`);
        assert.equal(doc.columns.info[1] & Flag.KindMask, Kind.String);
        assert.equal(doc.columns.info[1] & FLAGS, expectedStringFlags(value), JSON.stringify(value));
      }),
      { seed: SEED, numRuns: 3000 },
    );
    assert.equal(parseText('["é抹"]').columns.info[1] & FLAGS, Flag.WrittenAsIs);
    assert.equal(parseText('["\u2028"]').columns.info[1] & FLAGS, 0);
    assert.equal(parseText('["abc"]').columns.info[1] & FLAGS, Flag.PlainAscii | Flag.WrittenAsIs);
  });

  test('numbers: Negative exactly when the literal starts with a minus, well-formed or not', () => {
    for (const [literal, negative] of [['1', false], ['-1', true], ['-0', true], ['0.5', false], ['-2.5e3', true], ['-01', true], ['01', false], ['-Infinity', true]] as const) {
      const doc = parseText(`[${literal}]`);
      assert.equal(doc.columns.info[1] & Flag.KindMask, Kind.Number, literal);
      assert.equal((doc.columns.info[1] & Flag.Negative) !== 0, negative, literal);
    }
  });

  test('an edit inside a string gives the flags of a fresh parse', () => {
    const before = '{"job": "urn:babel:a:b", "data": {"name": "Zoe", "city": "Malmö"}}';
    const edit = fc.tuple(fc.constantFrom('"Zoe"', '"Malmö"'), fc.nat(5), fc.constantFrom(...CHARACTERS.filter((c) => !c.includes('\\'))));
    fc.assert(
      fc.property(edit, ([token, offset, inserted]) => {
        const at = before.indexOf(token) + 1 + Math.min(offset, token.length - 2);
        const text = before.slice(0, at) + inserted + before.slice(at);
        const incremental = reparse(parseText(before), text);
        assert.ok(incremental, JSON.stringify(text));
        const fresh = parseText(text);
        assert.deepEqual(Array.from(incremental.columns.info.subarray(0, incremental.columns.count)), Array.from(fresh.columns.info.subarray(0, fresh.columns.count)), JSON.stringify(text));
        // The same properties in the same order: one object shape, so the rules' property reads stay monomorphic.
        assert.deepEqual(Object.keys(incremental.columns), Object.keys(fresh.columns));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});

describe('document depth', () => {
  test('the deepest nesting of containers, which bounds every subtree', () => {
    for (const [text, depth] of [['1', 0], ['{}', 1], ['{"a": [1, {"b": []}], "c": {}}', 4], ['[[[[]]], []]', 4], ['{"a": [[', 3]] as const) {
      assert.equal(parseText(text).columns.depth, depth, text);
    }
  });
});

describe('numbers not plain', () => {
  /** The number slots without PlainNumber, counted from the flags themselves. */
  const counted = (doc: ReturnType<typeof parseText>) => {
    const { info, count } = doc.columns;
    let unplain = 0;
    for (let slot = 0; slot < count; slot++) if ((info[slot] & Flag.KindMask) === Kind.Number && !(info[slot] & Flag.PlainNumber)) unplain++;
    return unplain;
  };

  test('the document counts every number slot the parser did not find plain, clean literal or not', () => {
    const cases: [string, number][] = [
      ['{"a": 1, "b": [2.5, -3, 0.001], "c": {"d": 123456789012345}}', 0],
      ['{"a": 1e5}', 1],
      ['{"a": 1.0, "b": -0, "c": 1234567890123456}', 3],
      ['[NaN, Infinity, -Infinity, 01, +1, .5]', 6],
      ['{"a": "1e5", "b": true, "c": null}', 0],
      ['{"a": 1, "b": 2e', 1],
    ];
    for (const [text, unplain] of cases) {
      const doc = parseText(text);
      assert.equal(doc.columns.unplainNumbers, unplain, text);
      assert.equal(counted(doc), unplain, text);
    }
  });

  test('an edit of a number keeps the count a fresh parse gives', () => {
    const before = '{"attempts": 0, "data": {"price": 12.5, "big": 1e3, "n": 7}}';
    const literals = ['1', '1.0', '1e3', '-0', '12.50', '9007199254740993', '0.25', '42'];
    const edit = fc.tuple(fc.constantFrom('12.5', '1e3', ' 7', ' 0'), fc.constantFrom(...literals));
    fc.assert(
      fc.property(edit, ([token, literal]) => {
        const at = before.indexOf(token) + (token.startsWith(' ') ? 1 : 0);
        const length = token.trim().length;
        const text = before.slice(0, at) + literal + before.slice(at + length);
        fc.pre(text !== before);
        const incremental = reparse(parseText(before), text);
        assert.ok(incremental, text);
        assert.equal(incremental.columns.unplainNumbers, parseText(text).columns.unplainNumbers, text);
        assert.equal(incremental.columns.unplainNumbers, counted(parseText(text)), text);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});
