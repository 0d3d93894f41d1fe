/**
 * The root of a file opened with no workspace folder (an editor started on one file, without a
 * root URI): the nearest folder at or above the file that holds `.git`, else the file's own
 * folder. The registry is then looked for inside that root and never above it, as it is inside a
 * workspace folder.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The marker of a project's top folder: a Git work tree (`.git` is a folder, or a file in a worktree). */
export const PROJECT_MARKER = '.git';

/** How many folders the walk up looks at before it gives up (no real project is deeper). */
const MAX_LEVELS = 64;

export function projectRootOf(filePath: string, exists: (path: string) => boolean = existsSync): string {
  const own = dirname(resolve(filePath));
  let directory = own;
  for (let level = 0; level < MAX_LEVELS; level++) {
    if (exists(resolve(directory, PROJECT_MARKER))) return directory;
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return own;
}
