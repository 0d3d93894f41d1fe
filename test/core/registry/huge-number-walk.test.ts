/**
 * A validator that cannot read a number outside float64 (Go's) fails the whole file on it, wherever
 * it is: the walk that looks for one copied the path to each value it passed, so a data nested n
 * deep cost the square of n (20,000 levels took 1.4 s behind a schema that cannot be used). The
 * path is built only for a number found.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeText } from '../../../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { loadRegistry } from '../../../workspace/registry-loader';
import { fastestMs } from '../../support/fastest';

const FOLDER = join(__dirname, '..', '..', 'fixtures', 'diagnostics', 'registry-error');
const registry = loadRegistry(join(FOLDER, 'registry.json'), FOLDER).state;

const envelope = (urn: string, data: string) =>
  `{"job": "${urn}", "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b", "data": ${data}, "meta": {"id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "go", "schema_version": 1, "created_at": 1749132727000}, "attempts": 0}`;

test('data nested n deep: four times the depth costs about four times the analysis, not sixteen', () => {
  const time = (depth: number) => {
    const text = envelope('urn:babel:orders:cancelled', `${'{"a": '.repeat(depth)}{"reason": "customer"}${'}'.repeat(depth)}`);
    return fastestMs(3, () => analyzeText(text, DEFAULT_SETTINGS, registry));
  };
  time(1_000);
  const small = time(5_000);
  const large = time(20_000);
  assert.ok(large <= 8 * small + 50, `5,000 levels ${small.toFixed(0)} ms, 20,000 levels ${large.toFixed(0)} ms`);
});
