/**
 * parseTextSteps (core/parse/parser.ts): a parse that stops and goes on, with other parses run
 * between its steps (the language server parses envelopes while a large registry.json is parsed
 * in steps), gives exactly the parse made in one go, problems included.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseText, parseTextSteps } from '../../../core/parse/parser';
import type { ParsedText } from '../../../core/parse/document';
import { GOOD_ENVELOPE } from '../../support/envelopes';

/** Everything a parse made: its columns up to the slots it filled, its decoded strings, depth and problems. */
function made(parsed: ParsedText): unknown {
  const { columns } = parsed;
  const filled = <T extends { slice(start: number, end: number): T }>(column: T) => column.slice(0, columns.count);
  return {
    count: columns.count,
    info: [...filled(columns.info)],
    start: [...filled(columns.start)],
    end: [...filled(columns.end)],
    parent: [...filled(columns.parent)],
    next: [...filled(columns.next)],
    keyStart: [...filled(columns.keyStart)],
    keyEnd: [...filled(columns.keyEnd)],
    colon: [...filled(columns.colon)],
    values: [...filled(columns.values)],
    keys: columns.keys.slice(0, columns.count),
    decoded: [...columns.decoded],
    depth: columns.depth,
    problems: parsed.syntaxProblems,
  };
}

/** The parse in steps of `characters`, with `between` run after each step; and how many steps it took. */
function inSteps(text: string, characters: number | undefined, between: () => void): { parsed: ParsedText; steps: number } {
  const steps = parseTextSteps(text, characters);
  for (let count = 1; ; count++) {
    const step = steps.next();
    if (step.done) return { parsed: step.value, steps: count };
    between();
  }
}

const TEXTS: Record<string, string> = {
  envelope: GOOD_ENVELOPE,
  'with a byte-order mark': `\ufeff${GOOD_ENVELOPE}`,
  'escapes and comments': '{ // a comment\n "a\\u00e9": "x\\ny", /* block */ "b": [1, -2.5e3, true, null, "\\"q\\""] }',
  'broken: unclosed, missing commas, trailing text': '{"a": [1 2, {"b": "c" "d": 1}, "e": }\n]  trailing',
  'never closed, 70 levels deep (past the shared stack of 64)': `${'{"k": ['.repeat(70)}1`,
  'closed, 130 levels deep': `${'['.repeat(130)}"x"${']'.repeat(130)}`,
  registry: `{"schemas": [${Array.from({ length: 200 }, (_, i) => `{"urn": "urn:babel:orders:event-${i}", "schema": "schemas/s${i}.json", "owner": "orders"}`).join(',\n')}]}`,
  empty: '',
};

describe('parseTextSteps', () => {
  for (const [name, text] of Object.entries(TEXTS)) {
    test(`${name}: the same parse in steps of 1 to 9 characters, with other parses between the steps`, () => {
      const whole = made(parseText(text));
      for (let characters = 1; characters <= 9; characters++) {
        // Shallow and deep documents between the steps: they use (and overwrite) the parser's shared stack of open containers.
        let other = 0;
        const between = () => {
          other++;
          parseText(other % 2 === 0 ? '[[[{"a": [1, {"b": 2}]}]]]' : `${'['.repeat(40)}${']'.repeat(40)}`);
        };
        const { parsed, steps } = inSteps(text, characters, between);
        assert.deepEqual(made(parsed), whole, `steps of ${characters} characters`);
        if (text.length > 100) assert.ok(steps >= 5, `it stopped and went on (${steps} steps)`);
      }
    });
  }

  test('a large text takes a step per CHARACTERS_PER_STEP or so, and the default steps give the same parse', () => {
    const text = TEXTS.registry.replace('[', `[${'{"urn": "urn:babel:a:b", "schema": "s.json"},'.repeat(30_000)}`);
    const { parsed, steps } = inSteps(text, undefined, () => parseText(GOOD_ENVELOPE));
    assert.deepEqual(made(parsed), made(parseText(text)));
    assert.ok(steps >= 5, `${text.length} characters in ${steps} steps`);
  });
});
