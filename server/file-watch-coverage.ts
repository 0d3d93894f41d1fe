/**
 * Which project files a client that sends file events reports the changes of, so the look at the
 * disk on a save or an open (server/project-file-stamps.ts) leaves those to its events: a look as
 * well would read a change twice, once at the save and once at its event.
 *
 * Clients watch differently. VS Code watches the workspace folders whole, folders made later
 * included. eglot 1.9 watches, one by one, the directories that held a project file when it took
 * the registration (the folders of `project-files`), and hears nothing in a directory made after
 * it, nor in one that held only folders then (a registry.json or schema file created in a new
 * folder, or in a `fixtures/` that holds only subfolders, is never reported). In a Git work tree
 * project.el lists the files git does not ignore (`git ls-files -c -o --exclude-standard`), so
 * eglot hears nothing either in a directory that held only ignored files, or that is ignored or
 * lies in an ignored folder (a schema a build regenerates in an ignored `generated/`). Neither
 * client says which it does, so the client is trusted with what both watch: a file under a
 * workspace folder, in a directory that existed when the watchers were registered and held then
 * a file that git does not ignore (known only for a directory whose entries have not changed
 * since; outside a work tree nothing is ignored), reached through no symbolic link, and neither
 * it nor a folder above it moved in or renamed since. A file in any other directory (made later: born
 * after the registration, or seen missing by a look or when a file in it was found not there;
 * holding no file then, or only ignored ones; changed, moved or renamed since; or behind a link) is looked at on each save and open; VS Code's event for it then finds the file as it was read and
 * reads nothing again (server.ts). On a file system that keeps no birth time, a directory counts
 * as made later only once it has been seen missing, and any file in it as there before.
 *
 * Ignored is as the `.gitignore` files and the top's exclude file say (workspace/gitignore.ts),
 * as in the walks. A tracked file they list is listed by git all the same, and counts here as
 * ignored: its directory is looked at, never missed. The global excludes file is not read, there as
 * in the walks: a directory whose files only it excludes is still left to the client.
 *
 * Until the registration is taken, nothing is left to the client.
 */
import { existsSync, opendirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { GitIgnores } from '../workspace/gitignore';
import { isUnder } from '../workspace/path-containment';

/**
 * How much earlier than the registration a directory's birth time may read and the directory still
 * count as made after it: a file system stamps times from a coarse clock, some milliseconds behind.
 */
const COARSE_CLOCK_MS = 20;

/**
 * The most entries of one directory read for a file git does not ignore; past them it counts as
 * holding none (it is looked at, one stat per save). Judged once per registration, on the event
 * loop: 10,000 ignored log files took 110 ms to judge, 1,000 about 20 ms.
 */
const MAX_ENTRIES_JUDGED = 1_000;

export class FileWatchCoverage {
  /** When the registration that was taken was sent (Date.now()); undefined while none is. */
  private registeredAt: number | undefined;
  /** Directories known to have been made after the registration, or not there yet (seen missing, or born later). */
  private readonly madeLater = new Set<string>();
  /**
   * Whether each directory asked about held a file at the registration: a fact of the past, worked
   * out once, and forgotten when the directory is deleted or found missing (foldersDeleted). Only a
   * directory there since the registration is asked about, so it keeps no more entries than such
   * directories.
   */
  private readonly heldAFile = new Map<string, boolean>();
  /** The folders of the `.gitignore` files too costly to apply (GitIgnores' `refused`; a work tree's top for its exclude file): what git ignores below them is not known. */
  private readonly unknownIgnores = new Set<string>();
  /**
   * The `.gitignore` rules the files of each directory are judged by, read anew for each
   * registration (as near it as the first look comes: the client listed its files then).
   */
  private ignores = this.newIgnores();
  /** Whether each folder asked about is ignored, or lies in an ignored folder. */
  private readonly inIgnoredFolder = new Map<string, boolean>();

  /** `folders`: the workspace folders, which the client's watchers cover at most. */
  constructor(private readonly folders: () => readonly string[]) {}

  /** How many directories what was held at the registration is kept for: for tests. */
  get heldAFileSize(): number {
    return this.heldAFile.size;
  }

  /**
   * Folders were deleted (told by their file events): what the directories at or below them held at
   * the registration is forgotten. A directory made there again is made after it, and is looked at
   * (its birth, change and modification times say so), so nothing kept of it could answer again;
   * kept, the entries of folders that come and go (branches switched, build outputs) would pile up.
   */
  foldersDeleted(paths: readonly string[]): void {
    if (paths.length === 0 || (this.heldAFile.size === 0 && this.inIgnoredFolder.size === 0)) return;
    const gone = new Set(paths.map((path) => resolve(path)));
    const isGone = (directory: string): boolean => {
      for (let at = resolve(directory); ; at = dirname(at)) {
        if (gone.has(at)) return true;
        if (dirname(at) === at) return false;
      }
    };
    for (const directory of this.heldAFile.keys()) if (isGone(directory)) this.heldAFile.delete(directory);
    for (const directory of this.inIgnoredFolder.keys()) if (isGone(directory)) this.inIgnoredFolder.delete(directory);
  }

  /** The client took the registration of the watchers sent at `sentAt`. */
  registered(sentAt: number): void {
    this.registeredAt = sentAt;
    this.heldAFile.clear();
    this.ignores = this.newIgnores();
    this.unknownIgnores.clear();
    this.inIgnoredFolder.clear();
  }

  /** Rules whose refused files are only noted: the walk of the workspace tells the user of them. */
  private newIgnores(): GitIgnores {
    // An exclude file not applied leaves unknown what is ignored in the whole work tree, from its top.
    return new GitIgnores(undefined, undefined, (_path, _reason, appliesBelow) => this.unknownIgnores.add(resolve(appliesBelow)));
  }

  /**
   * A project file was found not to be there (server/project-file-stamps.ts): when its directory is
   * not there either, one made there from now on is made after the registration, whatever the file
   * system says of births. (Seen so before the registration is taken, the directory may yet be made
   * before it: then it is looked at needlessly, never missed.)
   */
  noneThere(path: string): void {
    const directory = dirname(path);
    if (!this.madeLater.has(directory) && !existsSync(directory)) {
      this.madeLater.add(directory);
      this.heldAFile.delete(directory);
    }
  }

  /**
   * A test for one look at the disk: true for a path whose changes the client's events report.
   * Each directory is looked at once per look (a registry's schema files share a few).
   */
  forOneLook(): (path: string) => boolean {
    const registeredAt = this.registeredAt;
    if (registeredAt === undefined) return () => false;
    const watched = new Map<string, boolean>();
    const folders = this.folders();
    const realFolders = new Map<string, string | undefined>();
    return (path) => {
      const directory = dirname(path);
      let covered = watched.get(directory);
      if (covered === undefined) {
        const folder = folders.find((candidate) => isUnder(candidate, directory));
        // Outside every workspace folder (or with none: an editor started on a file), no watcher reaches.
        if (folder === undefined) covered = false;
        else {
          const existed = !this.madeLater.has(directory) && this.existedAt(directory, registeredAt);
          if (!existed) {
            this.madeLater.add(directory);
            // Not there, or made again since: what was there at the registration says nothing of it.
            this.heldAFile.delete(directory);
          }
          if (!realFolders.has(folder)) realFolders.set(folder, realPathOf(folder));
          covered = existed && inPlaceSince(directory, folder, realFolders.get(folder), registeredAt) && this.heldAFileAt(directory, registeredAt);
        }
        watched.set(directory, covered);
      }
      return covered;
    };
  }

  /**
   * Whether `directory` held a file (not a folder) that git does not ignore at `registeredAt`.
   * A directory whose entries have not changed since (its modification time is older) holds now
   * what it held then; one changed since cannot tell (a file moved in keeps its own times), and
   * counts as holding none: it is looked at, never missed. Inside a Git work tree, a file the
   * `.gitignore` files ignore does not count (eglot lists the files project.el lists, which leaves
   * out ignored ones), nor does any file of a directory that is ignored or lies in an ignored
   * folder, nor of one below a `.gitignore` too costly to apply (what git ignores there is not
   * known). Its entries are read until the first file that counts, each judged as it is read,
   * and no further than MAX_ENTRIES_JUDGED.
   */
  private heldAFileAt(directory: string, registeredAt: number): boolean {
    let held = this.heldAFile.get(directory);
    if (held === undefined) {
      held = false;
      try {
        const stat = statSync(directory, { throwIfNoEntry: false });
        if (stat !== undefined && stat.mtimeMs < registeredAt - COARSE_CLOCK_MS && !this.isInIgnoredFolder(directory)) {
          const entries = opendirSync(directory);
          try {
            let judged = 0;
            for (let entry = entries.readSync(); entry !== null && !held && judged < MAX_ENTRIES_JUDGED; entry = entries.readSync(), judged++) {
              held = !entry.isDirectory() && !this.ignores.isIgnored(join(directory, entry.name), false);
            }
          } finally {
            entries.closeSync();
          }
          // The rules that decided were read by now (those of the folders from the work tree's top down to this one).
          if (held && this.belowUnknownIgnores(directory)) held = false;
        }
      } catch {
        // Not readable: no client's watcher reads it either.
      }
      this.heldAFile.set(directory, held);
    }
    return held;
  }

  /**
   * Whether `directory` or a folder above it, up to the top of its work tree, is ignored (git lists
   * nothing in an ignored folder); false outside a work tree. What a work tree around that one
   * ignores (a home folder kept in Git) does not count: git lists the inner one's files by its own rules.
   */
  private isInIgnoredFolder(directory: string): boolean {
    let ignored = this.inIgnoredFolder.get(directory);
    if (ignored === undefined) {
      const parent = dirname(directory);
      ignored = !this.ignores.isWorkTreeTop(directory) && (this.ignores.isIgnored(directory, true) || (parent !== directory && this.isInIgnoredFolder(parent)));
      this.inIgnoredFolder.set(directory, ignored);
    }
    return ignored;
  }

  /** Whether a `.gitignore` not applied lies in `directory` or a folder above it. */
  private belowUnknownIgnores(directory: string): boolean {
    const absolute = resolve(directory);
    for (const folder of this.unknownIgnores) if (isUnder(folder, absolute)) return true;
    return false;
  }

  /** Whether `directory` is there and was there at `registeredAt`, as far as its birth time tells. */
  private existedAt(directory: string, registeredAt: number): boolean {
    try {
      const stat = statSync(directory, { throwIfNoEntry: false });
      if (stat === undefined) return false;
      // No birth time (a file system that keeps none): 0, and nothing is known against it.
      return !(stat.birthtimeMs > 0 && stat.birthtimeMs > registeredAt - COARSE_CLOCK_MS);
    } catch {
      return false;
    }
  }
}

/**
 * Whether `directory` is, as the watchers reach it, where it was when they were registered: no
 * folder on its way down from the workspace folder is a symbolic link (VS Code's watcher follows
 * none, and eglot lists the files of a link's folder under no folder it watches), and none of them
 * was moved in, renamed or changed since (its change time is older: a folder moved in keeps its
 * birth and modification times, and so do the folders inside it). Asked at each look, not kept: a
 * folder moved in later may take the place of one judged before.
 */
function inPlaceSince(directory: string, folder: string, realFolder: string | undefined, registeredAt: number): boolean {
  if (realFolder === undefined || realPathOf(directory) !== join(realFolder, relative(folder, directory))) return false;
  // Down to the folder as its path is written (an editor may end it with a separator).
  const top = resolve(folder);
  for (let at = resolve(directory); at !== top; at = dirname(at)) {
    try {
      const stat = statSync(at, { throwIfNoEntry: false });
      if (stat === undefined || stat.ctimeMs >= registeredAt - COARSE_CLOCK_MS) return false;
    } catch {
      return false;
    }
    if (dirname(at) === at) return false;
  }
  return true;
}

/** The real path of a folder; undefined when it cannot be looked at. */
function realPathOf(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}
