/** Finding the envelope fixtures of a workspace folder on disk (find-references, the workspace's diagnostics). */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { notAFileToRead, UnreadableFile } from './bounded-read';
import { NO_IGNORES, type IgnoreFilter } from './ignores';
import { linkToFileIn, realPath } from './path-containment';
import { TimeSlices } from './time-slices';

/** Never worth walking: dependencies and git internals hold no fixtures of ours and are huge. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules', '.git']);
/** The file name suffix a directory search picks up. */
export const ENVELOPE_SUFFIX = '.babel.json';
/**
 * The name a document with no file is judged under, at the top of a folder: a message read from a
 * queue (by `babelq peek` and `dlq` in the current folder, by the editor in its first workspace
 * folder) and an untitled envelope. A fixture's name, so an `overrides` glob such as
 * `*.babel.json` applies to it as to a fixture there, in the CLI and the editor alike. No file of
 * that name is read.
 */
export const STAND_IN_FIXTURE_NAME = `message${ENVELOPE_SUFFIX}`;

/** The most fixtures a walk of the server's finds in one folder (a huge tree cannot stall it). */
export const MAX_FIXTURES_FOUND = 20_000;

/** How a walk for fixtures goes; every field has a default. */
export interface FixtureWalk {
  /** The most fixtures returned (default MAX_FIXTURES_FOUND). */
  readonly limit?: number;
  /** What is left out (.gitignore and babelq.json's `ignore`, for the diagnostics); default none. */
  readonly ignores?: IgnoreFilter;
  /** When the walk yields to the event loop, and whether it is still wanted. */
  readonly slices?: TimeSlices;
  /** Told which of the fixtures found are symbolic links. */
  readonly links?: Set<string>;
  /** Told of each `*.babel.json` left out as no file to read (a named pipe, a device, a link to nothing), never opened. */
  readonly unreadable?: (problem: UnreadableFile) => void;
}

/**
 * Every `*.babel.json` below `root` (a symbolic link among them when it leads to a file inside
 * `root`, as `babelq lint` follows it), sorted, at most `walk.limit`: the first the walk finds
 * (each folder's own files, then its subfolders in name order), leaving out what `walk.ignores`
 * says. The walk yields to the event loop between folders once a slice is spent (a workspace
 * folder of `/` or a home folder takes seconds to walk, and the server answers meanwhile); once
 * `walk.slices` says the walk is no longer wanted, it ends with what it found so far.
 */
export async function findFixtureFiles(root: string, walk: FixtureWalk = {}): Promise<string[]> {
  const { limit = MAX_FIXTURES_FOUND, ignores = NO_IGNORES, slices = new TimeSlices(), links, unreadable } = walk;
  const found: string[] = [];
  // Links to files are followed as `babelq lint` follows them from the folder's top (cli/paths.ts).
  const linkRoots = [realPath(root)];
  const stack = [root];
  while (stack.length > 0 && found.length < limit) {
    if (!(await slices.pause())) break;
    const directory = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      continue; // An unreadable directory holds nothing we can show.
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? 1 : -1))) {
      // Between entries too, not only between folders: each entry is matched against the ignore
      // rules, and a folder of hundreds of fixtures under a costly .gitignore took seconds at once.
      if (!(await slices.pause())) break;
      const path = join(directory, entry.name);
      if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) {
        if (!ignores.skipDirectory(path)) stack.push(path);
      } else if (entry.name.endsWith(ENVELOPE_SUFFIX) && (entry.isFile() || (entry.isSymbolicLink() && linkToFileIn(linkRoots, path))) && !ignores.skipFile(path)) {
        found.push(path);
        if (entry.isSymbolicLink()) links?.add(path);
      } else if (unreadable && entry.name.endsWith(ENVELOPE_SUFFIX) && !entry.isFile()) {
        const problem = notAFileToRead(path, entry) ?? linkLeadingOut(path, entry);
        if (problem && !ignores.skipFile(path)) unreadable(problem);
      }
    }
  }
  return found.sort().slice(0, limit);
}

/** A symbolic link to a regular file the walk does not follow, since it leads out of the folder walked (linkToFileIn said no). */
function linkLeadingOut(path: string, entry: Dirent): UnreadableFile | undefined {
  if (!entry.isSymbolicLink()) return undefined;
  try {
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return undefined;
  } catch {
    return undefined;
  }
  return new UnreadableFile(path, 'is a symbolic link that leads out of the workspace folder; it was not read.', 'not-a-file');
}
