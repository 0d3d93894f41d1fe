/**
 * What the project files the server read from disk looked like when it read them, for a client
 * that sends no file events (Neovim 0.7), or none for some of them (eglot 1.9): registry.json and
 * the schema files it names, babelq.json and the suppressions file, and the places where one of
 * these was looked for and not found (a registry.json or babelq.json a checkout creates there
 * changes what the fixtures find). The server asks `changed()` when such an editor saves or opens a
 * document and treats what changed as a file event would have named it: read again, and the
 * fixtures it affects reported again.
 *
 * A stamp (server/file-stamps.ts) is taken from the descriptor the file was read through (no
 * second look) or, for a place looked at, from the look itself, and recorded before the text is
 * used: a file written after the read shows as changed at the next look. A file read within a tick
 * of its modification time may be written again, at the same size, without its time changing:
 * what was read is kept as a digest, and the next look reads it again to tell. The text of a file an open editor holds is the editor's (its edits and closing are
 * heard), but whether it is on disk is not: a registry.json or babelq.json is found on disk, and
 * a buffer opened where there was none is created by its save. So for such a file only whether it
 * is there is looked at while it is open. Looking costs one stat per recorded path (one per
 * directory for the paths a client's events report, which are left to them), none for the fixtures
 * (the walk of the folders looks at those), and one read for a file read within a tick of its last
 * write. Only the paths the server still depends on are kept (`keepOnly`).
 *
 * Kept for every client: one that declares file events may refuse their registration or never
 * answer it, and eglot 1.9 hears nothing in a folder made after it registered. For a client whose
 * events do report a file, the look leaves it out (`changed`'s `leftToClient`), and an event for a
 * file a look already took in reads nothing again (`asRead`): the same change is never read twice.
 * Off (as a RegistryService made without stamps has it), this reads as the disk does.
 */
import { existsSync, type Stats } from 'node:fs';
import { readBoundedText, UnreadableFile } from '../workspace/bounded-read';
import type { TextReader } from '../workspace/registry-loader';
import { NOT_CANCELLED, TimeSlices } from '../workspace/time-slices';
import { lookAt, markOf, MISSING, readsAsMarked, stampOf, withinTick, type ReadMark } from './file-stamps';

/** A file seen there and gone when it was read: a change at the next look, whatever is there then. */
const VANISHED = 'vanished';
/** A file an open editor's text stood for, there on disk: only its deletion is a change while it is open. */
const HELD = 'held';

export class ProjectFileStamps {
  /** Whether stamps are kept. */
  private on = false;
  private readonly stamps = new Map<string, Stamp>();

  /**
   * `noneThere` is told each path recorded as not there (its folder may not be there either: one
   * made later is one a client's watchers may not reach, server/file-watch-coverage.ts).
   */
  constructor(private readonly noneThere: (path: string) => void = () => undefined) {}

  /**
   * Records what `path` is now. `by`: a look of `changed()` (or its reading again within a tick),
   * which tells the change itself, or a use (a read, a search's look), which does not: a use that
   * finds the file other than its stamp says took in a change nobody was told of (another folder's
   * search read a registry.json rewritten since the loaded registry read it), so the next look
   * tells it, though the file is as the stamp now says. `rewritten`: a use read other text than the
   * stamp's read at the same stamp (written again within its tick), a change the stamp alone hides.
   */
  private record(path: string, given: Stamp, by: 'look' | 'use' = 'use', rewritten = false): void {
    const before = this.stamps.get(path);
    // A use that finds the file at the stamp a read within its tick left, and reads nothing of its
    // own to mark (a search's look, which keeps what it made of the file; a read past the tick),
    // keeps that read's mark: the stamp alone cannot tell a write within that tick, so the next
    // look reads the file again to (dropped, such a write went untold for good).
    const stamp = by === 'use' && given.read === undefined && before?.read !== undefined && before.stat === given.stat ? { ...given, read: before.read } : given;
    // What a look took in stays taken in while the file is read again as the look found it (the
    // reload its change set off); any other stamp is not, whoever recorded it.
    const stillTakenIn = before?.takenIn === true && stamp.takenIn !== true && before.stat === stamp.stat && (before.read === undefined || before.read.digest === stamp.read?.digest);
    // Whether an editor holds the file is no change of it on disk (see `changed`).
    const unseen = by === 'use' && before !== undefined && (rewritten || (before.stat !== stamp.stat && before.stat !== HELD && stamp.stat !== HELD));
    const untold = stamp.takenIn !== true && (before?.untold === true || unseen);
    this.stamps.set(path, { ...stamp, ...(stillTakenIn ? { takenIn: true } : {}), ...(untold ? { untold: true } : {}) });
    if (stamp.stat === MISSING || stamp.stat === VANISHED) this.noneThere(path);
  }

  /** Keeps stamps from now on, or drops them and keeps none (the client sends file events). */
  setEnabled(enabled: boolean): void {
    this.on = enabled;
    if (!enabled) this.stamps.clear();
  }

  /** Reads a file from disk, bounded (workspace/bounded-read.ts), its stamp recorded from the descriptor read. */
  readonly read: TextReader = (path, limit) => {
    if (!this.on) return readBoundedText(path, limit);
    const seen = this.stamps.get(path);
    let stat: Stats | undefined;
    let text: string;
    try {
      text = readBoundedText(path, limit, (opened) => {
        stat = opened;
        this.record(path, { stat: stampOf(opened) });
      });
    } catch (error) {
      // Not opened (missing, no permission): what a look says now. A file refused once opened (a
      // named pipe, too large) was stamped by the descriptor. One seen there before and gone now
      // (deleted between a look and this read) is stamped as neither: the caller's state was
      // worked out from both, so the next look tells it as a change, and it is worked out again.
      if (!stat) {
        const missing = error instanceof UnreadableFile && error.reason === 'missing';
        const vanished = missing && seen !== undefined && seen.stat !== MISSING;
        this.record(path, { stat: vanished ? VANISHED : missing ? MISSING : lookAt(path) });
      }
      throw error;
    }
    // Written within a tick of its time, it may be written again with the same size and time:
    // what was read is kept (as a digest) to tell such a write at the next look.
    const mark = stat && markOf(stat, limit, text);
    if (stat && mark) {
      const now = stampOf(stat);
      // The same stamp as the read before, other text: the next look, reading what this read, would see none.
      const rewritten = seen?.read !== undefined && seen.stat === now && seen.read.limit === mark.limit && seen.read.digest !== mark.digest;
      this.record(path, { stat: now, read: mark }, 'use', rewritten);
    }
    return text;
  };

  /** Whether a file is there, its stamp (or its absence) recorded. */
  exists(path: string): boolean {
    if (!this.on) return existsSync(path);
    const stamp = lookAt(path);
    this.record(path, { stat: stamp });
    return stamp !== MISSING;
  }

  /** A place looked at for a file (a registry.json candidate): its stamp, or its absence, recorded. */
  looked(path: string): void {
    if (this.on) this.record(path, { stat: lookAt(path) });
  }

  /**
   * A reader that takes an open editor's text for a path (`overlay`, undefined when none holds it)
   * and reads the rest from disk through `read`, so the stamps know which files the editor answers for.
   */
  over(overlay: (path: string) => string | undefined): TextReader {
    return (path, limit) => {
      const open = overlay(path);
      if (open === undefined) return this.read(path, limit);
      this.servedFromEditor(path);
      return open;
    };
  }

  /** An open editor's text was used for `path`: the editor answers for its text; whether it is on disk is recorded. */
  servedFromEditor(path: string): void {
    if (this.on) this.record(path, { stat: lookAt(path) === MISSING ? MISSING : HELD });
  }

  /**
   * The recorded paths whose file changed since it was read or looked at (created, changed,
   * deleted), each recorded anew, so a change is told once; of `open` paths (their editor answers
   * for their text) only a file created or deleted on disk is told; paths `leftToClient` (its file
   * events report them: server/file-watch-coverage.ts) are not looked at. In time slices: a
   * registry of 20,000 schema files is 20,000 looks (some 60 ms), with requests answered meanwhile.
   */
  async changed(open: { has(path: string): boolean }, leftToClient: (path: string) => boolean = () => false): Promise<string[]> {
    const changed: string[] = [];
    const slices = new TimeSlices(NOT_CANCELLED, true);
    for (const path of this.stamps.keys()) {
      await slices.pause();
      // Taken after the pause: a file event heard meanwhile may have dropped the stamp (and the
      // read it set off recorded another), and a change told by the event is not told again.
      const stamp = this.stamps.get(path);
      if (stamp === undefined || leftToClient(path)) continue;
      const now = lookAt(path);
      if (stamp.untold === true) {
        this.record(path, { stat: now, takenIn: true }, 'look');
        changed.push(path);
        continue;
      }
      const held = open.has(path);
      if (held || stamp.stat === HELD) {
        if ((now === MISSING) === (stamp.stat === MISSING)) {
          // Closed since, without its text read from disk again (the close re-reads every file that
          // is read): from now on its stamp tells.
          if (!held) this.record(path, { stat: now }, 'look');
          continue;
        }
      } else if (now === stamp.stat && (stamp.read === undefined || this.readAsBefore(path, stamp.read))) continue;
      this.record(path, { stat: now, takenIn: true }, 'look');
      changed.push(path);
    }
    return changed;
  }

  /**
   * True when a look (`changed`) told the change of the file at `path` and the file is still as
   * that look found it (its stamp matches, or it was not there and still is not): a file event for
   * it names nothing the server has not taken in already (what depended on it was read again). A
   * file read within a tick of its time is read again to tell (see `read`). False for a path with
   * no stamp, one an editor holds, and one whose stamp a read recorded: a read made for one thing
   * (a registry search from another folder, another registry naming the same schema) says nothing
   * of what others hold, read before the change, that its event must reach.
   */
  asRead(path: string): boolean {
    const stamp = this.stamps.get(path);
    if (stamp === undefined || stamp.takenIn !== true || stamp.stat === HELD || stamp.stat === VANISHED) return false;
    if (lookAt(path) !== stamp.stat) return false;
    return stamp.read === undefined || this.readAsBefore(path, stamp.read);
  }

  /**
   * A file event named `path`, and the server acts on it: the event tells the change, so what was
   * recorded of the path before it is dropped, and the read the change sets off records it afresh
   * (kept, its new stamp would read as a change no look told, and be told once more).
   */
  toldByEvent(path: string): void {
    this.stamps.delete(path);
  }

  /**
   * Whether a file read within a tick of its time still holds what was read (its size and time
   * tell nothing): read again to know. Once read outside that tick, its stamp alone tells.
   */
  private readAsBefore(path: string, before: ReadMark): boolean {
    const stat = readsAsMarked(path, before, readBoundedText);
    if (!stat) return false;
    this.record(path, withinTick(stat) ? { stat: stampOf(stat), read: before } : { stat: stampOf(stat) }, 'look');
    return true;
  }

  /**
   * Drops the stamps of paths not in `inUse` (what the server's registries and configs were
   * worked out from): a file nothing read any longer depends on is not looked at again, and a
   * change to it is no change. Read again later, it is stamped again.
   */
  keepOnly(inUse: Iterable<string>): void {
    const kept = new Set(inUse);
    for (const path of this.stamps.keys()) if (!kept.has(path)) this.stamps.delete(path);
  }

  /** The paths `changed()` looks at. */
  paths(): string[] {
    return [...this.stamps.keys()];
  }

  /** How many paths are looked at by `changed()`. */
  get size(): number {
    return this.stamps.size;
  }
}

/** A path's stamp, and for a file read within a tick of its time, what was read (see `read`). */
interface Stamp {
  readonly stat: string;
  readonly read?: ReadMark;
  /** Recorded by a look that told this change (see `asRead`). */
  readonly takenIn?: true;
  /** A use found the file changed since its stamp: the next look tells it (see `record`). */
  readonly untold?: true;
}
