/**
 * The paths `--format sarif` and `--format github` write are relative to the repository root, not
 * to the folder babelq runs in: GitHub reads both from the root. Code scanning takes a relative
 * artifact URI as a path from the root of the repository (upload-sarif resolves it against the
 * checkout), and a workflow command's `file=` names the file of the repository the annotation goes
 * on. A run from a subfolder (a package of a monorepo, a step with `working-directory`) has to
 * write `packages/orders/fixtures/a.babel.json`, where the user typed `fixtures/a.babel.json`.
 * The text and json formats keep the paths as typed: they are read by a person in that folder.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { GITHUB_WORKSPACE, githubWorkspaceHolding } from '../../workspace/github-workspace';
import { leavesRoot } from '../../workspace/path-containment';

/**
 * The repository root for `cwd` (absolute): the nearest folder at or above it that holds `.git` (a
 * folder, or a file in a worktree or a submodule), the top git itself finds. Outside any git work
 * tree, GITHUB_WORKSPACE when `cwd` lies in it: a checkout made without git (actions/checkout falls
 * back to the REST API when the runner has no git) has no `.git`, and the workspace is its root.
 * The work tree comes first because it is the repository GitHub resolves paths in, also when a
 * workflow checks it out into a subfolder of the workspace (actions/checkout's `path`). Undefined
 * elsewhere: the paths then stay relative to `cwd`, as every format writes them.
 */
export function repositoryRoot(cwd: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) return folder;
    if (dirname(folder) === folder) break;
  }
  return githubWorkspaceHolding(cwd, env[GITHUB_WORKSPACE]);
}

/**
 * `file` (as a report names it: relative to `cwd`, or absolute) as a '/'-separated path from `root`,
 * or undefined when it lies outside the root, where no path from the root can name it.
 */
export function pathFromRoot(file: string, cwd: string, root: string): string | undefined {
  const path = relative(root, resolve(cwd, file));
  if (path === '' || leavesRoot(path)) return undefined;
  return sep === '/' ? path : path.split(sep).join('/');
}
