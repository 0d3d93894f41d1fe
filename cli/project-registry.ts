/**
 * The registry a whole-registry command (`babelq compat --base`, `babelq gdpr`) reads when
 * `--registry` is not given: the one a babelq.json governing the current folder names (the chain
 * `babelq lint` and the editor apply, nearest first), else the registry.json lint's search finds
 * for a file in the current folder: the nearest at or above it, up to the repository's top, one
 * without a "schemas" key passed over (and said so). So `cd fixtures && babelq gdpr` reads the
 * registry `babelq lint` there reads. A project that keeps its registry in `schemas/` says so
 * once, in babelq.json, for every command.
 * One babelq.json names outside the repository (the folder holding .git at or above the current
 * folder, else the GitHub workspace holding it, else the current folder: cli/registry.ts's
 * registryBound; by its path or through a link) is not read, as `babelq lint`
 * reads none there: a checkout's babelq.json does not choose what else on the machine is read;
 * `--registry` names one elsewhere.
 */
import { join, relative, resolve } from 'node:path';
import { LineIndex } from '../core/model/positions';
import { readRegistryIndex, registryFileName, type RegistryIndex } from '../core/registry/registry-file';
import { DEFAULT_SETTINGS } from '../core/rules/settings/settings';
import { ProjectConfigs } from '../workspace/project-config';
import { findRegistry, MAX_REGISTRY_FILE_BYTES, NOT_READ_AS_REGISTRY, REGISTRY_FILE_NAME } from '../workspace/registry-loader';
import { notUtf8File, notUtf8FileMessage } from '../workspace/not-utf8-file';
import { isInside, leavesRoot, realPath } from '../workspace/path-containment';
import { CliError, quotedPath } from './errors';
import { registryBound } from './registry';
import { namedFromCwd } from './paths';

/** The registry a whole-registry command reads, and the notes for stderr about the search (each a line, or ''). */
export interface ProjectRegistry {
  /** As the user would write it from `cwd` (relative, as it lies below or above it). */
  readonly path: string;
  readonly notes: string;
}

/** The registry a whole-registry command reads when run in `cwd`, `registryArg` being --registry's value. */
export function projectRegistry(cwd: string, githubWorkspace: string | undefined, registryArg: unknown): ProjectRegistry {
  // Resolved, '' is the current folder, which would be said to be a directory: refused as lint refuses it.
  if (registryArg === '') throw new CliError('--registry needs a file, not an empty value', true);
  if (typeof registryArg === 'string') return { path: registryArg, notes: '' };
  // The settings of a file in the current folder are the settings of the folder itself.
  const named = new ProjectConfigs().settingsFor(join(cwd, REGISTRY_FILE_NAME), DEFAULT_SETTINGS, []).registryPath;
  const { top, name, words } = registryBound(cwd, githubWorkspace);
  if (named === undefined) return searchedRegistry(cwd, top, words, name);
  if (!isInside(top, named)) {
    // One that lies in the repository by its path leaves it through a symbolic link: said so, with where it leads.
    // Each path quoted on one line and bounded: the lines of a refusal are each printed after
    // "babelq: ", and a checkout's babelq.json chooses these names.
    const where = leavesRoot(relative(top, named)) ? `'${quotedPath(named)}', outside ${words}` : `'${quotedPath(namedFromCwd(cwd, named))}', which a symbolic link leads to '${quotedPath(realPath(named))}', outside ${words}`;
    throw new CliError(`babelq.json names the registry ${where}; it was not read (run from the folder that holds it, or name it with --registry)`);
  }
  return { path: namedFromCwd(cwd, named), notes: '' };
}

/**
 * The registry.json `babelq lint` finds for a file in `cwd`: the nearest at or above it inside
 * `top`, one without a "schemas" key passed over. With none found, the nearest passed over is the
 * one read (and refused with its reason, as before); with none at all, a refusal saying where the
 * search looked (`words` names `top`) and how to name one.
 */
function searchedRegistry(cwd: string, top: string, words: string, bound: string): ProjectRegistry {
  const passed: string[] = [];
  const found = findRegistry(join(cwd, REGISTRY_FILE_NAME), top, undefined, { passedOver: (path) => passed.push(path), boundWords: words, shownFolder: cwd, shownWithin: top });
  const shown = (path: string) => quotedPath(namedFromCwd(cwd, path));
  if (found !== undefined && 'error' in found) throw new CliError(`cannot read registry '${shown(found.path)}': ${found.error}`);
  if (found === undefined) {
    if (passed[0] !== undefined) return { path: namedFromCwd(cwd, passed[0]), notes: '' };
    throw new CliError(`no registry.json ${resolve(top) === resolve(cwd) ? `in the current folder, and none is looked for above it (${whyNoneAbove(bound)})` : `at or above the current folder, up to ${words}`}; name one with --registry, or with "registry" in babelq.json`);
  }
  // Another tool may keep a registry.json, so it is passed over as lint passes it over; said, as lint says it.
  const notes = passed.map((path) => `babelq: note: ${shown(path)} ${NOT_READ_AS_REGISTRY}, and was passed over for ${shown(found.path)}, the next one up; --registry ${shown(path)} reads it as one\n`).join('');
  return { path: namedFromCwd(cwd, found.path), notes };
}

/** Why the search for a registry.json stops at the current folder, the bound named `bound` (`registryBound`'s `name`). */
function whyNoneAbove(bound: string): string {
  if (bound === 'the repository') return 'it holds .git: the top of the repository';
  if (bound === 'the GitHub workspace') return 'it is the GitHub workspace, GITHUB_WORKSPACE, and no folder at or above it holds .git';
  return 'no folder at or above it holds .git';
}

/**
 * The entries of a registry that a whole-registry command (`babelq gdpr`, `babelq compat --base`)
 * reads. A registry that bqschema's registry load refuses as a whole (not JSON, not its shape, a
 * field of another type, an empty urn or schema, a duplicate URN: what `babelq lint` exits 2 on)
 * is a CliError naming the file and the line and column of the first reason, never read as the
 * entries that happened to parse.
 */
export function readUsableRegistry(text: string, shown: string, path: string): Extract<RegistryIndex, { ok: true }> {
  // Bytes that are not UTF-8 (a registry saved as UTF-16): said so, as every registry read says it (workspace/not-utf8-file.ts).
  const notUtf8 = notUtf8File(path, text, MAX_REGISTRY_FILE_BYTES);
  if (notUtf8) refuse(text, shown, notUtf8.offset, notUtf8FileMessage(registryFileName(shown), notUtf8.where));
  const index = readRegistryIndex(text, registryFileName(shown));
  const refusal = index.ok ? index.problems.find((problem) => problem.refusesRegistry === true) : (index.problems[0] ?? { offset: 0, message: index.error });
  if (index.ok && refusal === undefined) return index;
  return refuse(text, shown, refusal?.offset ?? 0, refusal?.message ?? '');
}

/** The CliError for a registry refused as a whole, naming the line and column of `offset` in `text`. */
function refuse(text: string, shown: string, offset: number, reason: string): never {
  const { line, character } = new LineIndex(text).positionAt(offset);
  const named = quotedPath(shown);
  throw new CliError(`registry '${named}' is refused as a whole, as bqschema's registry load refuses it: ${named}:${line + 1}:${character + 1}: ${reason}`);
}
