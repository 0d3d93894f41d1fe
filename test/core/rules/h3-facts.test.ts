/**
 * Findings checked against the measured SDK facts (babelqueue-facts-2.md §2, consumer acceptance).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseText } from '../../../core/parse/parser';
import { analyze } from '../../../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';

const envelope = (attempts: string): string =>
  `{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{"order_id":1042},` +
  `"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"node","schema_version":1,"created_at":1749132727000},"attempts":${attempts}}`;

const onAttempts = (attempts: string) => {
  const text = envelope(attempts);
  const at = text.lastIndexOf(attempts);
  return analyze(parseText(text), DEFAULT_SETTINGS).filter((d) => d.offset === at);
};

test('attempts beyond signed 64-bit: PHP decodes a float and rejects it, Go fails to decode: an error', () => {
  const found = onAttempts('9223372036854775808');
  assert.deepEqual(found.map((d) => [d.code, d.severity]), [['invalid-value', 'error']]);
  assert.match(found[0].message, /PHP/);
  assert.match(found[0].message, /Go/);
});

test('attempts at the signed 64-bit limit is no error of invalid-value (only the warning that Java reads it as a 32-bit int)', () => {
  assert.deepEqual(onAttempts('9223372036854775807').filter((d) => d.code === 'invalid-value').map((d) => d.severity), ['warning']);
});

test('attempts beyond signed 64-bit from a PHP producer: one finding on the token (invalid-value carries consumer-rejects)', () => {
  const text = envelope('9223372036854775808').replace('"lang":"node"', '"lang":"php"');
  const at = text.lastIndexOf('9223372036854775808');
  const found = analyze(parseText(text), DEFAULT_SETTINGS).filter((d) => d.offset === at);
  assert.deepEqual(found.map((d) => d.code), ['invalid-value']);
  assert.deepEqual(found[0].related?.map((r) => r.code), ['consumer-rejects']);
});

test('attempts written 00: one cause, one finding (json-syntax carries wrong-type)', () => {
  const found = onAttempts('00');
  assert.deepEqual(found.map((d) => d.code), ['json-syntax']);
  assert.deepEqual(found[0].related?.map((r) => r.code), ['wrong-type']);
});

const urnAlias = (text: string) => analyze(parseText(text), DEFAULT_SETTINGS).filter((d) => d.code === 'urn-alias');

test('a whitespace job beside urn: Node rejects it, PHP, Python and Go route on the blank URN, only Java falls back (facts-2 §2)', () => {
  const text = envelope('0').replace('"job":"urn:babel:orders:created"', '"job":"   ","urn":"urn:babel:orders:created"');
  const [finding] = urnAlias(text);
  assert.match(finding.message, /Node/);
  assert.match(finding.message, /only Java/);
  assert.doesNotMatch(finding.message, /PHP rejects/);
});

test('an empty job beside urn: PHP rejects the shape (missing_urn), the others fall back', () => {
  const text = envelope('0').replace('"job":"urn:babel:orders:created"', '"job":"","urn":"urn:babel:orders:created"');
  assert.match(urnAlias(text)[0].message, /PHP rejects/);
});

test('urn alone: the message does not claim the published bytes never carry "urn" (PHP, Python and Node relays keep it)', () => {
  const text = envelope('0').replace('"job":', '"urn":');
  assert.doesNotMatch(urnAlias(text)[0].message, /never "urn"/);
});
