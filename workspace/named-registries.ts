/**
 * A registry of another name told by the babelq.json files that name it from anywhere in a folder:
 * in a monorepo `packages/a/babelq.json` names `"registry": "../../platform/main.json"`, and
 * `platform/main.json` has no config of its own above it that says so. The editor and `babelq lint`
 * take such a file for the registry it is (its findings, links and references), never for an
 * envelope. The folder bounds it as it bounds the registry the fixtures find: the file and the
 * config naming it both inside it, the file there also once its links are resolved, as the
 * fixtures' search refuses one that leaves it (workspace/registry-loader.ts).
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PROJECT_CONFIG_FILE } from '../core/rules/settings/project-file-names';
import { SKIPPED_DIRECTORIES } from './fixture-files';
import { NO_IGNORES, type IgnoreFilter } from './ignores';
import { isInside, isUnder, realPath, realPathIfThere } from './path-containment';
import type { NamedRegistries } from './project-config';

/** The most folders `foldersWithConfigBelow` reads: a checkout's tree, not a whole disk, is walked. */
export const MAX_FOLDERS_SEARCHED = 100_000;

/**
 * Whether the file at `path` (absolute) is a registry a config inside `folder` names: by its
 * path, or reached through a linked folder (`common/main.json`, common a link to platform). Only a
 * file of a named registry's name is looked up on disk, so other JSON files cost no system call.
 */
export function isNamedRegistry(path: string, named: NamedRegistries, folder: string): boolean {
  if (!isUnder(folder, path)) return false;
  let realFolder: string | undefined;
  let real: string | undefined | null = null;
  for (const [registry, directories] of byFileName(named).get(basename(path)) ?? []) {
    if (!isUnder(folder, registry) || !directories.some((directory) => isUnder(folder, directory))) continue;
    if (registry !== path) {
      real ??= realPathIfThere(path);
      if (real === undefined || real !== realPathIfThere(registry)) continue;
    }
    // Where it really is, inside the folder: a named file that is a link out of it is no registry here.
    realFolder ??= realPath(folder);
    if (isInside(folder, registry, realFolder)) return true;
  }
  return false;
}

/** The named registries of each file name, worked out once for each set of them (a set is never changed once made). */
const fileNameIndexes = new WeakMap<NamedRegistries, Map<string, [string, readonly string[]][]>>();

/**
 * `named` by the registries' file names: asked at each pull of an open JSON document's
 * diagnostics, a file is compared with the registries of its own name, not with every one the
 * configs of a monorepo's packages name.
 */
function byFileName(named: NamedRegistries): ReadonlyMap<string, readonly [string, readonly string[]][]> {
  let index = fileNameIndexes.get(named);
  if (index === undefined) {
    index = new Map();
    for (const entry of named) {
      const name = basename(entry[0]);
      const same = index.get(name);
      if (same) same.push(entry);
      else index.set(name, [entry]);
    }
    fileNameIndexes.set(named, index);
  }
  return index;
}

/**
 * The folders at or below `root` that hold a babelq.json, for `babelq lint` to learn which registry
 * each names as the editor learns it from the workspace's walk: links to folders are not followed
 * (a cycle would make it endless), node_modules and .git are passed over, so is a folder `ignores`
 * leaves out (what .gitignore, .git/info/exclude and babelq.json's `ignore` leave out of lint's
 * walk: the editor's walk enters none of them, so it reads no config there), and it stops after
 * MAX_FOLDERS_SEARCHED folders. `root` itself is searched even when ignored, as a walk from it is.
 * Nothing is read here: each config is read by ProjectConfigs, bounded and contained as any other.
 */
export function foldersWithConfigBelow(root: string, ignores: IgnoreFilter = NO_IGNORES): string[] {
  const found: string[] = [];
  const stack = [root];
  for (let searched = 0; stack.length > 0 && searched < MAX_FOLDERS_SEARCHED; searched++) {
    const directory = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      continue; // A folder that cannot be read names no registry here.
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        const folder = join(directory, entry.name);
        if (!SKIPPED_DIRECTORIES.has(entry.name) && !ignores.skipDirectory(folder)) stack.push(folder);
      } else if (entry.name === PROJECT_CONFIG_FILE) found.push(directory);
    }
  }
  return found;
}
