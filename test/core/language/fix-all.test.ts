/** core/language/fix-all.ts: every preferred fix, round after round; syntax errors, BOM and CRLF respected. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixAll } from '../../../core/language/fix-all';
import { analyzeText } from '../../../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { stableFresh } from '../../support/fresh';

const BROKEN = '{\n  "urn": "urn:babel:orders:created",\n  "trace_id": "7f8e1c2a-9b3d-4e5f-8a6b-1c2d3e4f5a6b",\n  "timestamp": 1,\n  "data": {},\n  "meta": { "id": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "schema_version": 1, "created_at": 1750000000, "queue": "orders", "lang": "node", "ts": 5 },\n  "attempts": 0\n}\n';

test('the preferred fixes of several findings apply together, and the result re-lints without them', () => {
  const result = fixAll(BROKEN, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  assert.ok(result.applied >= 4, `applied ${result.applied}`);
  const left: string[] = analyzeText(result.text).map((d) => d.code);
  for (const code of ['urn-alias', 'forbidden-key', 'timestamp-unit']) assert.ok(!left.includes(code), `${code} left: ${left.join(', ')}`);
  assert.match(result.text, /"job": "urn:babel:orders:created"/);
  assert.match(result.text, /"created_at": 1750000000000/);
});

test('a document with syntax errors is never touched', () => {
  const text = BROKEN.replace('"attempts": 0', '"attempts": 0,');
  assert.deepEqual(fixAll(text, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh()), { text, applied: 0, refused: 'syntax errors' });
});

test('a BOM is kept and CRLF line breaks stay CRLF', () => {
  const crlf = `\ufeff${BROKEN.replace(/\n/g, '\r\n')}`;
  const result = fixAll(crlf, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  assert.ok(result.applied > 0);
  assert.equal(result.text.charCodeAt(0), 0xfeff);
  assert.ok(!/[^\r]\n/.test(result.text));
});

test('a clean document comes back as it was', () => {
  const clean = fixAll(BROKEN, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh()).text;
  const again = fixAll(clean, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  assert.equal(again.applied, 0);
  assert.equal(again.text, clean);
});
