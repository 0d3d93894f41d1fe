/**
 * Text after the envelope: one finding on the first token that follows it (a second envelope on
 * its opening bracket), as every other finding sits on its smallest token, so a large block after
 * the value is not one long underline. The fast parser and the reference parser agree.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseText } from '../../../core/parse/parser';
import { parseJson as referenceParse } from '../../oracle/reference-parser';

const ENVELOPE = '{ "job": "urn:babel:orders:created" }';

/** What each parser underlines after the envelope, with the message. */
function trailingFindings(text: string): string[][] {
  return [parseText(text), referenceParse(text)].map((doc) => doc.syntaxProblems.map((problem) => `${text.slice(problem.offset, problem.end)} — ${problem.message}`));
}

const CASES: readonly [trailing: string, underlined: string][] = [
  ['\n{\n  "job": "urn:babel:orders:cancelled",\n  "attempts": 0\n}\n', '{'],
  ['\n[1, 2]', '['],
  ['}', '}'],
  [' abc def', 'abc'],
  [' "x" "y"', '"x"'],
  [' "say \\"hi\\"" 1', '"say \\"hi\\""'],
  ['\n"left open\n  , 1', '"left open'],
  [' 42.5e3x, 7', '42.5e3x'],
  [' :', ':'],
];

test('text after the envelope: the finding sits on its first token, in both parsers', () => {
  for (const [trailing, underlined] of CASES) {
    const expected = [`${underlined} — Unexpected text after the end of the JSON value; a file holds exactly one envelope.`];
    assert.deepEqual(trailingFindings(ENVELOPE + trailing), [expected, expected], JSON.stringify(trailing));
  }
});

test('keys after the envelope\'s "}" make that "}" the finding: the envelope goes on after it', () => {
  const text = `${ENVELOPE},\n  "meta": {},\n  "attempts": 0\n}`;
  const expected = ["} — Unexpected '}': the object goes on after it; remove it."];
  assert.deepEqual(trailingFindings(text), [expected, expected]);
});
