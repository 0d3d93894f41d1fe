/** Exact decimal arithmetic on number literals as written (never through a float). */

const LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The literal times 10^places as an integer literal, when that is exact (`99.90` → `9990`,
 * `1.5e1` → `1500`); undefined when digits would remain after the point (`0.001` at 2 places).
 */
export function shiftToInteger(raw: string, places: number): string | undefined {
  const match = LITERAL.exec(raw);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) + places;
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 400) return undefined;
  let digits = whole + fraction;
  const point = whole.length + exponent;
  if (point < 0) return /^0*$/.test(digits) ? '0' : undefined;
  if (point > digits.length) digits = digits.padEnd(point, '0');
  const integer = digits.slice(0, point);
  const rest = digits.slice(point);
  if (!/^0*$/.test(rest)) return undefined;
  const trimmed = integer.replace(/^0+(?=\d)/, '') || '0';
  return trimmed === '0' ? '0' : sign + trimmed;
}

/**
 * The literal in plain decimal notation, exactly and with the digits as written (`25e-1` → `2.5`,
 * `1e3` → `1000`, `9.990e1` → `99.90`); a literal without an exponent as it is. A decimal string
 * is read by decimal parsers, some of which refuse an exponent (.NET's `decimal.Parse` by default),
 * so an amount carried as a string is written this way. Undefined beyond 400 places.
 */
export function plainDecimal(raw: string): string | undefined {
  const match = LITERAL.exec(raw);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponentText] = match;
  if (exponentText === undefined) return raw;
  const exponent = Number(exponentText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 400) return undefined;
  let digits = whole + fraction;
  let point = whole.length + exponent;
  if (point < 1) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  }
  if (point > digits.length) digits = digits.padEnd(point, '0');
  const integer = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(point);
  return sign + integer + (rest ? `.${rest}` : '');
}
