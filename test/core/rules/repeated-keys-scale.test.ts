/**
 * A key repeated tens of thousands of times in one object: duplicate-key words each later copy
 * from every copy's kind (what Go keeps), and each relay notes it from every copy's value. Those
 * copies are gathered once per object, not once per later copy, which made 60,000 copies take
 * minutes (lint ran duplicate-key on the envelope's own keys, the preview every relay's notes).
 * Likewise the keys Go reads as one field (`JOB`, `Job` beside `job`): what Go keeps of them is
 * found once per field, not once per spelling.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeEnvelope, SDK_NAMES } from '../../../core/encode';
import { findDivergences } from '../../../core/encode/divergence';
import { consumerVerdicts } from '../../../core/message/acceptance';
import { parseJson, parseText } from '../../../core/parse/parser';
import { analyze } from '../../../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';

const COPIES = 60_000;
const META = '"meta":{"id":"9f0c3f4e-8a55-4c5b-9d1e-2b7f4a6c8d11","queue":"orders","lang":"php","schema_version":1,"created_at":1749132727000}';
const envelope = (data: string, rootTail: string) => `{"job":"urn:babel:orders:created","trace_id":"9f0c3f4e-8a55-4c5b-9d1e-2b7f4a6c8d10","data":{${data}},${META},"attempts":0${rootTail}}`;
const repeated = (key: string, separator: string) => Array.from({ length: COPIES }, (_, i) => `${separator}"${key}":${i}`).join('');

function timed<T>(work: () => T): { result: T; ms: number } {
  const started = performance.now();
  const result = work();
  return { result, ms: performance.now() - started };
}

test('duplicate-key on 60,000 copies of a key of the envelope (and of one Go reads, attempts) is worded in one pass over the object', () => {
  for (const key of ['x_extra', 'attempts']) {
    const text = envelope('"a":1', repeated(key, ','));
    const { result, ms } = timed(() => analyze(parseText(text), DEFAULT_SETTINGS).filter((d) => d.code === 'duplicate-key'));
    assert.ok(result.length > 0, key);
    assert.ok(ms < 10_000, `${key}: ${Math.round(ms)} ms`);
  }
});

test("every relay's notes on 60,000 copies of a key in data take one pass over the object", () => {
  const doc = parseJson(envelope(repeated('k', ',').slice(1), ''));
  for (const sdk of SDK_NAMES) {
    const { result, ms } = timed(() => encodeEnvelope(doc, sdk));
    assert.ok(result.notes.some((note) => /the key "k" appears more than once/.test(note.message)), sdk);
    assert.ok(ms < 10_000, `${sdk}: ${Math.round(ms)} ms`);
  }
});

test('10,000 spellings of job (JOB, Job, …): encoding-divergence, the Go relay and the Go consumer word each in one pass over the envelope', () => {
  const variants = Array.from({ length: 10_000 }, (_, i) => `,"JOB":"urn:babel:orders:v${i}"`).join('');
  const text = envelope('"a":1', variants);
  const doc = parseJson(text);
  // What encoding-divergence reports (the lint itself lists only the first 10,000 findings).
  const divergences = timed(() => findDivergences(doc).filter((d) => d.message.startsWith('JOB: Go reads it as "job"')));
  assert.equal(divergences.result.length, 10_000);
  assert.match(divergences.result[0]!.message, /the "job" after it wins there/);
  assert.match(divergences.result.at(-1)!.message, /Go routes on "urn:babel:orders:v9999" where the other SDKs route on "urn:babel:orders:created"/);
  assert.ok(divergences.ms < 10_000, `encoding-divergence: ${Math.round(divergences.ms)} ms`);
  const go = timed(() => encodeEnvelope(doc, 'go'));
  assert.ok(go.result.ok);
  assert.ok(go.ms < 10_000, `Go relay: ${Math.round(go.ms)} ms`);
  const verdicts = timed(() => consumerVerdicts(doc));
  assert.ok(verdicts.ms < 10_000, `consumer verdicts: ${Math.round(verdicts.ms)} ms`);
});

test('40,000 top-level "queue" keys beside a meta of 40,000 keys that lacks queue: each key\'s advice asks meta once, not once per key', () => {
  const n = 40_000;
  const rootKeys = Array.from({ length: n }, (_, i) => `,"queue":${i}`).join('');
  const metaKeys = Array.from({ length: n }, (_, i) => `,"k${i}":${i}`).join('');
  const text = `{"job":"urn:babel:orders:created","trace_id":"9f0c3f4e-8a55-4c5b-9d1e-2b7f4a6c8d10","data":{"a":1},"meta":{"id":"9f0c3f4e-8a55-4c5b-9d1e-2b7f4a6c8d11","lang":"php","schema_version":1,"created_at":1749132727000${metaKeys}},"attempts":0${rootKeys}}`;
  const doc = parseJson(text);
  const { result, ms } = timed(() => findDivergences(doc).filter((d) => d.message.startsWith('queue:')));
  assert.equal(result.length, n);
  assert.match(result[0]!.message, /Move it into meta: "queue" is a meta field, and meta lacks it\.$/);
  assert.ok(ms < 10_000, `${Math.round(ms)} ms`);
});
