/**
 * The links VS Code finds in a notification's message or a language status item's detail, written
 * here from what they match (not from VS Code's code): `[`, a label of one or more characters other
 * than `]`, `](`, a target that starts, in any case, with `http://`, `https://`, `command:` or
 * `file:` and goes on with characters other than `)` and white space, then optionally a space and
 * a title in single or double quotes, then `)`. A click on one opens it with commands allowed.
 */
const LINK = /\[[^\]]+\]\((?:https?:\/\/|command:|file:)[^)\s]+(?: ".+?"| '.+?')?\)/gi;

/** How many links VS Code would draw in `text` (a notification first puts its line breaks as spaces). */
export function linksIn(text: string): number {
  return text.replace(/\r\n|\r|\n/g, ' ').match(LINK)?.length ?? 0;
}
