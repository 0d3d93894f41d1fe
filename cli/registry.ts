/**
 * The registry for `babelq lint`: `--registry <file>` when given, else the same discovery as the
 * editor (the nearest registry.json at or above each file), with the repository as the workspace
 * folder: the nearest folder at or above the current one holding `.git`, else the GitHub workspace
 * holding the current folder (GITHUB_WORKSPACE: a checkout made without git), else the current folder.
 * A monorepo package linted from its own folder so uses the registry at the repository's top,
 * while nothing outside the repository is read. Each registry is loaded once per run.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, relative, resolve } from 'node:path';
import type { CoreDiagnostic } from '../core/rules/diagnostic';
import { fileDiagnostics } from '../core/rules/file-diagnostics';
import { NO_REGISTRY, registryText, type RegistryState } from '../core/registry/types';
import type { Settings } from '../core/rules/settings/settings';
import { SUPPRESSIONS_FILE } from '../core/rules/settings/suppressions-file';
import { findRegistry, loadRegistry, MAX_REGISTRY_FILE_BYTES, readFromDisk, shownFrom, type PlaceSeen } from '../workspace/registry-loader';
import { isInside, isUnder, realPath, realPathIfThere } from '../workspace/path-containment';
import { foldersWithConfigBelow, isNamedRegistry } from '../workspace/named-registries';
import type { NamedRegistries } from '../workspace/project-config';
import { ProjectConfigs } from '../workspace/project-config';
import { repositoryTopOf } from '../workspace/project-root';
import { githubWorkspaceHolding } from '../workspace/github-workspace';
import { GitIgnores } from '../workspace/gitignore';
import { NO_IGNORES, projectIgnores, type IgnoreFilter } from '../workspace/ignores';
import { shortened } from '../core/model/describe-value';
import { CliError, describeFsError, quotedPath } from './errors';

/** A registry used in a lint run, with its own problems (as the editor shows them in registry.json). */
export interface RegistryReport {
  readonly path: string;
  readonly text: string;
  readonly diagnostics: CoreDiagnostic[];
  /**
   * True when an error shown is one bqschema's registry load refuses the whole file for (it is not
   * JSON or not of its shape, a field of another type, an empty urn or schema, a duplicate URN):
   * `bqschema check` then exits 2, and `babelq lint` does too.
   */
  readonly refused?: boolean;
}

/** What the search did after passing over a registry.json without a `schemas` key. */
export interface PassedOver {
  /** The registry.json used in its place (further up), if any. */
  readonly instead?: string;
  /** The folder the search stops at: the repository's top (`CliRegistries.top`), or a fixture's own folder outside it. */
  readonly root: string;
}

/**
 * The folder the CLI's registries stay inside when run in `cwd`: the top of the repository (the
 * nearest folder at or above it holding `.git`); without one, the GitHub workspace
 * (`githubWorkspace`, GITHUB_WORKSPACE's value) when `cwd` lies in it, as the SARIF and annotation
 * paths are named from it (a checkout made without git has no `.git`); else `cwd`. A workspace that
 * holds the home folder (is it, or lies above it, as `/` does) bounds only when `cwd` is the
 * workspace itself, as a home folder kept in Git does (`repositoryTopOf`). With it, how a message names it, in the words of a CLI user, from the
 * current folder as other paths are named (`words`), and in short (`name`).
 */
export function registryBound(cwd: string, githubWorkspace: string | undefined, home: string = homedir()): RegistryBound {
  const here = resolve(cwd);
  const repository = repositoryTopOf(cwd, undefined, home);
  if (repository !== undefined) {
    const words = repository === here
      ? 'the repository, the current folder (it holds .git)'
      : `the repository ${shownFolder(cwd, repository)} (the folder holding .git above the current folder)`;
    return { top: repository, name: 'the repository', words };
  }
  const workspace = githubWorkspaceHolding(cwd, githubWorkspace);
  // One that holds the home folder (the home folder, `/`, or a folder between) would let a download
  // unpacked anywhere in the home folder name any file of it, or of the machine, as its registry.
  if (workspace !== undefined && (workspace === here || !isUnder(realPath(workspace), realPath(home)))) {
    const words = workspace === here
      ? 'the GitHub workspace, the current folder (GITHUB_WORKSPACE; no folder at or above it holds .git)'
      : `the GitHub workspace ${shownFolder(cwd, workspace)} (GITHUB_WORKSPACE, above the current folder; no folder at or above it holds .git)`;
    return { top: workspace, name: 'the GitHub workspace', words };
  }
  return { top: cwd, name: 'the current folder', words: 'the current folder (no folder at or above it holds .git)' };
}

/** The folder the CLI's registries stay inside, and how messages name it (`registryBound`). */
export interface RegistryBound {
  readonly top: string;
  /** In short, for "a file outside …": the repository, the GitHub workspace or the current folder. */
  readonly name: string;
  /** In full, named from the current folder. */
  readonly words: string;
}

/**
 * Where a registry named by its path (`--registry`, babelq.json's "registry", a file on lint's
 * command line) is read, the folder its schemas must stay inside, and how a message names that
 * folder: inside the bound (`registryBound`), as named, the bound holding its schemas; outside it
 * (by its path or through a link), the user's choice, read where it really is, its own folder
 * holding its schemas. Every command that reads a registry (lint, gdpr, compat --base) judges its
 * schema paths by this, so one registry loads alike in each. `realTop`: the bound's top with links
 * resolved, when the caller has it already.
 */
export function registryLocation(cwd: string, path: string, bound: RegistryBound, realTop: string = realPath(bound.top)): RegistryLocation {
  if (isInside(bound.top, path, realTop)) return { path, root: bound.top, realRoot: realTop, words: bound.words };
  const real = realPath(path);
  const root = dirname(real);
  return { path: real, root, realRoot: root, words: ownFolderWords(cwd, root, bound) };
}

/** A registry's place and its schemas' bound (`registryLocation`). */
export interface RegistryLocation {
  /** The registry file to read. */
  readonly path: string;
  /** The folder its schemas stay inside. */
  readonly root: string;
  /** `root` with links resolved. */
  readonly realRoot: string;
  /** How a message names `root`. */
  readonly words: string;
}

/** How a message names the own folder `root` that a file outside the bound is held to, named from the current folder. */
function ownFolderWords(cwd: string, root: string, bound: RegistryBound): string {
  return `its own folder ${shownFolder(cwd, root)} (a file outside ${bound.name} is held to its own folder)`;
}

/**
 * What the search for the babelq.json files below the current folder (`isRegistryNamedBelow`)
 * leaves out, given the configs it reads (whose `ignore` globs count).
 */
export type IgnoresBelow = (configs: ProjectConfigs) => IgnoreFilter;

/**
 * What lint's walk leaves out (`.gitignore`, `.git/info/exclude`, babelq.json's `ignore`), as the
 * editor's walk leaves it out: a config there names no registry to either. `gitignores` is lint's
 * own, so a `.gitignore` not applied is said once.
 */
export function walkIgnoresBelow(gitignores: GitIgnores = new GitIgnores()): IgnoresBelow {
  return (configs) => projectIgnores(configs, gitignores);
}

/** `--no-ignore`: the search, as lint's walk, leaves nothing out. */
export const NOTHING_IGNORED_BELOW: IgnoresBelow = () => NO_IGNORES;

export interface CliRegistriesOptions {
  /** GITHUB_WORKSPACE as the run's environment sets it: the bound without a `.git` (`registryBound`). */
  readonly githubWorkspace: string | undefined;
  /** What the search for the configs below the current folder leaves out (default: `walkIgnoresBelow()`). */
  readonly ignoresBelow?: IgnoresBelow;
}

export class CliRegistries {
  private readonly loaded = new Map<string, RegistryState>();
  private readonly byDirectory = new Map<string, { root: string; found: ReturnType<typeof findRegistry> }>();
  private readonly explicit: string | undefined;
  /**
   * The folder registries stay inside: the top of the repository holding the current folder (the
   * nearest folder at or above it holding `.git`), else the GitHub workspace holding it, else the
   * current folder (`registryBound`). A file outside it is held to its own folder.
   */
  readonly top: string;
  /** How a message names `top` in short: the repository, the GitHub workspace or the current folder. */
  readonly topName: string;
  /** `top` with links resolved, once per run rather than once per fixture. */
  private readonly realTop: string;
  /** The folder registries stay inside, and how messages name it (`registryBound`). */
  private readonly bound: RegistryBound;
  private explicitLocation: { readonly path: string; readonly root: string } | undefined;
  /**
   * The registry.json files the search passed over as not of bqschema's shape (no `schemas` key),
   * each with what the search went on to find: the registry.json used in its place, or none (the
   * search goes no higher than `root`, the repository's top), so the note can say which.
   */
  readonly passedOver = new Map<string, PassedOver>();
  /** Whether each registry.json read by a search is a registry: read once a run, not once per folder searched from. */
  private readonly registryVerdicts = new Map<string, boolean>();
  /** What each place the searches looked at for a registry.json held: looked at once a run. */
  private readonly placesSeen = new Map<string, PlaceSeen>();
  /** The registries the babelq.json files below the current folder name, found on first need (`isRegistryNamedBelow`). */
  private namedBelow: NamedRegistries | undefined;

  private readonly ignoresBelow: IgnoresBelow;

  constructor(
    private readonly cwd: string,
    explicitPath: string | undefined,
    options: CliRegistriesOptions,
  ) {
    this.ignoresBelow = options.ignoresBelow ?? walkIgnoresBelow();
    const bound = registryBound(cwd, options.githubWorkspace);
    this.bound = bound;
    this.top = bound.top;
    this.topName = bound.name;
    this.realTop = realPath(this.top);
    if (explicitPath !== undefined) {
      const path = resolve(cwd, explicitPath);
      // Asked for by name: a registry that cannot be read is a usage problem, not a lint finding.
      if (!existsSync(path)) throw new CliError(`cannot read registry '${quotedPath(explicitPath)}': the file does not exist`);
      try {
        readFromDisk(path, MAX_REGISTRY_FILE_BYTES);
      } catch (error) {
        throw new CliError(`cannot read registry '${quotedPath(explicitPath)}': ${describeFsError(error)}`);
      }
      this.explicit = path;
    }
  }

  /** The registry state for a fixture (absolute path), whose settings name `registryPath` (or none: the nearest registry.json). */
  stateFor(fixture: string, registryPath: string | undefined): RegistryState {
    if (this.explicit) {
      this.explicitLocation ??= this.namedLocation(this.explicit);
      return this.load(this.explicitLocation.path, this.explicitLocation.root);
    }
    // Fixtures of one directory share the repository and find the same registry: decide once per directory.
    const directory = dirname(fixture);
    const key = `${directory}\u0000${registryPath ?? ''}`;
    let lookup = this.byDirectory.get(key);
    if (!lookup) {
      const root = this.rootOf(directory);
      const passed: string[] = [];
      const search = { passedOver: (path: string) => passed.push(path), verdicts: this.registryVerdicts, places: this.placesSeen, boundWords: this.boundWords(root), shownFolder: this.cwd, shownWithin: this.top, ...(root === this.top ? { realRoot: this.realTop } : {}) };
      lookup = { root, found: findRegistry(fixture, root, registryPath, search) };
      this.byDirectory.set(key, lookup);
      // The search went on from each one passed over to the same end (the one found, or none).
      const instead = lookup.found?.path;
      for (const path of passed) if (!this.passedOver.has(path)) this.passedOver.set(path, { root, ...(instead !== undefined ? { instead } : {}) });
    }
    const { root, found } = lookup;
    if (!found) return NO_REGISTRY;
    if ('error' in found) return shownFrom({ kind: 'broken', path: found.path, error: found.error }, this.cwd, this.top);
    return this.load(found.path, root);
  }

  /**
   * Whether `file` is the registry by name rather than by discovery: the `--registry` file, or the
   * one the settings of its own folder name (babelq.json's "registry", a --config's
   * babelqueue.registry.path), resolved as `stateFor` resolves it for a fixture beside it.
   */
  isRegistryNamed(file: string, registryPath: string | undefined): boolean {
    if (this.explicit) return sameFile(file, this.explicit);
    if (registryPath === undefined || registryPath.trim() === '') return false;
    return sameFile(file, resolve(this.rootOf(dirname(file)), registryPath));
  }

  /** The folder a fixture in `directory` finds its registry inside: the repository's top, or its own folder outside it. */
  private rootOf(directory: string): string {
    return isInside(this.top, directory, this.realTop) ? this.top : directory;
  }

  /**
   * How a message names the folder `root` a registry had to stay inside, in the words of a CLI
   * user (the repository, the current folder), named from the current folder as other paths are.
   */
  boundWords(root: string): string {
    if (root === this.top) return this.bound.words;
    // A file outside the repository (or named outside it by --registry) is held to its own folder.
    return ownFolderWords(this.cwd, root, this.bound);
  }

  /**
   * Whether `file` is a registry a babelq.json elsewhere below the current folder names, which no
   * config above the file names: a monorepo's `packages/a/babelq.json` naming
   * `../../platform/main.json`, linted as `babelq lint platform/main.json` from the top. The editor
   * takes it for the registry from every babelq.json its workspace's walk read, and so does lint,
   * from the configs below the current folder (its workspace folder) outside the folders its walk
   * leaves out (`ignoresBelow`, as the editor's walk enters none of them), found once a run and
   * only for a file nothing else tells apart. Those configs are read apart from the run's own, so none of
   * them is reported as a project file of the run. With `--registry`, that one is the registry.
   */
  isRegistryNamedBelow(file: string): boolean {
    // A file outside the current folder is none of these: no search of the folders below for it.
    if (this.explicit || !isUnder(this.cwd, file)) return false;
    if (this.namedBelow === undefined) {
      // Read for the registry each names: the suppressions files beside them (a baseline can be
      // tens of megabytes) are taken for absent, never read.
      const configs = new ProjectConfigs(readFromDisk, (path) => basename(path) !== SUPPRESSIONS_FILE && existsSync(path));
      for (const directory of foldersWithConfigBelow(this.cwd, this.ignoresBelow(configs))) configs.configIn(directory);
      this.namedBelow = configs.registriesNamed();
    }
    return isNamedRegistry(file, this.namedBelow, this.cwd);
  }

  /**
   * A registry named on the command line (a registry.json, or one `isRegistryNamed` knows): loaded
   * as the registry it is, so its findings (and its schema files') are reported as for a registry
   * the fixtures used, never as an envelope's.
   */
  useRegistryFile(path: string): void {
    const named = this.namedLocation(path);
    this.load(named.path, named.root);
  }

  /** Where a registry named on the command line is read, and the folder that bounds its schemas (`registryLocation`). */
  private namedLocation(path: string): RegistryLocation {
    return registryLocation(this.cwd, path, this.bound, this.realTop);
  }

  private load(path: string, root: string): RegistryState {
    const key = `${root}\u0000${path}`;
    let state = this.loaded.get(key);
    if (!state) {
      // Named relative to the current folder, as lint names every other file; inside the repository
      // above it too (`../../schemas/order.json`), so no message carries the checkout's absolute path.
      state = shownFrom(loadRegistry(path, root, readFromDisk, this.cwd, this.boundWords(root), this.top).state, this.cwd, this.top);
      this.loaded.set(key, state);
    }
    return state;
  }

  /**
   * The problems of every registry used in this run, as the editor shows them in registry.json
   * (duplicate URNs, bad names, unusable schemas), so CI sees them too.
   */
  registryReports(settingsOf: (path: string) => Settings): RegistryReport[] {
    const reports: RegistryReport[] = [];
    const seen = new Set<string>();
    for (const state of this.loaded.values()) {
      if (state.kind === 'none') continue;
      const path = state.kind === 'loaded' ? state.registry.path : state.path;
      if (seen.has(path)) continue;
      seen.add(path);
      const diagnostics = fileDiagnostics('registryFile', state, settingsOf(path));
      if (diagnostics.length === 0) continue;
      reports.push({ path, text: registryText(state), diagnostics, refused: refusedBy(state, diagnostics) });
    }
    return reports;
  }

  /** The keyword findings of every schema file the registries of this run read (each file once). */
  schemaReports(settingsOf: (path: string) => Settings): RegistryReport[] {
    const reports: RegistryReport[] = [];
    const seen = new Set<string>();
    for (const state of this.loaded.values()) {
      if (state.kind !== 'loaded') continue;
      for (const entry of state.registry.entries) {
        const schema = entry.schema;
        if (!schema?.doc || seen.has(schema.path)) continue;
        seen.add(schema.path);
        const diagnostics = fileDiagnostics('schemaFile', schema.doc, settingsOf(schema.path));
        if (diagnostics.length > 0) reports.push({ path: schema.path, text: schema.doc.text, diagnostics });
      }
    }
    return reports;
  }
}

/** The longest folder path a message quotes whole. */
const MAX_SHOWN_FOLDER = 200;

/** A folder named from the current folder (`..`-led above it), or absolute where no relative path leads. */
function namedFrom(cwd: string, folder: string): string {
  return relative(cwd, folder) || '.';
}

/**
 * A bound's folder as its words name it (`namedFrom`), cut to MAX_SHOWN_FOLDER: the GitHub
 * workspace may lie any number of folders above the current one, and its `../` would fill the line.
 */
function shownFolder(cwd: string, folder: string): string {
  return shortened(namedFrom(cwd, folder), MAX_SHOWN_FOLDER);
}

/** Whether an error left after the settings is a refusal of the whole registry.json by bqschema's registry load. */
function refusedBy(state: RegistryState, diagnostics: readonly CoreDiagnostic[]): boolean {
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  // A registry.json that was read and cannot be parsed or is not of its shape; one that could not
  // be read at all is left to the fixtures' registry-error (exit 1), as a pipe or a missing file.
  if (state.kind === 'broken') return state.problems !== undefined && errors.length > 0;
  if (state.kind !== 'loaded') return false;
  return state.registry.problems.some((problem) => problem.refusesRegistry && errors.some((error) => error.offset === problem.offset && error.end === problem.end && error.message === problem.message));
}

/**
 * Whether two absolute paths name one file: the same path, or the same name reached through a
 * linked folder (`cfg/sub.json`, cfg a link to config, is `config/sub.json`). Only a file of the
 * registry's name is looked up on disk, so the fixtures of a walk cost no system call.
 */
function sameFile(file: string, named: string): boolean {
  if (file === named) return true;
  if (basename(file) !== basename(named)) return false;
  const real = realPathIfThere(file);
  return real !== undefined && real === realPathIfThere(named);
}
