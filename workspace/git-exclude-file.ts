/**
 * Where git reads a work tree's `info/exclude`. Where `.git` is a folder, it is `.git/info/exclude`.
 * Where `.git` is a file (a linked worktree, a submodule), the file says `gitdir: <path>` (relative
 * to the folder holding it); a linked worktree's git directory (`main/.git/worktrees/<name>`) holds
 * a `commondir` file (relative to the git directory, `../..`), and git reads `info/exclude` from that
 * common directory, never from the worktree's own; a submodule's (`super/.git/modules/<name>`) has
 * no `commondir` and its own `info/exclude`.
 *
 * The pointers come from the checkout, which may be hostile (a folder opened in Restricted Mode):
 * each is read as the exclude file is, bounded and only when it is a regular file, opened without
 * blocking, so a `.git` file naming a named pipe, `/dev/zero` or a file of gigabytes costs a few
 * system calls (git itself waits forever on a `commondir` that is a named pipe). A `.git` file or
 * `commondir` that is missing, malformed, unreadable or too large means no exclude file, without a
 * word: git refuses to work in such a checkout at all ("invalid gitfile format", "not a git
 * repository"), so it ignores nothing by that file either.
 *
 * The exclude file found may lie outside the workspace folder (a worktree's common directory is the
 * main checkout's `.git`). It is read all the same, as git reads it: it is git's own file, not part
 * of the fixtures, read bounded and only as a regular file, and what it says only narrows which
 * fixtures a walk visits.
 */
import { statSync, type Stats } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { readBoundedText, UnreadableFile } from './bounded-read';
import { PROJECT_MARKER } from './project-root';

/** The most a `.git` file or `commondir` may hold to be read: git refuses a `.git` file above 1 MiB ("too large to be a .git file"). */
const MAX_POINTER_BYTES = 1024 * 1024;
const GITDIR_PREFIX = 'gitdir: ';

/** The `info/exclude` git reads for the work tree whose top is `top` (it holds `.git`); undefined when there is none to read. */
export function gitExcludeFileOf(top: string): string | undefined {
  const commonDir = gitCommonDirOf(top);
  return commonDir === undefined ? undefined : join(commonDir, 'info', 'exclude');
}

/**
 * The git directory that holds the shared files (`info/exclude`, `config`) of the work tree whose
 * top is `top`: its `.git` folder, or the common directory its `.git` file leads to; undefined
 * when there is none to read.
 */
export function gitCommonDirOf(top: string): string | undefined {
  const dotGit = join(top, PROJECT_MARKER);
  const kind = statOf(dotGit);
  if (kind === undefined) return undefined;
  if (kind.isDirectory()) return dotGit;
  // A named pipe, a socket or a device named `.git` is no pointer (git passes over one too).
  if (!kind.isFile()) return undefined;
  const gitDir = pointedTo(dotGit, top, (text) => (text.startsWith(GITDIR_PREFIX) ? text.slice(GITDIR_PREFIX.length) : undefined));
  if (gitDir === undefined) return undefined;
  const commonDirFile = join(gitDir, 'commondir');
  // No commondir (a submodule's git directory): the git directory is its own common directory.
  return statOf(commonDirFile) === undefined ? gitDir : pointedTo(commonDirFile, gitDir, (text) => text);
}

/**
 * The path a pointer file names, as git reads it: the text up to its trailing line ends, after
 * what `pathOf` takes away, relative to `base`. Undefined when it is not read (not a regular
 * file, above the bound, unreadable, gone meanwhile) or names nothing.
 */
function pointedTo(file: string, base: string, pathOf: (text: string) => string | undefined): string | undefined {
  let text: string;
  try {
    text = readBoundedText(file, MAX_POINTER_BYTES);
  } catch (error) {
    if (error instanceof UnreadableFile) return undefined;
    throw error;
  }
  // git reads the text as a C string (a NUL ends it) and strips only line ends from its end, no other space.
  const path = pathOf(text.split('\0', 1)[0].replace(/[\r\n]+$/, ''));
  if (path === undefined || path === '') return undefined;
  return isAbsolute(path) ? resolve(path) : resolve(base, path);
}

/** What `path` is (followed through links, not opened); undefined when there is nothing to look at (missing, below a file, not allowed). */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
