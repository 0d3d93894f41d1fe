/**
 * The repairs a syntax problem carries (SyntaxRepair in core/model/tree.ts): small edits the
 * parser is sure of, titled with what they write, as json-syntax's quick fixes show them. Both
 * parsers (the fast one and the reference one the differential oracle checks it against) build
 * them here, so the same repair reads the same; where it goes each parser decides on its own.
 */
import { shortened } from '../model/describe-value';
import type { SyntaxRepair } from '../model/tree';

/** The longest line, gap of white space or run of backslashes looked back over. */
const LOOK_BACK = 1000;

/** `text` inserted at `at` (`Insert ','`), or titled as given (`Write "orders"` for a quote added before a word). */
export function insert(at: number, text: string, title = `Insert '${text}'`): SyntaxRepair {
  return { title, offset: at, end: at, text };
}

/** `[offset, end)` removed: `written` is what is there, which the title names (`Remove ','`) unless one is given. */
export function remove(offset: number, end: number, written: string, title = `Remove '${shortened(written)}'`): SyntaxRepair {
  return { title, offset, end, text: '' };
}

/** `[offset, end)` written as `text` (`Write ':'`, `Write "orders"`); the title quotes it shortened. */
export function replace(offset: number, end: number, text: string, title = `Write ${shortened(text)}`): SyntaxRepair {
  return { title, offset, end, text };
}

/** The trailing comma at `comma` removed. */
export function removeTrailingComma(comma: number): SyntaxRepair {
  return remove(comma, comma + 1, ',', "Remove the trailing ','");
}

/**
 * The closing quote of a string left open, inserted at `at`; none where the string ends in a
 * backslash that starts an escape (`"DE\`), which would take the quote in.
 */
export function closingQuote(text: string, at: number): SyntaxRepair[] | undefined {
  let backslashes = 0;
  while (at - backslashes > 0 && text.charCodeAt(at - backslashes - 1) === 0x5c /* \ */) {
    if (++backslashes > LOOK_BACK) return undefined;
  }
  return backslashes % 2 === 0 ? [insert(at, '"')] : undefined;
}

/** A comment at `[offset, end)` removed. */
export function removeComment(offset: number, end: number): SyntaxRepair {
  return { title: 'Remove the comment', offset, end, text: '' };
}

/**
 * Where a missing comma (or a closing bracket at the end of the file) goes when the next token
 * starts at `next`: right after what comes before it (`"a": 1,` then the line break), unless a
 * comment ends there or may (a line comment, or a line or gap too long to look over), when it goes just
 * before `next`, which is always right.
 */
export function afterPreviousToken(text: string, next: number): number {
  let at = next;
  const stop = Math.max(0, next - LOOK_BACK);
  while (at > stop && isWhitespace(text.charCodeAt(at - 1))) at--;
  if (at === next || (at === stop && stop > 0) || text.charCodeAt(at - 1) === 0x2f /* / */) return next;
  // A line comment ends at a line's end: with no line break in the gap, what ends at `at` is no
  // comment (one would have run on over `next`). With one, that line is looked over, once for the
  // one token after it, so the looks of a parse's problems read each line at most once.
  if (!/[\n\r]/.test(text.slice(at, next))) return at;
  const lineStart = lineStartWithin(text, at);
  if (lineStart < 0 || text.slice(lineStart, at).includes('//')) return next;
  return at;
}

/** The start of the line `at` is on, looked for no further back than LOOK_BACK characters (-1 past it). */
function lineStartWithin(text: string, at: number): number {
  const stop = Math.max(0, at - LOOK_BACK);
  for (let pos = at; pos > stop; pos--) {
    const code = text.charCodeAt(pos - 1);
    if (code === 0x0a || code === 0x0d) return pos;
  }
  return stop === 0 ? 0 : -1;
}

/** The control characters JSON has a short escape for, by code. */
const SHORT_ESCAPES: Readonly<Record<number, string>> = { 0x08: '\\b', 0x09: '\\t', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r' };

/**
 * A raw control character in a string written as JSON escapes it (`\t`, `\u0007`); a line break
 * is no such character here (a string holding one runs onto the next line, its own finding).
 */
export function escapeControl(at: number, code: number): SyntaxRepair {
  const escaped = SHORT_ESCAPES[code] ?? `\\u${code.toString(16).padStart(4, '0')}`;
  return replace(at, at + 1, escaped);
}

/** `[offset, end)`, a value that is no JSON number (NaN, Infinity), written as null or as a string: two readings. */
export function nullOrString(offset: number, end: number, word: string): SyntaxRepair[] {
  return [replace(offset, end, 'null'), replace(offset, end, JSON.stringify(word))];
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * A single-quoted key or string at `[start, end)` written in double quotes, when that is all it
 * takes: closed by its quote, holding no double quote and no backslash (whose escapes read
 * differently in single quotes); otherwise no repair.
 */
export function doubleQuoted(text: string, start: number, end: number): SyntaxRepair[] | undefined {
  if (end - start < 2 || text.charCodeAt(end - 1) !== 0x27) return undefined;
  const content = text.slice(start + 1, end - 1);
  if (content.includes('"') || content.includes('\\') || content.includes("'")) return undefined;
  return [replace(start, end, `"${content}"`)];
}

/** A "}" at `brace` before more of its object: removed when stray, else written as the comma it was typed for. */
export function braceRepair(brace: number, stray: boolean): SyntaxRepair {
  return stray ? remove(brace, brace + 1, '}') : replace(brace, brace + 1, ',', "Write ','");
}

/**
 * The repair of a container left open: its closer (`}` or `]`) at the end of the file, after its
 * last token; on a line of its own when the file ends in a line comment (which would otherwise
 * take it in). Where it goes is worked out once for all the containers left open.
 */
export function closersAtEnd(text: string): (closer: string) => SyntaxRepair[] | undefined {
  const at = afterPreviousToken(text, text.length);
  // After a comma, whether a value or the bracket was left out is unknown.
  if (text.charCodeAt(at - 1) === 0x2c /* , */) return () => undefined;
  const lastLine = lineStartWithin(text, text.length);
  if (at < text.length || (lastLine >= 0 && !text.slice(lastLine).includes('/'))) return (closer) => [insert(at, closer)];
  const lineBreak = text.includes('\r\n') ? '\r\n' : '\n';
  return (closer) => [insert(text.length, `${lineBreak}${closer}`, `Insert '${closer}'`)];
}

/**
 * A token at `[start, end)` where a comma or the object's "}" belongs: typed for the comma when
 * a key follows it (written as ','), stray when the comma or "}" does (removed); else no repair.
 */
export function separatorRepair(text: string, start: number, end: number): SyntaxRepair[] | undefined {
  let next = end;
  while (next < text.length && isWhitespace(text.charCodeAt(next))) next++;
  const code = text.charCodeAt(next);
  if (code === 0x22 /* " */) return [replace(start, end, ',', "Write ','")];
  if (code === 0x2c /* , */ || code === 0x7d /* } */) return [remove(start, end, text.slice(start, end))];
  return undefined;
}
