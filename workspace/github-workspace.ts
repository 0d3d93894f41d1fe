/**
 * The GitHub workspace holding a folder: GITHUB_WORKSPACE, where a workflow's checkout lies. A
 * checkout made without git (actions/checkout falls back to the REST API when the runner has no
 * git) has no `.git`, and the workspace is then its top: the root SARIF and annotation paths are
 * named from (cli/formats/repository-paths.ts), and the folder the CLI's registries stay inside
 * (cli/registry.ts, which passes over one holding the home folder unless run from it). Both look
 * for a `.git` first; this is what they fall back to.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isUnder, leavesRoot, realPath } from './path-containment';

/** The environment variable the runner sets to the workspace's absolute path. */
export const GITHUB_WORKSPACE = 'GITHUB_WORKSPACE';

/**
 * The workspace `workspace` (GITHUB_WORKSPACE's value) when `folder` lies at or below it, spelt as
 * `folder` spells its ancestors, so paths resolved against `folder` compare with it alike; else
 * undefined (unset, empty, relative, or a workspace `folder` is not in).
 */
export function githubWorkspaceHolding(folder: string, workspace: string | undefined): string | undefined {
  if (!workspace || !isAbsolute(workspace)) return undefined;
  if (isUnder(resolve(workspace), resolve(folder))) return resolve(workspace);
  // The same folder named through a link (macOS's /var is /private/var): the workspace is then the
  // ancestor of `folder` as many levels up as `folder` lies below it once both links are resolved.
  const below = relative(realPath(workspace), realPath(folder));
  if (leavesRoot(below)) return undefined;
  return below === '' ? resolve(folder) : resolve(folder, ...below.split(sep).map(() => '..'));
}
