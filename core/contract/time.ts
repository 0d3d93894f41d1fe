/** Time helpers shared by rules, hovers and fixes (pure: they never read the clock). */

const MAX_DATE_MS = 8.64e15;

/** The UTC date and time a Unix-millisecond value means, or a note when no date can hold it. */
export function formatUtc(milliseconds: number): string {
  if (!Number.isFinite(milliseconds) || Math.abs(milliseconds) > MAX_DATE_MS) return 'out of the date range';
  return new Date(milliseconds).toISOString().replace('.000Z', 'Z');
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const ISO_TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

export type IsoCheck = 'ok' | 'no-offset' | 'not-iso';

/** Classifies a string as RFC 3339 / ISO 8601 with a UTC offset, without one, or not ISO at all. */
export function checkIsoTime(value: string): IsoCheck {
  return commonDateTime(value) ?? checkIsoTimeByExpressions(value);
}

/** `checkIsoTime` by regular expressions alone: the general reading, and the reference its fast path is tested against. */
export function checkIsoTimeByExpressions(value: string): IsoCheck {
  const date = ISO_DATE.exec(value);
  if (date) return validDate(+date[1], +date[2], +date[3]) ? 'ok' : 'not-iso';
  const dateTime = ISO_DATE_TIME.exec(value);
  if (dateTime) {
    if (!validDate(+dateTime[1], +dateTime[2], +dateTime[3]) || !validTime(+dateTime[4], +dateTime[5], dateTime[6])) return 'not-iso';
    return dateTime[7] ? 'ok' : 'no-offset';
  }
  const time = ISO_TIME.exec(value);
  if (time) {
    if (!validTime(+time[1], +time[2], time[3])) return 'not-iso';
    return time[4] ? 'ok' : 'no-offset';
  }
  return 'not-iso';
}

/** Past the end `charCodeAt` is NaN, which no comparison holds for. */
const isDigit = (value: string, at: number): boolean => {
  const code = value.charCodeAt(at);
  return code >= 0x30 && code <= 0x39;
};
const twoDigits = (value: string, at: number): number => (isDigit(value, at) && isDigit(value, at + 1) ? (value.charCodeAt(at) - 0x30) * 10 + value.charCodeAt(at + 1) - 0x30 : -1);

/**
 * `checkIsoTime` for the shape nearly every timestamp of a payload has, read by hand: a large
 * payload holds thousands of them, and the regular expressions with their captures and a `Date`
 * per value cost more than the rest of the data rules. `YYYY-MM-DD[Tt ]HH:MM:SS[.fraction]`
 * followed by `Z`, `z` or `±HH:MM` and nothing else; undefined for anything else (and for years
 * below 100, which `validDate` reads through `Date.UTC` as 19xx), which the expressions then judge.
 */
function commonDateTime(value: string): IsoCheck | undefined {
  const length = value.length;
  if (length < 20 || value.charCodeAt(4) !== 0x2d || value.charCodeAt(7) !== 0x2d || value.charCodeAt(13) !== 0x3a || value.charCodeAt(16) !== 0x3a) return undefined;
  const separator = value.charCodeAt(10);
  if (separator !== 0x54 && separator !== 0x74 && separator !== 0x20) return undefined;
  const century = twoDigits(value, 0);
  const yearInCentury = twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  const hour = twoDigits(value, 11);
  const minute = twoDigits(value, 14);
  const second = twoDigits(value, 17);
  if (century < 1 || yearInCentury < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  let at = 19;
  if (value.charCodeAt(at) === 0x2e) {
    at++;
    const digits = at;
    while (isDigit(value, at)) at++;
    if (at === digits) return undefined;
  }
  const offset = value.charCodeAt(at);
  if (offset === 0x5a || offset === 0x7a) {
    at++;
  } else if ((offset === 0x2b || offset === 0x2d) && twoDigits(value, at + 1) >= 0 && value.charCodeAt(at + 3) === 0x3a && twoDigits(value, at + 4) >= 0) {
    at += 6;
  } else {
    return undefined;
  }
  if (at !== length) return undefined;
  const year = century * 100 + yearInCentury;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  const valid = month >= 1 && month <= 12 && day >= 1 && day <= days && hour <= 23 && minute <= 59 && second <= 60;
  return valid ? 'ok' : 'not-iso';
}

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= days;
}

function validTime(hour: number, minute: number, second: string | undefined): boolean {
  return hour <= 23 && minute <= 59 && (second === undefined || +second <= 60);
}
