/**
 * A string item whose closing quote moved past its comma (`["x,"b"]`: the quote that should
 * close "x" opens "b" instead, so "x," closes on the quote meant for "b") is one mistake, said
 * once on the string left open, and the items after it read as written, as in an object
 * (`"orders,"lang": …`). The fast parser and the reference parser agree.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toJsValue } from '../../../core/model/js-value';
import { parseText } from '../../../core/parse/parser';
import { parseJson as referenceParse } from '../../oracle/reference-parser';

/** [text, what it reads as, the one problem's token] */
const CASES: readonly [string, unknown, string][] = [
  ['["x,"b"]', ['x', 'b'], '"x'],
  ['["a", "x,"b", "c"]', ['a', 'x', 'b', 'c'], '"x'],
  ['{"tags": ["red,"blue"], "n": 1}', { tags: ['red', 'blue'], n: 1 }, '"red'],
  ['[\n  "x,"b",\n  "c"\n]', ['x', 'b', 'c'], '"x'],
  ['["x,"1 b"]', ['x', '1 b'], '"x'],
];

for (const [text, meant, token] of CASES) {
  test(`${JSON.stringify(text)}: one problem, on ${token}, and the rest as written`, () => {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      const problems = doc.syntaxProblems.map((problem) => `${text.slice(problem.offset, problem.end)} — ${problem.message}`);
      assert.deepEqual(problems, [`${token} — Unterminated string: add the closing double quote.`], parser);
      assert.deepEqual(toJsValue(doc.root!), meant, parser);
    }
  });
}

test('a string item that holds a comma and a quote and is closed is read as written', () => {
  // `"x,"` followed by a comma is a whole item: nothing after it is a string's rest.
  for (const text of ['["x,", "b"]', '["x,"]']) {
    for (const doc of [parseText(text), referenceParse(text)]) {
      assert.deepEqual(doc.syntaxProblems, []);
      assert.deepEqual(toJsValue(doc.root!), JSON.parse(text));
    }
  }
});

/** [text, what it reads as, the one problem's token and message] */
const SWALLOWED_BRACKET: readonly [string, unknown, string][] = [
  ['{"data": ["x, ]"b"], "n": 1}', { data: ['x', 'b'], n: 1 }, '"x — Unterminated string: add the closing double quote before `, ]`; as written, the string ends only at the quote that opens "b".'],
  ['{"data": ["a", "x, ] "b", 2]}', { data: ['a', 'x', 'b', 2] }, '"x — Unterminated string: add the closing double quote before `, ] `; as written, the string ends only at the quote that opens "b".'],
  ['{"data": "x, }"b": 1, "n": 2}', { data: 'x', b: 1, n: 2 }, '"x — Unterminated string: add the closing double quote before `, }`; as written, the string ends only at the quote that opens "b".'],
];

for (const [text, meant, problem] of SWALLOWED_BRACKET) {
  test(`${JSON.stringify(text)}: a string that took in a comma and a bracket is one problem, and what follows reads as written`, () => {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      assert.deepEqual(doc.syntaxProblems.map((found) => `${text.slice(found.offset, found.end)} — ${found.message}`), [problem], parser);
      assert.deepEqual(toJsValue(doc.root!), meant, parser);
    }
  });
}
