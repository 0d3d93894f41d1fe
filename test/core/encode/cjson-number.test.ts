/**
 * Lua cjson's number text, C's "%.14g" (core/encode/cjson-number.ts), against a table of values
 * whose expected texts were printed by Python's '%.14g' % x and by Redis 7's cjson (the one
 * Laravel's reservation script runs), and against this machine's Python over random doubles
 * when python3 is present.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { cjsonChangedNumber, formatPercentG14, literalSignificantDigits } from '../../../core/encode/cjson-number';

/** [value, "%.14g"]. */
const TABLE: readonly (readonly [number, string])[] = [
  [0.1, '0.1'],
  [1e21, '1e+21'],
  [1e-5, '1e-05'],
  [123456789012345, '1.2345678901234e+14'],
  [-0.0, '-0'],
  [0, '0'],
  [1773480413412, '1773480413412'],
  [2 ** 53 + 1, '9.007199254741e+15'],
  [1.5e300, '1.5e+300'],
  [0.30000000000000004, '0.3'],
  [5e-324, '4.9406564584125e-324'],
  [1e14, '1e+14'],
  [99999999999999, '99999999999999'],
  [0.0001, '0.0001'],
  [0.00001234, '1.234e-05'],
  [1.7976931348623157e308, '1.7976931348623e+308'],
  [0.5, '0.5'],
  [1.00000000000005, '1'],
  [-1.5e-7, '-1.5e-07'],
  [1.0, '1'],
  [123456789012345678901234567890, '1.2345678901235e+29'],
  [99999999999999.5, '1e+14'],
  [1234567.125, '1234567.125'],
];

describe('"%.14g" as cjson writes numbers', () => {
  for (const [value, expected] of TABLE) {
    test(`${Object.is(value, -0) ? '-0.0' : String(value)} → ${expected}`, () => assert.equal(formatPercentG14(value), expected));
  }

  test('NaN and Infinity: cjson refuses them, no text', () => {
    assert.equal(formatPercentG14(Number.NaN), undefined);
    assert.equal(formatPercentG14(Number.POSITIVE_INFINITY), undefined);
  });

  test('random doubles agree with this machine\'s printf through Python', (t) => {
    const probe = spawnSync('python3', ['-c', 'import sys\nfor line in sys.stdin: print("%.14g" % float.fromhex(line.strip()))'], { input: '', encoding: 'utf8' });
    if (probe.error) {
      t.skip('python3 is not installed: the table above is the only comparison');
      return;
    }
    let seed = 0x2545f491;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    const values: number[] = [];
    const view = new DataView(new ArrayBuffer(8));
    while (values.length < 2000) {
      view.setUint32(0, next());
      view.setUint32(4, next());
      const x = view.getFloat64(0);
      if (Number.isFinite(x)) values.push(x);
    }
    // Integers around the 14-digit boundary, where ties of half to even show.
    for (let i = 0; i < 500; i++) values.push(100000000000000 + next() * 7, next() * 1e6 + 0.5);
    const hex = values.map((x) => hexOf(x)).join('\n');
    const run = spawnSync('python3', ['-c', 'import sys\nfor line in sys.stdin: print("%.14g" % float.fromhex(line.strip()))'], { input: hex, encoding: 'utf8' });
    const expected = run.stdout.trim().split('\n');
    assert.equal(expected.length, values.length);
    const wrong = values.map((x, i) => [x, formatPercentG14(x), expected[i]] as const).filter(([, ours, theirs]) => ours !== theirs);
    assert.deepEqual(wrong.slice(0, 5), []);
  });
});

function hexOf(x: number): string {
  // Python's float.fromhex reads what Number#toString(16) cannot give exactly; the bits say it exactly.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = (BigInt(view.getUint32(0)) << 32n) | BigInt(view.getUint32(4));
  const sign = bits >> 63n ? '-' : '';
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = (bits & ((1n << 52n) - 1n)).toString(16).padStart(13, '0');
  return biased === 0 ? `${sign}0x0.${fraction}p-1022` : `${sign}0x1.${fraction}p${biased - 1023}`;
}

describe('which literals a Laravel retry changes', () => {
  test('more than 14 significant digits: the value cjson writes instead', () => {
    assert.equal(cjsonChangedNumber('9007199254740993', true), '9.007199254741e+15');
    assert.equal(cjsonChangedNumber('123456789012345', true), '1.2345678901234e+14');
    assert.equal(cjsonChangedNumber('-123456789012345', true), '-1.2345678901234e+14');
    assert.equal(cjsonChangedNumber('0.30000000000000004', false), '0.3');
    assert.equal(cjsonChangedNumber('1234567890.12345', false), '1234567890.1235');
  });

  test('14 digits or fewer, or the same double in fewer digits: unchanged', () => {
    for (const [raw, integer] of [
      ['1773480413412', true],
      ['99999999999999', true],
      ['100000000000000', true],
      ['100000000000000000000', true],
      ['0.1', false],
      ['1e21', false],
      ['1e-5', false],
      ['-0.0', false],
      ['1.5e300', false],
      ['0.000000000000001', false],
      ['1.50000000000000000000', false],
      ['1.00000000000000000001', false],
      ['5e-324', false],
    ] as const) {
      assert.equal(cjsonChangedNumber(raw, integer), undefined, raw);
    }
  });

  test('significant digits of a literal', () => {
    assert.equal(literalSignificantDigits('-0.000120'), 2);
    assert.equal(literalSignificantDigits('100200'), 4);
    assert.equal(literalSignificantDigits('1.0203e+40'), 5);
    assert.equal(literalSignificantDigits('0'), 0);
  });
});
