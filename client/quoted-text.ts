/**
 * What a broker holds or a checkout says (a fixture, a workspace setting), as the editor's
 * notifications, dialogs, quick picks, tab titles and output quote it. Whoever publishes to a
 * queue (or writes the checkout) writes that text: a meta.id, URN, queue name or dead-letter
 * error of a megabyte made a dialog of a megabyte, and a line break, control character or
 * bidirectional override in one began a line of its own in the dialog or reordered the one
 * shown. As `babelq` prints them, each value inside a line is cut (a name past 200 characters in
 * its middle, a dead letter's error or exception past 500 at its end) and put on one line (core's
 * showOnOneLine: `\n`, `\r`, and `\uXXXX` for every other invisible character); a message body
 * keeps its lines, cut, its other invisible characters shown. A notification and the status
 * item's detail make `[text](command:…)` a link that runs a command: no quoted text forms one
 * (core's unlinked). Where VS Code draws `$(name)` as an icon (a quick pick item, the status item's
 * detail), quoted text is also shownLiterally. No `vscode` import: tested as is.
 */
import { nameOnOneLine, showInvisible, showOnOneLine, unlinked } from '../core/language/markdown';
import { shortened } from '../core/model/describe-value';

/** core's unlinked: no `[text](command:…)` in quoted text is a link in a notification or the status item's detail. */
export { unlinked };

/** The longest name (a queue, key, meta.id or URN) quoted whole: a SHA-256 in hex is 64. */
const MAX_NAME = 200;

/** The longest sentence from a message (a dead letter's error or exception) quoted whole. */
const MAX_TEXT = 500;

/** The most characters of a message's body a dialog shows: the message itself is a click away. */
const MAX_BODY = 1000;

/** How many names a list quotes before it counts the rest. */
const MAX_LISTED = 5;

/**
 * A name from a message (queue, key, meta.id, URN) or a setting inside a line (core's
 * nameOnOneLine): past 200 characters its start and end with `…` between, on one line.
 */
export function quotedName(name: string): string {
  return unlinked(nameOnOneLine(name, MAX_NAME));
}

/** A sentence from a message (a dead letter's error, exception or reason) inside a line: cut at 500 characters, on one line, unlinked. */
export function quotedText(text: string): string {
  return unlinked(showOnOneLine(shortened(text, MAX_TEXT)));
}

/**
 * What VS Code's label renderer draws as an icon: `$(name)` or `$(name~modifier)`, the name of
 * letters, digits and `-` (its iconLabels' pattern); a `\` just before it makes it the text instead.
 */
const ICON_REFERENCE = /\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)/g;

/**
 * `text` as a quick pick item's label, description or detail, or a language status item's detail,
 * shows it: each `$(name)` in it with a `\` before it, so a queue named `$(check) orders` is not
 * shown as a check icon and `orders`. A `\` already there is kept: VS Code shows `\\$(check)` as
 * `\$(check)`. For quoted text only; our own words keep the icons they mean (`$(warning)`). Titles,
 * placeholders, notifications and dialogs draw no icons and take the quoted text as it is.
 */
export function shownLiterally(text: string): string {
  return text.replace(ICON_REFERENCE, (icon) => `\\${icon}`);
}

/** A name (quotedName) for a quick pick item's label, description or detail: shown as written, never as an icon. */
export function labelName(name: string): string {
  return shownLiterally(quotedName(name));
}

/** A sentence (quotedText) for a quick pick item's label, description or detail: shown as written, never as an icon. */
export function labelText(text: string): string {
  return shownLiterally(quotedText(text));
}

/** The first few of `items`, each quoted by `quote`, joined, and how many more: `a, b, c, d, e and 3 more`. */
export function someQuoted(items: readonly string[], quote: (item: string) => string = quotedName, separator = ', '): string {
  const shown = items.slice(0, MAX_LISTED).map(quote).join(separator);
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}

/**
 * A message's body in a dialog: its first 1,000 characters with their lines kept (a lone `\r`
 * written `\r`, as it would overwrite its line) and every other invisible character shown, then
 * how many characters were left out.
 */
export function bodyExcerpt(text: string): string {
  const cut = shortened(text, MAX_BODY);
  const shown = unlinked(showInvisible(cut.replace(/\r(?!\n)/g, '\\r'), true));
  return cut.length < text.length ? `${shown}\n(${text.length - cut.length + 1} more characters; open the message to read it whole)` : shown;
}
