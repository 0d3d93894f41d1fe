/** Time helpers shared by rules, hovers and fixes (pure: they never read the clock). */
import { plainDecimal } from '../model/decimal';

const MAX_DATE_MS = 8.64e15;

/** The UTC date and time a Unix-millisecond value means, or a note when no date can hold it. */
export function formatUtc(milliseconds: number): string {
  if (!Number.isFinite(milliseconds) || Math.abs(milliseconds) > MAX_DATE_MS) return 'out of the date range';
  return new Date(milliseconds).toISOString().replace('.000Z', 'Z');
}

/** A calendar date, extended (`2025-06-05`) or basic (`20250605`). */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$|^(\d{4})(\d{2})(\d{2})$/;
/** A year and month (`2027-12`), a week date (`2025-W23-4`, `2025W234`), an ordinal date (`2025-156`, `2025156`). */
const ISO_YEAR_MONTH = /^\d{4}-(\d{2})$/;
const ISO_WEEK_DATE = /^(\d{4})-?W(\d{2})(?:-?[1-7])?$/;
const ISO_ORDINAL_DATE = /^(\d{4})-?(\d{3})$/;
/**
 * A date and time, extended (`2025-06-05T14:12:07.5+02:00`) or basic (`20250605T141207,5+0200`),
 * its time to the hour, minute or second, a fraction after a point or a comma, and a UTC
 * designator or offset of hours (`+02`) or hours and minutes. RFC 3339's space for `T` is read too.
 */
const ISO_DATE_TIME_EXTENDED = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2})(?::(\d{2})(?::(\d{2}))?)?(?:[.,]\d+)?([Zz]|[+-](\d{2})(?::?(\d{2}))?)?$/;
const ISO_DATE_TIME_BASIC = /^(\d{4})(\d{2})(\d{2})[Tt](\d{2})(?:(\d{2})(\d{2})?)?(?:[.,]\d+)?([Zz]|[+-](\d{2})(\d{2})?)?$/;
const ISO_TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?(?:[.,]\d+)?([Zz]|[+-](\d{2})(?::?(\d{2}))?)?$/;
/** A duration (`P3D`, `PT1H30M`, `P2W`): a length of time, not a time. */
const ISO_DURATION = /^P(?=\d|T\d)(?:\d+Y)?(?:\d+M)?(?:\d+W)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+(?:[.,]\d+)?S)?)?$/;

/**
 * `ok`: an ISO 8601 date, or a time with a UTC designator or offset (RFC 3339 among them);
 * `no-offset`: a time without one (a different instant in every time zone); `duration`: an ISO
 * 8601 duration, a length of time; `not-iso`: none of these.
 */
export type IsoCheck = 'ok' | 'no-offset' | 'duration' | 'not-iso';

/** Two digits anywhere, or a word that only a time or date is written with (am and pm also right after an hour: `5pm`). */
const TIME_DIGITS = /\d\D*\d/;
const TIME_WORD =
  /\b(?:yesterday|today|tomorrow|tonight|now|noon|midnight|morning|afternoon|evening|ago|(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|july|august|september|october|november|december|(?:second|minute|hour|day|week|month|year)s?|[ap]\.?m\.?|utc|gmt)\b|\d[ap]\.?m\.?(?![a-z])/i;

/**
 * Whether a string that is no ISO 8601 time still reads as a time or date (`06/05/2025`,
 * `June 5, 2025`, `yesterday`, `5 pm`, `5pm`), so that a time-like key holding it was meant to hold a
 * time. A word with at most one digit (`"depends_on": "inventory-service"`, `"hosted_at":
 * "eu-west-1"`) is a value that only shares the key's ending, which the contract leaves alone.
 */
export function readsAsTime(value: string): boolean {
  return TIME_DIGITS.test(value) || TIME_WORD.test(value);
}

/** Classifies a string as an ISO 8601 time with a UTC offset, one without, a duration, or not ISO 8601 at all. */
export function checkIsoTime(value: string): IsoCheck {
  return commonDateTime(value) ?? checkIsoTimeByExpressions(value);
}

/** `checkIsoTime` by regular expressions alone: the general reading, and the reference its fast path is tested against. */
export function checkIsoTimeByExpressions(value: string): IsoCheck {
  const date = ISO_DATE.exec(value);
  if (date) return date[1] ? (validDate(+date[1], +date[2], +date[3]) ? 'ok' : 'not-iso') : validDate(+date[4], +date[5], +date[6]) ? 'ok' : 'not-iso';
  const yearMonth = ISO_YEAR_MONTH.exec(value);
  if (yearMonth) return +yearMonth[1] >= 1 && +yearMonth[1] <= 12 ? 'ok' : 'not-iso';
  const week = ISO_WEEK_DATE.exec(value);
  if (week) return +week[2] >= 1 && +week[2] <= isoWeeksIn(+week[1]) ? 'ok' : 'not-iso';
  const ordinal = ISO_ORDINAL_DATE.exec(value);
  if (ordinal) return +ordinal[2] >= 1 && +ordinal[2] <= (isLeapYear(+ordinal[1]) ? 366 : 365) ? 'ok' : 'not-iso';
  const dateTime = ISO_DATE_TIME_EXTENDED.exec(value) ?? ISO_DATE_TIME_BASIC.exec(value);
  if (dateTime) {
    if (!validDate(+dateTime[1], +dateTime[2], +dateTime[3]) || !validTime(+dateTime[4], dateTime[5], dateTime[6]) || !validOffset(dateTime[8], dateTime[9])) return 'not-iso';
    return dateTime[7] ? 'ok' : 'no-offset';
  }
  const time = ISO_TIME.exec(value);
  if (time) {
    if (!validTime(+time[1], time[2], time[3]) || !validOffset(time[5], time[6])) return 'not-iso';
    return time[4] ? 'ok' : 'no-offset';
  }
  return ISO_DURATION.test(value) ? 'duration' : 'not-iso';
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** A date that says which number is the day: the year first (`2024/01/05`), or the month in words (`Fri, 05 Jan 2024`, `January 5, 2024`). */
const YEAR_FIRST = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/;
const DAY_MONTH_NAME = /\b(\d{1,2})(?:st|nd|rd|th)?[ -]([A-Za-z]{3})[a-z]*\.?,?[ -](\d{4})\b/;
const MONTH_NAME_DAY = /\b([A-Za-z]{3})[a-z]*\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b/;

/**
 * The RFC 3339 form of a time written some other way with its zone said (`Mon, 01 Jan 2024
 * 10:00:00 GMT`, `2024/01/01 10:00 UTC`, `… +0100`), as a suggestion; undefined when the zone is
 * not said (the instant would depend on the reader's time zone), when the date does not say which
 * number is its day (`05/06/2025`: the fifth of June or the sixth of May), when that day does not
 * exist (`Date.parse` would roll it into the next month), or when the text is no time at all.
 */
export function rfc3339Of(value: string): string | undefined {
  if (!/(?:\b(?:UTC|GMT)|[Zz]|[+-]\d{2}:?\d{2})\s*$/.test(value)) return undefined;
  if (!writtenDateExists(value)) return undefined;
  const milliseconds = Date.parse(value);
  if (!Number.isFinite(milliseconds) || Math.abs(milliseconds) > MAX_DATE_MS) return undefined;
  return formatUtc(milliseconds);
}

/** True when the text's date says its day unambiguously and that day exists. */
function writtenDateExists(value: string): boolean {
  const yearFirst = YEAR_FIRST.exec(value);
  if (yearFirst) return validDate(+yearFirst[1], +yearFirst[2], +yearFirst[3]);
  const dayMonth = DAY_MONTH_NAME.exec(value);
  const monthDay = dayMonth ? undefined : MONTH_NAME_DAY.exec(value);
  const [day, month, year] = dayMonth ? [dayMonth[1], dayMonth[2], dayMonth[3]] : monthDay ? [monthDay[2], monthDay[1], monthDay[3]] : [];
  const monthNumber = month === undefined ? -1 : MONTHS.indexOf(month.toLowerCase());
  return monthNumber >= 0 && validDate(+year!, monthNumber + 1, +day!);
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
  let offsetValid = true;
  if (offset === 0x5a || offset === 0x7a) {
    at++;
  } else if ((offset === 0x2b || offset === 0x2d) && twoDigits(value, at + 1) >= 0 && value.charCodeAt(at + 3) === 0x3a && twoDigits(value, at + 4) >= 0) {
    offsetValid = twoDigits(value, at + 1) <= 23 && twoDigits(value, at + 4) <= 59;
    at += 6;
  } else {
    return undefined;
  }
  if (at !== length) return undefined;
  const year = century * 100 + yearInCentury;
  const days = month === 2 ? (isLeapYear(year) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  const valid = month >= 1 && month <= 12 && day >= 1 && day <= days && hour <= 23 && minute <= 59 && second <= 60 && offsetValid;
  return valid ? 'ok' : 'not-iso';
}

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= days;
}

/** 53 when the year starts on a Thursday, or is a leap year starting on a Wednesday; else 52. */
function isoWeeksIn(year: number): number {
  const firstDay = new Date(Date.UTC(year, 0, 1)).getUTCDay();
  return firstDay === 4 || (isLeapYear(year) && firstDay === 3) ? 53 : 52;
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function validTime(hour: number, minute: string | undefined, second: string | undefined): boolean {
  return hour <= 23 && (minute === undefined || +minute <= 59) && (second === undefined || +second <= 60);
}

/** An offset's hours and minutes (absent when the time has none, or a `Z`). */
function validOffset(hours: string | undefined, minutes: string | undefined): boolean {
  return (hours === undefined || +hours <= 23) && (minutes === undefined || +minutes <= 59);
}

/**
 * A length of time in words or unit letters (`3 days`, `250ms`, `1.5s`, `8h`, `12 months`): one
 * number and one unit, anchored, with bounded runs (linear on any string). A bare `m` is matched
 * but given no duration: minutes to some, months to others.
 */
const DURATION_IN_WORDS = /^\s{0,8}(\d{1,15}(?:\.\d{1,15})?)\s{0,8}(ms|msecs?|millis(?:econds?)?|s|secs?|seconds?|m|mins?|minutes?|mos?|mons?|months?|h|hrs?|hours?|d|days?|w|wks?|weeks?|y|yrs?|years?)\s{0,8}$/i;

/**
 * The ISO 8601 duration a length of time in words means (`3 days` → `P3D`, `250ms` → `PT0.25S`,
 * `12 months` → `P12M`), `''` for one that reads as a duration but has no duration `checkIsoTime`
 * accepts as written (`1.5h`: a fraction only on seconds) or no one meaning (`6m`: minutes or
 * months), undefined for a string that is no such length of time.
 */
export function durationInWords(value: string): string | undefined {
  const match = DURATION_IN_WORDS.exec(value);
  if (!match) return undefined;
  const [, amount, unitText] = match;
  const unit = unitText.toLowerCase();
  let iso: string | undefined;
  if (unit.startsWith('ms') || unit.startsWith('milli')) {
    const seconds = plainDecimal(`${amount}e-3`);
    iso = seconds === undefined ? undefined : `PT${seconds.includes('.') ? seconds.replace(/0+$/, '').replace(/\.$/, '') : seconds}S`;
  } else if (unit.startsWith('s')) iso = `PT${amount}S`;
  else if (unit === 'm') iso = undefined;
  else if (unit.startsWith('mi')) iso = `PT${amount}M`;
  else if (unit.startsWith('mo')) iso = `P${amount}M`;
  else if (unit.startsWith('y')) iso = `P${amount}Y`;
  else if (unit.startsWith('h')) iso = `PT${amount}H`;
  else if (unit.startsWith('d')) iso = `P${amount}D`;
  else iso = `P${amount}W`;
  return iso !== undefined && checkIsoTime(iso) === 'duration' ? iso : '';
}
