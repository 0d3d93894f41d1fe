/**
 * A property name broken across two lines is one problem that says the name to write, written as
 * JSON writes it: a quote or a backslash the name holds (written escaped) is escaped in the advice
 * too, so what the message says to write is a name that parses. The reference parser alike.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseText } from '../../../core/parse/parser';
import { parseJson as referenceParse } from '../../oracle/reference-parser';

/** [text, the name the advice writes] */
const CASES: readonly [string, string][] = [
  ['{"custo\n  mer_id": 1}', '"customer_id"'],
  ['{"say \\"hi\n  \\"": 1}', '"say \\"hi\\""'],
  ['{"a\\\\b\n  c": 1}', '"a\\\\bc"'],
];

for (const [text, written] of CASES) {
  test(`${JSON.stringify(text)}: the advice writes ${written}, which parses as the name read`, () => {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      const messages = doc.syntaxProblems.map((problem) => problem.message);
      assert.deepEqual(messages, [`This property name runs onto the next line: join the lines, write ${written}.`], parser);
      const key = doc.root?.kind === 'object' ? doc.root.properties[0]?.key : undefined;
      assert.equal(JSON.parse(written), key, parser);
    }
  });
}

test('a long name broken across two lines, and a long stray word before a value, are quoted by their start, as a fixture\'s key is', () => {
  const long = 'a'.repeat(100_000);
  for (const text of [`{"${long}\n  x": 1}`, `{"n": ${long} 1}`]) {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      const [problem] = doc.syntaxProblems;
      assert.equal(doc.syntaxProblems.length, 1, parser);
      assert.ok(problem.message.length < 1_000, `${parser}: ${problem.message.length} characters`);
      assert.match(problem.message, /a…/, parser);
    }
  }
});
