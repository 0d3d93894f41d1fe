/**
 * The parser against the reference parser on every text one typing mistake away from a valid
 * envelope (pretty-printed and on one line): each character deleted, and each of the characters
 * typing slips put in its place or before it. Random mutation (test/oracle/differential.ts) seldom
 * makes exactly these, and they are what the parser's recovery paths read. Where the mistake is
 * one syntax problem, each repair it carries (json-syntax's quick fixes) leaves JSON.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { SyntaxRepair } from '../../core/model/tree';
import { parseJson } from '../../core/parse/parser';
import { canonical } from './differential';
import { parseJson as referenceParse } from './reference-parser';

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const SLIPS = ['"', "'", ':', ',', ';', '=', '{', '}', '[', ']', '\n', '\r\n', '\\', 'x', '1', ' '];

test('one mistake away from an envelope: the parser and the reference parser read the same tree and problems, and a lone problem\'s repairs leave JSON', () => {
  let checked = 0;
  const repairs: [string, SyntaxRepair][] = [];
  for (const name of ['orders/order-created.babel.json', 'identity/user-registered.babel.json']) {
    const pretty = readFileSync(join(EXAMPLES, name), 'utf8');
    for (const valid of [pretty, `${JSON.stringify(JSON.parse(pretty))}\n`]) {
      for (let at = 0; at <= valid.length; at++) {
        const texts = [valid.slice(0, at) + valid.slice(at + 1)];
        for (const slip of SLIPS) texts.push(valid.slice(0, at) + slip + valid.slice(at), valid.slice(0, at) + slip + valid.slice(at + 1));
        for (const text of texts) {
          const parsed = parseJson(text);
          const fast = canonical(parsed);
          if (fast !== canonical(referenceParse(text))) assert.equal(fast, canonical(referenceParse(text)), JSON.stringify(text));
          checked++;
          if (parsed.syntaxProblems.length === 1) for (const repair of parsed.syntaxProblems[0].repairs ?? []) repairs.push([text, repair]);
        }
      }
    }
  }
  assert.ok(checked > 50_000, `only ${checked} texts`);
  // The repairs of a text whose one mistake is its one problem: each leaves text with none, which JSON.parse reads.
  const broken: string[] = [];
  for (const [text, repair] of repairs) {
    const fixed = text.slice(0, repair.offset) + repair.text + text.slice(repair.end);
    const left = parseJson(fixed).syntaxProblems;
    if (left.length > 0) broken.push(`${repair.title} in ${JSON.stringify(text)}: ${left[0].message}`);
    else JSON.parse(fixed);
  }
  assert.deepEqual(broken.slice(0, 10), []);
  assert.ok(repairs.length > 10_000, `only ${repairs.length} repairs`);
});
