/**
 * What the project files the server read from disk looked like when it read them, for a client
 * that sends no file events (Neovim 0.7): registry.json and the schema files it names, babelq.json
 * and the suppressions file, and the places where one of these was looked for and not found (a
 * registry.json or babelq.json a checkout creates there changes what the fixtures find). The
 * server asks `changed()` when such an editor saves or opens a document and treats what changed as
 * a file event would have named it: read again, and the fixtures it affects reported again.
 *
 * A stamp is the file's size, modification time and inode, taken from the descriptor the file was
 * read through (no second look) or, for a place looked at, from the look itself, and recorded
 * before the text is used: a file written after the read shows as changed at the next look. A file
 * that an open editor holds is the editor's (its edits and closing are heard): no stamp is kept for
 * it, and none is looked at while it is open. Looking costs one stat per recorded path, none for
 * the fixtures (the walk of the folders looks at those).
 *
 * Off for a client that sends file events (VS Code): the events name every change, and the same
 * change read again at the next save would be a second reload. Off, this reads as the disk does.
 */
import { existsSync, statSync, type Stats } from 'node:fs';
import { readBoundedText, UnreadableFile } from '../workspace/bounded-read';
import type { TextReader } from '../workspace/registry-loader';
import { NOT_CANCELLED, TimeSlices } from '../workspace/time-slices';

/** A path that is not there (or cannot be looked at) is stamped so: its appearance is a change. */
const MISSING = 'missing';

export class ProjectFileStamps {
  /** Whether stamps are kept (the client sends no file events). */
  private on = false;
  private readonly stamps = new Map<string, string>();

  /** Keeps stamps from now on, or drops them and keeps none (the client sends file events). */
  setEnabled(enabled: boolean): void {
    this.on = enabled;
    if (!enabled) this.stamps.clear();
  }

  /** Reads a file from disk, bounded (workspace/bounded-read.ts), its stamp recorded from the descriptor read. */
  readonly read: TextReader = (path, limit) => {
    if (!this.on) return readBoundedText(path, limit);
    let stamped = false;
    try {
      return readBoundedText(path, limit, (stat) => {
        stamped = true;
        this.stamps.set(path, stampOf(stat));
      });
    } catch (error) {
      // Not opened (missing, no permission): what a look says now. A file refused once opened (a
      // named pipe, too large) was stamped by the descriptor.
      if (!stamped) this.stamps.set(path, error instanceof UnreadableFile && error.reason === 'missing' ? MISSING : lookAt(path));
      throw error;
    }
  };

  /** Whether a file is there, its stamp (or its absence) recorded. */
  exists(path: string): boolean {
    if (!this.on) return existsSync(path);
    const stamp = lookAt(path);
    this.stamps.set(path, stamp);
    return stamp !== MISSING;
  }

  /** A place looked at for a file (a registry.json candidate): its stamp, or its absence, recorded. */
  looked(path: string): void {
    if (this.on) this.stamps.set(path, lookAt(path));
  }

  /** An open editor's text was used for `path`: the editor answers for it, not the disk. */
  servedFromEditor(path: string): void {
    this.stamps.delete(path);
  }

  /**
   * The recorded paths whose file changed since it was read or looked at (created, changed,
   * deleted), each recorded anew, so a change is told once; `open` paths are skipped (their editor
   * answers for them). In time slices: a registry of 20,000 schema files is 20,000 looks (some
   * 60 ms), with requests answered meanwhile.
   */
  async changed(open: ReadonlySet<string>): Promise<string[]> {
    const changed: string[] = [];
    const slices = new TimeSlices(NOT_CANCELLED, true);
    for (const [path, stamp] of this.stamps) {
      await slices.pause();
      if (open.has(path)) continue;
      const now = lookAt(path);
      if (now === stamp) continue;
      this.stamps.set(path, now);
      changed.push(path);
    }
    return changed;
  }

  /** How many paths are looked at by `changed()`. */
  get size(): number {
    return this.stamps.size;
  }
}

function stampOf(stat: Stats): string {
  return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
}

/** The stamp of what is at `path` now, following links; MISSING when nothing is (or it cannot be looked at). */
function lookAt(path: string): string {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat ? stampOf(stat) : MISSING;
  } catch {
    return MISSING;
  }
}
