/**
 * whyDifferent: an SDK's bytes against the published ones, in words. A number respelled is "the
 * same number" when the decimals are equal, "the same float64, in other digits" when both are
 * floats to every reader and decode to one double (JDK 17's 9.999999999999999E22 for 1e+23), and
 * "a different number" when a reader sees another value (an integer rounded through a double).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { whyDifferent } from '../../../core/message/difference';

test('the same decimal written otherwise is the same number', () => {
  assert.equal(whyDifferent('{"x":1.50}', '{"x":1.5e0}'), 'x is written 1.5e0, not 1.50 (the same number)');
});

test('two float texts of one double are the same float64, not a different number', () => {
  assert.equal(whyDifferent('{"x":1e+23}', '{"x":9.999999999999999E22}'), 'x is written 9.999999999999999E22, not 1e+23 (the same float64, in other digits)');
  assert.equal(Number('9.999999999999999E22'), 1e23);
});

test('an integer rounded through a double is a different number (PHP, Python and Java read integers exactly)', () => {
  assert.equal(whyDifferent('{"x":9007199254740993}', '{"x":9007199254740992}'), 'x is written 9007199254740992, not 9007199254740993 (a different number)');
  // An integer and a float of the same double: a different value to the readers that keep integers.
  assert.equal(Number('99999999999999991611392'), 1e23);
  assert.equal(whyDifferent('{"x":99999999999999991611392}', '{"x":1e+23}'), 'x is written 1e+23, not 99999999999999991611392 (a different number)');
});
