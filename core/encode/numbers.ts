/**
 * Number text as each SDK's encoder writes it, from a float64 or an exact integer.
 *
 * Every SDK parses a JSON number with a correctly rounded strtod, so JavaScript's `Number(raw)`
 * is the double each of them holds; what differs is the text they print (facts §8). All six
 * print the shortest round-trip digits (Java since JDK 19; JDK 17's are in `java-double.ts`); they differ
 * in where they switch to exponent notation and how they spell it.
 */

/** The shortest round-trip digits of a finite, non-zero double: value = d1.d2d3… × 10^exponent. */
export interface ShortestDigits {
  /** Significant digits without leading or trailing zeros, e.g. `"12345"`. */
  readonly digits: string;
  /** The decimal exponent of the first digit. */
  readonly exponent: number;
}

/** Shortest round-trip digits of |x| (x finite and non-zero). */
export function shortestDigits(x: number): ShortestDigits {
  // toExponential() without an argument yields the shortest digits that round-trip (ECMA-262).
  const text = Math.abs(x).toExponential();
  const e = text.indexOf('e');
  const mantissa = text.slice(0, e).replace('.', '');
  return { digits: mantissa.replace(/0+$/, '') || '0', exponent: Number(text.slice(e + 1)) };
}

/** The digits placed in fixed notation: `digits` × 10^(exponent − len + 1) as plain decimal text. */
function fixed(digits: string, exponent: number): { whole: string; fraction: string } {
  const point = exponent + 1;
  if (point <= 0) return { whole: '0', fraction: '0'.repeat(-point) + digits };
  if (point >= digits.length) return { whole: digits + '0'.repeat(point - digits.length), fraction: '' };
  return { whole: digits.slice(0, point), fraction: digits.slice(point) };
}

function sign(x: number): string {
  return x < 0 || Object.is(x, -0) ? '-' : '';
}

/** Node: `JSON.stringify` (ECMAScript Number::toString; `-0` prints as `0`). */
export function formatNode(x: number): string {
  return JSON.stringify(x);
}

/**
 * Go 1.19 `encoding/json` float64: like ECMAScript (exponent form below 1e-6 and from 1e21,
 * `e-7` without zero padding) but the sign of zero is kept (`-0`), facts §8.
 */
export function formatGo(x: number): string {
  if (x === 0) return sign(x) + '0';
  return String(x);
}

/**
 * PHP `json_encode` with `serialize_precision = -1`: `php_gcvt` in mode 0 with 17 as the
 * exponent threshold, so `1.0e+21`, `1.0e+17`, `1.0e-5` (facts §8), never a trailing `.0` on
 * fixed text (no JSON_PRESERVE_ZERO_FRACTION).
 */
export function formatPhp(x: number): string {
  if (x === 0) return sign(x) + '0';
  const { digits, exponent } = shortestDigits(x);
  const point = exponent + 1;
  if (point < 0 ? point < -3 : point > 17) {
    const rest = digits.length > 1 ? digits.slice(1) : '0';
    return `${sign(x)}${digits[0]}.${rest}e${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  }
  const { whole, fraction } = fixed(digits, exponent);
  return sign(x) + whole + (fraction ? `.${fraction}` : '');
}

/**
 * Python `repr(float)`: exponent form when the exponent is below −4 or at least 16, with a sign
 * and at least two exponent digits (`1e+16`, `1e-05`); fixed text always has a fraction (`10.0`).
 */
export function formatPython(x: number): string {
  if (x === 0) return sign(x) + '0.0';
  const { digits, exponent } = shortestDigits(x);
  if (exponent < -4 || exponent >= 16) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign(x)}${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  const { whole, fraction } = fixed(digits, exponent);
  return `${sign(x)}${whole}.${fraction || '0'}`;
}

/**
 * Java `Double.toString` on JDK 19 and later (the Java column writes JDK 17's, `java-double.ts`,
 * and notes this text where it differs): plain text for 10^-3 ≤ |x| < 10^7 and computerized scientific notation
 * otherwise (`1.0E21`, `1.0E-4`), always with a fraction digit. Digits are the JDK 19+ ones: the
 * shortest, except that a one-digit result is replaced by the closest two-digit decimal when that
 * one also round-trips (`Double.MIN_VALUE` prints `4.9E-324`).
 */
export function formatJava19(x: number): string {
  if (x === 0) return sign(x) + '0.0';
  const { digits, exponent } = javaDigits(x);
  if (exponent >= -3 && exponent < 7) {
    const { whole, fraction } = fixed(digits, exponent);
    return `${sign(x)}${whole}.${fraction || '0'}`;
  }
  return `${sign(x)}${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}E${exponent}`;
}

function javaDigits(x: number): ShortestDigits {
  const shortest = shortestDigits(x);
  if (shortest.digits.length !== 1) return shortest;
  // JDK 19+ (Double.toString spec): with one shortest digit, the closest decimal of length 1 or 2
  // wins; toExponential(1) is the closest two-digit decimal to the exact value of x.
  const text = Math.abs(x).toExponential(1);
  const e = text.indexOf('e');
  const two = text.slice(0, e).replace('.', '');
  // Its exponent may be one below the shortest's (2 × Double.MIN_VALUE is 9.9E-324, not 1.0E-323).
  const exponent = Number(text.slice(e + 1));
  if (two.endsWith('0') || Number(text) !== Math.abs(x)) return shortest;
  const closer = compareDistance(Math.abs(x), BigInt(two), exponent - 1, BigInt(shortest.digits), shortest.exponent);
  return closer < 0 ? { digits: two, exponent } : shortest;
}

/** Sign of |a·10^ea − x| − |b·10^eb − x|, exactly (x a positive finite double). */
function compareDistance(x: number, a: bigint, ea: number, b: bigint, eb: number): number {
  const { mantissa, exponent2 } = exactDouble(x);
  // Scale all three by 2^s2 · 10^s10 so that each is an integer.
  const s2 = Math.max(0, -exponent2);
  const s10 = Math.max(0, -Math.min(ea, eb));
  const xScaled = mantissa * 2n ** BigInt(exponent2 + s2) * 10n ** BigInt(s10);
  const aScaled = a * 10n ** BigInt(ea + s10) * 2n ** BigInt(s2);
  const bScaled = b * 10n ** BigInt(eb + s10) * 2n ** BigInt(s2);
  const da = abs(aScaled - xScaled);
  const db = abs(bScaled - xScaled);
  return da < db ? -1 : da > db ? 1 : 0;
}

function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}

/** x = mantissa · 2^exponent2 exactly (x finite). */
export function exactDouble(x: number): { mantissa: bigint; exponent2: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  if (biased === 0) return { mantissa: fraction, exponent2: -1074 };
  return { mantissa: fraction | (1n << 52n), exponent2: biased - 1075 };
}

/**
 * .NET Core 3.0+ `double` 'R'/'G' shortest text as System.Text.Json writes it: exponent form when
 * the decimal point would sit beyond max(15, digit count) places or more than three zeros after
 * it (`1E+15`, `1E-05`, `1E+21`), exponent with a sign and at least two digits. UNVERIFIED (no
 * .NET runtime was available for the facts; §8).
 */
export function formatDotnet(x: number): string {
  if (x === 0) return sign(x) + '0';
  const { digits, exponent } = shortestDigits(x);
  const scale = exponent + 1;
  if (scale > Math.max(digits.length, 15) || scale < -3) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign(x)}${mantissa}E${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  const { whole, fraction } = fixed(digits, exponent);
  return sign(x) + whole + (fraction ? `.${fraction}` : '');
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

/** True when the integer fits a signed 64-bit integer. */
export function fitsInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/** True when the integer fits a signed 32-bit integer. */
export function fitsInt32(value: bigint): boolean {
  return value >= INT32_MIN && value <= INT32_MAX;
}

// Integer literals as text. BigInt() of a literal is superlinear in its length (seconds for a
// 10 MB literal, and toString() again), so these answer from the digits where they can.

const INTEGER_LITERAL = /^([-+]?)0*(\d+)$/;

/** `BigInt(raw).toString()` for an integer literal (`-0` → `0`, leading zeros dropped), in linear time. */
export function integerText(raw: string): string {
  const match = INTEGER_LITERAL.exec(raw);
  if (!match) return BigInt(raw).toString();
  return match[2] === '0' ? '0' : `${match[1] === '-' ? '-' : ''}${match[2]}`;
}

/** `fitsInt64(BigInt(raw))` without parsing a literal too long to fit. */
export function literalFitsInt64(raw: string): boolean {
  const match = INTEGER_LITERAL.exec(raw);
  if (match && match[2].length > 19) return false;
  return fitsInt64(BigInt(raw));
}

/** `fitsInt32(BigInt(raw))` without parsing a literal too long to fit. */
export function literalFitsInt32(raw: string): boolean {
  const match = INTEGER_LITERAL.exec(raw);
  if (match && match[2].length > 10) return false;
  return fitsInt32(BigInt(raw));
}

/** `BigInt.asIntN(bits, BigInt(raw))`: the low bits, taken 15 digits at a time (linear in the literal). */
export function literalAsIntN(bits: number, raw: string): bigint {
  const match = INTEGER_LITERAL.exec(raw);
  if (!match || match[2].length <= 30) return BigInt.asIntN(bits, BigInt(raw));
  const modulus = 1n << BigInt(bits);
  const digits = match[2];
  let i = digits.length % 15 || 15;
  let low = BigInt(digits.slice(0, i));
  for (; i < digits.length; i += 15) low = (low * 1_000_000_000_000_000n + BigInt(digits.slice(i, i + 15))) % modulus;
  return BigInt.asIntN(bits, match[1] === '-' ? modulus - low : low);
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * A canonical key for the exact value of a decimal number text (`1.0e+21`, `1E21` and
 * `1000000000000000000000` share one), with the sign of zero kept; `undefined` for anything that
 * is not a finite JSON-style number (`null`, `Infinity`).
 */
export function exactValueKey(text: string): string | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, minus, whole, fraction = '', exponentText = '0'] = match;
  const all = whole + fraction;
  const lead = all.search(/[1-9]/);
  if (lead < 0) return `${minus}0`;
  const significant = all.slice(lead).replace(/0+$/, '');
  // Exponent of the first significant digit.
  const exponent = BigInt(exponentText) + BigInt(whole.length - 1 - lead);
  return `${minus}${significant}e${exponent}`;
}

/**
 * True when two number texts carry the same value for a consumer: the same exact decimal
 * (`1.0e+21` and `1000000000000000000000`), or two float texts that parse to the same double
 * (`4.9E-324` and `5e-324`). An integer text is compared exactly, because Python and Java read
 * integers exactly (9007199254740992 is not 9007199254740993). `-0` differs from `0`.
 */
export function sameNumber(a: string, b: string): boolean {
  const ka = exactValueKey(a);
  const kb = exactValueKey(b);
  if (ka === undefined || kb === undefined) return a === b;
  if (ka === kb) return true;
  return /[.eE]/.test(a) && /[.eE]/.test(b) && Object.is(Number(a), Number(b));
}
