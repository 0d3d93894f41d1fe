/**
 * An open document's text as the server keeps it between keystrokes: the `TextDocument` of
 * vscode-languageserver-textdocument, same positions and line rules, with one difference in how
 * an edit makes the new text.
 *
 * The library applies an edit as `before + inserted + after` and reads a character of the result
 * at once, which makes V8 copy the whole text into a string in freshly mapped memory. On a 5 MB
 * fixture with one character outside Latin-1 that is 10 MB of UTF-16, 2,560 pages touched for the
 * first time on every keystroke: 28 ms where a page fault costs some 5 µs (a virtual machine's),
 * most of what a keystroke cost the server. Here a large text is written into one scratch buffer
 * kept between edits and made a string from it; Node makes a string of more than about a million
 * characters an external one, in memory from the C allocator, which hands an earlier version's
 * memory to the next once V8 has collected that version: the same edit then takes 1.3 ms, the copy
 * alone. Until it has, the new version lands in fresh memory and costs what it did.
 *
 * Positions, offsets and line counts follow the library's rules exactly (`\r\n`, `\r` and `\n`
 * end a line; an offset inside a line break is moved before it; a position out of range is
 * clamped when looked up, and an edit's range is taken as the library takes it, its lines as
 * given): test/server/editable-document.test.ts holds the two against each other on random edits.
 */
import type { Position, Range, TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { canCollect, collectWhenIdle } from './text-memory';
import { pushLineStarts } from '../core/model/positions';

/**
 * Texts at least this long are made through the scratch buffer. Below it, Node copies a string
 * made from a buffer into V8's heap as a concatenation would, and a short text's copy is cheap.
 */
export const LARGE_TEXT_CHARS = 1 << 20;

/** How much larger than the text the throwaway version made by preparationSteps is. */
const FIRST_VERSION_SLACK_BYTES = 64 * 1024;

/**
 * Reused by every large edit (the server handles one message at a time) while a large document is
 * open: as large as the largest text edited, plus an eighth, so a text that grows by a keystroke
 * does not need a new one. Let go when the last large document closes (releaseEditBuffer).
 */
let scratch = Buffer.alloc(0);
/**
 * The text whose bytes the scratch buffer holds, and in which encoding: typing on in the same
 * document then moves the bytes after the edit and writes the inserted text, instead of writing
 * the whole text again.
 */
let scratchText: string | undefined;
let scratchEncoding: 'latin1' | 'utf16le' = 'latin1';

/** Lets go of the edit buffer unless one of `open` is large enough to be edited through it. */
export function releaseEditBuffer(open: Iterable<{ getText(): string }>): void {
  for (const document of open) if (document.getText().length >= LARGE_TEXT_CHARS) return;
  scratch = Buffer.alloc(0);
  scratchText = undefined;
}

/**
 * How many characters one step of preparing a large document for edits reads or writes (some
 * 10–30 ms here): the server answers other requests between the steps.
 */
export const PREPARATION_STEP_CHARS = 4 * 1024 * 1024;

/** Makes the scratch buffer hold `text` (at least `bytes` long, every page touched). */
function holdInScratch(text: string, encoding: 'latin1' | 'utf16le', bytes: number): void {
  for (const _ of scratchHoldingSteps(text, encoding, bytes));
}

/**
 * holdInScratch in steps of at most PREPARATION_STEP_CHARS characters (twice as many bytes):
 * touching and writing the 100 MB a 46 MB text needs held the server for a second at once. A
 * new buffer becomes the scratch buffer only once it holds the whole text, so an edit made between
 * the steps writes through the buffer as it was.
 */
function* scratchHoldingSteps(text: string, encoding: 'latin1' | 'utf16le', bytes: number, stepChars = PREPARATION_STEP_CHARS): Generator<void, void, void> {
  const width = encoding === 'latin1' ? 1 : 2;
  let buffer = scratch;
  if (buffer.length < bytes) {
    buffer = Buffer.allocUnsafeSlow(Math.ceil(bytes * 1.125));
    for (let at = 0; at < buffer.length; at += stepChars * 2) {
      buffer.fill(0, at, Math.min(buffer.length, at + stepChars * 2));
      yield;
    }
  }
  // Until the last step, the buffer holds no text whole: an edit between the steps writes its own text whole.
  const shared = buffer === scratch;
  if (shared) scratchText = undefined;
  for (let from = 0; from < text.length; from += stepChars) {
    // A slice of a flat string is a view (no copy) that write() reads from.
    buffer.write(text.slice(from, from + stepChars), from * width, encoding);
    if (from + stepChars >= text.length) break;
    yield;
    // An edit of another document between the steps wrote its text through the buffer: it holds that one now.
    if (shared && (scratch !== buffer || scratchText !== undefined)) return;
  }
  scratch = buffer;
  scratchText = text;
  scratchEncoding = encoding;
}

/** Whether every character of `text` is in Latin-1, which V8 stores one byte per character. */
function isLatin1(text: string): boolean {
  return !/[^\u0000-\u00ff]/.test(text);
}

/**
 * `text` with [from, to) replaced by `inserted`. A large result is written into the scratch
 * buffer and made a string from there, in Latin-1 when `latin1` says every character fits (half
 * the memory), else in UTF-16 code units (lone surrogates included, as they were).
 */
export function replaceSpan(text: string, from: number, to: number, inserted: string, latin1: boolean): string {
  const length = text.length - (to - from) + inserted.length;
  if (length < LARGE_TEXT_CHARS) return text.slice(0, from) + inserted + text.slice(to);
  const encoding = latin1 ? 'latin1' : 'utf16le';
  const width = latin1 ? 1 : 2;
  if (scratchText !== text || scratchEncoding !== encoding || scratch.length < length * width) holdInScratch(text, encoding, Math.max(text.length, length) * width);
  // The bytes after the edit move to their new place (copy moves overlapping bytes as memmove
  // does), and the inserted text is written between.
  if (to !== from + inserted.length) scratch.copy(scratch, (from + inserted.length) * width, to * width, text.length * width);
  scratch.write(inserted, from * width, encoding);
  // toString copies the bytes into the string's own memory: that copy is what lets the next edit
  // write over the buffer. A string made over the buffer itself would change under its readers.
  scratchText = scratch.toString(encoding, 0, length * width);
  return scratchText;
}

/** The offsets where lines start in `text` (the first at `base`), as the library counts them. */
function lineStartsOf(text: string, atLineStart: boolean, base = 0): number[] {
  const starts = atLineStart ? [base] : [];
  pushLineStarts(text, 0, text.length, starts, base);
  return starts;
}

/** More added lines than this are joined into a new array, not spliced in (a call takes only so many arguments). */
const SPLICED_LINES = 10_000;

const isLineBreak = (code: number): boolean => code === 13 || code === 10;

/** A range whose start is not after its end. */
function ordered(range: Range): Range {
  const { start, end } = range;
  return start.line > end.line || (start.line === end.line && start.character > end.character) ? { start: end, end: start } : range;
}

/** A document of the server's as the EditableDocument EDIT_TRACKING_DOCUMENTS made it (server/documents.ts). */
export function asEditable(document: TextDocument): EditableDocument {
  if (!(document instanceof EditableDocument)) throw new TypeError(`${document.uri} was not made by EDIT_TRACKING_DOCUMENTS`);
  return document;
}

export class EditableDocument implements TextDocument {
  private lineStarts: number[] | undefined;
  /**
   * The line starts from `shiftFrom` on are `shiftBy` further than `lineStarts` says: typing within
   * one line moves every line after it, and moving 100,000 starts at each keystroke cost 2 ms.
   * The move is applied to the array when an edit elsewhere needs it (applyShift).
   */
  private shiftFrom = Infinity;
  private shiftBy = 0;
  /**
   * For a large text: whether it is all Latin-1, found when first needed and cleared when a
   * character outside Latin-1 is typed (not found again when that character is deleted: the text
   * then stays two bytes a character until it is replaced whole or shrinks below the large size).
   */
  private latin1: boolean | undefined;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    private currentVersion: number,
    private content: string,
  ) {}

  get version(): number {
    return this.currentVersion;
  }

  get lineCount(): number {
    return this.starts().length;
  }

  getText(range?: Range): string {
    if (!range) return this.content;
    return this.content.substring(this.offsetAt(range.start), this.offsetAt(range.end));
  }

  positionAt(offset: number): Position {
    const at = Math.max(Math.min(offset, this.content.length), 0);
    const starts = this.starts();
    let low = 0;
    let high = starts.length;
    if (high === 0) return { line: 0, character: at };
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (this.startOf(middle) > at) high = middle;
      else low = middle + 1;
    }
    const line = low - 1;
    const lineStart = this.startOf(line);
    return { line, character: this.beforeLineBreak(at, lineStart) - lineStart };
  }

  offsetAt(position: Position): number {
    const starts = this.starts();
    if (position.line >= starts.length) return this.content.length;
    if (position.line < 0) return 0;
    const lineStart = this.startOf(position.line);
    if (position.character <= 0) return lineStart;
    return this.beforeLineBreak(Math.min(lineStart + position.character, this.nextLineStart(position.line)), lineStart);
  }

  getLineRange(line: number): Range {
    const starts = this.starts();
    if (line >= starts.length) {
      const last = starts.length - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.content.length - this.startOf(last) } };
    }
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const lineStart = this.startOf(line);
    const end = this.beforeLineBreak(this.nextLineStart(line), lineStart);
    return { start: { line, character: 0 }, end: { line, character: end - lineStart } };
  }

  getEOLCharacters(line: number): string {
    const starts = this.starts();
    if (line < 0 || line >= starts.length) return '';
    const next = this.nextLineStart(line);
    return this.content.substring(this.beforeLineBreak(next, this.startOf(line)), next);
  }

  /**
   * Does ahead what the first keystroke would otherwise pay for: finds the line starts and, for a
   * large text, whether it is all Latin-1, and writes the text into the scratch buffer, made its
   * size with every page touched (an untouched 10 MB buffer is 2,560 page faults when the first
   * edit writes it). Where the server collects on demand (./text-memory.ts), it also makes a text
   * a little larger than this one and drops it: collected, its memory is where the first
   * keystroke's version goes. In steps of at most PREPARATION_STEP_CHARS characters each, for the
   * caller to run with other work between them (server/server.ts); the steps end early once the
   * text is replaced, and what they made for an earlier text is not kept.
   */
  *preparationSteps(stepChars = PREPARATION_STEP_CHARS): Generator<void, void, void> {
    const text = this.content;
    if (this.lineStarts === undefined) {
      const starts = [0];
      for (let from = 0; from < text.length; ) {
        from = pushLineStarts(text, from, Math.min(text.length, from + stepChars), starts);
        if (from < text.length) yield;
        if (this.content !== text) return;
      }
      // A request between the steps may have found them already (and an edit in a line moved them since).
      this.lineStarts ??= starts;
    }
    if (text.length < LARGE_TEXT_CHARS) return;
    if (this.latin1 === undefined) {
      let latin1 = true;
      for (let from = 0; from < text.length && latin1; from += stepChars) {
        latin1 = isLatin1(text.slice(from, from + stepChars));
        yield;
        if (this.content !== text) return;
      }
      this.latin1 ??= latin1;
    }
    const encoding = this.latin1 ? 'latin1' : 'utf16le';
    const bytes = text.length * (this.latin1 ? 1 : 2);
    for (const _ of scratchHoldingSteps(text, encoding, bytes, stepChars)) {
      yield;
      if (this.content !== text) return;
    }
    if (!canCollect()) return;
    // An even count, so a UTF-16 text has whole code units; the slack covers typing past a page.
    void scratch.toString(encoding, 0, Math.min(scratch.length, bytes + FIRST_VERSION_SLACK_BYTES) & ~1);
    collectWhenIdle();
  }

  /** Applies the changes in order, as TextDocument.update does, and takes the new version. */
  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if ('range' in change) this.replace(ordered(change.range), change.text);
      else {
        this.content = change.text;
        this.forgetLines();
        this.latin1 = undefined;
      }
    }
    this.currentVersion = version;
  }

  private replace(range: Range, inserted: string): void {
    const from = this.offsetAt(range.start);
    const to = this.offsetAt(range.end);
    // Known only while the text is large; a small text is concatenated, and found again if it grows.
    const large = this.content.length - (to - from) + inserted.length >= LARGE_TEXT_CHARS;
    this.latin1 = large ? (this.latin1 ?? isLatin1(this.content)) && isLatin1(inserted) : undefined;
    this.content = replaceSpan(this.content, from, to, inserted, this.latin1 === true);
    const insertedEnd = from + inserted.length;
    const text = this.content;
    // A `\r\n` made across either end of the edit joins two line ends into one: count them again.
    const crlfAt = (offset: number) => text.charCodeAt(offset - 1) === 13 && text.charCodeAt(offset) === 10;
    if (crlfAt(from) || crlfAt(insertedEnd)) {
      this.forgetLines();
      return;
    }
    const startLine = Math.max(range.start.line, 0);
    const endLine = Math.max(range.end.line, 0);
    const added = lineStartsOf(inserted, false, from);
    const shift = inserted.length - (to - from);
    // Within the line whose followers are already moved (or with none moved): one more move.
    if (endLine === startLine && added.length === 0 && (this.shiftBy === 0 || this.shiftFrom === startLine + 1)) {
      if (shift !== 0) {
        this.shiftFrom = startLine + 1;
        this.shiftBy += shift;
      }
      return;
    }
    // offsetAt above made the line starts of the text before the edit; they are moved over it.
    this.applyShift();
    let starts = this.lineStarts!;
    if (endLine - startLine === added.length) {
      for (let i = 0; i < added.length; i++) starts[startLine + 1 + i] = added[i];
    } else if (added.length < SPLICED_LINES) {
      starts.splice(startLine + 1, endLine - startLine, ...added);
    } else {
      starts = this.lineStarts = starts.slice(0, startLine + 1).concat(added, starts.slice(endLine + 1));
    }
    if (shift !== 0) {
      this.shiftFrom = startLine + 1 + added.length;
      this.shiftBy = shift;
    }
  }

  /**
   * A copy of the line starts, when they are found already and `text` is this document's text: a
   * parse of the same text then need not scan it again (core/model/positions.ts).
   */
  lineStartsFor(text: string): number[] | undefined {
    if (text !== this.content || this.lineStarts === undefined) return undefined;
    const { shiftFrom, shiftBy } = this;
    return this.lineStarts.map((start, line) => (line >= shiftFrom ? start + shiftBy : start));
  }

  private starts(): number[] {
    return (this.lineStarts ??= lineStartsOf(this.content, true));
  }

  /** Where line `line` starts (it must exist), with the pending move applied. */
  private startOf(line: number): number {
    const start = this.starts()[line];
    return line >= this.shiftFrom ? start + this.shiftBy : start;
  }

  /** Applies the pending move to the line starts. */
  private applyShift(): void {
    const starts = this.lineStarts;
    if (starts && this.shiftBy !== 0) for (let i = this.shiftFrom; i < starts.length; i++) starts[i] += this.shiftBy;
    this.shiftFrom = Infinity;
    this.shiftBy = 0;
  }

  /** The text changed in a way the line starts are not carried over: found again when needed. */
  private forgetLines(): void {
    this.lineStarts = undefined;
    this.shiftFrom = Infinity;
    this.shiftBy = 0;
  }

  /** Where the line after `line` starts, or the text's end after the last line. */
  private nextLineStart(line: number): number {
    return line + 1 < this.starts().length ? this.startOf(line + 1) : this.content.length;
  }

  private beforeLineBreak(offset: number, lineStart: number): number {
    let at = offset;
    while (at > lineStart && isLineBreak(this.content.charCodeAt(at - 1))) at--;
    return at;
  }
}
