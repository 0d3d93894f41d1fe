/**
 * The byte preview with the laravel Redis layout shows, after the Redis commands, the bytes a
 * Laravel retry puts back on the queue and says which changes alter what a consumer reads; the
 * default layout shows no such section. One encoder's preview (`babelq preview --sdk <name>`)
 * keeps its exact bytes and adds a note when a retry changes the meaning.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { previewOutput, renderPreview } from '../../../core/message/preview';
import { parseJson } from '../../../core/parse/parser';

const fresh = { uuid: () => '99999999-8888-4777-8666-555555555555', now: () => 1764400000000 };
const ENVELOPE = `{
  "job": "urn:babel:orders:created",
  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
  "data": { "order_id": 1042, "ref": 123456789012345, "tags": [], "url": "https://example.com/a", "weight": 2.5 },
  "meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "node", "schema_version": 1, "created_at": 1773480413412 },
  "attempts": 2
}`;
const laravel = { sdk: 'auto' as const, freshIds: false, fresh, redisLayout: 'laravel' as const, target: 'redis://127.0.0.1:6379' };

describe('the preview of a Laravel retry', () => {
  test('after the Redis commands: the re-encoded bytes, what changes the meaning and what is text only', () => {
    const text = renderPreview(parseJson(ENVELOPE), laravel);
    const lines = text.split('\n');
    const redis = lines.findIndex((line) => line.startsWith('Redis (laravel layout): '));
    const section = lines.indexOf('── After a Laravel retry (laravel layout) ──');
    assert.ok(redis > 0 && section > redis, 'the section follows the Redis commands');
    const body =
      '{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{"order_id":1042,"ref":1.2345678901234e+14,"tags":{},"url":"https:\\/\\/example.com\\/a","weight":2.5},' +
      '"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"node","schema_version":1,"created_at":1773480413412},"attempts":3}';
    assert.match(lines[section + 1], new RegExp(`adds 1 to attempts and encodes it again; a release or retry leaves these ${body.length} bytes on the queue:$`));
    assert.equal(lines[section + 2], body);
    assert.equal(
      lines[section + 3],
      'Changes what a consumer reads: 1 number cut to 14 significant digits (data.ref 123456789012345 becomes 1.2345678901234e+14); 1 empty list written as {}, an object, where a consumer expects a list (data.tags).',
    );
    assert.equal(lines[section + 4], 'attempts: 2 becomes 3 (the reservation counts the attempt).');
    assert.equal(lines[section + 5], "Text only: keys in no fixed order (cjson writes a Lua table's order; shown here in the body's order), / written as \\/ (3).");
  });

  test('nothing but text changes: said so', () => {
    const plain = ENVELOPE.replace('"ref": 123456789012345, "tags": [], ', '');
    const lines = renderPreview(parseJson(plain), laravel).split('\n');
    assert.ok(lines.includes('Changes what a consumer reads: nothing but attempts.'));
  });

  test('the default layout shows no retry', () => {
    const text = renderPreview(parseJson(ENVELOPE), { ...laravel, redisLayout: 'babelqueue' });
    assert.ok(!text.includes('Laravel retry'));
  });

  test('one encoder: the exact bytes, and a note on what a retry changes', () => {
    const one = previewOutput(parseJson(ENVELOPE), { ...laravel, sdk: 'node' });
    assert.ok(one.ok);
    assert.equal(JSON.parse(one.text).data.ref, 123456789012345);
    assert.ok(one.notes.some((note) => /^note: a Laravel retry \(cjson re-encoding\) changes what a consumer reads: 1 number cut to 14 significant digits/.test(note)), one.notes.join('\n'));
    const quiet = previewOutput(parseJson(ENVELOPE), { ...laravel, sdk: 'node', redisLayout: 'babelqueue' });
    assert.ok(quiet.ok && !quiet.notes.some((note) => note.includes('Laravel')));
  });
});
