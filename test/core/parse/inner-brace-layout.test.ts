/**
 * An inner object's "}" left out is read from the layout only where the layout can say it: the
 * indentation of two lines is compared when both are spaces, or both tabs (or one is none). With
 * spaces on one line and tabs on the other, how deep each is depends on the editor's tab width,
 * so a document whose root "}" is the one missing is not read as one whose inner "}" is.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toJsValue } from '../../../core/model/js-value';
import { parseText } from '../../../core/parse/parser';
import { parseJson as referenceParse } from '../../oracle/reference-parser';

const NEVER_CLOSED = "This object is never closed: expected '}' before the end of the file.";
const INNER_LEFT_OPEN = "Expected '}' before this comma: the object's closing brace is missing.";

/** [text, what it reads as, its one problem's token and message] */
const CASES: readonly [string, string, unknown, string, string][] = [
  [
    'a key indented with tabs in an object indented with spaces: the root "}" is missing',
    '{\n    "payload": {\n        "a": 1,\n\t\t"b": 2\n    }\n',
    { payload: { a: 1, b: 2 } },
    '{',
    NEVER_CLOSED,
  ],
  [
    'an object indented with tabs and spaces on its line, its keys with tabs: the root "}" is missing',
    '{\n  \t"payload": {\n\t\t\t\t"a": 1,\n\t\t"b": 2\n\t}\n',
    { payload: { a: 1, b: 2 } },
    '{',
    NEVER_CLOSED,
  ],
  [
    'tabs throughout: the inner "}" is missing, as the layout says',
    '{\n\t"payload": {\n\t\t"a": 1\n\t,\n\t"b": 2\n}\n',
    { payload: { a: 1 }, b: 2 },
    ',',
    INNER_LEFT_OPEN,
  ],
  [
    'spaces throughout: the inner "}" is missing, as the layout says',
    '{\n  "payload": {\n    "a": 1,\n  "b": 2\n}\n',
    { payload: { a: 1 }, b: 2 },
    ',',
    INNER_LEFT_OPEN,
  ],
];

for (const [name, text, meant, token, message] of CASES) {
  test(name, () => {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      const problems = doc.syntaxProblems.map((problem) => `${text.slice(problem.offset, problem.end)} — ${problem.message}`);
      assert.deepEqual(problems, [`${token} — ${message}`], parser);
      assert.deepEqual(toJsValue(doc.root!), meant, parser);
    }
  });
}
