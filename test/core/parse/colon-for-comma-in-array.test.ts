/**
 * A colon between two array items (`["a", "b": "c"]`, a key and its value typed into an array) is
 * no array left open: the item after the colon is followed by the array's own "]", or by another
 * item, not by the next key of the object around the array. The array keeps its items, and the one
 * finding is on the colon, where the mistake is, saying what to write. An array whose "]" is left out before the next key
 * (`"items": [1, 2, "next": 3}`) is still read so. The reference parser alike.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toJsValue } from '../../../core/model/js-value';
import { parseText } from '../../../core/parse/parser';
import { parseJson as referenceParse } from '../../oracle/reference-parser';

const CLOSING_BRACKET_MISSING = "Expected ']' before this comma: the array's closing bracket is missing.";

/** [text, what it reads as, the tokens its problems are on] */
const CASES: readonly [string, unknown, string[]][] = [
  ['{"tags": ["a", "b": "c"]}', { tags: ['a', 'b', 'c'] }, [':']],
  ['{"tags": ["a", "b" : 1], "n": 1}', { tags: ['a', 'b', 1], n: 1 }, [':']],
  ['{"a": [{"x": 1}, "b": true\n]}', { a: [{ x: 1 }, 'b', true] }, [':']],
  ['{"tags": ["a", "b": "c", "d"]}', { tags: ['a', 'b', 'c', 'd'] }, [':']],
  ['{"tags": ["a", "b": "c", {"d": 1}]}', { tags: ['a', 'b', 'c', { d: 1 }] }, [':']],
];

/** [text, the one problem's message] */
const MESSAGES: readonly [string, string][] = [
  ['{"tags": ["a", "b": "c"]}', 'Arrays hold values, not key: value pairs; write an object {…} or remove `: "c"`.'],
  ['{"tags": ["a", "b" :\n  -1.5e3]}', 'Arrays hold values, not key: value pairs; write an object {…} or remove `: -1.5e3`.'],
  ['{"tags": ["b": {"c": 1}]}', 'Arrays hold values, not key: value pairs; write an object {…} or remove `: {…}`.'],
  ['{"tags": ["b": [1]]}', 'Arrays hold values, not key: value pairs; write an object {…} or remove `: […]`.'],
  ['{"tags": ["a", "b":]}', 'Arrays hold values, not key: value pairs; write an object {…} or remove `:`.'],
  [`{"tags": ["a", "b": "${'c'.repeat(100)}"]}`, `Arrays hold values, not key: value pairs; write an object {…} or remove \`: "${'c'.repeat(56)}…\`.`],
];

for (const [text, message] of MESSAGES) {
  test(`${JSON.stringify(text.slice(0, 40))}: the colon's finding says what to write`, () => {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      assert.deepEqual(doc.syntaxProblems.map((problem) => `${text.slice(problem.offset, problem.end)} ${problem.message}`), [`: ${message}`], parser);
    }
  });
}

test('a key and its value typed into a fixture\'s array leave the rest of the document read as written', () => {
  const text = '{"data": {"tags": ["a", "b": "c"], "total": -1, "next": [1, 2]}}';
  for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
    assert.equal(doc.syntaxProblems.length, 1, parser);
    assert.deepEqual(toJsValue(doc.root!), { data: { tags: ['a', 'b', 'c'], total: -1, next: [1, 2] } }, parser);
  }
});

for (const [text, meant, tokens] of CASES) {
  test(`${JSON.stringify(text)}: the array keeps its items, the problems on the colon`, () => {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      assert.deepEqual(doc.syntaxProblems.map((problem) => text.slice(problem.offset, problem.end)), tokens, parser);
      assert.ok(!doc.syntaxProblems.some((problem) => problem.message === CLOSING_BRACKET_MISSING), parser);
      assert.deepEqual(toJsValue(doc.root!), meant, parser);
    }
  });
}

test('an array whose "]" is left out before the next key is still closed there', () => {
  for (const [text, meant] of [
    ['{"items": [1, 2, "next": 3}', { items: [1, 2], next: 3 }],
    ['{"items": [1, 2, "next": "x", "z": 1}', { items: [1, 2], next: 'x', z: 1 }],
    ['{"items": [1, 2,\n  "next": {"a": 1}}', { items: [1, 2], next: { a: 1 } }],
  ] as const) {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      assert.deepEqual(doc.syntaxProblems.map((problem) => problem.message), [CLOSING_BRACKET_MISSING], `${parser}: ${text}`);
      assert.deepEqual(toJsValue(doc.root!), meant, `${parser}: ${text}`);
    }
  }
});

test('colons typed for commas in an array: four times the items cost about four times the parse (only the item after each colon is looked at)', () => {
  const items = (count: number) => `{"t": [0, ${Array.from({ length: count }, (_, i) => `"a${i}": "b${i}"`).join(', ')}]}`;
  const fastest = (text: string) => Math.min(...Array.from({ length: 5 }, () => {
    const started = performance.now();
    parseText(text);
    return performance.now() - started;
  }));
  fastest(items(10_000));
  const small = fastest(items(10_000));
  const large = fastest(items(40_000));
  assert.ok(large <= 8 * small + 20, `10,000 items ${small.toFixed(1)} ms, 40,000 items ${large.toFixed(1)} ms`);
});
