/**
 * Number literals that every SDK encoder writes back exactly as they are written, decided from
 * their characters alone. A leaf module: the parser marks such literals while their characters
 * are at hand (`Flag.PlainNumber`), so the data and encoding rules skip most numbers of a large
 * payload without reading the text again.
 */

/**
 * True when all six SDKs write the number token `text[from..to)` exactly as it is, decided from
 * its characters alone: an integer literal of at most 15 digits other than `-0`, or a plain decimal
 * `-?(0|[1-9]d{0,6}).d*[1-9]` with at most 15 significant digits and a magnitude of at least
 * 0.001. Such a decimal is the shortest round-trip text of its double (15 digits always round-
 * trip, and no shorter decimal is the same double), and every model prints that double in fixed
 * notation in this range (PHP, Python, Node, Go and Java between 10^-3 and 10^7, .NET below 10^15).
 */
export function writtenAsIsBySix(text: string, from: number, to: number, isIntegerLiteral: boolean): boolean {
  let at = from;
  if (text.charCodeAt(at) === 0x2d) at++;
  const first = at;
  while (at < to && text.charCodeAt(at) >= 0x30 && text.charCodeAt(at) <= 0x39) at++;
  const whole = at - first;
  if (whole === 0 || (whole > 1 && text.charCodeAt(first) === 0x30)) return false;
  if (isIntegerLiteral) return at === to && whole <= 15 && !(whole === 1 && text.charCodeAt(first) === 0x30 && first > from);
  if (whole > 7 || at === to || text.charCodeAt(at) !== 0x2e) return false;
  const point = at++;
  while (at < to && text.charCodeAt(at) >= 0x30 && text.charCodeAt(at) <= 0x39) at++;
  if (at !== to || at === point + 1 || text.charCodeAt(to - 1) === 0x30) return false;
  const fraction = to - point - 1;
  if (text.charCodeAt(first) !== 0x30) return whole + fraction <= 15;
  // 0.xxx: at least 0.001; the significant digits start at the first non-zero one.
  let zeros = 0;
  while (text.charCodeAt(point + 1 + zeros) === 0x30) zeros++;
  return zeros <= 2 && fraction - zeros <= 15;
}

