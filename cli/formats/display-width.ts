/**
 * How many terminal columns a text takes, for the stylish table's alignment: a message may quote a
 * key or a URN in any script, and padding by UTF-16 units puts the next column two places off for
 * each CJK character or emoji, and one for each combining accent or surrogate pair.
 *
 * The rule terminals follow (wcwidth): a character of East Asian Wide or Fullwidth, or an emoji
 * shown as an emoji, takes two columns; a combining mark, a zero-width joiner or a variation
 * selector none; the rest one. An emoji sequence joined by zero-width joiners (a family, a flag)
 * is one picture of two columns, so the text is read by grapheme: each takes the width of its
 * widest character. ASCII, which nearly every message is, is its length, read without segmenting
 * (Intl.Segmenter pages in ICU's data, megabytes the run does not need otherwise).
 */

/** Code point ranges of East Asian Wide and Fullwidth characters (Unicode's EastAsianWidth.txt, W and F). */
const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], // Hangul Jamo initial consonants
  [0x2e80, 0x303e], // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
  [0x3041, 0x33ff], // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
  [0x3400, 0x4dbf], // CJK unified ideographs extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa000, 0xa4cf], // Yi
  [0xa960, 0xa97f], // Hangul Jamo extended A
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe10, 0xfe19], // vertical forms
  [0xfe30, 0xfe6f], // CJK compatibility forms, small form variants
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6], // fullwidth signs
  [0x16fe0, 0x16fe4], // ideographic symbols
  [0x17000, 0x18cff], // Tangut
  [0x1b000, 0x1b2ff], // Kana supplement and extensions, Nüshu
  [0x20000, 0x3fffd], // CJK unified ideographs extensions B and beyond
];

/** Characters that take no column of their own: combining marks, format controls (zero-width joiner, bidi marks), variation selectors. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u{fe00}-\u{fe0f}\u{e0100}-\u{e01ef}]$/u;
/** Emoji a terminal draws as a picture, two columns wide. */
const EMOJI_PRESENTATION = /^\p{Emoji_Presentation}$/u;
/** The variation selector that asks for a character's emoji picture (❤ followed by it is ❤️). */
const EMOJI_SELECTOR = '\u{fe0f}';

let graphemes: Intl.Segmenter | undefined;

/** The terminal columns `text` takes. */
export function displayWidth(text: string): number {
  if (/^[\u0000-\u007f]*$/.test(text)) return text.length;
  let width = 0;
  // A Node built without Intl has no segmenter: each character is then counted on its own.
  if (typeof Intl === 'undefined' || typeof Intl.Segmenter !== 'function') {
    for (const character of text) width += characterWidth(character);
    return width;
  }
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(text)) width += graphemeWidth(segment);
  return width;
}

/** `text` followed by spaces up to `width` columns (as String's padEnd does by UTF-16 units). */
export function padToWidth(text: string, width: number): string {
  const missing = width - displayWidth(text);
  return missing > 0 ? text + ' '.repeat(missing) : text;
}

function graphemeWidth(grapheme: string): number {
  if (grapheme.includes(EMOJI_SELECTOR)) return 2;
  let widest = 0;
  for (const character of grapheme) {
    widest = Math.max(widest, characterWidth(character));
    if (widest === 2) break;
  }
  return widest;
}

function characterWidth(character: string): number {
  const point = character.codePointAt(0) ?? 0;
  if (point < 0x7f) return 1;
  if (ZERO_WIDTH.test(character)) return 0;
  if (EMOJI_PRESENTATION.test(character)) return 2;
  for (const [first, last] of WIDE_RANGES) {
    if (point < first) return 1;
    if (point <= last) return 2;
  }
  return 1;
}
