/**
 * breaking-change (core/rules/registry/breaking-change.ts): bqschema compat's rules, one case per
 * row of its table (measured from bqschema's compat code), each break on the NEW schema's key with bqschema's words.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseText } from '../../../../core/parse/parser';
import { compatibilityBreaks } from '../../../../core/rules/registry/breaking-change';
import { nextVersion } from '../../../../core/contract/urn';

function breaks(before: unknown, after: unknown): { path: string; reason: string; at: string }[] {
  const oldText = JSON.stringify(before, null, 2);
  const newText = JSON.stringify(after, null, 2);
  return compatibilityBreaks(parseText(oldText).root, parseText(newText).root, oldText, newText).map((found) => ({ path: found.path, reason: found.reason, at: newText.slice(found.offset, found.end) }));
}

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

describe('bqschema compat, row by row', () => {
  test('a changed type is breaking, and nothing below it is compared', () => {
    assert.deepEqual(breaks(object({ id: { type: 'integer', minimum: 1 } }), object({ id: { type: 'string', minLength: 3 } })), [{ path: 'id', reason: 'type changed "integer" → "string"', at: '"type"' }]);
  });

  test('an enum added where any value was allowed; a value removed (as printed: 1 and 1.0 differ)', () => {
    assert.deepEqual(breaks(object({ c: { type: 'string' } }), object({ c: { type: 'string', enum: ['EUR'] } })), [{ path: 'c', reason: 'enum constraint added where any value was allowed', at: '"enum"' }]);
    const oldText = '{"properties": {"n": {"enum": [1, 2, "x"]}}}';
    const newText = '{"properties": {"n": {"enum": [1.0, 2, "x", "y"]}}}';
    const found = compatibilityBreaks(parseText(oldText).root, parseText(newText).root, oldText, newText);
    assert.deepEqual(found.map((b) => b.reason), ['enum value 1 removed']);
  });

  test('minLength and minimum tightened (added, or raised); loosened is compatible', () => {
    assert.deepEqual(breaks(object({ s: { type: 'string', minLength: 1 }, n: { type: 'integer' } }), object({ s: { type: 'string', minLength: 2 }, n: { type: 'integer', minimum: 0 } })).map((b) => `${b.path}: ${b.reason}`).sort(), ['n: minimum tightened', 's: minLength tightened']);
    assert.deepEqual(breaks(object({ s: { type: 'string', minLength: 3 } }), object({ s: { type: 'string', minLength: 1 } })), []);
  });

  test('a newly required name, on that name in "required"; nested properties and items have paths a.b and a[]', () => {
    assert.deepEqual(breaks(object({ a: object({ b: { type: 'string' } }) }, { required: ['a'] }), object({ a: object({ b: { type: 'string' } }, { required: ['b'] }) }, { required: ['a'] })), [{ path: 'a', reason: 'property "b" is now required', at: '"b"' }]);
    assert.deepEqual(breaks(object({ list: { type: 'array', items: { type: 'integer' } } }), object({ list: { type: 'array', items: { type: 'number' } } })), [{ path: 'list[]', reason: 'type changed "integer" → "number"', at: '"type"' }]);
  });

  test('additionalProperties closed; a property removed while closed; removed while open is compatible', () => {
    assert.deepEqual(breaks(object({ a: { type: 'string' }, b: { type: 'string' } }), object({ a: { type: 'string' } }, { additionalProperties: false })).map((b) => b.reason).sort(), ['additionalProperties tightened to false', 'property "b" removed while additionalProperties is false']);
    assert.deepEqual(breaks(object({ a: { type: 'string' }, b: { type: 'string' } }), object({ a: { type: 'string' } })), []);
  });

  test('compatible: a new optional property, an enum value added, a type added where there was none, a keyword outside the subset (pattern, maxLength)', () => {
    assert.deepEqual(breaks(object({ a: { enum: ['x'] } }), object({ a: { type: 'string', enum: ['x', 'y'], pattern: '^[a-z]$', maxLength: 1 }, b: { type: 'integer' } })), []);
  });

  test('the URN to mint', () => {
    assert.equal(nextVersion('urn:babel:orders:created'), 'urn:babel:orders:created.v2');
    assert.equal(nextVersion('urn:babel:orders:created.v2'), 'urn:babel:orders:created.v3');
  });
});
