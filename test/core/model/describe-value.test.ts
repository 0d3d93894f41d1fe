/** `shortened` (core/model/describe-value.ts): how much of a long key or literal a message quotes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shortened } from '../../../core/model/describe-value';

test('text up to 60 characters is quoted as it is; longer text keeps its first 57 and says it was cut', () => {
  assert.equal(shortened('a'.repeat(60)), 'a'.repeat(60));
  assert.equal(shortened('a'.repeat(61)), `${'a'.repeat(57)}…`);
  assert.equal(shortened('a'.repeat(100_000)), `${'a'.repeat(57)}…`);
});

test('a cut never splits a surrogate pair', () => {
  // The pair would straddle the cut at 57: the whole emoji is left out, never half of it.
  const text = `${'a'.repeat(56)}😀${'b'.repeat(10)}`;
  assert.equal(shortened(text), `${'a'.repeat(56)}…`);
  assert.equal(shortened(`${'a'.repeat(55)}😀${'b'.repeat(10)}`), `${'a'.repeat(55)}😀…`);
});
