/**
 * Finding the userinfo (`user:password@`) of every URL in a text, in one pass.
 *
 * Read as the patterns `\b((?:rediss?|amqps?):\/\/)(\S*)@` (a broker URL: its userinfo ends at
 * the last '@' before white space, as parseTarget reads it) and `\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#]*)@`
 * (any other URL: its authority ends at the first '/', '?', '#' or white space) would read them,
 * but linear: as regular expressions both went back over the rest of the text from every
 * `scheme://` without an '@' after it, so a value of 40,000 characters such as `redis://redis://…`
 * or `a.a.a.…` took a second to mask (quadratic), and messages mask every value the user gave.
 */

/** Replaces a URL's `scheme://userinfo@` (the scheme, the userinfo without its '@'). */
export type UserinfoReplacer = (scheme: string, userinfo: string) => string;

const SCHEME_SEPARATOR = '://';
const AT = 0x40;
const BROKER_SCHEMES = new Set(['redis', 'rediss', 'amqp', 'amqps']);
const NON_SPACE_RUN = /\S*/y;
const AUTHORITY_RUN = /[^\s/?#]*/y;

function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** A character `\b` counts as part of a word. */
function isWordCharacter(code: number): boolean {
  return isLetter(code) || isDigit(code) || code === 0x5f;
}

/** A character of a URL scheme after its first letter. */
function isSchemeCharacter(code: number): boolean {
  return isLetter(code) || isDigit(code) || code === 0x2b || code === 0x2e || code === 0x2d;
}

/** Where the run of `pattern` (sticky) starting at `from` ends. */
function runEnd(text: string, pattern: RegExp, from: number): number {
  pattern.lastIndex = from;
  pattern.exec(text);
  return pattern.lastIndex;
}

/**
 * Where the scheme ending at `separator` starts, no earlier than `floor`, or -1: the leftmost
 * letter at a word's start from which only scheme characters lead to the separator.
 */
function schemeStart(text: string, separator: number, floor: number, brokerOnly: boolean): number {
  if (brokerOnly) {
    // A broker scheme is all word characters, so with `\b` before it, it is the whole word.
    let start = separator;
    while (start > floor && isWordCharacter(text.charCodeAt(start - 1))) start--;
    if (start > 0 && start === floor && isWordCharacter(text.charCodeAt(start - 1))) return -1;
    return BROKER_SCHEMES.has(text.slice(start, separator).toLowerCase()) ? start : -1;
  }
  let run = separator;
  while (run > floor && isSchemeCharacter(text.charCodeAt(run - 1))) run--;
  for (let start = run; start < separator; start++) {
    if (isLetter(text.charCodeAt(start)) && (start === 0 || !isWordCharacter(text.charCodeAt(start - 1)))) return start;
  }
  return -1;
}

/**
 * The text with each URL's userinfo replaced by `replace`. `brokerOnly`: Redis and AMQP URLs,
 * whose userinfo runs to the last '@' before white space; else any scheme, whose userinfo runs to
 * the last '@' before the authority ends.
 */
export function replaceUrlUserinfo(text: string, brokerOnly: boolean, replace: UserinfoReplacer): string {
  let out = '';
  // Text before `copied` is in `out`; a URL's userinfo is looked for no earlier than it.
  let copied = 0;
  // The run after the last scheme looked at, and its last '@' (-1: none): every scheme inside one
  // run shares them, so a run is scanned once however many schemes it holds.
  let scannedTo = -1;
  let lastAt = -1;
  for (let separator = text.indexOf(SCHEME_SEPARATOR); separator >= 0; separator = text.indexOf(SCHEME_SEPARATOR, separator + 1)) {
    if (separator < copied) continue;
    const start = schemeStart(text, separator, copied, brokerOnly);
    if (start < 0) continue;
    const userinfoStart = separator + SCHEME_SEPARATOR.length;
    if (userinfoStart > scannedTo) {
      scannedTo = runEnd(text, brokerOnly ? NON_SPACE_RUN : AUTHORITY_RUN, userinfoStart);
      lastAt = scannedTo - 1;
      while (lastAt >= userinfoStart && text.charCodeAt(lastAt) !== AT) lastAt--;
    }
    if (lastAt < userinfoStart) continue;
    out += text.slice(copied, start) + replace(text.slice(start, userinfoStart), text.slice(userinfoStart, lastAt));
    copied = lastAt + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
