/**
 * goFold: a JSON key as Go's encoding/json matches it against a struct field's lower-case name.
 * ASCII letters fold, and so do U+017F (ſ, to s) and U+212A (the Kelvin sign, to k); nothing else.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goFold } from '../../../core/encode/go';

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
