/**
 * Whether a path lies inside a folder: by the text alone (for loops over many paths) or through
 * `..`, absolute paths and symbolic links (for what a checkout names: a registry, a schema, a link
 * a walk would follow, a file a fix would write).
 */
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * True when `target` is `root` or lies below it, after resolving symbolic links where they exist.
 * `realTarget` is the target's real path when the caller knows it already.
 */
export function isInside(root: string, target: string, realRoot: string = realPath(root), realTarget?: string): boolean {
  const lexical = relative(resolve(root), resolve(target));
  if (leavesRoot(lexical)) return false;
  return !leavesRoot(relative(realRoot, realTarget ?? realPath(target)));
}

/** The path with symbolic links resolved; the path itself (resolved) when it does not exist. */
export function realPath(path: string): string {
  try {
    // One realpath(3) call: the JS implementation lstat()s every component, which dominates a lint of many files.
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

/** The path with symbolic links resolved; undefined when it does not exist (or cannot be looked at). One system call. */
export function realPathIfThere(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/** How many symbolic links `realPathOfMissing` follows, as realpath(3) does: a loop of links ends there. */
const MAX_LINKS_FOLLOWED = 40;

/** The longest path a file can be opened by (Linux's PATH_MAX, counting its final NUL). */
const MAX_OPENABLE_PATH_LENGTH = 4096;

/**
 * Where a file that is not there would be once written, symbolic links resolved (`realPath` gives
 * its path back as it is): a missing file in a linked folder is written where the folder really
 * is, and a link to a missing file writes the file it names. For `linkedPlace`: the file's
 * creation is told there. `realFolders` keeps the real path of each folder worked out, for a
 * caller that asks of many files in few folders (a registry naming 50,000 missing schema files).
 */
export function realPathOfMissing(path: string, realFolders: Map<string, { readonly real: string; readonly there: boolean }> = new Map(), linksFollowed = 0): string {
  const resolved = resolve(path);
  const parent = dirname(resolved);
  if (parent === resolved) return resolved;
  // No system opens a path this long (Linux's PATH_MAX; Windows' long paths are shorter still), so
  // no link in it is ever followed: the walk up, a call and a copy of the path per folder, took a
  // setting of 200,000 folders minutes and then overflowed the stack.
  if (resolved.length > MAX_OPENABLE_PATH_LENGTH) return resolved;
  let folder = realFolders.get(parent);
  if (folder === undefined) {
    const there = realPathIfThere(parent);
    folder = { real: there ?? realPathOfMissing(parent, realFolders, linksFollowed), there: there !== undefined };
    realFolders.set(parent, folder);
  }
  // In a folder that is not there, nothing is: no link to follow.
  if (folder.there && linksFollowed < MAX_LINKS_FOLLOWED) {
    try {
      // Nothing there is the usual answer: told without an error built for it (some 6 µs each).
      if (lstatSync(resolved, { throwIfNoEntry: false })?.isSymbolicLink()) {
        return realPathOfMissing(resolve(parent, readlinkSync(resolved)), realFolders, linksFollowed + 1);
      }
    } catch {
      // Not ours to look at: where its folder really is tells.
    }
  }
  return join(folder.real, basename(resolved));
}

/**
 * Where a file inside `root` really is, written below `root` as the folder is named (`realRoot` is
 * the folder's real path, `realTarget` the file's): a file watcher follows no symbolic link, so
 * the change of a file reached through one is told at this path, not at the link's. Undefined when
 * that is `path` itself (no link on its way down from the folder), or when the file is not inside
 * the folder (no watcher of the folder tells its changes).
 */
export function linkedPlace(root: string, path: string, realRoot: string, realTarget: string): string | undefined {
  const inFolder = relative(realRoot, realTarget);
  if (leavesRoot(inFolder)) return undefined;
  const place = join(resolve(root), inFolder);
  return place === resolve(path) ? undefined : place;
}

/** `path` is `folder` or below it, by their text alone (no I/O: for loops over many paths). */
export function isUnder(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}

/** True for a relative path that climbs out (`..`, `../x`), not for a name like `..schemas`. */
export function leavesRoot(relativePath: string): boolean {
  return relativePath === '..' || relativePath.startsWith(`..${sep}`) || isAbsolute(relativePath);
}

/**
 * Whether the symbolic link at `path` is one a walk follows: to a regular file whose real path
 * lies in one of `roots` (real paths). A link to a file elsewhere is not followed (a checkout
 * could link `x.babel.json` to a secret on the machine, and the findings would quote it), nor one
 * to a directory (a link cycle would make a walk endless).
 */
export function linkToFileIn(roots: readonly string[], path: string): boolean {
  try {
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return false;
  } catch {
    return false; // Not ours to read (permissions): a walk passes over it.
  }
  const target = realPath(path);
  return roots.some((root) => isUnder(root, target));
}
