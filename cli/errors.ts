/**
 * The one failure the CLI reports instead of a lint result: a usage or I/O problem, exit status 2.
 * Anything else that throws is a bug and is reported as an internal error (also status 2).
 */
import { redact, type BrokerError } from '../broker/errors';
import { nameOnOneLine, showOnOneLine } from '../core/language/markdown';
import { MAX_QUOTED_PATH, shortened } from '../core/model/describe-value';
import { UnreadableFile } from '../workspace/bounded-read';

/** The longest text of a dead letter (its error, its exception) a line quotes whole; JSON output has all of it. */
export const MAX_QUOTED_TEXT = 500;

/**
 * A value the user gave (an option's value, a command's or an option's name) as a message quotes
 * it: whole up to 60 characters, else its start and `…`, as a fixture's key is quoted. A variable
 * that held a file's content, given as a value, made a message as long as the file.
 */
export function quoted(value: unknown): string {
  // Masked before it is cut: a broker URL cut inside its password keeps no '@' by which to find it.
  // On one line: a queue's name quoted from a dead letter holds what its producer put there.
  return showOnOneLine(shortened(redact(String(value))));
}

/**
 * A path the user gave (or one found from it) as a message quotes it: whole up to 200 characters,
 * else its start and `…`; a URL's password masked first. On one line, its line breaks written `\n`
 * and `\r` as a file writes them: the lines of a refusal are each printed after "babelq: ", so a
 * file named "x\nbabelq: …" would otherwise print a line of babelq's own.
 */
export function quotedPath(path: string): string {
  return shortened(showOnOneLine(redact(path)), MAX_QUOTED_PATH);
}

/**
 * A meta.id as a line names it: whole up to 200 characters, as a path is, else its start and end.
 * Ids are copied from these lines into `dlq redrive --id`, and some are longer than a value's 60
 * (a SHA-256 in hex is 64); one of thousands of characters would fill the terminal.
 */
export function quotedId(id: string): string {
  return quotedLine(id);
}

/**
 * A name read from a broker (a meta.id, a URN, a key, a dead letter's reason) as it is named
 * inside a line: core's nameOnOneLine, whole up to 200 characters, else its start and its end with
 * `…` between (two long queue names that differ at the end stay apart); its line breaks written
 * `\n` and `\r` and every other invisible character (ESC, BEL, C1 controls, bidirectional
 * overrides and isolates) `\uXXXX`. Whoever published to the queue wrote it: raw, a line break
 * in it would start a line of the listing they chose.
 */
export function quotedLine(name: string): string {
  return nameOnOneLine(name, MAX_QUOTED_PATH);
}

/**
 * A sentence read from a broker (a dead letter's error or exception, a frame's headers) inside a
 * line: whole up to `max` characters (500), else its start and `…`; on one line, as quotedLine.
 */
export function quotedTextLine(text: string, max = MAX_QUOTED_TEXT): string {
  return showOnOneLine(shortened(text, max));
}

/** A usage or I/O problem: the message goes to stderr as is, the exit status is 2. */
export class CliError extends Error {
  /** Usage errors get a pointer to the help text; I/O errors do not need one. */
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * Said of a path given on the command line that is not there and holds U+FFFD: Node reads the
 * arguments as UTF-8, with U+FFFD for bytes that are not, so a file whose name is not valid UTF-8
 * (`ls` lists it) cannot be named at all, and "no such file" alone would leave the user puzzled.
 */
export function notUtf8ArgumentNote(path: string, error?: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (!path.includes('\uFFFD') || (error !== undefined && code !== 'ENOENT')) return '';
  return ' (if the file\'s name is not valid UTF-8, the \uFFFD stands for the bytes that are not: this tool is given its arguments as UTF-8, so such a name cannot be given; rename the file)';
}

/** A file-system error in a user's words (`no such file or directory`), falling back to its message. */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // A file refused unread (a named pipe, a device, too large) says why in its own words.
  if (error instanceof UnreadableFile && code === undefined) return error.detail.replace(/\.$/, '');
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'not a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'ENOSPC':
      return 'no space left on device';
    case 'ENAMETOOLONG':
      // The system's own words would quote the whole path again.
      return 'the name is too long for the file system';
    default:
      // An UnreadableFile's message starts with its path, which the caller says already. The
      // system's words may quote the path again (`open '/…'`): bounded as a quoted path is.
      if (error instanceof UnreadableFile) return quotedPath(error.detail.replace(/\.$/, ''));
      return quotedPath(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The exit status of a broker's error, alike for every broker verb: 1 when the broker answered and
 * refused (a missing queue, a key that is not a list, a virtual host or database it does not
 * serve), 2 when it could not be asked (usage, connection, login, permission, timeout).
 */
export function brokerErrorExit(error: BrokerError): 1 | 2 {
  return error.kind === 'rejected' || error.kind === 'missing-queue' ? 1 : 2;
}
