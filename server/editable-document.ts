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

/**
 * Texts at least this long are made through the scratch buffer. Below it, Node copies a string
 * made from a buffer into V8's heap as a concatenation would, and a short text's copy is cheap.
 */
export const LARGE_TEXT_CHARS = 1 << 20;

/** How much larger than the text the throwaway version made by prepareForEdits is. */
const FIRST_VERSION_SLACK_BYTES = 64 * 1024;

/**
 * Reused by every large edit (the server handles one message at a time) while a large document is
 * open: as large as the largest text edited, plus an eighth, so a text that grows by a keystroke
 * does not need a new one. Let go when the last large document closes (releaseEditBuffer).
 */
let scratch = Buffer.alloc(0);

/** Lets go of the edit buffer unless one of `open` is large enough to be edited through it. */
export function releaseEditBuffer(open: Iterable<{ getText(): string }>): void {
  for (const document of open) if (document.getText().length >= LARGE_TEXT_CHARS) return;
  scratch = Buffer.alloc(0);
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
  if (scratch.length < length * width) scratch = Buffer.allocUnsafeSlow(Math.ceil(length * width * 1.125));
  // Slices of a flat string are views: writing them copies once, from the text itself.
  let at = scratch.write(text.slice(0, from), 0, encoding);
  at += scratch.write(inserted, at, encoding);
  at += scratch.write(text.slice(to), at, encoding);
  // toString copies the bytes into the string's own memory: that copy is what lets the next edit
  // write over the buffer. A string made over the buffer itself would change under its readers.
  return scratch.toString(encoding, 0, at);
}

/** The offsets where lines start in `text` (the first at `base`), as the library counts them. */
function lineStartsOf(text: string, atLineStart: boolean, base = 0): number[] {
  const starts = atLineStart ? [base] : [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 13 || code === 10) {
      if (code === 13 && i + 1 < text.length && text.charCodeAt(i + 1) === 10) i++;
      starts.push(base + i + 1);
    }
  }
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
      if (starts[middle] > at) high = middle;
      else low = middle + 1;
    }
    const line = low - 1;
    return { line, character: this.beforeLineBreak(at, starts[line]) - starts[line] };
  }

  offsetAt(position: Position): number {
    const starts = this.starts();
    if (position.line >= starts.length) return this.content.length;
    if (position.line < 0) return 0;
    const lineStart = starts[position.line];
    if (position.character <= 0) return lineStart;
    return this.beforeLineBreak(Math.min(lineStart + position.character, this.nextLineStart(position.line)), lineStart);
  }

  getLineRange(line: number): Range {
    const starts = this.starts();
    if (line >= starts.length) {
      const last = starts.length - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.content.length - starts[last] } };
    }
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const end = this.beforeLineBreak(this.nextLineStart(line), starts[line]);
    return { start: { line, character: 0 }, end: { line, character: end - starts[line] } };
  }

  getEOLCharacters(line: number): string {
    const starts = this.starts();
    if (line < 0 || line >= starts.length) return '';
    const next = this.nextLineStart(line);
    return this.content.substring(this.beforeLineBreak(next, starts[line]), next);
  }

  /**
   * Does now what the first keystroke would otherwise pay for: finds the line starts and, for a
   * large text, whether it is all Latin-1, and makes the scratch buffer its size, every page of it
   * touched (an untouched 10 MB buffer is 2,560 page faults when the first edit writes it).
   * Where the server collects on demand (./text-memory.ts), it also makes a text a little larger
   * than this one and drops it: collected, its memory is where the first keystroke's version goes.
   */
  prepareForEdits(): void {
    void this.starts();
    if (this.content.length < LARGE_TEXT_CHARS) return;
    this.latin1 ??= isLatin1(this.content);
    const bytes = this.content.length * (this.latin1 ? 1 : 2);
    if (scratch.length < bytes) scratch = Buffer.allocUnsafeSlow(Math.ceil(bytes * 1.125)).fill(0);
    if (!canCollect()) return;
    // An even count, so a UTF-16 text has whole code units; the slack covers typing past a page.
    void scratch.toString(this.latin1 ? 'latin1' : 'utf16le', 0, Math.min(scratch.length, bytes + FIRST_VERSION_SLACK_BYTES) & ~1);
    collectWhenIdle();
  }

  /** Applies the changes in order, as TextDocument.update does, and takes the new version. */
  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if ('range' in change) this.replace(ordered(change.range), change.text);
      else {
        this.content = change.text;
        this.lineStarts = undefined;
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
      this.lineStarts = undefined;
      return;
    }
    // offsetAt above made the line starts of the text before the edit; they are moved over it.
    let starts = this.lineStarts!;
    const startLine = Math.max(range.start.line, 0);
    const endLine = Math.max(range.end.line, 0);
    const added = lineStartsOf(inserted, false, from);
    if (endLine - startLine === added.length) {
      for (let i = 0; i < added.length; i++) starts[startLine + 1 + i] = added[i];
    } else if (added.length < SPLICED_LINES) {
      starts.splice(startLine + 1, endLine - startLine, ...added);
    } else {
      starts = this.lineStarts = starts.slice(0, startLine + 1).concat(added, starts.slice(endLine + 1));
    }
    const shift = inserted.length - (to - from);
    if (shift !== 0) for (let i = startLine + 1 + added.length; i < starts.length; i++) starts[i] += shift;
  }

  private starts(): number[] {
    return (this.lineStarts ??= lineStartsOf(this.content, true));
  }

  /** Where the line after `line` starts, or the text's end after the last line. */
  private nextLineStart(line: number): number {
    const starts = this.starts();
    return line + 1 < starts.length ? starts[line + 1] : this.content.length;
  }

  private beforeLineBreak(offset: number, lineStart: number): number {
    let at = offset;
    while (at > lineStart && isLineBreak(this.content.charCodeAt(at - 1))) at--;
    return at;
  }
}
