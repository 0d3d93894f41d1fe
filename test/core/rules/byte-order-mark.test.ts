/**
 * A text stored with a byte-order mark (core/rules/byte-order-mark.ts): the mark split off, the rest
 * analysed as an editor shows it, and the mark one empty json-syntax finding at offset 0 that the
 * settings switch off or re-grade like any other.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeText } from '../../../core/rules/analyze';
import { analyzeStoredText, splitByteOrderMark, withByteOrderMark } from '../../../core/rules/byte-order-mark';
import { normalizeSettings } from '../../../core/rules/settings/settings';

/** One line with a finding on it (attempts as a string), so an offset counted with the mark would show. */
const TEXT = '{"job":"urn:babel:orders:created","trace_id":"bf3cf504-099d-4122-b5f1-42a46741f5e4","data":{},"meta":{"id":"3aee8c1b-f93c-4aaa-954d-879a240b142e","queue":"orders","lang":"python","schema_version":1,"created_at":1763626417054},"attempts":"0"}';

describe('a text stored with a byte-order mark', () => {
  test('splitByteOrderMark takes one leading mark off and says so; any other text is left as it is', () => {
    assert.deepEqual(splitByteOrderMark(`\ufeff${TEXT}`), { text: TEXT, byteOrderMark: true });
    assert.deepEqual(splitByteOrderMark(TEXT), { text: TEXT, byteOrderMark: false });
    // A second mark is the text's own: the parser reports it.
    assert.deepEqual(splitByteOrderMark('\ufeff\ufeff{}'), { text: '\ufeff{}', byteOrderMark: true });
    assert.deepEqual(splitByteOrderMark(''), { text: '', byteOrderMark: false });
  });

  test('analyzeStoredText: the mark first, empty at 0, then the findings of the text without it, at its offsets', () => {
    const { text, diagnostics } = analyzeStoredText(`\ufeff${TEXT}`);
    assert.equal(text, TEXT);
    const [mark, ...rest] = diagnostics;
    assert.deepEqual([mark!.code, mark!.severity, mark!.offset, mark!.end], ['json-syntax', 'error', 0, 0]);
    assert.match(mark!.message, /byte-order mark \(U\+FEFF\)/);
    const plain = analyzeText(TEXT);
    assert.ok(plain.some((d) => d.offset === TEXT.indexOf('"0"')), 'the text has a finding of its own on the mark\'s line');
    assert.deepEqual(rest, plain);
    assert.deepEqual(analyzeStoredText(TEXT).diagnostics, plain);
  });

  test('the settings switch the mark\'s finding off, re-grade it, or turn validation off, as they do json-syntax', () => {
    const off = normalizeSettings({ diagnostics: { severity: { 'json-syntax': 'off' } } }).settings;
    assert.deepEqual(withByteOrderMark(true, [], off), []);
    const warning = normalizeSettings({ diagnostics: { severity: { 'json-syntax': 'warning' } } }).settings;
    assert.deepEqual(withByteOrderMark(true, [], warning).map((d) => d.severity), ['warning']);
    const disabled = normalizeSettings({ validation: { enable: false } }).settings;
    assert.deepEqual(withByteOrderMark(true, [], disabled), []);
    assert.deepEqual(withByteOrderMark(false, [], warning), []);
  });
});
