/**
 * `checkIsoTime` reads the common RFC 3339 shape by hand and everything else by regular
 * expressions; both readings must classify every string the same way.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkIsoTime, checkIsoTimeByExpressions, type IsoCheck } from '../../../core/contract/time';

const SEED = 20261130;

describe('checkIsoTime', () => {
  const cases: [string, IsoCheck][] = [
    ['2025-06-05T14:12:07Z', 'ok'],
    ['2025-06-05t14:12:07z', 'ok'],
    ['2025-06-05 14:12:07+02:00', 'ok'],
    ['2025-06-05T14:12:07.123456-05:30', 'ok'],
    ['2025-06-05T14:12:07+0200', 'ok'],
    ['2025-06-05T14:12Z', 'ok'],
    ['2025-06-05', 'ok'],
    ['14:12:07Z', 'ok'],
    ['2025-06-05T14:12:07', 'no-offset'],
    ['2024-02-29T00:00:00Z', 'ok'],
    ['2023-02-29T00:00:00Z', 'not-iso'],
    ['1900-02-29T00:00:00Z', 'not-iso'],
    ['2000-02-29T00:00:00Z', 'ok'],
    ['2025-04-31T00:00:00Z', 'not-iso'],
    ['2025-13-01T00:00:00Z', 'not-iso'],
    ['2025-00-01T00:00:00Z', 'not-iso'],
    ['2025-06-00T00:00:00Z', 'not-iso'],
    ['2025-06-05T24:00:00Z', 'not-iso'],
    ['2025-06-05T23:60:00Z', 'not-iso'],
    ['2025-06-05T23:59:60Z', 'ok'],
    ['2025-06-05T23:59:61Z', 'not-iso'],
    ['2025-06-05T14:12:07.Z', 'not-iso'],
    ['2025-06-05T14:12:07Z ', 'not-iso'],
    ['2025-06-05T14:12:07+02:0', 'not-iso'],
    ['2025/06/05T14:12:07Z', 'not-iso'],
    ['0004-02-29T00:00:00Z', checkIsoTimeByExpressions('0004-02-29T00:00:00Z')],
    ['', 'not-iso'],
  ];
  for (const [value, expected] of cases) {
    test(`${JSON.stringify(value)} is ${expected}`, () => {
      assert.equal(checkIsoTime(value), expected);
      assert.equal(checkIsoTimeByExpressions(value), expected);
    });
  }

  test('the hand-read shape agrees with the expressions on strings near it', () => {
    const near = fc
      .tuple(
        fc.constantFrom('2025-06-05T14:12:07Z', '2024-02-29 23:59:60.5+02:00', '1900-02-28t00:00:00z', '0099-12-31T10:10:10-01:30', '2023-02-29T10:10:10.000Z'),
        fc.array(fc.tuple(fc.nat(40), fc.constantFrom(...'0123456789-:Tt Zz+.x'), fc.constantFrom('set', 'drop', 'insert')), { maxLength: 3 }),
      )
      .map(([base, edits]) => {
        const chars = [...base];
        for (const [at, char, how] of edits) {
          const index = at % (chars.length + 1);
          if (how === 'set') chars[index] = char;
          else if (how === 'drop') chars.splice(index, 1);
          else chars.splice(index, 0, char);
        }
        return chars.join('');
      });
    fc.assert(fc.property(near, (value) => assert.equal(checkIsoTime(value), checkIsoTimeByExpressions(value), JSON.stringify(value))), { seed: SEED, numRuns: 50_000 });
  });
});
