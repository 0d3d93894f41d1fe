/**
 * UTF-8 encoding in core's own code: the bytes a message body is published as. `TextEncoder` is
 * not part of the ECMAScript library core is checked against, and this does the same (a lone
 * surrogate becomes U+FFFD, as the WHATWG encoder writes it).
 */

/** The UTF-8 bytes of `text`. */
export function utf8Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(utf8Length(text));
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      bytes[at++] = code;
      continue;
    }
    if (code < 0x800) {
      bytes[at++] = 0xc0 | (code >> 6);
      bytes[at++] = 0x80 | (code & 0x3f);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        const point = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        bytes[at++] = 0xf0 | (point >> 18);
        bytes[at++] = 0x80 | ((point >> 12) & 0x3f);
        bytes[at++] = 0x80 | ((point >> 6) & 0x3f);
        bytes[at++] = 0x80 | (point & 0x3f);
        i++;
        continue;
      }
    }
    if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
    bytes[at++] = 0xe0 | (code >> 12);
    bytes[at++] = 0x80 | ((code >> 6) & 0x3f);
    bytes[at++] = 0x80 | (code & 0x3f);
  }
  return bytes;
}

/** Runs of units that are not ASCII: the regular expression engine finds them far faster than a loop over every unit. */
const NOT_ASCII_RUNS = /[^\u0000-\u007f]+/g;

/**
 * How many bytes `text` takes in UTF-8 (a lone surrogate counts as U+FFFD, three bytes). Every
 * unit is a byte at least; only the runs that are not ASCII are looked at for what they add (a
 * preview counts a 3 MB body on every render, in which such runs are a few names and dashes).
 */
export function utf8Length(text: string): number {
  let length = text.length;
  NOT_ASCII_RUNS.lastIndex = 0;
  while (NOT_ASCII_RUNS.test(text)) {
    const end = NOT_ASCII_RUNS.lastIndex;
    // The run is read in place (no copy of it): it ends before `end`, where an ASCII unit or the text's end is.
    for (let i = end - 1; i >= 0; i--) {
      const code = text.charCodeAt(i);
      if (code < 0x80) break;
      if (code < 0x800) {
        length += 1;
      } else if ((code & 0xfc00) === 0xdc00 && i > 0 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800) {
        // A surrogate pair: two units, four bytes.
        length += 2;
        i--;
      } else {
        length += 2;
      }
    }
  }
  return length;
}

/**
 * Where bytes stop being UTF-8, in the words `babelq lint` reports it ("an invalid sequence starts
 * with byte 0xE9 at byte offset 12, line 2"), or undefined when they are UTF-8. The sequence is
 * found as the WHATWG decoder finds it (shortest forms only, no surrogates, nothing above
 * U+10FFFF), and named by the byte that starts it, which is the one a person looking for it needs.
 * In core, so the CLI and the editor refuse the same files with the same words.
 */
export function invalidUtf8At(bytes: Uint8Array): string | undefined {
  return firstInvalidUtf8(bytes)?.words;
}

/** The same, with the byte offset the problem starts at: every byte before it is UTF-8. */
export function firstInvalidUtf8(bytes: Uint8Array): { readonly at: number; readonly words: string } | undefined {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return { at: 0, words: 'it starts with a UTF-16 byte-order mark' };
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    // The continuation bytes a lead byte needs, and the range the first of them must fall in.
    let needed: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) needed = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      needed = 2;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      needed = 3;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return invalidAt(bytes, i);
    for (let k = 1; k <= needed; k++) {
      if (i + k >= bytes.length) return { at: i, words: 'it ends in the middle of a character' };
      const next = bytes[i + k];
      if (next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return invalidAt(bytes, i);
    }
    i += needed + 1;
  }
  return undefined;
}

function invalidAt(bytes: Uint8Array, at: number): { at: number; words: string } {
  // Lines end as the editor and the finding's position count them: at an LF, a CR, or a CRLF (one).
  let line = 1;
  for (let i = 0; i < at; i++) if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) line++;
  return { at, words: `an invalid sequence starts with byte 0x${bytes[at].toString(16).toUpperCase().padStart(2, '0')} at byte offset ${at}, line ${line}` };
}
