/**
 * The files of `babelq compat --base REF` as they are at that revision, read from this clone only
 * (workspace/git-command.ts: no lazy fetch, no transport). The base's tree (each folder listed
 * once) says whether the file was there at all: a file new since the base is nothing to compare
 * with. A file that was there but cannot be read is an error, never "no break": in a partial clone
 * (`git clone --filter`) its content is on the remote only, and saying so tells the user how to get it.
 */
import { posix, relative } from 'node:path';
import { runGitSync, type GitRunOptions } from '../workspace/git-command';
import { leavesRoot } from '../workspace/path-containment';
import { CliError } from './errors';

export class BaseFiles {
  private readonly folders = new Map<string, ReadonlyMap<string, TreeEntry> | undefined>();

  constructor(
    /** The work tree's top folder. */
    private readonly repository: string,
    /** The revision as the user gave it, for messages. */
    private readonly ref: string,
    /** The commit it names. */
    private readonly commit: string,
    private readonly options: GitRunOptions,
  ) {}

  /**
   * The text of `path` at the base, or undefined when the base has no file there (nor any outside
   * the work tree). Throws a CliError when the base has the file and this clone cannot read it.
   * `shownAs` names it in that error.
   */
  textOf(path: string, shownAs: string): string | undefined {
    const inRepository = relative(this.repository, path);
    // Outside the work tree (a registry beside the repository): the base holds no such file.
    if (inRepository === '' || leavesRoot(inRepository)) return undefined;
    const name = inRepository.split('\\').join('/');
    const folder = posix.dirname(name);
    const listing = this.folderAtBase(folder === '.' ? '' : `${folder}/`);
    if (listing === undefined) throw this.unreadable(shownAs);
    const entry = listing.get(name);
    if (entry === undefined) return undefined;
    // A folder or a submodule where the schema is now: no schema there at the base to break.
    if (entry.type !== 'blob') return undefined;
    const text = this.git(['cat-file', 'blob', entry.object], this.options.maxBytes);
    if (text === undefined) throw this.unreadable(shownAs);
    return text;
  }

  /** A folder's entries at the base by path (its path ends in '/', '' for the top), listed once: a registry's schemas share a few folders. */
  private folderAtBase(folder: string): ReadonlyMap<string, TreeEntry> | undefined {
    if (this.folders.has(folder)) return this.folders.get(folder);
    const listing = this.git(['ls-tree', '-z', this.commit, ...(folder ? ['--', folder] : [])], this.options.maxBytes);
    const entries = listing === undefined ? undefined : new Map(listing.split('\0').map(parseEntry).filter((entry) => entry !== undefined).map((entry) => [entry.path, entry]));
    this.folders.set(folder, entries);
    return entries;
  }

  private git(args: readonly string[], maxBytes: number): string | undefined {
    return runGitSync(this.repository, args, { ...this.options, maxBytes });
  }

  /** Why the base's file could not be read, and what to do: a partial clone's remote holds it. */
  private unreadable(shownAs: string): CliError {
    const remote = this.promisorRemote();
    if (remote === undefined) return new CliError(`git could not read '${shownAs}' as it is at '${this.ref}' (too large, too slow, or a damaged repository)`);
    return new CliError(
      `'${shownAs}' as it is at '${this.ref}' is not in this clone: it is a partial clone (git clone --filter), whose remote '${remote}' holds the file, ` +
        `and babelq compat fetches nothing. Fetch the base's files first (git fetch --refetch --no-filter ${remote}, or clone without --filter), then run it again.`,
    );
  }

  /** The remote a partial clone fetches its missing objects from, or undefined in a complete clone. */
  private promisorRemote(): string | undefined {
    const named = this.git(['config', '--get', 'extensions.partialClone'], 4096)?.trim();
    if (named) return named;
    const flagged = this.git(['config', '--type=bool', '--get-regexp', '^remote\\..*\\.promisor$'], 64 * 1024) ?? '';
    const line = flagged.split('\n').find((candidate) => candidate.endsWith(' true'));
    return line?.replace(/^remote\.(.*)\.promisor true$/, '$1');
  }
}

interface TreeEntry {
  readonly type: string;
  readonly object: string;
  readonly path: string;
}

/** One `git ls-tree -z` record: `<mode> SP <type> SP <object> TAB <path>`. */
function parseEntry(record: string): TreeEntry | undefined {
  const match = /^\d+ (\w+) ([0-9a-f]+)\t(.*)$/s.exec(record);
  return match ? { type: match[1]!, object: match[2]!, path: match[3]! } : undefined;
}
