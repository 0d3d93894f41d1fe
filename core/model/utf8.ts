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

/** How many bytes `text` takes in UTF-8 (a lone surrogate counts as U+FFFD, three bytes). */
export function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      length += 4;
      i++;
    } else length += 3;
  }
  return length;
}
