/**
 * Each "missing required field" finding on `data` offers the fix that adds every required field
 * data lacks. It was built again for each finding: a schema of n required fields gave n findings
 * each building a fix of n fields, the square of n for one code-action request (2,000 fields took
 * 5.7 s). The fix is built once per data object and schema and offered on each finding.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeActions } from '../../../core/language/code-actions';
import { parseText } from '../../../core/parse/parser';
import { analyze } from '../../../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { stableFresh } from '../../support/fresh';
import { memoryRegistry } from '../../support/memory-registry';

function registryRequiring(count: number) {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) properties[`k${i}`] = { type: 'integer' };
  return memoryRegistry({
    'registry.json': { schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/s.json', owner: 'orders-team', status: 'active' }] },
    'schemas/s.json': { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties, required: Object.keys(properties) },
  });
}

const envelope = (data: string) =>
  `{"job": "urn:babel:orders:created", "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b", "data": ${data}, "meta": {"id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "go", "schema_version": 1, "created_at": 1749132727000}, "attempts": 0}`;

test('every missing-field finding on data offers the one fix that adds the fields data lacks', () => {
  const registry = registryRequiring(4);
  const doc = parseText(envelope('{"k1": 1}'));
  const actions = codeActions(doc, analyze(doc, DEFAULT_SETTINGS, registry), stableFresh(), registry).filter((action) => action.title.startsWith('Add the missing required data fields'));
  assert.equal(actions.length, 3);
  for (const action of actions) {
    assert.equal(action.title, 'Add the missing required data fields "k0", "k2", "k3" with example values');
    assert.deepEqual(action.edits, actions[0].edits);
    assert.match(action.edits[0].newText, /"k0": 0,.*"k2": 0,.*"k3": 0/s);
  }
});

test('quick fixes for a data object lacking n required fields: four times the fields cost about four times the time, not sixteen', () => {
  const time = (count: number) => {
    const registry = registryRequiring(count);
    const doc = parseText(envelope('{}'));
    const diagnostics = analyze(doc, DEFAULT_SETTINGS, registry);
    let best = Infinity;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      codeActions(doc, diagnostics, stableFresh(), registry);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };
  time(50);
  const small = time(100);
  const large = time(400);
  assert.ok(large <= 8 * small + 30, `100 fields ${small.toFixed(0)} ms, 400 fields ${large.toFixed(0)} ms`);
});
