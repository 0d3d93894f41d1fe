/**
 * Keeps the stdio transport in step with a client that sends a broken frame. JSON-RPC over stdio
 * frames each message with a `Content-Length` header; one wrong length (too short, too long, not a
 * number) or a header without it leaves the stock reader reading every later header out of the
 * middle of a body, so the server stays up but never understands another message.
 *
 * This transform sits between stdin and the reader and passes only well-formed frames on: a header
 * block that is not `Key: value` lines with a numeric Content-Length is dropped up to the next
 * `Content-Length:`; a length too long is noticed as soon as a header line starts inside the body
 * (no valid JSON body has a raw line break followed by `Content-Length:`), and the frame is
 * dropped. A body cut short by a length too small is passed on (the reader reports it as invalid
 * JSON and carries on) and the bytes after it are skipped to the next header.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** A header block longer than this without its blank line is not a header. */
const MAX_HEADER_BYTES = 8192;
const HEADER_END = Buffer.from('\r\n\r\n', 'ascii');
/**
 * Where the next message may start inside a body: a header right after a raw line break (never
 * inside valid JSON) or after a `}` (the end of a message, or text in a string), or anywhere a
 * `Content-Length:` line with its number and a raw CRLF stands, which no valid JSON text holds
 * (outside a string it is not a token; inside one, a raw CR is not allowed).
 */
const CANDIDATE = /([\n}])content-length:|content-length:[ \t]*\d{1,10}\r\n/gi;
/** Bytes of a body kept for matching a header that starts in one chunk and ends in the next. */
const TAIL_BYTES = 48;
/** How many `}Content-Length:` candidates per frame are checked by parsing what comes before them. */
const MAX_PREFIX_CHECKS = 8;
const PARTIAL_HEADER = 'content-length:';

export class FramingRepair extends Transform {
  /** Header phase: bytes not yet understood. */
  private pending: Buffer = Buffer.alloc(0);
  /** Body phase: the declared length, the body bytes so far, and the last bytes scanned (for a header across chunks). */
  private body: { readonly length: number; readonly chunks: Buffer[]; size: number; tail: string; checks: number } | undefined;
  /** Frames dropped or skipped, for the server log. */
  dropped = 0;

  constructor(private readonly onDrop: (reason: string) => void = () => undefined) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.body) this.addToBody(chunk);
    else this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    this.drain();
    done();
  }

  private drain(): void {
    for (;;) {
      if (this.body) {
        if (this.body.size < this.body.length || this.mayRunOn(this.body)) return;
        const body = this.body;
        // The header and the body's chunks are passed on as they are: a large message (a 46 MB
        // document opened) is copied once fewer, by the reader that joins them anyway.
        this.push(Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'));
        for (const piece of bytesBetween(body.chunks, 0, body.length)) this.push(piece);
        this.body = undefined;
        this.pending = Buffer.concat(bytesBetween(body.chunks, body.length, body.size));
        continue;
      }
      const end = this.pending.indexOf(HEADER_END);
      if (end < 0) {
        if (this.pending.length > MAX_HEADER_BYTES) this.resyncToLast('a header block without its blank line');
        return;
      }
      const length = contentLength(this.pending.subarray(0, end).toString('latin1'));
      if (length === undefined) {
        this.resync(1, `a header block without a numeric Content-Length: ${JSON.stringify(this.pending.subarray(0, Math.min(end, 80)).toString('latin1'))}`);
        continue;
      }
      const rest = this.pending.subarray(end + HEADER_END.length);
      this.pending = Buffer.alloc(0);
      this.body = { length, chunks: [], size: 0, tail: '', checks: 0 };
      if (rest.length > 0) this.addToBody(rest);
    }
  }

  /**
   * Adds body bytes, scanning them (and only them) for a header starting inside the declared
   * length, which means the length was too long: after a raw line break (never inside valid JSON)
   * the frame is dropped; right after a `}` the bytes before it are delivered when they parse as
   * JSON (a client that miscounted), and ignored otherwise (a `}Content-Length:` inside a string).
   */
  private addToBody(chunk: Buffer): void {
    const body = this.body!;
    // Scanned a little past the declared end too: a header starting just before it is still a header.
    if (body.size < body.length + PARTIAL_HEADER.length) {
      const text = chunk.toString('latin1');
      const window = body.tail + text;
      const base = body.size - body.tail.length;
      if (body.size === 0 && /^content-length:/i.test(window)) return this.restart([chunk], 0, false);
      CANDIDATE.lastIndex = 0;
      for (let match = CANDIDATE.exec(window); match; match = CANDIDATE.exec(window)) {
        const prefixed = match[1] !== undefined;
        const at = base + match.index + (prefixed ? 1 : 0);
        if (at >= body.length) break;
        // Entirely inside the carried-over tail: looked at with the previous chunk already.
        if (match.index + match[0].length <= body.tail.length) continue;
        // A whole header line inside the body: the declared length was wrong (a cut frame), whatever precedes it.
        if (!prefixed || match[1] === '\n') return this.restart([...body.chunks, chunk], at, false);
        if (body.checks++ < MAX_PREFIX_CHECKS && parses(Buffer.concat([...body.chunks, chunk]).subarray(0, at))) return this.restart([...body.chunks, chunk], at, true);
      }
      body.tail = window.slice(-TAIL_BYTES);
    }
    body.chunks.push(chunk);
    body.size += chunk.length;
  }

  /**
   * True when the declared body ends in `}` or a line break followed by the start of
   * `Content-Length:` and the bytes that would tell have not arrived: a complete JSON object never
   * ends that way, so a well-formed message is never held back.
   */
  private mayRunOn(body: { readonly length: number; readonly chunks: Buffer[]; size: number }): boolean {
    if (body.size >= body.length + PARTIAL_HEADER.length) return false;
    // Only the last bytes of the declared body tell: they are read without joining the chunks.
    const end = Buffer.concat(bytesBetween(body.chunks, Math.max(0, body.length - PARTIAL_HEADER.length), body.length)).toString('latin1');
    const match = /[}\n]([a-z-]{1,14})$/i.exec(end);
    return match !== null && PARTIAL_HEADER.startsWith(match[1].toLowerCase());
  }

  /** Abandons the frame being read at body offset `at`: delivers the bytes before it when `deliver`, then reads on from `at`. */
  private restart(chunks: Buffer[], at: number, deliver: boolean): void {
    const body = this.body!;
    const all = Buffer.concat(chunks);
    this.body = undefined;
    if (deliver) this.push(Buffer.concat([Buffer.from(`Content-Length: ${at}\r\n\r\n`, 'ascii'), all.subarray(0, at)]));
    this.pending = all.subarray(at);
    this.dropped++;
    this.onDrop(`a frame whose Content-Length (${body.length}) runs into the next message${deliver ? ' (its message was read up to there)' : ''}`);
  }

  /**
   * Drops a header block that never ends up to its last `Content-Length:`: a flood of header lines
   * then costs each byte one look, where dropping one line at a time would scan the block again per line.
   */
  private resyncToLast(reason: string): void {
    const text = this.pending.toString('latin1');
    const last = text.toLowerCase().lastIndexOf(PARTIAL_HEADER);
    if (last > 0) {
      this.dropped++;
      this.onDrop(reason);
      this.pending = this.pending.subarray(last);
      return;
    }
    this.resync(1, reason);
  }

  /** Drops pending bytes up to the next `Content-Length:` at or after `from` (keeps a possible partial one). */
  private resync(from: number, reason: string): void {
    this.dropped++;
    this.onDrop(reason);
    const text = this.pending.toString('latin1');
    const next = text.slice(from).search(/content-length:/i);
    if (next >= 0) {
      this.pending = this.pending.subarray(from + next);
      return;
    }
    // Keep only an end that may be the start of the next header (always progress: no line breaks kept).
    let keep = Math.min(PARTIAL_HEADER.length - 1, text.length);
    while (keep > 0 && !PARTIAL_HEADER.startsWith(text.slice(text.length - keep).toLowerCase())) keep--;
    this.pending = this.pending.subarray(this.pending.length - keep);
  }
}

/** The bytes in [from, to) of `chunks` taken as one run, as views of the chunks (nothing copied). */
function bytesBetween(chunks: readonly Buffer[], from: number, to: number): Buffer[] {
  const pieces: Buffer[] = [];
  let start = 0;
  for (const chunk of chunks) {
    const end = start + chunk.length;
    if (end > from && start < to) pieces.push(start >= from && end <= to ? chunk : chunk.subarray(Math.max(0, from - start), Math.min(chunk.length, to - start)));
    start = end;
  }
  return pieces;
}

function parses(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** The Content-Length of a header block of `Key: value` lines, or undefined when it has none or is not one. */
function contentLength(block: string): number | undefined {
  let length: number | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d{1,10}$/.test(value)) return undefined;
    length = Number(value);
  }
  return length;
}
