/**
 * A registry of another name told by the babelq.json files that name it from anywhere in a folder:
 * in a monorepo `packages/a/babelq.json` names `"registry": "../../shared/main.json"`, and
 * `shared/main.json` has no config of its own above it that says so. The editor and `babelq lint`
 * take such a file for the registry it is (its findings, links and references), never for an
 * envelope. The folder bounds it as it bounds the registry the fixtures find: the file and the
 * config naming it both inside it, the file there also once its links are resolved, as the
 * fixtures' search refuses one that leaves it (workspace/registry-loader.ts).
 */
import { basename, resolve } from 'node:path';
import { isInside, isUnder, realPath, realPathIfThere } from './path-containment';

/** Registry paths (absolute) named by babelq.json files, each with the folders of the configs that name it. */
export type NamedRegistries = ReadonlyMap<string, readonly string[]>;

/** Adds to `named` the registry the config in `directory` names (`registryPath` as written, relative to that folder). */
export function addNamedRegistry(named: Map<string, string[]>, directory: string, registryPath: string | undefined): void {
  if (registryPath === undefined || registryPath.trim() === '') return;
  const path = resolve(directory, registryPath);
  const by = named.get(path);
  if (by) by.push(directory);
  else named.set(path, [directory]);
}

/**
 * Whether the file at `path` (absolute) is a registry a config inside `folder` names: by its
 * path, or reached through a linked folder (`common/main.json`, common a link to shared). Only a
 * file of a named registry's name is looked up on disk, so other JSON files cost no system call.
 */
export function isNamedRegistry(path: string, named: NamedRegistries, folder: string): boolean {
  if (!isUnder(folder, path)) return false;
  const name = basename(path);
  let realFolder: string | undefined;
  let real: string | undefined | null = null;
  for (const [registry, directories] of named) {
    if (basename(registry) !== name || !isUnder(folder, registry) || !directories.some((directory) => isUnder(folder, directory))) continue;
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
