/**
 * What all six SDK encoders write back exactly as written (the fleet's byte-identical subset,
 * facts §8), decided from the characters alone: number literals and string code units. The parser
 * marks such tokens while their characters are at hand (`Flag.PlainNumber`, `Flag.WrittenAsIs`), so
 * the data and encoding rules skip most values of a large payload without reading the text again.
 */
import { POWERS_OF_TEN } from '../model/number-value';

/**
 * True when all six SDKs write the number token `text[from..to)` exactly as it is, decided from
 * its characters alone: an integer literal of at most 15 digits other than `-0`, or a plain decimal
 * `-?(0|[1-9]d{0,6}).d*[1-9]` with at most 15 significant digits and a magnitude of at least
 * 0.001. Such a decimal is the shortest round-trip text of its double (15 digits always round-
 * trip, and no shorter decimal is the same double), and every model prints that double in fixed
 * notation in this range (PHP, Python, Node, Go and Java between 10^-3 and 10^7, .NET below 10^15).
 */
export function writtenAsIsBySix(text: string, from: number, to: number, isIntegerLiteral: boolean): boolean {
  return readPlainNumber(text, from, to, isIntegerLiteral, scratch, 0);
}

/** Where `writtenAsIsBySix` lets the value go. */
const scratch = new Float64Array(1);

/**
 * True when all six SDKs write the number token `text[from..to)` exactly as it is
 * (`writtenAsIsBySix`), and then its value is in `into[at]`: one pass over the digits decides both,
 * so the parser keeps the value of such a literal at no second read (written into its column, the
 * double needs no box either). The value is exact: the significant digits (at most 15) form an
 * integer below 2^53, 10^k is exact for k ≤ 22, and one division rounds once, as `Number()` does.
 */
export function readPlainNumber(text: string, from: number, to: number, isIntegerLiteral: boolean, into: Float64Array, slot: number): boolean {
  let at = from;
  const negative = text.charCodeAt(at) === 0x2d;
  if (negative) at++;
  const first = at;
  let value = 0;
  let code = text.charCodeAt(at);
  while (at < to && code >= 0x30 && code <= 0x39) {
    value = value * 10 + (code - 0x30);
    code = text.charCodeAt(++at);
  }
  const whole = at - first;
  if (whole === 0 || (whole > 1 && text.charCodeAt(first) === 0x30)) return false;
  if (isIntegerLiteral) {
    // No `-0`: some SDKs write it as 0.
    if (at !== to || whole > 15 || (negative && value === 0)) return false;
    into[slot] = negative ? -value : value;
    return true;
  }
  if (whole > 7 || at === to || code !== 0x2e) return false;
  const point = at++;
  code = text.charCodeAt(at);
  while (at < to && code >= 0x30 && code <= 0x39) {
    value = value * 10 + (code - 0x30);
    code = text.charCodeAt(++at);
  }
  if (at !== to || at === point + 1 || text.charCodeAt(to - 1) === 0x30) return false;
  const fraction = to - point - 1;
  if (text.charCodeAt(first) !== 0x30) {
    if (whole + fraction > 15) return false;
  } else {
    // 0.xxx: at least 0.001; the significant digits start at the first non-zero one.
    let zeros = 0;
    while (text.charCodeAt(point + 1 + zeros) === 0x30) zeros++;
    if (zeros > 2 || fraction - zeros > 15) return false;
  }
  const magnitude = value / POWERS_OF_TEN[fraction];
  into[slot] = negative ? -magnitude : magnitude;
  return true;
}

let dotnetAllowed: Uint8Array | undefined;

/**
 * The BMP code units the .NET relaxed encoder writes as is: U+0020 and the general categories
 * L, M, N, P, S and Cf (System.Text.Encodings.Web's GenDefinedCharList); everything else (controls,
 * DEL and C1, space separators but U+0020, U+2028/2029, private use, unassigned) is escaped.
 */
export function dotnetAllows(code: number): boolean {
  // Decided per code unit on first sight and remembered (2: allowed, 1: escaped): a fixture meets
  // a handful of distinct characters, and deciding all 65,536 up front took longer than linting it.
  dotnetAllowed ??= new Uint8Array(0x10000);
  let known = dotnetAllowed[code];
  if (known === 0) {
    const allowed = code === 0x20 || (code > 0x20 && (code < 0xd800 || code > 0xdfff) && DOTNET_ALLOWED.test(String.fromCharCode(code)));
    known = allowed ? 2 : 1;
    dotnetAllowed[code] = known;
  }
  return known === 2;
}

/** The general categories the .NET relaxed encoder writes as is (see `dotnetAllows`). */
const DOTNET_ALLOWED = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Cf}]$/u;

/**
 * True when every SDK style writes this BMP code unit as is: printable ASCII but `"` and `\`, or
 * a character the .NET block list allows that no other style escapes (a fast path for scans).
 */
export function writtenAsIsByAll(code: number): boolean {
  if (code < 0x7f) return isPlainAscii(code);
  if (code < 0xa0 || (code >= 0xd800 && code <= 0xdfff) || code === 0x2028 || code === 0x2029) return false;
  return dotnetAllows(code);
}

/** True when every SDK writes this code unit of a string as is (printable ASCII but `"` and `\`). */
export function isPlainAscii(code: number): boolean {
  return code >= 0x20 && code < 0x7f && code !== 0x22 && code !== 0x5c;
}
