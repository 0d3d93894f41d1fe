/**
 * `checkIsoTime` reads the common RFC 3339 shape by hand and everything else by regular
 * expressions; both readings must classify every string the same way.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkIsoTime, checkIsoTimeByExpressions, durationInWords, readsAsTime, rfc3339Of, type IsoCheck } from '../../../core/contract/time';

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
    // ISO 8601 beyond RFC 3339, which the contract allows: basic format, an offset of hours, a
    // comma before a fraction, reduced precision, a month, week and ordinal dates, durations.
    ['20240101T000000Z', 'ok'],
    ['20240101T0000+0100', 'ok'],
    ['20240101', 'ok'],
    ['20240230', 'not-iso'],
    ['2024-01-01T10:00:00+01', 'ok'],
    ['2024-01-01T10:00:00,5Z', 'ok'],
    ['2024-01-01T00Z', 'ok'],
    ['2024-01-01T10', 'no-offset'],
    ['20240101T100000', 'no-offset'],
    ['2027-12', 'ok'],
    ['2027-13', 'not-iso'],
    ['2025-W23-4', 'ok'],
    ['2025W234', 'ok'],
    ['2025-W54', 'not-iso'],
    ['2025-W53', 'not-iso'],
    ['2026-W53-1', 'ok'],
    ['2020-W53', 'ok'],
    ['2024-366', 'ok'],
    ['2025-366', 'not-iso'],
    ['P3D', 'duration'],
    ['PT1H30M', 'duration'],
    ['P1Y2M10DT2H30M0.5S', 'duration'],
    ['P2W', 'duration'],
    ['P', 'not-iso'],
    ['PT', 'not-iso'],
    ['2024-01-01T10:00:00+24:00', 'not-iso'],
    ['2024-01-01T10:00:00+02:60', 'not-iso'],
    ['', 'not-iso'],
  ];
  for (const [value, expected] of cases) {
    test(`${JSON.stringify(value)} is ${expected}`, () => {
      assert.equal(checkIsoTime(value), expected);
      assert.equal(checkIsoTimeByExpressions(value), expected);
    });
  }

  test('rfc3339Of: the same instant when the text says its zone, nothing when it does not', () => {
    assert.equal(rfc3339Of('Mon, 01 Jan 2024 10:00:00 GMT'), '2024-01-01T10:00:00Z');
    assert.equal(rfc3339Of('2024/01/01 10:00 UTC'), '2024-01-01T10:00:00Z');
    assert.equal(rfc3339Of('1 Jan 2024 10:00:00 +0130'), '2024-01-01T08:30:00Z');
    assert.equal(rfc3339Of('January 5, 2024 10:00 UTC'), '2024-01-05T10:00:00Z');
    assert.equal(rfc3339Of('01/02/2024 10:00'), undefined);
    assert.equal(rfc3339Of('soon UTC'), undefined);
    // A day that does not exist would roll into the next month; a date whose day is not said is no suggestion.
    assert.equal(rfc3339Of('2025-02-30T10:00:00Z'), undefined);
    assert.equal(rfc3339Of('Sun, 30 Feb 2025 10:00:00 GMT'), undefined);
    assert.equal(rfc3339Of('5.6.2025 GMT'), undefined);
    assert.equal(rfc3339Of('05/06/2025 10:00 Z'), undefined);
  });

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

describe('readsAsTime', () => {
  test('a time or date written another way reads as one; a value that only shares a time-like key\'s ending does not', () => {
    for (const value of ['06/05/2025 14:12', '5.6.2025', 'June 5, 2025', 'Thu, 05 Jun 2025 10:00:00 GMT', '1749132727', '10:00', 'yesterday', 'noon', '5 pm', 'in 3 days', 'end of month', 'Monday']) {
      assert.equal(readsAsTime(value), true, value);
    }
    for (const value of ['inventory-service', 'linux', 'Berlin', 'eu-west-1', 'template-7', 'v2', '']) assert.equal(readsAsTime(value), false, value);
  });

  test('an hour written against its am or pm (5pm, 9AM, 7p.m.) reads as a time, as "5 pm" does; a name that only holds the letters (pm2, 1amp) does not', () => {
    for (const value of ['5pm', '9AM', '7p.m.', 'at 5pm']) assert.equal(readsAsTime(value), true, value);
    for (const value of ['pm2', '1amp']) assert.equal(readsAsTime(value), false, value);
  });
});

describe('durationInWords', () => {
  test('one number and one unit: the ISO 8601 duration it means, which checkIsoTime reads as a duration', () => {
    for (const [text, iso] of [['3 days', 'P3D'], ['250ms', 'PT0.25S'], ['1000 ms', 'PT1S'], ['5 minutes', 'PT5M'], ['1.5s', 'PT1.5S'], ['8h', 'PT8H'], ['2 weeks', 'P2W'], ['10 Seconds', 'PT10S'], ['6 min', 'PT6M'], ['6 mins', 'PT6M'], ['1 minute', 'PT1M'], ['12 months', 'P12M'], ['1 Month', 'P1M'], ['1 year', 'P1Y'], ['2 years', 'P2Y'], ['3 yrs', 'P3Y']] as const) {
      assert.equal(durationInWords(text), iso, text);
      assert.equal(checkIsoTime(iso), 'duration', iso);
    }
  });

  test('a fraction on a unit above seconds has no duration the check reads: empty; other text: undefined', () => {
    assert.equal(durationInWords('1.5h'), '');
    assert.equal(durationInWords('1.5 years'), '');
  });

  test('a bare m or M (minutes or months?) reads as a duration but is given none: empty', () => {
    for (const text of ['6m', '6M', '6 m']) assert.equal(durationInWords(text), '', text);
    for (const text of ['PT5M', 'eu-west-1', '3 days ago', '2025-06-05', 'h', '5', `${'9'.repeat(100_000)}ms`]) assert.equal(durationInWords(text), undefined, text.slice(0, 20));
  });
});
