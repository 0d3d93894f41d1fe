/**
 * Offsets ↔ zero-based line/character positions (UTF-16), with the same line breaks as the
 * LSP text document (`\n`, `\r\n`, `\r`), so the CLI reports the positions the editor shows.
 */

export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface LineRange {
  readonly start: Position;
  readonly end: Position;
}

/** Line starts of a text, computed once; converts in O(log lines). */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0x0d) {
        if (text.charCodeAt(i + 1) === 0x0a) i++;
        this.starts.push(i + 1);
      } else if (code === 0x0a) {
        this.starts.push(i + 1);
      }
    }
  }

  /** The position of an offset (clamped to the text). */
  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.starts[middle] > clamped) high = middle;
      else low = middle + 1;
    }
    const line = low - 1;
    return { line, character: clamped - this.starts[line] };
  }

  /** The offset of a position (clamped to its line and to the text). */
  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.starts.length) return this.text.length;
    const lineStart = this.starts[position.line];
    const nextStart = position.line + 1 < this.starts.length ? this.starts[position.line + 1] : this.text.length;
    let lineEnd = nextStart;
    if (position.line + 1 < this.starts.length) {
      lineEnd = nextStart - 1;
      if (this.text.charCodeAt(lineEnd) === 0x0a && this.text.charCodeAt(lineEnd - 1) === 0x0d) lineEnd--;
    }
    return Math.max(lineStart, Math.min(lineStart + Math.max(0, position.character), lineEnd));
  }

  /** A range of offsets as positions. */
  rangeAt(offset: number, end: number): LineRange {
    return { start: this.positionAt(offset), end: this.positionAt(end) };
  }

  /** The start offset of a line. */
  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))];
  }
}
