/** The findings cap per document (too-many-findings): a file of many wrong values reports the first ones and one note, fast. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GOOD_ENVELOPE } from '../../support/envelopes';
import { analyzeDocument, analyzeText } from '../../../core/rules/analyze';
import { reparse } from '../../../core/parse/incremental';
import { parseText } from '../../../core/parse/parser';
import { normalizeSettings } from '../../../core/rules/settings/settings';
import { MAX_FINDINGS_PER_DOCUMENT, MAX_LISTED_WITH_ERRORS } from '../../../core/rules/context';

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
  assert.match(notes[0].message, /^20,000 findings in this document: 10,000 are listed \(the first 10,000, then only errors, up to 20,000\), the other 10,000 are not/);
  // The cap's room went to the warnings found first (the integer's own encoding-divergence among them, folded into its error).
  const floats = found.filter((diagnostic) => diagnostic.code === 'float-currency').length;
  assert.ok(floats >= MAX_FINDINGS_PER_DOCUMENT - 1 && floats <= MAX_FINDINGS_PER_DOCUMENT, String(floats));
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

test('an error past the cap is listed all the same: a file with one still fails', () => {
  const envelope = JSON.parse(floatAmounts(12_000)) as { data: { lines: unknown[] } };
  const text = JSON.stringify(envelope, null, 1).replace(/\]\s*\}\s*,\s*"meta"/, ', { "order_ref": 123456789012345678901234567890 }] }, "meta"');
  const found = analyzeText(text);
  assert.ok(found.some((diagnostic) => diagnostic.severity === 'error' && diagnostic.code === 'unsafe-integer'), 'the unsafe integer after 12,000 warnings');
  // The cap's room went to the warnings found first (the integer's own encoding-divergence among them, folded into its error).
  const floats = found.filter((diagnostic) => diagnostic.code === 'float-currency').length;
  assert.ok(floats >= MAX_FINDINGS_PER_DOCUMENT - 1 && floats <= MAX_FINDINGS_PER_DOCUMENT, String(floats));
  assert.equal(found.filter((diagnostic) => diagnostic.code === 'too-many-findings').length, 1);
});

test('typing under the cap: the incremental analysis lists what a fresh one lists', () => {
  const base = JSON.parse(floatAmounts(MAX_FINDINGS_PER_DOCUMENT)) as { data: Record<string, unknown> };
  base.data = { is_active: 'yes', ...base.data };
  const before = JSON.stringify(base, null, 1);
  const after = before.replace('"is_active": "yes"', '"is_active": "true"');
  const previous = parseText(before);
  const analysed = analyzeDocument(previous);
  const next = reparse(previous, after);
  assert.ok(next, 'the edit is a string edit');
  const incremental = analyzeDocument(next, undefined, undefined, analysed).diagnostics;
  const fresh = analyzeText(after);
  assert.deepEqual(incremental.map((d) => [d.code, d.offset]), fresh.map((d) => [d.code, d.offset]));
  assert.ok(fresh.some((diagnostic) => diagnostic.code === 'non-json-boolean'), 'the finding just typed is listed');
});

test('typing an error into a number when the reused findings fill the cap: what a fresh analysis lists', () => {
  const half = MAX_FINDINGS_PER_DOCUMENT / 2;
  const envelope = JSON.parse(GOOD_ENVELOPE) as { data: unknown };
  envelope.data = { a: Array.from({ length: half }, () => ({ price: 1.5 })), id: 1, b: Array.from({ length: half - 1 }, () => ({ price: 1.5 })) };
  const before = JSON.stringify(envelope, null, 1);
  // Beyond 64 bits: an error, which is kept past the cap.
  const after = before.replace('"id": 1,', '"id": 12345678901234567890,');
  assert.notEqual(after, before);
  const previous = parseText(before);
  const analysed = analyzeDocument(previous);
  const next = reparse(previous, after);
  assert.ok(next?.edit?.kind === 'number', 'the edit is a number edit');
  const incremental = analyzeDocument(next, undefined, undefined, analysed).diagnostics;
  const fresh = analyzeText(after);
  assert.deepEqual(incremental.map((d) => [d.code, d.offset]), fresh.map((d) => [d.code, d.offset]));
  assert.ok(fresh.some((diagnostic) => diagnostic.code === 'unsafe-integer') && fresh.some((diagnostic) => diagnostic.code === 'too-many-findings'));
});

test('errors past the cap are listed up to twice the cap, no further: 130,000 duplicate keys in 780 KB are not all built and sent', () => {
  const text = `{"data":{${Array.from({ length: 130_000 }, () => '"a":0').join(',')}}}`;
  const started = performance.now();
  const found = analyzeText(text);
  const elapsed = performance.now() - started;
  assert.equal(found.length, MAX_LISTED_WITH_ERRORS + 1);
  assert.equal(found.filter((diagnostic) => diagnostic.code === 'duplicate-key').length, MAX_LISTED_WITH_ERRORS - found.filter((diagnostic) => diagnostic.code !== 'duplicate-key' && diagnostic.code !== 'too-many-findings').length);
  const note = found.find((diagnostic) => diagnostic.code === 'too-many-findings')!;
  assert.match(note.message, /^1\d\d,\d{3} findings in this document: 20,000 are listed \(the first 10,000, then only errors, up to 20,000\), the other 1\d\d,\d{3} are not\./);
  assert.ok(elapsed < 5000, `${elapsed.toFixed(0)} ms`);
});
