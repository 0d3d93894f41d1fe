/**
 * Reading a workspace file without letting the file decide how long it takes. A checkout can hold
 * a named pipe where a schema is expected (a plain read blocks the event loop forever), a device
 * (`/dev/zero` never ends), or a sparse file of gigabytes: the file is opened without blocking,
 * checked on the open descriptor to be a regular file within the limit before any byte is read,
 * and read no further than the limit even if it grows meanwhile.
 */
import { digitGroups } from '../core/model/count-words';
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, statSync, type Dirent, type Stats } from 'node:fs';

/** Why a file was not read, in words for a diagnostic or a CLI message. */
export class UnreadableFile extends Error {
  constructor(
    /** The file, as the caller named it. */
    readonly path: string,
    /** What is wrong, after the path: "is a named pipe, not a regular file; it was not read." */
    readonly detail: string,
    /** `missing`: there is no such file; the rest say why an existing file was not read. */
    readonly reason: 'missing' | 'not-a-file' | 'too-large' | 'unreadable',
    /** The system error code behind it (`ENOENT`, `EACCES`), when there is one. */
    readonly code?: string,
  ) {
    super(`${path} ${detail}`);
  }
}

/**
 * The bytes of a regular file of at most `limit` bytes; throws UnreadableFile otherwise. `into`
 * lends a buffer to read into (kept there if it had to grow); `onStat` is told what the open file
 * is (its size and time) before any check, so a caller that also wants to know when the file
 * changed needs no second look at it.
 */
export function readBoundedBytes(path: string, limit: number, into?: { buffer: Buffer }, onStat?: (stat: Stats) => void): Buffer {
  return withRegularFile(path, onStat, (descriptor, stat) => {
    if (stat.size > limit) throw tooLarge(path, stat.size, limit);
    // One byte more than the limit tells a file that grew past it since the fstat.
    const capacity = Math.min(limit + 1, Math.max(stat.size + 1, 4096));
    let buffer = into && into.buffer.length >= capacity ? into.buffer : Buffer.allocUnsafe(capacity);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > limit) throw tooLarge(path, length, limit);
        const grown = Buffer.allocUnsafe(Math.min(limit + 1, buffer.length * 2));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const asked = buffer.length - length;
      const read = readSync(descriptor, buffer, length, asked, null);
      length += read;
      // A regular file's read comes up short only at its end: once the size fstat gave is read,
      // a short read ends it without the extra read that would return 0 (a syscall per file saved
      // on a lint of thousands). A file that says it is empty is read until 0: /proc's files
      // have size 0 and come a page at a time, each read short.
      if (read === 0 || (read < asked && stat.size > 0 && length >= stat.size)) break;
    }
    if (length > limit) throw tooLarge(path, length, limit);
    if (into) into.buffer = buffer;
    return buffer.subarray(0, length);
  });
}

/** At most the first `count` bytes of a regular file, whatever its size (a header); throws UnreadableFile as readBoundedBytes does. */
export function readFileStart(path: string, count: number, onStat?: (stat: Stats) => void): Buffer {
  return withRegularFile(path, onStat, (descriptor) => {
    const buffer = Buffer.allocUnsafe(count);
    let length = 0;
    while (length < count) {
      const read = readSync(descriptor, buffer, length, count - length, null);
      if (read === 0) break;
      length += read;
    }
    return buffer.subarray(0, length);
  });
}

/**
 * Runs `read` on the open descriptor of the regular file at `path`: opened without blocking, told
 * to `onStat`, refused unread when it is anything else; closed after. Errors become UnreadableFile.
 */
function withRegularFile<T>(path: string, onStat: ((stat: Stats) => void) | undefined, read: (descriptor: number, stat: Stats) => T): T {
  let descriptor: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading waits for a writer without it.
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw fromSystemError(path, error);
  }
  try {
    const stat = fstatSync(descriptor);
    onStat?.(stat);
    if (!stat.isFile()) throw new UnreadableFile(path, `is ${kindOf(stat)}, not a regular file; it was not read.`, 'not-a-file');
    return read(descriptor, stat);
  } catch (error) {
    throw error instanceof UnreadableFile ? error : fromSystemError(path, error);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The buffer readBoundedText reads into, kept between reads (its bytes are decoded before it
 * returns): a file read into a buffer of its own lands in memory touched for the first time, a
 * page fault per 4 KB, which on a virtual machine costs more than reading a small fixture does.
 * The workspace's report reads 10,000 of them.
 */
const textReads = { buffer: Buffer.allocUnsafe(64 * 1024) };
/** A buffer grown past this by a large file is let go after that read. */
const KEPT_TEXT_BUFFER_BYTES = 1024 * 1024;

/** The UTF-8 text of a regular file of at most `limit` bytes; throws UnreadableFile otherwise. `onStat` as for readBoundedBytes. */
export function readBoundedText(path: string, limit: number, onStat?: (stat: Stats) => void): string {
  try {
    return readBoundedBytes(path, limit, textReads, onStat).toString('utf8');
  } finally {
    if (textReads.buffer.length > KEPT_TEXT_BUFFER_BYTES) textReads.buffer = Buffer.allocUnsafe(64 * 1024);
  }
}

/**
 * The most an envelope fixture may hold for `babelq` to read it: far above any real fixture (the
 * benchmark's largest is 20 MB), far below what would exhaust memory.
 */
export const MAX_ENVELOPE_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The most the language server reads of a fixture no editor holds: a larger one is checked when
 * it is opened, not in the workspace's report (server/workspace-diagnostics.ts), and is not read
 * to judge a suppression of it either (server/project-files.ts): 20,000 files (the walk's limit)
 * of 1 MB are already 20 GB to parse. Once opened, the report reads it with lint's bound
 * (MAX_ENVELOPE_FILE_BYTES) after it closes: a user's own large fixture keeps its problems in the
 * Problems panel, and on screen when it is opened again. No text is kept between reports either:
 * a fixture is read again only when something it depends on changed.
 */
export const MAX_WORKSPACE_FIXTURE_BYTES = 1024 * 1024;

/** `5.0 MiB`: the limits are in units of 1024 × 1024 bytes, and the README names them so. */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function tooLarge(path: string, size: number, limit: number): UnreadableFile {
  // Just above the limit both round to the same tenth of a MiB ("1.0 MiB, above the 1.0 MiB"): said in bytes then.
  const sizes = megabytes(size) === megabytes(limit) ? `${digitGroups(size)} bytes, above the ${digitGroups(limit)} (${megabytes(limit)})` : `${megabytes(size)}, above the ${megabytes(limit)}`;
  return new UnreadableFile(path, `is ${sizes} this tool reads; it was not read (a file that large stalls the editor; check it is the file you meant).`, 'too-large');
}

/**
 * Why an entry a walk found by its name is no file to read, said without opening it (opening a
 * named pipe for reading waits for a writer, and opening a device can act on it): a named pipe, a
 * socket or a device, or a symbolic link to one, to nothing, or that loops. Undefined for a
 * regular file, a directory and a link to either: the walk's own rules apply to those. `entry`
 * is the directory entry, or what lstat says of the path.
 */
export function notAFileToRead(path: string, entry: Dirent | Stats): UnreadableFile | undefined {
  if (entry.isFile() || entry.isDirectory()) return undefined;
  if (!entry.isSymbolicLink()) return new UnreadableFile(path, `is ${kindOf(entry)}, not a regular file; it was not read.`, 'not-a-file');
  let target: Stats;
  try {
    target = statSync(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    // No system code on it: the words below are said as they are, not as "no such file".
    if (code === 'ENOENT' || code === 'ENOTDIR') return new UnreadableFile(path, `is a symbolic link to ${linkTarget(path)}, which does not exist; it was not read.`, 'missing');
    return fromSystemError(path, error);
  }
  if (target.isFile() || target.isDirectory()) return undefined;
  return new UnreadableFile(path, `is a symbolic link to ${kindOf(target)}, not a regular file; it was not read.`, 'not-a-file');
}

/** Where a symbolic link points, quoted, for a message. */
function linkTarget(path: string): string {
  try {
    return `'${readlinkSync(path)}'`;
  } catch {
    return 'a path';
  }
}

function kindOf(stat: Stats | Dirent): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** What is at `path`, for a refusal that came before any look at it (an open that failed). */
function kindAt(path: string): string {
  try {
    return kindOf(lstatSync(path));
  } catch {
    return 'not a regular file';
  }
}

function fromSystemError(path: string, error: unknown): UnreadableFile {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new UnreadableFile(path, 'does not exist.', 'missing', code);
  if (code === 'EACCES' || code === 'EPERM') return new UnreadableFile(path, 'cannot be read: permission denied.', 'unreadable', code);
  if (code === 'EISDIR') return new UnreadableFile(path, 'is a directory, not a regular file; it was not read.', 'not-a-file', code);
  if (code === 'ELOOP') return new UnreadableFile(path, 'is a symbolic link that loops; it was not read.', 'unreadable', code);
  // Opening a socket (or a device without a driver) gives ENXIO: it is no file to read, said as a pipe is.
  if (code === 'ENXIO') return new UnreadableFile(path, `is ${kindAt(path)}, not a regular file; it was not read.`, 'not-a-file', code);
  // Node refuses a path holding a NUL character before any system call, in words about its own API.
  if (code === 'ERR_INVALID_ARG_VALUE' && path.includes('\0')) return new UnreadableFile(path.replace(/\0/g, '\\0'), 'is not a path a file can have (it holds a NUL character); it was not read.', 'unreadable', code);
  if (code === 'ENAMETOOLONG') return new UnreadableFile(path, 'cannot be read: its name is too long for the file system; it was not read.', 'unreadable', code);
  // Node's words end with the path (`EIO: i/o error, open '/x'`), which the caller names already.
  const words = error instanceof Error ? error.message.replace(/, \w+ '[^]*'$/, '') : String(error);
  return new UnreadableFile(path, `cannot be read: ${words}`, 'unreadable', code);
}
