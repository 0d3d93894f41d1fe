/**
 * A plain subtree's text without the whitespace between its tokens (./plain-subtree.ts says what
 * makes a subtree plain: among other things, no escape in its strings, so every quote opens or
 * closes one, read from either end): whole, its first or last units, or how many units it keeps.
 */

/** JSON's whitespace between tokens, which `compactText` leaves out. */
function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** How many units of `text[from..to)` `compactText` keeps (`to` is not inside a string). */
export function compactLength(text: string, from: number, to: number): number {
  let kept = 0;
  let inString = false;
  for (let at = from; at < to; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) inString = !inString;
    else if (!inString && isWhitespace(code)) continue;
    kept++;
  }
  return kept;
}

/**
 * The WHATWG decoder that Node and browsers provide; core's ECMAScript library does not declare it.
 * UTF-16LE is one of the encodings every build of it supports. It would replace a lone surrogate,
 * but a plain subtree holds no surrogate at all, and a leading U+FEFF is kept (`ignoreBOM`).
 */
declare const TextDecoder: (new (label: 'utf-16le', options: { ignoreBOM: boolean }) => { decode(input: Uint16Array): string }) | undefined;

/**
 * The decoder of code units as this machine stores them: UTF-16LE reads the bytes of a
 * Uint16Array as they lie in memory, which is its order on a little-endian machine only. Made when
 * first needed; none (String.fromCharCode then) on a big-endian machine or without the decoder.
 */
let unitDecoder: { decode(input: Uint16Array): string } | null | undefined;
function decoderOfUnits(): { decode(input: Uint16Array): string } | null {
  if (unitDecoder === undefined) {
    const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
    unitDecoder = littleEndian && typeof TextDecoder === 'function' ? new TextDecoder('utf-16le', { ignoreBOM: true }) : null;
  }
  return unitDecoder;
}

/** The string of `units`, by the decoder when it is faster, else in pieces a call can take. */
function unitsToString(units: Uint16Array): string {
  const decoder = units.length > FROM_CHAR_CODE_UNITS ? decoderOfUnits() : null;
  if (decoder) return decoder.decode(units);
  const pieces: string[] = [];
  for (let at = 0; at < units.length; at += FROM_CHAR_CODE_UNITS) pieces.push(String.fromCharCode.apply(null, units.subarray(at, at + FROM_CHAR_CODE_UNITS) as unknown as number[]));
  return pieces.join('');
}

/** The buffer a compacted text is gathered in, kept for texts up to this many code units; a longer one gets its own. */
const KEPT_BUFFER_UNITS = 1 << 16;
const keptBuffer = new Uint16Array(KEPT_BUFFER_UNITS);
/** Up to this many code units the gathered text is made a string by `String.fromCharCode`; above, the decoder is faster. */
const FROM_CHAR_CODE_UNITS = 4096;

/**
 * `text[from..to)` without the whitespace between its tokens (a plain subtree's strings hold no
 * escaped quote). The kept units are gathered in one buffer and decoded at once: on a 5 MB
 * payload that takes about two thirds of the time of joining 8 KB pieces made by `fromCharCode`.
 */
export function compactText(text: string, from: number, to: number, limit = Infinity): string {
  const out = Math.min(to - from, limit) <= KEPT_BUFFER_UNITS ? keptBuffer : new Uint16Array(Math.min(to - from, limit));
  let filled = 0;
  let inString = false;
  for (let at = from; at < to && filled < limit; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) inString = !inString;
    else if (!inString && isWhitespace(code)) continue;
    out[filled++] = code;
  }
  return unitsToString(out.subarray(0, filled));
}

/**
 * The last `limit` units of `compactText(text, from, to)`, read from the end: a plain subtree's
 * strings hold no escape, so every quote opens or closes one, from either side.
 */
export function compactTail(text: string, from: number, to: number, limit: number): string {
  const size = Math.min(limit, to - from);
  const out = size <= KEPT_BUFFER_UNITS ? keptBuffer : new Uint16Array(size);
  // Filled from its end, so the units come out in order.
  let at = size;
  let inString = false;
  for (let back = to - 1; back >= from && at > 0; back--) {
    const code = text.charCodeAt(back);
    if (code === 0x22) inString = !inString;
    else if (!inString && isWhitespace(code)) continue;
    out[--at] = code;
  }
  return unitsToString(out.subarray(at, size));
}
