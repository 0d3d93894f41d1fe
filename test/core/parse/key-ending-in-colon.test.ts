/**
 * A key whose own text ends in a colon (`"url:"`, `"note: "`) is a well-formed key: when the
 * colon after it is left out, that is the one mistake, said once on the key, and the value and
 * the keys after it read as written. Only a key that took its value's opening quote
 * (`"queue: "orders",`) is split at its colon. The fast parser and the reference parser agree.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toJsValue } from '../../../core/model/js-value';
import { parseText } from '../../../core/parse/parser';
import { parseJson as referenceParse } from '../../oracle/reference-parser';

/** [text, what it reads as, the one problem's token] */
const CASES: readonly [string, unknown, string][] = [
  ['{"url:" "http://x", "d": 1}', { 'url:': 'http://x', d: 1 }, '"url:"'],
  ['{"note: " "c", "d": 1}', { 'note: ': 'c', d: 1 }, '"note: "'],
  ['{"a:""c","d":1}', { 'a:': 'c', d: 1 }, '"a:"'],
  ['{"a:" 1, "d": 2}', { 'a:': 1, d: 2 }, '"a:"'],
  ['{"a:"1,"d":2}', { 'a:': 1, d: 2 }, '"a:"'],
];

for (const [text, meant, token] of CASES) {
  test(`${text}: one problem, on ${token}, and the rest as written`, () => {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      const problems = doc.syntaxProblems.map((problem) => `${text.slice(problem.offset, problem.end)} — ${problem.message}`);
      assert.equal(problems.length, 1, `${parser}: ${problems.join('\n')}`);
      assert.equal(problems[0].split(' — ')[0], token, parser);
      assert.deepEqual(toJsValue(doc.root!), meant, parser);
    }
  });
}

test('a key that took its value\'s opening quote is still split at its colon', () => {
  for (const text of ['{"queue: "orders", "d": 1}', '{"queue: "", "d": 1}']) {
    for (const doc of [parseText(text), referenceParse(text)]) {
      assert.equal(doc.syntaxProblems.length, 1, text);
      assert.deepEqual(Object.keys(toJsValue(doc.root!) as object), ['queue', 'd'], text);
    }
  }
});

test('a key with colons in its name (a Redis key, a URN) that lacks its closing quote is split at its last colon, the one before its value', () => {
  const cases: readonly [string, unknown][] = [
    ['{\n  "user:42: 5,\n  "b": 1\n}', { 'user:42': 5, b: 1 }],
    ['{"user:42:5,"b":1}', { 'user:42': 5, b: 1 }],
    ['{\n  "user:42: "x",\n  "b": 1\n}', { 'user:42': 'x', b: 1 }],
  ];
  for (const [text, meant] of cases) {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      const problems = doc.syntaxProblems.map((problem) => `${text.slice(problem.offset, problem.end)} — ${problem.message}`);
      assert.deepEqual(problems, ['"user:42 — The property name "user:42" lacks its closing double quote: write "user:42".'], `${parser}: ${text}`);
      assert.deepEqual(toJsValue(doc.root!), meant, `${parser}: ${text}`);
    }
  }
});
