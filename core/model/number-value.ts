/**
 * Number tokens to doubles, exactly as `Number()` (and so `JSON.parse`) reads them, without a
 * slice of the text when the token is short. The parser converts the plain literals while their
 * digits are at hand (`Columns.values`); `numberValue` in ./document.ts converts the rest.
 */

/** Exact powers of ten as doubles (10^22 is the largest). */
export const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * `Number(text.slice(start, end))` for a number literal with a fraction, without the slice when
 * it is short: with at most 15 digits the digits form an exact integer and 10^k is exact, so one
 * division is the correctly rounded value, as Number() gives (IEEE 754 division rounds once).
 */
export function decimalValue(text: string, start: number, end: number): number {
  const negative = text.charCodeAt(start) === 0x2d;
  let digits = 0;
  let fraction = -1;
  let value = 0;
  for (let i = negative ? start + 1 : start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x2e && fraction < 0) {
      fraction = 0;
      continue;
    }
    // An exponent, or too many digits to be exact: the general conversion.
    if (code < 0x30 || code > 0x39 || ++digits > 15) return Number(text.slice(start, end));
    value = value * 10 + (code - 0x30);
    if (fraction >= 0) fraction++;
  }
  // A malformed token the parser reported (".", "-"): whatever Number() makes of it.
  if (digits === 0) return Number(text.slice(start, end));
  if (fraction > 0) value /= POWERS_OF_TEN[fraction];
  return negative ? -value : value;
}

/** `Number(text.slice(start, end))` for an integer literal, without the slice when it is short enough to be exact. */
export function integerValue(text: string, start: number, end: number): number {
  const negative = text.charCodeAt(start) === 0x2d;
  const first = negative ? start + 1 : start;
  if (end - first > 15) return Number(text.slice(start, end));
  let value = 0;
  for (let i = first; i < end; i++) value = value * 10 + (text.charCodeAt(i) - 0x30);
  return negative ? -value : value;
}
