/** Exact decimal text of number literals (core/model/decimal.ts), never through a float. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plainDecimal, shiftToInteger } from '../../../core/model/decimal';

test('plainDecimal writes an exponent literal in plain notation, exactly and with the digits as written', () => {
  const cases: [string, string | undefined][] = [
    ['25e-1', '2.5'],
    ['1e3', '1000'],
    ['1E+3', '1000'],
    ['9.990e1', '99.90'],
    ['-1.5e-3', '-0.0015'],
    ['123456789012345678901e-2', '1234567890123456789.01'],
    ['0e5', '0'],
    ['99.90', '99.90'],
    ['-0.0', '-0.0'],
    ['1e401', undefined],
  ];
  for (const [raw, plain] of cases) assert.equal(plainDecimal(raw), plain, raw);
});

test('shiftToInteger gives minor units only when exact', () => {
  assert.equal(shiftToInteger('99.90', 2), '9990');
  assert.equal(shiftToInteger('25e-1', 2), '250');
  assert.equal(shiftToInteger('0.001', 2), undefined);
});
