/**
 * Text from a registry or a schema file in Markdown that the editor renders: a hostile checkout
 * writes the owner, status, descriptions, patterns and field names, and must not get images,
 * HTML, `command:` links or a backtick out of a code span into a hover.
 */
import { MAX_QUOTED_PATH, shortenedName } from '../model/describe-value';

/**
 * Characters that change how the text around them is shown without being seen themselves: C0 and
 * C1 controls, line and paragraph separators, and the bidirectional marks, embeddings, overrides
 * and isolates. A registry's `"status": "active\u202e"` or a field named `to\u202etal` reorders
 * the rest of the hover's line (Trojan Source); as `babelq` does on a terminal (cli/diagnostics.ts
 * `printable`), each is shown as its `\uXXXX` escape instead.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** INVISIBLE but for the line breaks `\n` and `\r`, for text whose lines are kept. */
const INVISIBLE_IN_LINES = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every INVISIBLE character written as its visible `\uXXXX` escape (for plain text
 * too: a completion's detail, a terminal's output); `keepLineBreaks` leaves `\n` and `\r` as they are.
 */
export function showInvisible(text: string, keepLineBreaks = false): string {
  return text.replace(keepLineBreaks ? INVISIBLE_IN_LINES : INVISIBLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `text` on one line, for a finding's message: a line break in it comes from a fixture's key or
 * value quoted there (core writes none of its own), so it is written as the file writes it, `\n`
 * or `\r`; then showInvisible. Written twice it stays the same.
 */
export function showOnOneLine(text: string): string {
  return showInvisible(text.replace(/\r/g, '\\r').replace(/\n/g, '\\n'));
}

/**
 * `text` as a plain-text message VS Code shows (a notification, whether the extension's or the
 * server's window/showMessage, or a language status item's detail), with no link in it. VS Code
 * reads `[label](target)` there as a link when the target starts with `http://`, `https://`,
 * `command:` or `file:`, and a click opens it with commands allowed: a queue or file named
 * `[Open](command:…)` would run that command, with the arguments written after it. The `]` and `(`
 * must touch, so each `](` is written `]\(`: the backslash breaks every such link whatever the
 * scheme (one VS Code adds later too), is seen (an invisible character between them would not be,
 * and a space would make it look like another name), and is how Markdown writes a `(` meant as
 * text. For quoted text (or a whole message that quotes it and means no link of its own); cut and
 * put on one line first, so no cut joins a `]` to a `(`. Unlinked twice it stays the same.
 */
export function unlinked(text: string): string {
  return text.replace(/\]\(/g, ']\\(');
}

/**
 * A name (a queue, key, meta.id or URN, from a broker or a checkout) as a line names it: whole up
 * to `max` characters (200 unless told), else its start and its end with `…` between (shortenedName),
 * then on one line (showOnOneLine). Cut before it is escaped, so `max` counts the name's own
 * characters. The one way the broker's errors, babelq's lines and the editor's picks name one.
 */
export function nameOnOneLine(name: string, max = MAX_QUOTED_PATH): string {
  return showOnOneLine(shortenedName(name, max));
}

/**
 * `text` as literal Markdown text inside a line: lines joined, and every character that could open
 * markup mid-line (emphasis, code, links and images, HTML, tables, strikethrough) escaped. Marks
 * that only count at the start of a line (`-`, `+`, `.`) need nothing: the text never starts one.
 */
export function escapeMarkdown(text: string): string {
  return showInvisible(text.replace(/[\r\n]+/g, ' ')).replace(/[\\`*_{}[\]()#|<>~&!]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : `\\${char}`));
}

/** `text` as one inline code span: fenced by more backticks than any run inside it, on one line. */
export function codeSpan(text: string): string {
  const flat = showInvisible(text.replace(/[\r\n]+/g, ' '));
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  // A span that starts or ends with a backtick needs a space inside the fence to be read as one.
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A code span inside a table cell, where a `|` would end the cell even inside the span. */
export function tableCode(text: string): string {
  return codeSpan(text).replace(/\|/g, '\\|');
}

/** A `file:` URI as a Markdown link target: every character that could end the target encoded. */
export function linkTarget(path: string): string {
  return `file://${path.split('/').map((part) => encodeURIComponent(part).replace(/[()'!*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)).join('/')}`;
}
