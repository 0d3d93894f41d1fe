/**
 * Where a character of a string's value stands in its literal: the value is decoded (escapes
 * undone), and a finding about one character of a long string belongs on that character's text,
 * not on the whole string.
 */

/**
 * The source span [offset, end) of the value's code units [index, index + width) in the string
 * literal that starts at `literalOffset` in `text` (its opening quote). An escape is one unit
 * (`\n`, `\u2028`); any other source character is itself. Undefined when the literal ends first.
 */
export function literalSpanOf(text: string, literalOffset: number, index: number, width: number): { offset: number; end: number } | undefined {
  let at = literalOffset + 1;
  let unit = 0;
  let offset: number | undefined;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === 0x22 /* " */) return undefined;
    if (unit === index) offset = at;
    // A backslash starts an escape: \uXXXX is six characters, the others two; each is one unit.
    at += code === 0x5c ? (text.charCodeAt(at + 1) === 0x75 /* u */ ? 6 : 2) : 1;
    unit++;
    if (offset !== undefined && unit === index + width) return { offset, end: Math.min(at, text.length) };
  }
  return undefined;
}
