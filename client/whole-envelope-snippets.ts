/**
 * The whole-envelope snippets (`envelope`, `envelope-dlq`) and where they can go. A snippet the
 * manifest contributes is offered anywhere in the language, inside `meta {}` too, where a whole
 * envelope is never what the author means: these two are offered by a completion provider
 * (client/whole-envelope-completion.ts), and only in a document holding nothing but the word
 * being typed. The fragments (`dead-letter`, `meta-ext`) stay contributed.
 */
import SNIPPETS from '../snippets/whole-envelope.json';

export interface WholeEnvelopeSnippet {
  readonly prefix: readonly string[];
  readonly description: string;
  /** VS Code snippet syntax, one line an entry: `$UUID` and `$CURRENT_SECONDS_UNIX` are filled in when inserted. */
  readonly body: readonly string[];
}

export const WHOLE_ENVELOPE_SNIPPETS: Readonly<Record<string, WholeEnvelopeSnippet>> = SNIPPETS;

/** The characters of a snippet prefix being typed (`envelope-dlq`). */
const PREFIX_CHARACTER = /[A-Za-z0-9_-]/;

/** The word being typed at `offset`: its start and end. */
export function wordAt(text: string, offset: number): { start: number; end: number } {
  let start = offset;
  while (start > 0 && PREFIX_CHARACTER.test(text[start - 1])) start--;
  let end = offset;
  while (end < text.length && PREFIX_CHARACTER.test(text[end])) end++;
  return { start, end };
}

/**
 * Whether a whole envelope can go at `offset`: the document holds nothing but white space around
 * the word being typed. Each side is scanned only up to its first other character, so a large
 * document costs about nothing.
 */
export function wholeEnvelopeFits(text: string, offset: number): boolean {
  const { start, end } = wordAt(text, offset);
  for (let index = start - 1; index >= 0; index--) if (!isWhiteSpace(text.charCodeAt(index))) return false;
  for (let index = end; index < text.length; index++) if (!isWhiteSpace(text.charCodeAt(index))) return false;
  return true;
}

/**
 * `wholeEnvelopeFits` asked of the editor's lines (`lineText(line)`, without its line break), the
 * cursor at `line`/`character`: the lines above and below are read only up to the first that holds
 * anything but white space, so a completion asked for in a large document reads a line or two, not
 * the whole text.
 */
export function wholeEnvelopeFitsInLines(lineCount: number, lineText: (line: number) => string, line: number, character: number): boolean {
  if (!wholeEnvelopeFits(lineText(line), character)) return false;
  for (let above = line - 1; above >= 0; above--) if (!isBlank(lineText(above))) return false;
  for (let below = line + 1; below < lineCount; below++) if (!isBlank(lineText(below))) return false;
  return true;
}

function isBlank(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (!isWhiteSpace(text.charCodeAt(index))) return false;
  return true;
}

/** JSON's white space: space, tab, line feed, carriage return. */
function isWhiteSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
