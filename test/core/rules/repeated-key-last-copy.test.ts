/**
 * A key repeated in one object is read by every SDK decoder as its last copy (facts part 2, §1.7
 * and §2: "duplicate job: last wins" in all five measured; Go merges repeated meta, data and
 * dead_letter objects key by key, keeping the last value of each key). The rules judge what the
 * fleet reads, so a finding about a repeated key's value is about its last copy; the earlier
 * copies are duplicate-key's finding alone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseText } from '../../../core/parse/parser';
import { analyze } from '../../../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { memoryRegistry } from '../../support/memory-registry';

const META = '"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"php","schema_version":1,"created_at":1749132727000}';
const TRACE = '"trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"';
const envelope = (parts: { job?: string; trace?: string; data?: string; meta?: string; attempts?: string } = {}) =>
  `{${parts.job ?? '"job":"urn:babel:orders:created"'},${parts.trace ?? TRACE},${parts.data ?? '"data":{"amount":5}'},${parts.meta ?? META},${parts.attempts ?? '"attempts":0'}}`;

const registry = memoryRegistry({
  'registry.json': { schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/created.json' }, { urn: 'urn:babel:orders:refunded', schema: 'schemas/refunded.json' }] },
  'schemas/created.json': { type: 'object', required: ['amount'], properties: { amount: { type: 'integer' } } },
  'schemas/refunded.json': { type: 'object', required: ['amount'], properties: { amount: { type: 'string' } } },
});

const lint = (text: string) => analyze(parseText(text), DEFAULT_SETTINGS, registry);
/** The findings other than duplicate-key, as `code @ the text they sit on`. */
const findings = (text: string) => lint(text).filter((d) => d.code !== 'duplicate-key').map((d) => `${d.code} @ ${text.slice(d.offset, d.end)}`);
/** The offset of the `n`th (from 1) occurrence of `token`. */
const nth = (text: string, token: string, n: number) => {
  let at = -1;
  for (let i = 0; i < n; i++) at = text.indexOf(token, at + 1);
  assert.ok(at >= 0, token);
  return at;
};

test('data written twice: the payload schema judges the last data, which every SDK reads (Go merges them, the last amount winning)', () => {
  // A key repeated inside data was already judged by its last copy (the schema models and ajv read the last).
  assert.deepEqual(findings(envelope({ data: '"data":{"amount":"x","amount":5}' })), []);
  assert.deepEqual(findings(envelope({ data: '"data":{"amount":"x"},"data":{"amount":5}' })), []);
  const reversed = envelope({ data: '"data":{"amount":5},"data":{"amount":"x"}' });
  const found = lint(reversed).filter((d) => d.code === 'payload-schema');
  assert.deepEqual(found.map((d) => d.offset), [nth(reversed, '"x"', 1)]);
});

test('job written twice: the URN routed on, and so the payload schema, is the last job', () => {
  // The last job is orders:created, whose schema wants an integer amount; orders:refunded wants a string.
  const text = envelope({ job: '"job":"urn:babel:orders:refunded","job":"urn:babel:orders:created"', data: '"data":{"amount":"x"}' });
  const found = lint(text).filter((d) => d.code === 'payload-schema');
  assert.equal(found.length, 1, JSON.stringify(findings(text)));
  assert.match(found[0].message, /urn:babel:orders:created/);
});

test('attempts written twice: wrong-type judges the last copy', () => {
  assert.deepEqual(findings(envelope({ attempts: '"attempts":"0","attempts":0' })), []);
  assert.deepEqual(findings(envelope({ attempts: '"attempts":0,"attempts":"0"' })), ['wrong-type @ "0"']);
});

test('trace_id written twice: the blank first copy is no invalid-value, the fleet reads the UUID after it', () => {
  assert.deepEqual(findings(envelope({ trace: `"trace_id":"",${TRACE}` })), []);
});

test('meta.schema_version written twice: the version read is the last one', () => {
  assert.deepEqual(findings(envelope({ meta: META.replace('"schema_version":1', '"schema_version":2,"schema_version":1') })), []);
  assert.deepEqual(findings(envelope({ meta: META.replace('"schema_version":1', '"schema_version":1,"schema_version":2') })), ['unsupported-schema-version @ 2']);
});

test('meta written twice: the fields are judged in the last meta, which the fleet reads (Go merges both, the last values winning)', () => {
  assert.deepEqual(findings(envelope({ meta: `"meta":{"schema_version":2},${META}` })), []);
});

test('meta.created_at written twice: timestamp-unit judges the last copy', () => {
  assert.deepEqual(findings(envelope({ meta: META.replace('"created_at":1749132727000', '"created_at":1749132727,"created_at":1749132727000') })), []);
});

test('meta.ext written twice: extension-key judges the last copy', () => {
  const meta = META.replace('}', ',"ext":"gold","ext":{"acme":{"tier":"gold"}}}');
  assert.deepEqual(findings(envelope({ meta })).filter((f) => f.startsWith('extension-key')), []);
});
