/**
 * A "{" typed before a key after an object value (`"data": {…},\n  {"meta": {…}`) is no array
 * whose "[" is left out: an array's items share their keys, and "meta" is none of data's. It is
 * one finding on that "{", and data stays an object. Objects that share a key after it
 * (`"items": {"sku": …}, {"sku": …}]`) are still read as an array's items. The reference
 * parser alike.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toJsValue } from '../../../core/model/js-value';
import { parseText } from '../../../core/parse/parser';
import { parseJson as referenceParse } from '../../oracle/reference-parser';

const OPENING_BRACKET_MISSING = "Expected '[' before '{': the array's opening bracket is missing.";

test('a "{" before a key that the object before it does not hold: one finding on it, the object before it kept', () => {
  const text = '{\n  "data": {\n    "order_id": 1042\n  },\n  {"meta": {\n    "id": "x"\n  },\n  "attempts": 0\n}\n';
  const stray = text.indexOf('{"meta"');
  for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
    assert.ok(!doc.syntaxProblems.some((problem) => problem.message === OPENING_BRACKET_MISSING), parser);
    assert.deepEqual(doc.syntaxProblems.map((problem) => problem.offset), [stray], parser);
    const root = toJsValue(doc.root!) as Record<string, unknown>;
    assert.deepEqual(root.data, { order_id: 1042 }, parser);
  }
});

test('objects that share a key after the first: still an array whose "[" is left out', () => {
  for (const [text, meant] of [
    ['{"items": {"sku": "a", "n": 1}, {"sku": "b", "n": 2}], "z": 1}', { items: [{ sku: 'a', n: 1 }, { sku: 'b', n: 2 }], z: 1 }],
    ['{"items": {"sku": "a", "n": 1}, {"n": 2}]}', { items: [{ sku: 'a', n: 1 }, { n: 2 }] }],
    ['{"items": {"sku": "a"}, {}]}', { items: [{ sku: 'a' }, {}] }],
  ] as const) {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      assert.deepEqual(doc.syntaxProblems.map((problem) => problem.message), [OPENING_BRACKET_MISSING], `${parser}: ${text}`);
      assert.deepEqual(toJsValue(doc.root!), meant, `${parser}: ${text}`);
    }
  }
});

test('arrays without their "[" whose items share a key, and stray "{"s after wide objects: four times the size costs about four times the parse (each object\'s keys looked at once)', () => {
  const fastest = (text: string) => Math.min(...Array.from({ length: 5 }, () => {
    const started = performance.now();
    parseText(text);
    return performance.now() - started;
  }));
  const shapes = [
    (count: number) => `{${Array.from({ length: count }, (_, i) => `"a${i}": {"x": 1, "y": 2}, {"y": 1}]`).join(', ')}}`,
    (count: number) => `{"a": {${Array.from({ length: count }, (_, i) => `"k${i}": 1`).join(', ')}}, {"q": 1}, {"q": 1}}`,
  ];
  for (const shape of shapes) {
    fastest(shape(10_000));
    const small = fastest(shape(10_000));
    const large = fastest(shape(40_000));
    assert.ok(large <= 8 * small + 20, `10,000: ${small.toFixed(1)} ms, 40,000: ${large.toFixed(1)} ms`);
  }
});
