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

/** Line starts of a text, computed once when first needed; converts in O(log lines). */
export class LineIndex {
  private lineStarts: number[] | undefined;

  constructor(private readonly text: string) {}

  /** The offset of each line's first character (scanned on first use: a file without findings never needs it). */
  private get starts(): number[] {
    if (this.lineStarts) return this.lineStarts;
    const { text } = this;
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0x0d) {
        if (text.charCodeAt(i + 1) === 0x0a) i++;
        starts.push(i + 1);
      } else if (code === 0x0a) {
        starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
    return starts;
  }

  /** The position of an offset (clamped to the text). */
  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.starts;
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (starts[middle] > clamped) high = middle;
      else low = middle + 1;
    }
    const line = low - 1;
    return { line, character: clamped - starts[line] };
  }

  /** The offset of a position (clamped to its line and to the text). */
  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    const starts = this.starts;
    if (position.line >= starts.length) return this.text.length;
    const lineStart = starts[position.line];
    const nextStart = position.line + 1 < starts.length ? starts[position.line + 1] : this.text.length;
    let lineEnd = nextStart;
    if (position.line + 1 < starts.length) {
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
    const starts = this.starts;
    return starts[Math.max(0, Math.min(line, starts.length - 1))];
  }
}
