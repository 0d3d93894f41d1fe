/**
 * A file's stamp, for a client that sends no file events: what tells, at the next look, that a
 * file the server read from disk is no longer what it read. Shared by the project files
 * (server/project-file-stamps.ts) and the workspace report's fixtures
 * (server/workspace-diagnostics.ts).
 *
 * A stamp is the file's size, modification time, change time and inode: a file replaced by another
 * (a checkout writes a new file and renames it over the old one) has another inode even when its
 * size and time are the same, and one whose permissions or owner changed (`chmod 000`, `chown`) has
 * another change time though its bytes are the same: what was made of it when it could be read
 * (a registry.json passed over as no registry) must not outlive its becoming unreadable. A file system keeps times in ticks, so a file written again within a tick of
 * its last write, at the same size, keeps its stamp: for a file read that shortly after its
 * modification time, a digest of what was read is kept (a `ReadMark`), and the next look reads it
 * again to tell. Once read outside that tick, its stamp alone tells.
 */
import { createHash } from 'node:crypto';
import { statSync, type Stats } from 'node:fs';

/** The stamp of a path where nothing is (or nothing can be looked at): its appearance is a change. */
export const MISSING = 'missing';

/**
 * How long after a write another write may leave the same modification time: a file system keeps
 * times in ticks (some milliseconds on ext4, which reads a coarse clock; two seconds on FAT).
 */
const TICK_MS = 2000;

/** What was read of a file within a tick of its modification time: the bound it was read with and a digest of it. */
export interface ReadMark {
  readonly limit: number;
  readonly digest: string;
}

/** How a file is read again to compare it with its mark: as it was read the first time (text or bytes), bounded, `onStat` told the descriptor's stat. */
export type ReadAgain = (path: string, limit: number, onStat: (stat: Stats) => void) => string | Uint8Array;

/** A file's stamp from a stat (of its descriptor, or of its path). */
export function stampOf(stat: Stats): string {
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
}

/** The stamp of what is at `path` now, following links; MISSING when nothing is (or it cannot be looked at). */
export function lookAt(path: string): string {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat ? stampOf(stat) : MISSING;
  } catch {
    return MISSING;
  }
}

/**
 * The mark to keep for what was just read (`read`, with the bound `limit`) of a file whose
 * descriptor gave `stat`: undefined when it was written so long before now that a write now would
 * change its time, and the stamp alone tells.
 */
export function markOf(stat: Stats, limit: number, read: string | Uint8Array): ReadMark | undefined {
  return withinTick(stat) ? { limit, digest: digestOf(read) } : undefined;
}

/**
 * Whether the file at `path` still holds what `mark` says was read, read again through `readAgain`:
 * the stat of the descriptor it was read through when it does (its stamp, and whether a mark is
 * still needed, go by that), undefined when it does not or cannot be read.
 */
export function readsAsMarked(path: string, mark: ReadMark, readAgain: ReadAgain): Stats | undefined {
  let stat: Stats | undefined;
  let read: string | Uint8Array;
  try {
    read = readAgain(path, mark.limit, (opened) => (stat = opened));
  } catch {
    return undefined;
  }
  return stat && digestOf(read) === mark.digest ? stat : undefined;
}

/** True when the file was written so shortly before now that a write now could leave the same time. */
export function withinTick(stat: Stats): boolean {
  return Date.now() - stat.mtimeMs < TICK_MS;
}

function digestOf(read: string | Uint8Array): string {
  return createHash('sha256').update(read).digest('base64');
}
