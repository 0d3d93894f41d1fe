/**
 * Writing a user's file from the CLI (`--fix`, a suppressions baseline, pruning): through a
 * temporary file beside it and a rename, so an interrupted run leaves the old file or the new
 * one, never half of each; an existing file's mode is kept, and its owner and group where the
 * writer may give them. A fixture with other hard links is written in place instead: a rename
 * would give this name a new file and leave every other name holding the old text.
 */
import { accessSync, chmodSync, chownSync, closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError, describeFsError } from './errors';
import { realPath } from '../workspace/path-containment';
import { readBoundedBytes } from '../workspace/bounded-read';

/**
 * Replaces (or creates) `path` with `data`; `shown` is the path as the user gave it, for the error.
 * With `throughLinks` (a fixture `--fix` writes: one the user named, or a walk found as a link
 * inside the project), a symbolic link stays one and its target is what is replaced, and a hard
 * link stays one, written in place; otherwise a link is replaced by the file (a suppressions file a checkout links elsewhere is never written
 * through). With `readAs`, the bytes the change was made from, a file that holds other bytes by the
 * time it would be replaced is left as it is (a CliError); `null` for a file that was not there
 * when it was looked for, which is left as it is if it is there now.
 */
export function writeFileAtomically(linkOrPath: string, data: string | Uint8Array, shown = linkOrPath, throughLinks = false, readAs?: Uint8Array | null): void {
  const path = throughLinks && isLink(linkOrPath) ? realPath(linkOrPath) : linkOrPath;
  const temporary = join(dirname(path), temporaryName(basename(path)));
  // The rename below would replace a file that cannot be written (only the folder's permissions
  // count for it): a read-only file, or one this user may not write, is refused as a write to it is.
  if (!writable(path)) throw new CliError(`cannot write '${shown}': it is read-only (permission denied); it was left as it was`);
  try {
    const existing = statSync(path, { throwIfNoEntry: false });
    // A suppressions file is never written through a link, a hard one included: the rename gives it a file of its own.
    if (throughLinks && existing?.isFile() && existing.nlink > 1) {
      writeInPlace(path, data, shown, readAs);
      return;
    }
    const mode = existing?.mode;
    writeFileSync(temporary, data, { flag: 'wx', ...(mode !== undefined ? { mode: mode & 0o7777 } : {}) });
    // The new file is the writer's, with its group or, in a set-group-ID folder, the folder's: an
    // owner and group it may give (root, in a CI container over a checkout mounted from the host,
    // may give any) are the old file's, as a write in place keeps them.
    const made = existing && statSync(temporary);
    if (existing && made && (existing.uid !== made.uid || existing.gid !== made.gid)) {
      try {
        chownSync(temporary, existing.uid, existing.gid);
      } catch {
        // The owner is not this user's to give; the group may be (one the writer is a member of,
        // as a group-writable file shared in a team is): kept, the owner can still write the file.
        try {
          chownSync(temporary, -1, existing.gid);
        } catch {
          // Not a group of the writer's either: the file stays the writer's, as any editor's save through a rename leaves it.
        }
      }
    }
    if (mode !== undefined) chmodSync(temporary, mode & 0o7777);
    // Saved by someone else (an editor) since it was read: what they wrote stays, and this write is dropped.
    if (readAs === null && lstatSync(path, { throwIfNoEntry: false }) !== undefined) {
      rmSync(temporary, { force: true });
      throw new CliError(`'${shown}' was made by someone else after babelq looked for it; it was not written (run the command again)`);
    }
    if (readAs !== undefined && readAs !== null && !holds(path, readAs)) {
      rmSync(temporary, { force: true });
      throw new CliError(`'${shown}' changed after it was read; it was not written (run the command again)`);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot write '${shown}': ${describeFsError(error)}`);
  }
}

/** The longest file name, in bytes, that Linux's and macOS's file systems take (NAME_MAX). */
const MAX_NAME_BYTES = 255;

/**
 * The temporary file's name beside `name`: `.<name>.<pid>.babelq-tmp`, with the end of `name` cut
 * off (whole characters) where the whole would pass MAX_NAME_BYTES. A fixture may be named with up
 * to 255 bytes itself, and a temporary name longer than that cannot be made (ENAMETOOLONG), so
 * such a fixture could never be fixed.
 */
function temporaryName(name: string): string {
  const suffix = `.${process.pid}.babelq-tmp`;
  const kept = Array.from(name);
  while (kept.length > 0 && Buffer.byteLength(`.${kept.join('')}${suffix}`) > MAX_NAME_BYTES) kept.pop();
  return `.${kept.join('')}${suffix}`;
}

/**
 * Writes `data` over the file's own bytes: every hard link to it sees the new text, and its mode,
 * owner, group, extended attributes and ACLs stay as they are. A run cut short halfway leaves
 * part of each text, the price of keeping the links (as editors that save in place pay it).
 */
function writeInPlace(path: string, data: string | Uint8Array, shown: string, readAs: Uint8Array | null | undefined): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r+');
    if (readAs === null) throw new CliError(`'${shown}' was made by someone else after babelq looked for it; it was not written (run the command again)`);
    if (readAs !== undefined && readAs !== null && !fileHolds(fd, readAs)) throw new CliError(`'${shown}' changed after it was read; it was not written (run the command again)`);
    let written = 0;
    while (written < bytes.byteLength) written += writeSync(fd, bytes, written, bytes.byteLength - written, written);
    ftruncateSync(fd, bytes.byteLength);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot write '${shown}': ${describeFsError(error)}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whether the open file holds exactly `bytes` (read through its descriptor, bounded by their length). */
function fileHolds(fd: number, bytes: Uint8Array): boolean {
  if (fstatSync(fd).size !== bytes.byteLength) return false;
  const read = Buffer.alloc(bytes.byteLength);
  let at = 0;
  while (at < read.byteLength) {
    const got = readSync(fd, read, at, read.byteLength - at, at);
    if (got === 0) return false;
    at += got;
  }
  return read.equals(bytes);
}

/** Whether the file at `path` holds exactly `bytes` now (a file gone or unreadable does not). */
function holds(path: string, bytes: Uint8Array): boolean {
  try {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(readBoundedBytes(path, bytes.byteLength + 1));
  } catch {
    return false;
  }
}

/** False for an existing file that no one may write (mode bits, which bind root too) or this user may not; true for a new one. */
function writable(path: string): boolean {
  try {
    const mode = statSync(path, { throwIfNoEntry: false })?.mode;
    if (mode === undefined) return true;
    if ((mode & 0o222) === 0) return false;
    accessSync(path, constants.W_OK);
    return true;
  } catch (error) {
    // Anything but a refusal to write (a path that cannot even be looked at): the write says why.
    const code = (error as NodeJS.ErrnoException).code;
    return code !== 'EACCES' && code !== 'EPERM';
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    return false; // Not even its entry can be looked at: the write below says why.
  }
}
