/** The findings cap per document (too-many-findings): a file of many wrong values reports the first ones and one note, fast. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GOOD_ENVELOPE } from '../../support/envelopes';
import { analyzeText } from '../../../core/rules/analyze';
import { normalizeSettings } from '../../../core/rules/settings';
import { MAX_FINDINGS_PER_DOCUMENT } from '../../../core/rules/context';

/** A valid envelope whose data holds `count` float amounts (one float-currency each). */
function floatAmounts(count: number): string {
  const envelope = JSON.parse(GOOD_ENVELOPE) as { data: Record<string, unknown> };
  envelope.data = { lines: Array.from({ length: count }, () => ({ amount: 9.99 })) };
  return JSON.stringify(envelope, null, 1);
}

test('20,000 wrong values: 10,000 findings listed and one information note on the first character that counts the rest', () => {
  const found = analyzeText(floatAmounts(20_000));
  assert.equal(found.length, MAX_FINDINGS_PER_DOCUMENT + 1);
  const notes = found.filter((diagnostic) => diagnostic.code === 'too-many-findings');
  assert.equal(notes.length, 1);
  assert.equal(notes[0].severity, 'information');
  assert.deepEqual([notes[0].offset, notes[0].end], [0, 1]);
  assert.match(notes[0].message, /^20,000 findings in this document: the first 10,000 found are listed, the other 10,000 are not/);
  assert.equal(found.filter((diagnostic) => diagnostic.code === 'float-currency').length, MAX_FINDINGS_PER_DOCUMENT);
});

test('at the cap exactly: every finding and no note', () => {
  const found = analyzeText(floatAmounts(MAX_FINDINGS_PER_DOCUMENT));
  assert.equal(found.length, MAX_FINDINGS_PER_DOCUMENT);
  assert.ok(!found.some((diagnostic) => diagnostic.code === 'too-many-findings'));
});

test('a code turned off takes no room under the cap', () => {
  const { settings } = normalizeSettings({ diagnostics: { severity: { 'float-currency': 'off' } } });
  assert.deepEqual(analyzeText(floatAmounts(20_000), settings), []);
});

test('a 40 MB file of 400,000 wrong values is analysed within a bound (the findings past the cap are counted, not kept)', () => {
  const text = floatAmounts(400_000);
  const started = performance.now();
  const found = analyzeText(text);
  const elapsed = performance.now() - started;
  assert.equal(found.length, MAX_FINDINGS_PER_DOCUMENT + 1);
  assert.match(found.find((diagnostic) => diagnostic.code === 'too-many-findings')!.message, /^400,000 findings/);
  assert.ok(elapsed < 5000, `${elapsed.toFixed(0)} ms`);
});
