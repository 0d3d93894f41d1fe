/**
 * An encoder's output as the writer made it: strings, and the pieces of plain subtrees
 * (./plain-subtree.ts) whose text is made only when someone reads it. Its length, its UTF-8
 * length and its ends are known without the whole text: the preview of a 5 MB envelope shows its
 * byte count and its first and last characters. What needs the bytes themselves reads it whole (a
 * send, `babelq preview`, a body parsed back, the per-SDK comparison of a smaller body).
 */
import { utf8Length } from '../model/utf8';
import type { WrittenPiece } from './plain-subtree';

/** Per encoding result, the text behind its `text` (see `writtenTextOf`). */
const WRITTEN = new WeakMap<object, WrittenText>();

export class WrittenText implements WrittenPiece {
  private joined: string | undefined;
  private units: number | undefined;
  private bytes: number | undefined;

  constructor(private pieces: readonly (string | WrittenPiece)[]) {}

  get length(): number {
    if (this.units === undefined) {
      let units = 0;
      for (const piece of this.pieces) units += piece.length;
      this.units = units;
    }
    return this.units;
  }

  get utf8Length(): number {
    if (this.bytes === undefined) {
      let bytes = 0;
      for (const piece of this.pieces) bytes += typeof piece === 'string' ? utf8Length(piece) : piece.utf8Length;
      this.bytes = bytes;
    }
    return this.bytes;
  }

  text(): string {
    if (this.joined === undefined) {
      this.joined = this.pieces.map((piece) => (typeof piece === 'string' ? piece : piece.text())).join('');
      // The pieces hold the document they are read from: once joined, the text is all that is kept.
      this.pieces = [this.joined];
    }
    return this.joined;
  }

  head(units: number): string {
    if (this.joined !== undefined) return this.joined.slice(0, units);
    const parts: string[] = [];
    let left = units;
    for (let at = 0; at < this.pieces.length && left > 0; at++) {
      const piece = this.pieces[at];
      const part = piece.length <= left ? (typeof piece === 'string' ? piece : piece.text()) : typeof piece === 'string' ? piece.slice(0, left) : piece.head(left);
      parts.push(part);
      left -= part.length;
    }
    return parts.join('');
  }

  tail(units: number): string {
    if (this.joined !== undefined) return this.joined.slice(Math.max(0, this.joined.length - units));
    const parts: string[] = [];
    let left = units;
    for (let at = this.pieces.length - 1; at >= 0 && left > 0; at--) {
      const piece = this.pieces[at];
      const part = piece.length <= left ? (typeof piece === 'string' ? piece : piece.text()) : typeof piece === 'string' ? piece.slice(piece.length - left) : piece.tail(left);
      parts.push(part);
      left -= part.length;
    }
    return parts.reverse().join('');
  }
}

/** Links an encoding result to the text its `text` property reads. */
export function attachWrittenText<T extends object>(result: T, written: WrittenText): T {
  WRITTEN.set(result, written);
  return result;
}

/** The written text behind an encoding result, read in parts; undefined for a result made otherwise. */
export function writtenTextOf(result: object): WrittenText | undefined {
  return WRITTEN.get(result);
}
