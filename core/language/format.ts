/**
 * Whole-document formatting with the layout of VS Code's JSON formatter: one property or array
 * item per line, `"key": value`, empty `{}` / `[]` kept compact.
 *
 * Only the whitespace between tokens is ever replaced; every token (strings, numbers, literals) is
 * kept byte for byte, so `1.0`, `1e21` and escapes like `\u00e9` survive exactly as written.
 * Broken documents are never touched, because re-indenting text the parser misread could move or
 * lose what the user typed.
 */
import type { TextEdit } from '../model/edits';
import { eolOf } from '../model/property-edits';
import type { ParsedDocument } from '../model/tree';
import { Char } from '../parse/chars';

/** Formatting options; `eol` defaults to the document's first line break, else `\n`. */
export interface FormatOptions {
  readonly tabSize: number;
  readonly insertSpaces: boolean;
  readonly eol?: '\n' | '\r\n';
  /** True: end with exactly one line break; false: with none; omitted: keep whether the text had one. */
  readonly finalNewline?: boolean;
  /**
   * Give up (no edits) when the formatted text would be longer than this many UTF-16 units.
   * Indentation grows with depth, so a deeply nested file formats to a size quadratic in its depth.
   */
  readonly maxOutputLength?: number;
}

/** 64 M UTF-16 units (128 MB): far above any real envelope, far below V8's string limit. */
export const DEFAULT_MAX_OUTPUT_LENGTH = 64 * 1024 * 1024;

/** Above this many edits one replacement is cheaper for the editor than a huge edit list. */
const MAX_SEPARATE_EDITS = 10_000;

/** Line-break-plus-indent strings are cached up to this depth (deeper ones are rare). */
const INDENT_CACHE_SIZE = 128;

const JOIN_CHUNK = 8192;

/** Gap layouts other than "line break + indent at depth n" (n >= 0). */
const NOTHING = -1;
const SPACE = -2;
const FINAL_EOL = -3;

const enum Token {
  Open,
  Close,
  Comma,
  Colon,
  Value,
}


/**
 * The edits that pretty-print `doc`: [] when it has syntax problems, is already formatted, or
 * would format to more than `maxOutputLength`.
 */
export function formatDocument(doc: ParsedDocument, options: FormatOptions): TextEdit[] {
  return documentFormatting(doc, options).edits;
}

/** Formatting edits, and why there are none when the document was not formatted at all. */
export interface Formatting {
  readonly edits: TextEdit[];
  /** `syntax`: the text has syntax problems; `size`: laid out, it would exceed `maxOutputLength`. */
  readonly refused?: 'syntax' | 'size';
}

/** `formatDocument`, saying why a document it leaves alone was refused (an editor shows nothing for no edits). */
export function documentFormatting(doc: ParsedDocument, options: FormatOptions): Formatting {
  if (doc.syntaxProblems.length > 0 || doc.root === undefined) return { edits: [], refused: 'syntax' };
  const edits = layoutEdits(doc, options);
  return edits === undefined ? { edits: [], refused: 'size' } : { edits };
}

/** The edits, or undefined when the output would be longer than `maxOutputLength`. */
function layoutEdits(doc: ParsedDocument, options: FormatOptions): TextEdit[] | undefined {
  const { text } = doc;
  const eol = options.eol ?? eolOf(text);
  const unit = options.insertSpaces ? ' '.repeat(normaliseTabSize(options.tabSize)) : '\t';
  const unitCode = unit.charCodeAt(0);
  const maxOutputLength = options.maxOutputLength ?? DEFAULT_MAX_OUTPUT_LENGTH;
  // Changed gaps as (offset, end, layout) triples; strings are built only once the size check
  // has passed, so a hopeless deep file costs no memory before it is refused.
  const gaps: number[] = [];
  const setGap = (start: number, end: number, layout: number, newText: string): void => {
    if (end - start !== newText.length || !text.startsWith(newText, start)) gaps.push(start, end, layout);
  };

  let start = skipWhitespace(text, 0);
  setGap(0, start, NOTHING, '');
  if (start >= text.length) return [];
  let first = scanToken(text, start);
  let firstEnd = tokenEnd(text, start, first);
  if (firstEnd < 0) return [];
  let depth = 0;
  let outputLength = firstEnd - start;

  while (true) {
    const nextStart = skipWhitespace(text, firstEnd);
    if (nextStart >= text.length) {
      const hadLineBreak = text.indexOf('\n', firstEnd) >= 0 || text.indexOf('\r', firstEnd) >= 0;
      const final = options.finalNewline ?? hadLineBreak;
      setGap(firstEnd, text.length, final ? FINAL_EOL : NOTHING, final ? eol : '');
      break;
    }
    const second = scanToken(text, nextStart);
    const secondEnd = tokenEnd(text, nextStart, second);
    if (secondEnd < 0) return [];

    let newLine = false;
    let space = false;
    if (second === Token.Close) {
      if (first !== Token.Open) {
        depth--;
        newLine = true;
      }
    } else if (first === Token.Open) {
      depth++;
      newLine = true;
    } else if (first === Token.Comma) {
      newLine = true;
    } else if (first === Token.Colon) {
      space = true;
    } else if (second !== Token.Comma && second !== Token.Colon) {
      // Two values, or a value right after a closing bracket: not JSON the parser accepted.
      return [];
    }
    if (depth < 0) return [];

    if (newLine) {
      outputLength += eol.length + unit.length * depth;
      if (!isLineBreakGap(text, firstEnd, nextStart, eol, unitCode, depth * unit.length)) gaps.push(firstEnd, nextStart, depth);
    } else {
      outputLength += space ? 1 : 0;
      setGap(firstEnd, nextStart, space ? SPACE : NOTHING, space ? ' ' : '');
    }
    outputLength += secondEnd - nextStart;
    if (outputLength > maxOutputLength) return undefined;
    first = second;
    firstEnd = secondEnd;
  }

  const indents: string[] = [];
  const layoutText = (layout: number): string => {
    if (layout === NOTHING) return '';
    if (layout === SPACE) return ' ';
    if (layout === FINAL_EOL) return eol;
    if (layout >= INDENT_CACHE_SIZE) return eol + unit.repeat(layout);
    return (indents[layout] ??= eol + unit.repeat(layout));
  };
  if (gaps.length / 3 > MAX_SEPARATE_EDITS) {
    // One edit from the first change to the last, rebuilt from the untouched tokens between.
    // Joined in chunks: one join over millions of pieces is several times slower.
    const chunks: string[] = [];
    let parts: string[] = [];
    let position = gaps[0];
    for (let i = 0; i < gaps.length; i += 3) {
      parts.push(text.slice(position, gaps[i]), layoutText(gaps[i + 2]));
      position = gaps[i + 1];
      if (parts.length >= JOIN_CHUNK) {
        chunks.push(parts.join(''));
        parts = [];
      }
    }
    chunks.push(parts.join(''));
    return [{ offset: gaps[0], end: position, newText: chunks.join('') }];
  }
  const edits: TextEdit[] = [];
  for (let i = 0; i < gaps.length; i += 3) edits.push({ offset: gaps[i], end: gaps[i + 1], newText: layoutText(gaps[i + 2]) });
  return edits;
}

function normaliseTabSize(tabSize: number): number {
  return Number.isFinite(tabSize) && tabSize >= 1 ? Math.floor(tabSize) : 4;
}

function isWhitespace(code: number): boolean {
  return code === Char.Space || code === Char.LineFeed || code === Char.CarriageReturn || code === Char.Tab;
}

function skipWhitespace(text: string, from: number): number {
  let pos = from;
  while (pos < text.length && isWhitespace(text.charCodeAt(pos))) pos++;
  return pos;
}

function scanToken(text: string, at: number): Token {
  switch (text.charCodeAt(at)) {
    case Char.OpenBrace:
    case Char.OpenBracket:
      return Token.Open;
    case Char.CloseBrace:
    case Char.CloseBracket:
      return Token.Close;
    case Char.Comma:
      return Token.Comma;
    case Char.Colon:
      return Token.Colon;
    default:
      return Token.Value;
  }
}

/** The end of the token at `start`; -1 for an unterminated string (never in a problem-free document). */
function tokenEnd(text: string, start: number, token: Token): number {
  if (token !== Token.Value) return start + 1;
  let pos = start;
  if (text.charCodeAt(pos) === Char.Quote) {
    pos++;
    while (pos < text.length) {
      const code = text.charCodeAt(pos);
      if (code === Char.Quote) return pos + 1;
      pos += code === Char.Backslash ? 2 : 1;
    }
    return -1;
  }
  // A number or literal: everything up to the next whitespace, structural character or quote.
  while (pos < text.length) {
    const code = text.charCodeAt(pos);
    if (isWhitespace(code) || code === Char.Quote || code === Char.Comma || code === Char.Colon) break;
    if (code === Char.OpenBrace || code === Char.CloseBrace || code === Char.OpenBracket || code === Char.CloseBracket) break;
    pos++;
  }
  return pos;
}

/** Whether `[start, end)` already is `eol` + `indentLength` indent units, checked without building it. */
function isLineBreakGap(text: string, start: number, end: number, eol: string, unitCode: number, indentLength: number): boolean {
  if (end - start !== eol.length + indentLength) return false;
  if (!text.startsWith(eol, start)) return false;
  for (let pos = start + eol.length; pos < end; pos++) if (text.charCodeAt(pos) !== unitCode) return false;
  return true;
}
