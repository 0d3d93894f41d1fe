/**
 * goFold: a JSON key as Go's encoding/json matches it against a struct field's lower-case name.
 * ASCII letters fold, and so do U+017F (ſ, to s) and U+212A (the Kelvin sign, to k); nothing else.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goFold } from '../../../core/encode/go';
import { analyzeText } from '../../../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';

test('ASCII capitals, the long s and the Kelvin sign fold; every other key is itself', () => {
  assert.equal(goFold('URN'), 'urn');
  assert.equal(goFold('Owner'), 'owner');
  assert.equal(goFold('\u017fchema'), 'schema');
  assert.equal(goFold('\u212aey'), 'key');
  assert.equal(goFold('\u212a'), 'k');
  assert.equal(goFold('schema_version'), 'schema_version');
  // Other letters with case are not folded by encoding/json's fold for ASCII field names.
  assert.equal(goFold('ÜRN'), 'Ürn');
  assert.equal(goFold('straße'), 'straße');
});

test('a long key with capitals costs the analysis about what the same key in lower case costs (it was folded once per question asked of it)', () => {
  const length = 65_536;
  const shapes = [(i: number) => (i % 2 === 0 ? 'A' : 'b'), (i: number) => (i % 2 === 0 ? 'B' : 'a'), (i: number) => (i % 3 === 0 ? 'C' : 'd'), (i: number) => (i % 2 === 0 ? 'E' : 'f')];
  const keys = shapes.map((shape) => Array.from({ length }, (_, i) => shape(i)).join(''));
  const envelope = (names: string[]) =>
    `{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"php","schema_version":1,"created_at":1749132727000},"attempts":0,${names.map((name) => `"${name}":1`).join(',')}}`;
  const capitals = envelope(keys);
  const lower = envelope(keys.map((key) => key.toLowerCase()));
  // Interleaved, fastest of several: the ratio holds on a busy machine where a bound in ms would not.
  const fastest = (text: string) => {
    const started = performance.now();
    analyzeText(text, DEFAULT_SETTINGS);
    return performance.now() - started;
  };
  let withCapitals = Infinity;
  let withoutCapitals = Infinity;
  for (let run = 0; run < 7; run++) {
    withCapitals = Math.min(withCapitals, fastest(capitals));
    withoutCapitals = Math.min(withoutCapitals, fastest(lower));
  }
  assert.ok(withCapitals <= 4 * withoutCapitals + 2, `with capitals ${withCapitals.toFixed(1)} ms, the same keys in lower case ${withoutCapitals.toFixed(1)} ms`);
});
