/**
 * Key completion from a payload schema offers the schema's properties the object does not have
 * yet. Each property was looked for among the object's keys: a payload of as many keys as its
 * schema names (a schema written from the payload) took the square of the two for one completion.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { complete } from '../../../core/language/complete';
import { parseText } from '../../../core/parse/parser';
import { stableFresh } from '../../support/fresh';
import { memoryRegistry } from '../../support/memory-registry';
import { fastestMs } from '../../support/fastest';

function registryOf(count: number) {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) properties[`k${i}`] = { type: 'integer' };
  return memoryRegistry({
    'registry.json': { schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/s.json', owner: 'orders-team', status: 'active' }] },
    'schemas/s.json': { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties },
  });
}

function envelope(data: string): string {
  return `{"job": "urn:babel:orders:created", "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b", "data": ${data}, "meta": {"id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "go", "schema_version": 1, "created_at": 1749132727000}, "attempts": 0}`;
}

test('the schema keys offered are those the object lacks, and the key being typed over is offered again', () => {
  const registry = registryOf(6);
  const text = envelope('{"k0": 1, "k2": 2, "k2": 3, "k4": 4, "" }');
  const offered = (at: number) => complete(parseText(text), at, stableFresh(), registry).map((item) => item.label).sort();
  assert.deepEqual(offered(text.indexOf('"" }') + 1), ['k1', 'k3', 'k5']);
  // On "k4"'s key, k4 is the key replaced: offered, the others present are not.
  assert.deepEqual(offered(text.indexOf('"k4"') + 2), ['k1', 'k3', 'k4', 'k5']);
});

test('completing a key in a payload of as many keys as its schema names: four times the keys cost about four times the time, not sixteen', () => {
  const time = (count: number) => {
    const registry = registryOf(count);
    const text = envelope(`{${Array.from({ length: count }, (_, i) => `"k${i}": 1`).join(', ')}, "" }`);
    const doc = parseText(text);
    const at = text.indexOf(', "" }') + 3;
    return fastestMs(3, () => complete(doc, at, stableFresh(), registry));
  };
  time(500);
  const small = time(2_500);
  const large = time(10_000);
  assert.ok(large <= 8 * small + 30, `2,500 keys ${small.toFixed(0)} ms, 10,000 keys ${large.toFixed(0)} ms`);
});
