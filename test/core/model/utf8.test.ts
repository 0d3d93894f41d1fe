/**
 * invalidUtf8At against Node's WHATWG decoder: on random byte strings (mostly UTF-8 with a bad byte
 * or a cut character here and there) it says "not UTF-8" exactly when a fatal TextDecoder throws,
 * and names the byte that starts the bad sequence as found by bisecting the streaming decoder.
 * utf8Length and utf8Bytes against Node's encoder, lone surrogates and long non-ASCII runs included.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { invalidUtf8At, utf8Bytes, utf8Length } from '../../../core/model/utf8';

function decodes(bytes: Uint8Array, stream: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes, { stream });
    return true;
  } catch {
    return false;
  }
}

/** The reference: the longest prefix a streaming decoder takes, then back to the lead byte of an unfinished character. */
function reference(bytes: Uint8Array): string | undefined {
  if (decodes(bytes, false)) return undefined;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return 'it starts with a UTF-16 byte-order mark';
  let low = 0;
  let high = bytes.length;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (decodes(bytes.subarray(0, middle), true)) low = middle;
    else high = middle - 1;
  }
  if (low >= bytes.length) return 'it ends in the middle of a character';
  let bad = low;
  if (!decodes(bytes.subarray(0, low), false)) {
    while (bad > 0 && low - bad < 3 && (bytes[bad - 1] & 0xc0) === 0x80) bad--;
    bad--;
  }
  // Lines end at an LF, a lone CR or a CRLF (one), as the finding's position counts them.
  let line = 1;
  for (let i = 0; i < bad; i++) if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) line++;
  return `an invalid sequence starts with byte 0x${bytes[bad].toString(16).toUpperCase().padStart(2, '0')} at byte offset ${bad}, line ${line}`;
}

const piece = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }).map((text) => [...Buffer.from(text, 'utf8')]) },
  { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom([0x0a], [0x0d], [0x0d, 0x0a], [0xe9], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0xe0, 0x80, 0x80], [0xf0, 0x9f, 0x98]) },
);

test('says not UTF-8 exactly where the WHATWG decoder does, and names the same byte', () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const bytes = Uint8Array.from(pieces.flat());
      assert.equal(invalidUtf8At(bytes), reference(bytes));
    }),
    { numRuns: 5000, seed: 20261203 },
  );
});

test('the cases people meet: Latin-1 é in a string, a cut emoji, a UTF-16 file', () => {
  assert.equal(invalidUtf8At(Buffer.from('{"a":"caf\xe9"}\n', 'latin1')), 'an invalid sequence starts with byte 0xE9 at byte offset 9, line 1');
  assert.equal(invalidUtf8At(Uint8Array.from([0x7b, 0x0a, 0xf0, 0x9f, 0x98])), 'it ends in the middle of a character');
  // Lines as the finding's position counts them: a lone CR ends one, a CRLF ends one.
  assert.equal(invalidUtf8At(Buffer.from('{\r  "a": "caf\xe9"}', 'latin1')), 'an invalid sequence starts with byte 0xE9 at byte offset 13, line 2');
  assert.equal(invalidUtf8At(Buffer.from('{\r\n  "a": "caf\xe9"}', 'latin1')), 'an invalid sequence starts with byte 0xE9 at byte offset 14, line 2');
  assert.equal(invalidUtf8At(Uint8Array.from([0xff, 0xfe, 0x7b, 0x00])), 'it starts with a UTF-16 byte-order mark');
  assert.equal(invalidUtf8At(Buffer.from('{"a":"😀"}', 'utf8')), undefined);
});

/** Text as bodies hold it: mostly ASCII, with runs of accented letters, dashes, emoji and now and then a lone surrogate. */
const bodyText = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 20 }) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
      { weight: 1, arbitrary: fc.constantFrom('Zürich — Nord', '日本語', '😀👍', '\ud800', '\udc00x', '\ud83d', 'a\ud83d\ude00\ud800b', '\u07ff\u0800\uffff\u0080') },
    ),
    { maxLength: 12 },
  )
  .map((pieces) => pieces.join(''));

test('utf8Length and utf8Bytes agree with Node\'s UTF-8 encoder (a lone surrogate is U+FFFD, three bytes)', () => {
  fc.assert(
    fc.property(bodyText, (text) => {
      assert.equal(utf8Length(text), Buffer.byteLength(text, 'utf8'), JSON.stringify(text));
      assert.deepEqual(Buffer.from(utf8Bytes(text)), Buffer.from(text, 'utf8'), JSON.stringify(text));
    }),
    { numRuns: 5000, seed: 20261203 },
  );
  // Long texts: runs found across the whole string, and the expression's position reset between calls.
  const long = `${'{"a":"x"}'.repeat(50_000)}Zürich${'b'.repeat(70_000)}\ud83d\ude00`;
  assert.equal(utf8Length(long), Buffer.byteLength(long, 'utf8'));
  assert.equal(utf8Length(long), Buffer.byteLength(long, 'utf8'));
  assert.equal(utf8Length(''), 0);
});
