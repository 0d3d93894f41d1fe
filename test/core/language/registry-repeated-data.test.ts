/**
 * A data object written twice: Go decodes both into one map, key by key (facts part 2, §2), so a
 * key of the first copy is a payload field as much as one of the last. Hover, go to definition and
 * completion on a key of either copy name the schema's field.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { complete } from '../../../core/language/complete';
import { hover } from '../../../core/language/hover';
import { registryDefinition } from '../../../core/language/registry-navigation';
import { parseJson } from '../../../core/parse/parser';
import type { RegistryState } from '../../../core/registry/types';
import { withCursor } from '../../support/cursor';
import { memoryRegistry } from '../../support/memory-registry';
import { stableFresh } from '../../support/fresh';

const registry: RegistryState = memoryRegistry({
  'schemas/order-created.json': { type: 'object', required: ['order_id', 'currency'], properties: { order_id: { type: 'integer', description: 'The order number.' }, currency: { enum: ['USD', 'EUR'] } } },
  'registry.json': { schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/order-created.json' }] },
});

const envelope = (data: string) =>
  `{"job": "urn:babel:orders:created", "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b", ${data}, "meta": {"id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "go", "schema_version": 1, "created_at": 1749132727000}, "attempts": 0}`;

for (const [copy, data] of [
  ['first', '"data": {"order_|id": 7}, "data": {"currency": "USD"}'],
  ['last', '"data": {"currency": "USD"}, "data": {"order_|id": 7}'],
] as const) {
  test(`data written twice: hover and go to definition on a key of the ${copy} copy name the schema's field`, () => {
    const { text, offset } = withCursor(envelope(data));
    assert.match(hover(parseJson(text), offset, registry)?.contents ?? '', /data\.order_id/);
    assert.ok(registry.kind === 'loaded');
    assert.ok(registryDefinition(parseJson(text), offset, registry.registry), 'a definition in the schema file');
  });
}

test('data written twice: a key typed in the first copy completes to the schema fields', () => {
  const { text, offset } = withCursor(envelope('"data": {"order_id": 7, |}, "data": {"order_id": 7}'));
  const labels = complete(parseJson(text), offset, stableFresh(), registry).map((item) => item.label);
  assert.ok(labels.includes('currency'), JSON.stringify(labels));
});
