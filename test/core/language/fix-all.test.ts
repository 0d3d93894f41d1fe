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

test('a document whose lines end in a lone CR (classic Mac OS) keeps CR line breaks', () => {
  const cr = BROKEN.replace(/\n/g, '\r');
  const result = fixAll(cr, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  assert.ok(result.applied > 0);
  assert.ok(!result.text.includes('\n'), JSON.stringify(result.text));
  assert.match(result.text, /"created_at": 1750000000000/);
});

test('in a document whose lines end in a lone CR, an added block is laid out as in LF: the file\'s 4-space indentation, a block on lines of its own', () => {
  const lf = '{\n    "job": "urn:babel:orders:created",\n    "trace_id": "7f8e1c2a-9b3d-4e5f-8a6b-1c2d3e4f5a6b",\n    "data": {},\n    "attempts": 0\n}\n';
  const fixedLf = fixAll(lf, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh()).text;
  assert.match(fixedLf, /\n {4}"meta": \{\n {8}"id"/, fixedLf);
  const fixedCr = fixAll(lf.replace(/\n/g, '\r'), DEFAULT_SETTINGS, { kind: 'none' }, stableFresh()).text;
  assert.equal(fixedCr, fixedLf.replace(/\n/g, '\r'));
});

test('a clean document comes back as it was', () => {
  const clean = fixAll(BROKEN, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh()).text;
  const again = fixAll(clean, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  assert.equal(again.applied, 0);
  assert.equal(again.text, clean);
});

test('guesses are left to the author: a trace_id that is no UUID, and a dead letter\'s original_queue without a meta.queue', () => {
  const text = BROKEN.replace('"7f8e1c2a-9b3d-4e5f-8a6b-1c2d3e4f5a6b"', '"req-5f3a91c2"')
    .replace('"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"', '"msg-1"')
    .replace('"queue": "orders"', '"queue": ""')
    .replace('"attempts": 0\n}', '"attempts": 3,\n  "dead_letter": { "reason": "failed", "failed_at": 1750000000000, "attempts": 3 }\n}');
  const before = analyzeText(text).map((d) => `${d.code} ${text.slice(d.offset, d.end)}`);
  assert.ok(before.includes('invalid-uuid "req-5f3a91c2"') && before.includes('invalid-uuid "msg-1"'), before.join('; '));
  assert.ok(before.some((finding) => finding.startsWith('missing-field')), before.join('; '));
  const result = fixAll(text, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  assert.match(result.text, /"trace_id": "req-5f3a91c2"/, 'the trace_id other fixtures may share is kept');
  assert.doesNotMatch(result.text, /"msg-1"/, 'meta.id, this message\'s own, gets a fresh UUID');
  assert.doesNotMatch(result.text, /"original_queue"/, 'no queue is made up for the dead letter');
  // With a meta.queue, the dead letter's queue is no guess: it is added.
  const withQueue = fixAll(text.replace('"queue": ""', '"queue": "orders"'), DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  assert.match(withQueue.text, /"original_queue": "orders"/);
});

test('"job" that is no URN beside "urn" that is one: the URN becomes "job"; beside a URN in "job", "urn" is removed', () => {
  const text = BROKEN.replace('"urn": "urn:babel:orders:created"', '"job": "App\\\\Jobs\\\\ProcessOrder",\n  "urn": "urn:babel:orders:created"');
  const result = fixAll(text, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  assert.match(result.text, /^\{\n {2}"job": "urn:babel:orders:created",\n {2}"trace_id"/);
  assert.doesNotMatch(result.text, /ProcessOrder|"urn":/);
  const both = fixAll(BROKEN.replace('"urn": "urn:babel:orders:created"', '"job": "urn:babel:orders:placed",\n  "urn": "urn:babel:orders:created"'), DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  assert.match(both.text, /"job": "urn:babel:orders:placed"/);
  assert.doesNotMatch(both.text, /"urn":/);
});

test('a legacy top-level timestamp becomes meta.created_at in whichever unit it was written, never the time of the fix', () => {
  // The envelope without created_at (and with the timestamp before meta, after it, or with no meta at all).
  const withTimestamp = (timestamp: string, where: 'before meta' | 'after meta' | 'no meta') => {
    const meta = '"meta": { "id": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "schema_version": 1, "queue": "orders", "lang": "node" }';
    const parts = ['"job": "urn:babel:orders:created"', '"trace_id": "7f8e1c2a-9b3d-4e5f-8a6b-1c2d3e4f5a6b"', '"data": {}', '"attempts": 0'];
    if (where === 'before meta') parts.splice(2, 0, `"timestamp": ${timestamp}`, meta);
    else if (where === 'after meta') parts.push(meta, `"timestamp": ${timestamp}`);
    else parts.push(`"timestamp": ${timestamp}`);
    return `{\n  ${parts.join(',\n  ')}\n}\n`;
  };
  for (const [timestamp, milliseconds] of [
    ['1749132727', 1749132727000],
    ['1749132727.5', 1749132727500],
    ['1749132727123', 1749132727123],
    ['1749132727123456', 1749132727123],
    ['1749132727123456789', 1749132727123],
    ['"1749132727"', 1749132727000],
    ['"1749132727123456"', 1749132727123],
    ['"2025-06-05T14:12:07.123Z"', 1749132727123],
    // As other tools write them: nanoseconds as a float, microseconds with a fraction, seconds with one as a string.
    ['1.7491327271234568e+18', 1749132727123],
    ['1749132727123456.8', 1749132727123],
    ['"1749132727.5"', 1749132727500],
  ] as const) {
    for (const where of ['before meta', 'after meta', 'no meta'] as const) {
      const result = fixAll(withTimestamp(timestamp, where), DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
      const fixed = JSON.parse(result.text) as { timestamp?: unknown; meta: { created_at: number } };
      assert.equal(fixed.timestamp, undefined, `${timestamp} ${where}: the timestamp stays`);
      assert.equal(fixed.meta.created_at, milliseconds, `${timestamp} ${where}`);
    }
  }
  // A meta that is no object gets no fix that adds created_at: the timestamp is removed all the same.
  const nullMeta = fixAll(withTimestamp('1749132727', 'no meta').replace('\n}', ',\n  "meta": null\n}'), DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  assert.equal((JSON.parse(nullMeta.text) as { timestamp?: unknown }).timestamp, undefined, nullMeta.text);
  // Not a time at all: removed (consumers drop it), and created_at is the time of the fix.
  const unreadable = fixAll(withTimestamp('"yesterday"', 'after meta'), DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  const fixed = JSON.parse(unreadable.text) as { timestamp?: unknown; meta: { created_at: number } };
  assert.equal(fixed.timestamp, undefined);
  assert.equal(fixed.meta.created_at, stableFresh().now());
});

test('fixes of one round that would each write the same key (a case renamed and the alias renamed, a case renamed and a timestamp moved) never leave it written twice', () => {
  const meta = (createdAt: string) => `"meta": { "id": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "queue": "orders", "lang": "node", "schema_version": 1, ${createdAt} }`;
  const jobAndAlias = `{\n  "Job": "urn:babel:orders:created",\n  "urn": "App\\\\Jobs\\\\ProcessOrder",\n  "trace_id": "7f8e1c2a-9b3d-4e5f-8a6b-1c2d3e4f5a6b",\n  "data": {},\n  ${meta('"created_at": 1750000000000')},\n  "attempts": 0\n}\n`;
  const timestampAndCase = `{\n  "timestamp": 1749132727123456,\n  "job": "urn:babel:orders:created",\n  "trace_id": "7f8e1c2a-9b3d-4e5f-8a6b-1c2d3e4f5a6b",\n  "data": {},\n  ${meta('"CREATED_AT": 1749132727000')},\n  "attempts": 0\n}\n`;
  for (const text of [jobAndAlias, timestampAndCase]) {
    const result = fixAll(text, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
    assert.ok(result.applied > 0);
    assert.deepEqual(analyzeText(result.text).filter((d) => d.code === 'duplicate-key').map((d) => d.message), [], result.text);
  }
  assert.match(fixAll(jobAndAlias, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh()).text, /^\{\n {2}"job": "urn:babel:orders:created",\n {2}"trace_id"/);
});

test('a missing job is left to the author: the placeholder URN is offered as a quick fix, never applied by fix all (a registry knows no such URN, and without one it would hide the missing URN)', () => {
  const text = BROKEN.replace('"urn": "urn:babel:orders:created",\n  ', '');
  assert.ok(analyzeText(text).some((d) => d.code === 'missing-field' && d.message.includes('"job"')));
  const result = fixAll(text, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  assert.ok(result.applied > 0);
  assert.doesNotMatch(result.text, /"job"/);
  assert.ok(analyzeText(result.text).some((d) => d.code === 'missing-field' && d.message.includes('"job"')), 'the missing URN is still reported');
});

test('a forbidden meta key written twice is renamed or moved once: the decoders keep its last copy, and fix all writes one field', () => {
  const meta = (fields: Record<string, unknown>, twice: string) =>
    JSON.stringify({ job: 'urn:babel:orders:created', trace_id: '7f8e1c2a-9b3d-4e5f-8a6b-1c2d3e4f5a6b', data: { order_id: 1 }, meta: { id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', schema_version: 1, queue: 'orders', ...fields }, attempts: 0 }, null, 2).replace('"meta": {', `"meta": {\n    ${twice},\n    ${twice},`);
  const count = (text: string, key: string) => (text.match(new RegExp(`"${key}"`, 'g')) ?? []).length;
  const compact = (n: number) =>
    `{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"go","schema_version":1,${Array(n).fill('"ts": 1750000001').join(',')}},"attempts":0}`;
  for (const [text, field] of [
    [compact(2), 'created_at'],
    [compact(10), 'created_at'],
    [meta({ lang: 'node' }, '"ts": 1750000001'), 'created_at'],
    [meta({ created_at: 1750000000000 }, '"source": "php"'), 'lang'],
    [meta({ lang: 'node', created_at: 1750000000000 }, '"attempts": 2').replace(/,\n  "attempts": 0/, ''), 'attempts'],
  ] as const) {
    assert.deepEqual(analyzeText(text).filter((d) => d.code === 'json-syntax'), [], text);
    const result = fixAll(text, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
    assert.equal(count(result.text, field), 1, result.text);
    assert.deepEqual(analyzeText(result.text).filter((d) => d.code === 'duplicate-key' || d.code === 'forbidden-key').map((d) => d.message), [], result.text);
  }
});

test('an integer in Unix seconds under a *_time key, which may be a length of time, is converted to milliseconds only by its quick fix: fix all leaves it', () => {
  const envelope = (data: Record<string, number>) => JSON.stringify({ job: 'urn:babel:orders:created', trace_id: '7f8e1c2a-9b3d-4e5f-8a6b-1c2d3e4f5a6b', data, meta: { id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', schema_version: 1, queue: 'orders', lang: 'node', created_at: 1750000000000 }, attempts: 0 }, null, 2);
  // 14 days in milliseconds has the ten digits of Unix seconds.
  const lead = envelope({ lead_time: 1209600000, leadTime: 1209600000, LeadTime: 1209600000, 'lead-time': 1209600000 });
  assert.ok(analyzeText(lead).some((d) => d.code === 'non-iso-time'));
  assert.equal(fixAll(lead, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh()).text, lead);
  const shipped = fixAll(envelope({ shipped_at: 1750000000 }), DEFAULT_SETTINGS, { kind: 'none' }, stableFresh());
  assert.match(shipped.text, /"shipped_at": 1750000000000/);
});

test('a forbidden key beside its field written another way: fix all neither loses what the key states nor writes the field twice', () => {
  const envelope = (meta: string, root = '') =>
    `{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{"order_id":1},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","schema_version":1,${meta}},"attempts":0${root}}`;
  // Written another way that fix all renames (a value the field takes): that key becomes the field, the forbidden one goes.
  const renamed = fixAll(envelope('"created_at":1749132727000,"source":"php","Lang":"go"'), DEFAULT_SETTINGS, { kind: 'none' }, stableFresh()).text;
  assert.match(renamed, /"lang": ?"go"/);
  assert.doesNotMatch(renamed, /"Lang"|"source"/);
  // Written another way that fix all leaves (a value the field does not take): the forbidden keys stay, with what they state.
  const text = envelope('"Lang":"PHP","source":"php","attempts":3,"createdAt":"yesterday","ts":1749132727', ',"Attempts":-1').replace('"attempts":0,', '');
  assert.deepEqual(analyzeText(text).filter((d) => d.code === 'json-syntax'), []);
  const kept = fixAll(text, DEFAULT_SETTINGS, { kind: 'none' }, stableFresh()).text;
  for (const stated of ['"source":"php"', '"ts":1749132727', '"attempts":3']) assert.ok(kept.replace(/\s/g, '').includes(stated), `${stated} lost:\n${kept}`);
  for (const key of ['lang', 'created_at']) assert.ok((kept.match(new RegExp(`"${key}"`, 'gi')) ?? []).length <= 1, `${key} written twice:\n${kept}`);
});
