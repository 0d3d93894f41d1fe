/**
 * `Double.toString` as JDK 17 writes it. The Java SDK is built and run on JDK 17, whose
 * FloatingDecimal (JDK ≤ 18) does not always print the shortest digits: `1e23` is
 * `9.999999999999999E22`, integers in [2^54, 2^63) keep up to 4 more digits, and short decimals
 * lying exactly half an ULP from their double get 16–17 digits (facts part 2, §4). This is that
 * algorithm, written from the facts' description: an exact integer path below 2^63 and the
 * Steele–White digit loop, with the same choice of 32-bit, 64-bit or unbounded arithmetic (and the
 * same wrap-around) as the JDK, because that choice decides the last digit in some cases.
 */

/** N5[i] bounds the bit length of 5^i (the JDK's table); 3·i past its end. */
const N5_BITS = [0, 3, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28, 31, 33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56, 59, 61];

function n5Bits(i: number): number {
  return i < N5_BITS.length ? N5_BITS[i] : i * 3;
}

/** The digits and decimal exponent JDK 17 chose: value ≈ 0.d1d2… × 10^decExponent. */
interface Jdk17Digits {
  readonly digits: string;
  readonly decExponent: number;
}

const bitsView = new DataView(new ArrayBuffer(8));

/** `Double.toString(x)` on JDK 17. */
export function jdk17DoubleToString(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const { digits, decExponent } = jdk17Digits(Math.abs(x));
  return (x < 0 ? '-' : '') + layout(digits, decExponent);
}

function jdk17Digits(x: number): Jdk17Digits {
  bitsView.setFloat64(0, x);
  const bits = bitsView.getBigUint64(0);
  let fract = bits & ((1n << 52n) - 1n);
  let binExp = Number((bits >> 52n) & 0x7ffn);
  let nSignificantBits: number;
  if (binExp === 0) {
    // Subnormal: normalise the fraction so that bit 52 is set.
    const length = fract.toString(2).length;
    const shift = 53 - length;
    fract <<= BigInt(shift);
    binExp = 1 - shift;
    nSignificantBits = length;
  } else {
    fract |= 1n << 52n;
    nSignificantBits = 53;
  }
  binExp -= 1023;
  const tailZeros = trailingZeros(fract);
  const nFractBits = 53 - tailZeros;
  const nTinyBits = Math.max(0, nFractBits - binExp - 1);

  if (nTinyBits === 0 && binExp >= -21 && binExp <= 62) return integerDigits(fract, binExp, nSignificantBits);

  let decExp = estimateDecExp(fract, binExp);
  const B5 = Math.max(0, -decExp);
  let B2 = B5 + nTinyBits + binExp;
  const S5 = Math.max(0, decExp);
  let S2 = S5 + nTinyBits;
  const M5 = B5;
  let M2 = B2 - nSignificantBits;
  const f = fract >> BigInt(tailZeros);
  B2 -= nFractBits - 1;
  const common = Math.min(B2, S2);
  B2 -= common;
  S2 -= common;
  M2 -= common;
  // At an exact power of two the next double below is only half as far away.
  if (nFractBits === 1) M2 -= 1;
  if (M2 < 0) {
    B2 -= M2;
    S2 -= M2;
    M2 = 0;
  }
  const bBits = nFractBits + B2 + n5Bits(B5);
  const tenSBits = S2 + 1 + n5Bits(S5 + 1);
  const width = bBits < 32 && tenSBits < 32 ? 32 : bBits < 64 && tenSBits < 64 ? 64 : 0;
  // Java's int and long arithmetic wraps; the unbounded path does not.
  const wrap = width === 0 ? (v: bigint) => v : (v: bigint) => BigInt.asIntN(width, v);
  const pow = (five: number, two: number) => 5n ** BigInt(five) << BigInt(two);

  let b = wrap(wrap(f * 5n ** BigInt(B5)) << BigInt(B2));
  const s = wrap(pow(S5, S2));
  let m = wrap(pow(M5, M2));
  const tens = wrap(s * 10n);
  // The int/long loop stops on b + m > 10s (strict); the unbounded one on b + m ≥ 10s.
  const isHigh = width === 0 ? () => b + m >= tens : () => wrap(b + m) > tens;

  const digits: number[] = [];
  let q = Number(b / s);
  b = wrap(10n * (b % s));
  m = wrap(m * 10n);
  let low = b < m;
  let high = isHigh();
  if (q === 0 && !high) decExp--;
  else digits.push(q);
  // Java always prints a digit after the point, so E-form output needs a second digit.
  if (decExp < -3 || decExp >= 8) low = high = false;
  while (!low && !high) {
    q = Number(b / s);
    b = wrap(10n * (b % s));
    m = wrap(m * 10n);
    if (width === 0 || m > 0n) {
      low = b < m;
      high = isHigh();
    } else {
      // m wrapped around: the JDK treats that as both bounds reached.
      low = high = true;
    }
    digits.push(q);
  }
  let decExponent = decExp + 1;
  if (high) {
    let roundUp = !low;
    if (low) {
      const difference = wrap(wrap(b << 1n) - tens);
      roundUp = difference > 0n || (difference === 0n && (digits[digits.length - 1] & 1) === 1);
    }
    if (roundUp && carry(digits)) decExponent++;
  }
  return { digits: digits.join(''), decExponent };
}

/**
 * The exact integer path (no fraction bits, below 2^63): the integer itself, with the low decimal
 * digits that the double cannot pin down rounded away (half up) once it passes 2^54.
 */
function integerDigits(fract: bigint, binExp: number, nSignificantBits: number): Jdk17Digits {
  let value = binExp >= 52 ? fract << BigInt(binExp - 52) : fract >> BigInt(52 - binExp);
  const p = binExp > nSignificantBits ? binExp - nSignificantBits - 1 : 0;
  const dropped = p >= 2 ? Math.floor(p * Math.log10(2)) : 0;
  if (dropped > 0) {
    const pow10 = 10n ** BigInt(dropped);
    const residue = value % pow10;
    value /= pow10;
    if (residue >= pow10 >> 1n) value++;
  }
  const text = value.toString();
  return { digits: text.replace(/0+$/, ''), decExponent: text.length + dropped };
}

/** ⌊log10 x⌋ as the JDK estimates it, in double arithmetic (it may be one too high). */
function estimateDecExp(fract: bigint, binExp: number): number {
  bitsView.setBigUint64(0, (0x3ffn << 52n) | (fract & ((1n << 52n) - 1n)));
  const m = bitsView.getFloat64(0);
  return Math.floor((m - 1.5) * 0.289529654 + 0.176091259 + binExp * 0.301029995663981);
}

/** Adds one to the last digit, carrying through 9s; true when all were 9 (the exponent grows). */
function carry(digits: number[]): boolean {
  let i = digits.length - 1;
  while (i > 0 && digits[i] === 9) digits[i--] = 0;
  if (digits[i] === 9) {
    digits[0] = 1;
    return true;
  }
  digits[i]++;
  return false;
}

function trailingZeros(v: bigint): number {
  let n = 0;
  while ((v & 1n) === 0n) {
    v >>= 1n;
    n++;
  }
  return n;
}

/** Java's layout: plain for 10^-3 ≤ x < 10^7 (always a fraction digit), else d.dddE±n. */
function layout(digits: string, decExponent: number): string {
  if (decExponent > 0 && decExponent < 8) {
    if (digits.length <= decExponent) return `${digits}${'0'.repeat(decExponent - digits.length)}.0`;
    return `${digits.slice(0, decExponent)}.${digits.slice(decExponent)}`;
  }
  if (decExponent <= 0 && decExponent > -3) return `0.${'0'.repeat(-decExponent)}${digits}`;
  return `${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}E${decExponent - 1}`;
}
