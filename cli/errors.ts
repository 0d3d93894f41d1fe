/**
 * The one failure the CLI reports instead of a lint result: a usage or I/O problem, exit status 2.
 * Anything else that throws is a bug and is reported as an internal error (also status 2).
 */
import type { BrokerError } from '../broker/errors';
import { UnreadableFile } from '../workspace/bounded-read';

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
    default:
      // An UnreadableFile's message starts with its path, which the caller says already.
      if (error instanceof UnreadableFile) return error.detail.replace(/\.$/, '');
      return error instanceof Error ? error.message : String(error);
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
