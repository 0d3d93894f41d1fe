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

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= days;
}

function validTime(hour: number, minute: number, second: string | undefined): boolean {
  return hour <= 23 && minute <= 59 && (second === undefined || +second <= 60);
}
