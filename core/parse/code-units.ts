/**
 * A text's UTF-16 code units in a typed array, for the parser's scan (`./parser.ts`) to read
 * instead of `charCodeAt`.
 *
 * The scan looks at every character of a document once, and about half of a pretty-printed
 * payload is indentation. `charCodeAt` checks the string's representation at every call; an element
 * of a Uint16Array is one load. The copy itself is one memcpy-like pass in the host's own code
 * (Node's `Buffer#write` as UTF-16LE): on a 5 MB fixture about 1 ms, against about 4 ms the scan
 * saves. Offsets are the same as in the string, so every range the parser records is unchanged.
 *
 * One element past the text holds 0, which the scan reads where the text ends: 0 is no JSON
 * character, so every test the scan makes on it fails as it does on `charCodeAt`'s NaN past the
 * end, and no loop reads beyond it.
 */

/** Node's Buffer, where the host has one (core/ names no Node built-in: it is looked up, not imported). */
interface HostBuffer {
  write(text: string, offset: number, encoding: 'utf16le'): number;
}
interface HostBufferClass {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): HostBuffer;
}
const NodeBuffer = (globalThis as { Buffer?: HostBufferClass }).Buffer;
/** Buffer writes UTF-16 little-endian; a Uint16Array reads in the machine's order, which then must be the same. */
const HostBuffer = NodeBuffer !== undefined && new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? NodeBuffer : undefined;

/**
 * One array serves every one-shot parse (parses never overlap: each runs to its end without
 * calling out), grown as needed and kept up to this many code units (16 MB): memory a process
 * touches for the first time costs a page fault per 4 KB (see ./column-storage.ts), which for a
 * fresh 10 MB array would cost about what the copy saves. A longer text gets an array of its own.
 */
const MAX_SHARED_UNITS = 1 << 23;
let shared: { units: Uint16Array; bytes: HostBuffer | undefined } | undefined;

/**
 * The code units of `text` followed by a 0. `ownCopy`: for a parse that stops and goes on later
 * (`parseTextSteps`), while other parses may run between its steps; otherwise the array is the
 * shared one and is valid until the next call.
 */
export function codeUnitsOf(text: string, ownCopy = false): Uint16Array {
  const length = text.length + 1;
  if (ownCopy || length > MAX_SHARED_UNITS) return written(text, new Uint16Array(length), undefined);
  if (shared === undefined || shared.units.length < length) {
    // Doubled, so a growing series of documents reallocates only a few times.
    const units = new Uint16Array(Math.min(MAX_SHARED_UNITS, Math.max(length, 1 << 12, (shared?.units.length ?? 0) * 2)));
    shared = { units, bytes: HostBuffer?.from(units.buffer, units.byteOffset, units.byteLength) };
  }
  return written(text, shared.units.subarray(0, length), shared.bytes);
}

function written(text: string, units: Uint16Array, bytes: HostBuffer | undefined): Uint16Array {
  const end = text.length;
  if (HostBuffer !== undefined) {
    (bytes ?? HostBuffer.from(units.buffer, units.byteOffset, units.byteLength)).write(text, 0, 'utf16le');
  } else {
    for (let i = 0; i < end; i++) units[i] = text.charCodeAt(i);
  }
  units[end] = 0;
  return units;
}
