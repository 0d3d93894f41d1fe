/**
 * The root of a file opened with no workspace folder and no root URI (an editor started on one
 * file): the nearest folder at or above the file that holds `.git`; without one, the nearest that
 * holds `babelq.json`; without one, the nearest that holds `registry.json`; else the file's own
 * folder. The registry and babelq.json are then looked for inside that root and never above it,
 * as inside a workspace folder.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { PROJECT_CONFIG_FILE } from '../core/rules/settings/project-config';
import { REGISTRY_FILE_NAME } from './registry-loader';

/** The marker of a project's top folder: a Git work tree (`.git` is a folder, or a file in a worktree). */
export const PROJECT_MARKER = '.git';

/** What marks a root when no workspace folder says it, strongest first: the nearest of the first one found wins. */
export const ROOT_MARKERS: readonly string[] = [PROJECT_MARKER, PROJECT_CONFIG_FILE, REGISTRY_FILE_NAME];

/** How many folders the walk up looks at before it gives up (no real project is deeper). */
const MAX_LEVELS = 64;

export function projectRootOf(filePath: string, exists: (path: string) => boolean = existsSync): string {
  const own = dirname(resolve(filePath));
  /** The nearest folder holding each marker, by the marker's rank. */
  const nearest: (string | undefined)[] = [];
  let directory = own;
  for (let level = 0; level < MAX_LEVELS; level++) {
    for (const [rank, marker] of ROOT_MARKERS.entries()) {
      if (nearest[rank] === undefined && exists(resolve(directory, marker))) nearest[rank] = directory;
    }
    // Nothing found further up can beat the strongest marker.
    if (nearest[0] !== undefined) break;
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return nearest.find((found) => found !== undefined) ?? own;
}

/**
 * The top of the Git repository holding `folder`: the nearest folder at or above it that holds
 * `.git` (a folder, or a worktree's or submodule's file), undefined when none does within
 * MAX_LEVELS. The CLI's registries stay inside it, as the editor's stay inside its workspace folder.
 * A home folder that is a repository of its own (dotfiles kept in Git) is no project below it: it
 * counts only when `folder` is the home folder itself, or a tarball unpacked anywhere under it,
 * without a `.git` of its own, could name any file of the home folder as its registry.
 */
export function repositoryTopOf(folder: string, exists: (path: string) => boolean = existsSync, home: string = homedir()): string | undefined {
  const start = resolve(folder);
  let directory = start;
  for (let level = 0; level < MAX_LEVELS; level++) {
    if (exists(resolve(directory, PROJECT_MARKER))) return directory === resolve(home) && directory !== start ? undefined : directory;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
  return undefined;
}
