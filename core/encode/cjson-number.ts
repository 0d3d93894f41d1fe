/**
 * Number text as Lua cjson writes it, which is what a Laravel retry puts back on the queue
 * (facts §4.1: Laravel's reservation script decodes the body with cjson and encodes it again).
 * cjson reads every number as a double and prints it with C's "%.14g": 14 significant digits,
 * rounded from the double's exact binary value half to even (as glibc's printf rounds), exponent
 * form when the decimal exponent is below -4 or from 14 on, trailing zeros of the fraction left
 * out, and at least two digits of exponent (`1e+21`, `1e-05`).
 */

/** cjson's precision: "%.14g". */
export const CJSON_SIGNIFICANT_DIGITS = 14;

/** `x` as C's printf("%.14g", x) writes it; undefined for NaN and ±Infinity, which cjson refuses to write. */
export function formatPercentG14(x: number): string | undefined {
  if (!Number.isFinite(x)) return undefined;
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (x === 0) return `${sign}0`;
  const { digits, exponent } = roundedDigits(Math.abs(x), CJSON_SIGNIFICANT_DIGITS);
  const trimmed = digits.replace(/0+$/, '');
  if (exponent < -4 || exponent >= CJSON_SIGNIFICANT_DIGITS) {
    const mantissa = trimmed.length > 1 ? `${trimmed[0]}.${trimmed.slice(1)}` : trimmed;
    const magnitude = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${magnitude}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${trimmed}`;
  const whole = trimmed.length > exponent + 1 ? trimmed.slice(0, exponent + 1) : trimmed.padEnd(exponent + 1, '0');
  const fraction = trimmed.slice(exponent + 1);
  return fraction ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
}

/**
 * The `precision` significant digits of a positive finite double, rounded half to even from its
 * exact value: value ≈ d1.d2… × 10^exponent. The exact value is m × 2^e, whose decimal expansion
 * is finite; JavaScript's toPrecision would round a tie away from zero instead (123456789012345
 * is exactly such a tie: glibc writes 1.2345678901234e+14, toPrecision 1.2345678901235e+14).
 */
function roundedDigits(x: number, precision: number): { digits: string; exponent: number } {
  const { mantissa, binaryExponent } = decompose(x);
  // The exact value as decimal digits × 10^-scale.
  const exact = binaryExponent >= 0 ? (mantissa << BigInt(binaryExponent)).toString() : (mantissa * 5n ** BigInt(-binaryExponent)).toString();
  const scale = binaryExponent >= 0 ? 0 : -binaryExponent;
  let exponent = exact.length - scale - 1;
  if (exact.length <= precision) return { digits: exact.padEnd(precision, '0'), exponent };
  let head = BigInt(exact.slice(0, precision));
  const first = exact.charCodeAt(precision) - 48;
  const restIsZero = /^0*$/.test(exact.slice(precision + 1));
  const roundUp = first > 5 || (first === 5 && (!restIsZero || head % 2n === 1n));
  if (roundUp) head += 1n;
  let digits = head.toString();
  if (digits.length > precision) {
    digits = digits.slice(0, precision);
    exponent++;
  }
  return { digits, exponent };
}

/** A positive finite double as mantissa × 2^binaryExponent, both exact. */
function decompose(x: number): { mantissa: bigint; binaryExponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const high = view.getUint32(0);
  const low = view.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  const fraction = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  // A subnormal has no implicit leading bit and the smallest exponent.
  if (biased === 0) return { mantissa: fraction, binaryExponent: -1074 };
  return { mantissa: fraction | (1n << 52n), binaryExponent: biased - 1075 };
}

/** The significant digits of a JSON number literal as written (sign, leading and trailing zeros, point and exponent left out). */
export function literalSignificantDigits(raw: string): number {
  let mantissaEnd = raw.length;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x65 || c === 0x45) {
      mantissaEnd = i;
      break;
    }
  }
  let first = -1;
  let last = -1;
  for (let i = 0; i < mantissaEnd; i++) {
    const c = raw.charCodeAt(i);
    if (c > 0x30 && c <= 0x39) {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (first < 0) return 0;
  let count = 0;
  for (let i = first; i <= last; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) count++;
  }
  return count;
}

/**
 * What a Laravel retry writes for the number literal `raw`, when that is another value than the
 * one written: an integer literal with more than 14 significant digits (the consumers that keep
 * integers exactly, PHP, Python, Java and .NET, read another integer), or a literal whose double
 * cjson's 14 digits do not give back (0.30000000000000004 becomes 0.3). Undefined when the value
 * stays (`1.0` becoming `1`, `1e-5` becoming `1e-05` is text only), and for a literal beyond the
 * double range, which cjson cannot write at all (other findings say what that literal does).
 */
export function cjsonChangedNumber(raw: string, isIntegerLiteral: boolean): string | undefined {
  // A literal of at most 14 characters has at most 14 digits: the common case, decided by its length.
  if (raw.length <= CJSON_SIGNIFICANT_DIGITS || literalSignificantDigits(raw) <= CJSON_SIGNIFICANT_DIGITS) return undefined;
  const value = Number(raw);
  const written = formatPercentG14(value);
  if (written === undefined) return undefined;
  if (isIntegerLiteral) return written;
  return Number(written) === value ? undefined : written;
}
