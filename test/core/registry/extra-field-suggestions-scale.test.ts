/**
 * "is not a field of data (did you mean …?)": each unknown key of an object is an error of its
 * own, and the nearest allowed name was looked for among all the schema's names for each, the
 * names read again each time: n unknown keys beside a schema of n names was n × n (5,000 of each
 * took 20 s of analysis). The names are read once per schema, and the search has a budget per
 * mapping, past which a message names the allowed fields without a guess.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapSchemaErrors } from '../../../core/registry/schema-errors';
import type { SchemaError } from '../../../core/registry/types';
import { parseText } from '../../../core/parse/parser';
import { analyzeText } from '../../../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { memoryRegistry } from '../../support/memory-registry';

const envelope = (data: string) =>
  `{"job": "urn:babel:orders:created", "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b", "data": ${data}, "meta": {"id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "go", "schema_version": 1, "created_at": 1749132727000}, "attempts": 0}`;

test('an unknown key close to an allowed one is told which one it may be', () => {
  const properties = { field_0: { type: 'integer' }, field_1: { type: 'integer' }, total: { type: 'integer' } };
  const registry = memoryRegistry({
    'registry.json': { schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/s.json', owner: 'orders-team', status: 'active' }] },
    'schemas/s.json': { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties, additionalProperties: false },
  });
  const message = analyzeText(envelope('{"Feild_1": 1}'), DEFAULT_SETTINGS, registry).find((d) => d.code === 'payload-schema')?.message ?? '';
  assert.match(message, /^"Feild_1" is not a field of "data" \(did you mean "field_1"\?\); allowed: "field_0", "field_1", "total"/);
});

test('n unknown keys beside a schema of n names: four times of each costs about four times the mapping, not sixteen', () => {
  const time = (count: number) => {
    const properties = Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, { type: 'integer' }]));
    const parentSchema = { type: 'object', properties, additionalProperties: false };
    const data = parseText(`{${Array.from({ length: count }, (_, i) => `"x${i}": 1`).join(', ')}}`).root!;
    const errors: SchemaError[] = Array.from({ length: count }, (_, i) => ({ keyword: 'additionalProperties', instancePath: '', params: { additionalProperty: `x${i}` }, message: 'must NOT have additional properties', parentSchema }));
    let best = Infinity;
    for (let run = 0; run < 2; run++) {
      const started = performance.now();
      const mapped = mapSchemaErrors(data, undefined, errors);
      best = Math.min(best, performance.now() - started);
      assert.equal(mapped.length, count);
    }
    return best;
  };
  time(500);
  const small = time(1_000);
  const large = time(4_000);
  assert.ok(large <= 8 * small + 50, `1,000 keys ${small.toFixed(0)} ms, 4,000 keys ${large.toFixed(0)} ms`);
});
