/**
 * relaysUnchanged (core/encode/plain-relay.ts) lets consumer-rejects skip the six encoders. The
 * claim it makes is checked here against the encoders themselves: on every example and fixture,
 * on thousands of them mutated value by value, and on one document per kind of note, whenever it
 * answers true no encoder notes anything lossy or against the contract. It must also answer true
 * where it is meant to help: the everyday fixture.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { encodeEnvelope, SDK_NAMES } from '../../../core/encode';
import { relaysUnchanged } from '../../../core/encode/plain-relay';
import { parseText } from '../../../core/parse/parser';
import { GOOD_ENVELOPE } from '../../support/envelopes';
import { applyMutations, BOUNDED_SCALE, caseArbitrary, loadSeeds, parsesAsJson } from '../../fuzz/harness';

/** The notes of a kind a consumer could notice, per SDK that encodes the document at all. */
function noticeable(text: string): string[] {
  const doc = parseText(text);
  const found: string[] = [];
  for (const sdk of SDK_NAMES) {
    const encoded = encodeEnvelope(doc, sdk);
    if (encoded.ok) for (const note of encoded.notes) if (note.kind !== 'representation') found.push(`${sdk}: ${note.message}`);
  }
  return found;
}

function assertSound(text: string, name: string): boolean {
  const unchanged = relaysUnchanged(parseText(text));
  if (unchanged) assert.deepEqual(noticeable(text), [], `${name}: relaysUnchanged said true`);
  return unchanged;
}

const seeds = loadSeeds();

describe('relaysUnchanged', () => {
  test('never true where an encoder notes a lossy or contract change: every example and fixture', () => {
    let plain = 0;
    for (const seed of seeds) if (assertSound(seed.text, seed.name)) plain++;
    assert.ok(plain >= 5, `true for only ${plain} of ${seeds.length} seeds`);
  });

  test('never true where an encoder notes a lossy or contract change: fixtures mutated value by value (seeded)', () => {
    const valid = seeds.filter((seed) => parsesAsJson(seed.text));
    let plain = 0;
    fc.assert(
      fc.property(caseArbitrary(valid.length, 1, BOUNDED_SCALE, { keepJson: true }), (c) => {
        if (assertSound(applyMutations(valid[c.seed]!.text, c.mutations), valid[c.seed]!.name)) plain++;
      }),
      { seed: 20261201, numRuns: 3000, includeErrorInReport: true },
    );
    assert.ok(plain > 0, 'some mutated fixtures are still plain');
  });

  test('false for each kind of change an encoder notes, true for the everyday fixture', () => {
    assert.equal(relaysUnchanged(parseText(GOOD_ENVELOPE)), true);
    const variants: Record<string, string> = {
      'empty data (PHP writes [])': GOOD_ENVELOPE.replace('{ "order_id": 1042 }', '{}'),
      'data keyed "0" (PHP writes a list)': GOOD_ENVELOPE.replace('{ "order_id": 1042 }', '{ "0": "a" }'),
      'an empty object inside data': GOOD_ENVELOPE.replace('{ "order_id": 1042 }', '{ "order_id": 1042, "tags": {} }'),
      'a number beyond the double range': GOOD_ENVELOPE.replace('1042', '1e400'),
      'a number Python writes otherwise': GOOD_ENVELOPE.replace('1042', '10.0'),
      'a repeated key': GOOD_ENVELOPE.replace('{ "order_id": 1042 }', '{ "order_id": 1042, "order_id": 7 }'),
      'a top-level key the typed SDKs drop': GOOD_ENVELOPE.replace('"attempts": 0', '"attempts": 0, "extra": 1'),
      'the urn alias': GOOD_ENVELOPE.replace('"attempts": 0', '"attempts": 0, "urn": "urn:babel:orders:created"'),
      'a meta key the typed SDKs drop': GOOD_ENVELOPE.replace('"queue": "orders"', '"queue": "orders", "ext": { "acme": { "x": 1 } }'),
      'a meta key in another case (Go folds it)': GOOD_ENVELOPE.replace('"queue": "orders"', '"Queue": "orders"'),
      'attempts as text': GOOD_ENVELOPE.replace('"attempts": 0', '"attempts": "0"'),
      'schema_version beyond int': GOOD_ENVELOPE.replace('"schema_version": 1', '"schema_version": 4294967297'),
      'a lone surrogate': GOOD_ENVELOPE.replace('"queue": "orders"', '"queue": "orders\\ud800"'),
      'U+2028 in a value': GOOD_ENVELOPE.replace('"queue": "orders"', '"queue": "orders\u2028"'),
      'no data': GOOD_ENVELOPE.replace('"data": { "order_id": 1042 },\n', ''),
      'data null': GOOD_ENVELOPE.replace('{ "order_id": 1042 }', 'null'),
      'a syntax error': GOOD_ENVELOPE.replace('"attempts": 0', '"attempts": '),
    };
    for (const [what, text] of Object.entries(variants)) {
      assert.notEqual(text, GOOD_ENVELOPE, what);
      assert.equal(relaysUnchanged(parseText(text)), false, what);
    }
  });

  test('a repeated key is found at any place in an object of any size, and one object\'s keys are not held against the next', () => {
    const withData = (data: string) => GOOD_ENVELOPE.replace('{ "order_id": 1042 }', data);
    const objectOf = (keys: readonly string[]) => `{ ${keys.map((key, i) => `"${key}": ${i}`).join(', ')} }`;
    const names = (count: number, prefix = 'k') => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    for (const size of [2, 15, 16, 17, 40]) {
      const keys = names(size);
      assert.equal(relaysUnchanged(parseText(withData(objectOf(keys)))), true, `${size} distinct keys`);
      // The repeat as the object's last key, of its first, of one just before and after the 16th.
      for (const repeated of [0, Math.min(14, size - 1), Math.min(15, size - 1), size - 1]) {
        assert.equal(relaysUnchanged(parseText(withData(objectOf([...keys, keys[repeated]!])))), false, `${size} keys, the ${repeated}th repeated at the end`);
      }
      if (size > 17) assert.equal(relaysUnchanged(parseText(withData(objectOf([...keys.slice(0, 17), keys[16]!, ...keys.slice(17)])))), false, `${size} keys, the 17th repeated`);
    }
    // Sibling and nested objects with the same keys are no repeat, before or after a large object.
    const nested = `{ "a": ${objectOf(names(20))}, "b": ${objectOf(names(20))}, "c": ${objectOf(names(3))}, "d": { "a": 1, "b": 2 } }`;
    assert.equal(relaysUnchanged(parseText(withData(nested))), true);
    assert.equal(relaysUnchanged(parseText(withData(`{ "a": ${objectOf(names(20))}, "b": ${objectOf(['x', 'y', 'x'])} }`))), false);
  });
});
