/**
 * Which paths created in one batch of file events are looked at (one stat each) as folders made or
 * moved into the workspace (server.ts, withFolderEvents). A watcher of folders reports every path,
 * and a client that does not tell kinds apart (eglot) every change: an `npm install` or a checkout
 * creates tens of thousands of files in one batch, and each of them was looked at.
 */
import { dirname } from 'node:path';
import { isUnder } from '../workspace/path-containment';

/**
 * The folders among `created` (paths created in one batch, none a JSON file nor a file read), in
 * their order. A folder made counts for the files read below it (`above`: every folder above a file
 * read, or at or above a fixture's folder) and for the fixtures the workspace walk finds in it
 * (WorkspaceFixtures.foldersMade). Each path is looked at with `isDirectory`, except:
 * - one below another path of `created`: that one, when a folder, is walked whole and stands for
 *   every file read below it; when not a folder, nothing is below it now;
 * - one not in `above` that lies outside every workspace folder (`folders`), or in a folder the
 *   walk leaves out by its name (`skippedNames`: node_modules, .git) below its workspace folder:
 *   the walk finds nothing there, and no file read lies below it.
 */
export function foldersMadeAmong(created: readonly string[], above: ReadonlySet<string>, folders: readonly string[], skippedNames: ReadonlySet<string>, isDirectory: (path: string) => boolean): string[] {
  const all = new Set(created);
  const belowAnother = (path: string): boolean => {
    for (let at = dirname(path); ; at = dirname(at)) {
      if (all.has(at)) return true;
      if (dirname(at) === at) return false;
    }
  };
  const leftOut = (path: string): boolean => {
    if (above.has(path)) return false;
    const folder = folders.find((candidate) => isUnder(candidate, path));
    return folder === undefined || path.slice(folder.length).split(/[\\/]/).some((name) => skippedNames.has(name));
  };
  return created.filter((path) => !belowAnother(path) && !leftOut(path) && isDirectory(path));
}
