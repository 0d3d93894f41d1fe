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

  /**
   * The index of `text`, made from `previous`'s (the index of the version before) when that one
   * was scanned: old[from, oldEnd) became text[from, newEnd), so only the changed span is scanned
   * and the starts after it move by the change in length. A keystroke in a 5 MB file does not scan
   * its 230,000 lines again.
   */
  static afterEdit(previous: LineIndex, text: string, from: number, oldEnd: number, newEnd: number): LineIndex {
    const index = new LineIndex(text);
    const before = previous.lineStarts;
    if (!before) return index;
    const delta = newEnd - oldEnd;
    if (noLineBreakNear(previous.text, from, oldEnd) && noLineBreakNear(text, from, newEnd)) {
      // The usual keystroke: the same lines, those after the edit moved by its length.
      const starts = before.slice();
      let first = starts.length;
      while (first > 0 && starts[first - 1] > from) first--;
      if (delta !== 0) for (let j = first; j < starts.length; j++) starts[j] += delta;
      index.lineStarts = starts;
      return index;
    }
    // A CR just before the change may pair with an LF the change brings or takes: scan from the line start before it.
    const keep = Math.max(1, startsUpTo(before, Math.max(0, from - 1)) - 1);
    const starts = before.slice(0, keep);
    // Scan the new text from there to just past the change (a CR at its end may pair with an LF after it).
    pushLineStarts(text, before[keep - 1], Math.min(text.length, newEnd + 1), starts);
    // The old starts after the change, moved; one inside it was scanned again, one the scan reached is not repeated.
    let last = starts[starts.length - 1];
    for (let j = keep; j < before.length; j++) {
      if (before[j] <= oldEnd) continue;
      const moved = before[j] + delta;
      if (moved <= last) continue;
      starts.push(moved);
      last = moved;
    }
    index.lineStarts = starts;
    return index;
  }

  /** The offset of each line's first character (scanned on first use: a file without findings never needs it). */
  private get starts(): number[] {
    if (this.lineStarts) return this.lineStarts;
    const starts = [0];
    pushLineStarts(this.text, 0, this.text.length, starts);
    this.lineStarts = starts;
    return starts;
  }

  /** The position of an offset (clamped to the text). */
  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.starts;
    const line = startsUpTo(starts, clamped) - 1;
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

/** True when text[from - 1, end + 1) holds no CR or LF: an edit of text[from, end) there neither makes nor ends a line. */
function noLineBreakNear(text: string, from: number, end: number): boolean {
  for (let i = Math.max(0, from - 1); i < Math.min(text.length, end + 1); i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || code === 0x0d) return false;
  }
  return true;
}

/** Pushes the start of every line that begins after a line break in text[from, to) (CRLF, LF or CR). */
function pushLineStarts(text: string, from: number, to: number, starts: number[]): void {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0d) {
      if (text.charCodeAt(i + 1) === 0x0a) i++;
      starts.push(i + 1);
    } else if (code === 0x0a) {
      starts.push(i + 1);
    }
  }
}

/** How many of the sorted `starts` are at or before `offset` (binary search). */
function startsUpTo(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (starts[middle] > offset) high = middle;
    else low = middle + 1;
  }
  return low;
}
