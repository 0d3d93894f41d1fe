/**
 * Offsets ↔ zero-based line/character positions (UTF-16), with the same line breaks as the
 * LSP text document (`\n`, `\r\n`, `\r`) and the same position for an offset inside a `\r\n`
 * (the end of its line), so the CLI reports the positions the editor shows.
 */

export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface LineRange {
  readonly start: Position;
  readonly end: Position;
}

/**
 * After this many keystrokes on different lines, an index copies its line starts with the moves
 * applied instead of adding one more: a lookup reads through at most this many moves.
 */
const MAX_MOVES = 32;

/** Line starts of a text, computed once when first needed; converts in O(log lines). */
export class LineIndex {
  /**
   * Line starts as scanned, or as last copied with the moves applied. The indexes that edits make
   * from this one share the array, so it is never written once it is made.
   */
  private lineStarts: number[] | undefined;
  /**
   * The keystrokes since `lineStarts` was made that moved the lines after them: the lines from
   * `movedFrom[k]` on start `movedBy[k]` later than `lineStarts` says (`movedFrom` ascending,
   * `movedBy` summed over the moves up to that line). Empty for a scanned text.
   */
  private movedFrom: readonly number[] = [];
  private movedBy: readonly number[] = [];

  /**
   * `known`, when given, is asked once for the starts before they are scanned: the editor's copy
   * of the same text may have found them already (a 46 MB text takes a second to scan here). It
   * returns a fresh array no one else writes, or undefined.
   */
  constructor(
    private readonly text: string,
    private readonly known?: () => number[] | undefined,
  ) {}

  /**
   * The index of `text`, made from `previous`'s (the index of the version before) when that one
   * was scanned: old[from, oldEnd) became text[from, newEnd), so only the changed span is scanned
   * and the starts after it move by the change in length. A keystroke in a 5 MB file neither scans
   * its 230,000 lines again nor copies their starts: within a line, it shares `previous`'s starts
   * and records the move (a copy is made once every MAX_MOVES keystrokes on different lines).
   */
  static afterEdit(previous: LineIndex, text: string, from: number, oldEnd: number, newEnd: number): LineIndex {
    const index = new LineIndex(text);
    if (!previous.lineStarts) return index;
    const delta = newEnd - oldEnd;
    if (noLineBreakNear(previous.text, from, oldEnd) && noLineBreakNear(text, from, newEnd)) {
      // The usual keystroke: the same lines, those starting after the edit moved by its length.
      index.lineStarts = previous.lineStarts;
      index.movedFrom = previous.movedFrom;
      index.movedBy = previous.movedBy;
      if (delta !== 0) index.move(previous.linesUpTo(from), delta);
      return index;
    }
    const before = previous.movedStarts();
    // A CR just before the change may pair with an LF the change brings or takes: scan from the line start before it.
    const keep = Math.max(1, countUpTo(before, Math.max(0, from - 1)) - 1);
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

  /** Records that the lines from `line` on start `delta` later, or copies the starts with every move applied. */
  private move(line: number, delta: number): void {
    if (line >= this.starts.length) return;
    const at = countUpTo(this.movedFrom, line);
    const same = at > 0 && this.movedFrom[at - 1] === line;
    if (!same && this.movedFrom.length >= MAX_MOVES) {
      this.lineStarts = this.starts.map((start, i) => start + this.movedAt(i) + (i >= line ? delta : 0));
      this.movedFrom = [];
      this.movedBy = [];
      return;
    }
    const from = same ? [...this.movedFrom] : [...this.movedFrom.slice(0, at), line, ...this.movedFrom.slice(at)];
    // The sums up to `line` are as they were; from there on each grows by `delta`.
    const by = same ? [...this.movedBy] : [...this.movedBy.slice(0, at), at > 0 ? this.movedBy[at - 1] : 0, ...this.movedBy.slice(at)];
    for (let k = same ? at - 1 : at; k < by.length; k++) by[k] += delta;
    this.movedFrom = from;
    this.movedBy = by;
  }

  /** How much later than `lineStarts` says line `line` starts. */
  private movedAt(line: number): number {
    if (this.movedFrom.length === 0) return 0;
    const at = countUpTo(this.movedFrom, line);
    return at === 0 ? 0 : this.movedBy[at - 1];
  }

  /** The offset of each line's first character as scanned or last copied (scanned on first use: a file without findings never needs it). */
  private get starts(): number[] {
    if (this.lineStarts) return this.lineStarts;
    const known = this.known?.();
    if (known) return (this.lineStarts = known);
    const starts = [0];
    pushLineStarts(this.text, 0, this.text.length, starts);
    this.lineStarts = starts;
    return starts;
  }

  /** Every line's start with the moves applied: the shared array itself when there are none. */
  private movedStarts(): number[] {
    return this.movedFrom.length === 0 ? this.starts : this.starts.map((start, i) => start + this.movedAt(i));
  }

  /** Where line `line` starts, its moves applied. */
  private startOf(line: number): number {
    return this.starts[line] + this.movedAt(line);
  }

  /** How many lines start at or before `offset` (binary search over the moved starts). */
  private linesUpTo(offset: number): number {
    if (this.movedFrom.length === 0) return countUpTo(this.starts, offset);
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.startOf(middle) > offset) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /**
   * The position of an offset (clamped to the text). An offset between the CR and the LF of a line
   * end is the end of its line, as the LSP text document has it: a position is never inside a line
   * end, nor past the end of its line.
   */
  positionAt(offset: number): Position {
    let clamped = Math.max(0, Math.min(offset, this.text.length));
    if (this.text.charCodeAt(clamped) === 0x0a && this.text.charCodeAt(clamped - 1) === 0x0d) clamped--;
    const line = this.linesUpTo(clamped) - 1;
    return { line, character: clamped - this.startOf(line) };
  }

  /** The offset of a position (clamped to its line and to the text). */
  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    const lines = this.starts.length;
    if (position.line >= lines) return this.text.length;
    const lineStart = this.startOf(position.line);
    const nextStart = position.line + 1 < lines ? this.startOf(position.line + 1) : this.text.length;
    let lineEnd = nextStart;
    if (position.line + 1 < lines) {
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
    return this.startOf(Math.max(0, Math.min(line, this.starts.length - 1)));
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
/**
 * Adds to `starts` the line start (plus `base`) after each line break in text[from, to): `\r\n`,
 * `\r` and `\n` end a line. Returns where a scan of the rest goes on: past `to` when a `\r\n`
 * straddles it.
 */
export function pushLineStarts(text: string, from: number, to: number, starts: number[], base = 0): number {
  let i = from;
  for (; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0d) {
      if (text.charCodeAt(i + 1) === 0x0a) i++;
      starts.push(base + i + 1);
    } else if (code === 0x0a) {
      starts.push(base + i + 1);
    }
  }
  return i;
}

/** How many of the ascending `values` are at or before `value` (binary search). */
function countUpTo(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle] > value) high = middle;
    else low = middle + 1;
  }
  return low;
}
