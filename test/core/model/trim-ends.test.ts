/**
 * Trimming by a set of characters, in one pass from each end: a regular expression such as
 * `\s+$` tries every start inside a run of spaces, so a value with a long run of them in its
 * middle (a padded URN, a trace_id) took time growing with the square of the run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goTrimSpace } from '../../../core/encode/go';
import { consumerVerdicts } from '../../../core/message/acceptance';
import { trimEnds } from '../../../core/model/trim-ends';
import { parseJson, parseText } from '../../../core/parse/parser';
import { analyze } from '../../../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';

test('trimEnds takes exactly the characters its test names, from both ends and nowhere else', () => {
  const isSpace = (code: number) => code === 0x20;
  assert.equal(trimEnds('  a  b  ', isSpace), 'a  b');
  assert.equal(trimEnds('    ', isSpace), '');
  assert.equal(trimEnds('', isSpace), '');
  assert.equal(trimEnds('\ta\t', isSpace), '\ta\t');
});

test("goTrimSpace takes Unicode White_Space, as strings.TrimSpace does, and nothing else, at either end", () => {
  for (let code = 0; code <= 0xffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const character = String.fromCharCode(code);
    const expected = /^\p{White_Space}$/u.test(character) ? 'a' : `${character}a${character}`;
    assert.equal(goTrimSpace(`${character}a${character}`), expected, code.toString(16));
  }
  assert.equal(goTrimSpace('\u0085 \u00a0urn\u3000'), 'urn');
  assert.equal(goTrimSpace('\ufeffurn'), '\ufeffurn');
});

const RUN = ' '.repeat(300_000);
const envelope = (fields: Record<string, unknown>) =>
  JSON.stringify({ job: 'urn:babel:orders:created', trace_id: '9f0c3f4e-8a55-4c5b-9d1e-2b7f4a6c8d10', data: { a: 1 }, meta: { id: '9f0c3f4e-8a55-4c5b-9d1e-2b7f4a6c8d11', queue: 'orders', lang: 'php', schema_version: 1, created_at: 1749132727000 }, attempts: 0, ...fields });

/** Runs `work` and says how long it took; a square of 300,000 steps would take minutes. */
function timed(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

test('a padded job with a long run of spaces inside is worded in one pass (invalid-urn)', () => {
  const text = envelope({ job: ` urn:babel:orders:created${RUN}x ` });
  let messages: string[] = [];
  const elapsed = timed(() => (messages = analyze(parseText(text), DEFAULT_SETTINGS).filter((d) => d.code === 'invalid-urn').map((d) => d.message)));
  assert.match(messages[0] ?? '', /PHP, Python and Go route on it padded/);
  assert.ok(elapsed < 5_000, `${Math.round(elapsed)} ms`);
});

test("the Go consumer's verdict on a trace_id or urn alias with a long run of spaces inside takes one pass", () => {
  for (const fields of [{ trace_id: `a${RUN}b` }, { job: '', urn: `urn:babel:orders:created${RUN}x` }]) {
    const doc = parseJson(envelope(fields));
    let kind = '';
    const elapsed = timed(() => (kind = consumerVerdicts(doc).find((verdict) => verdict.sdk === 'go')!.kind));
    assert.equal(kind, 'accepts', Object.keys(fields).join());
    assert.ok(elapsed < 5_000, `${Object.keys(fields).join()}: ${Math.round(elapsed)} ms`);
  }
});
