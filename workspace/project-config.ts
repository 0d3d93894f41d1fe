/**
 * Finding and applying babelq.json for a file, the same way for the language server and the CLI.
 *
 * The walk goes up from the file's folder and collects every babelq.json it passes, until one says
 * `"root": true`, until the folder that holds `.git` (a config above the repository is not the
 * project's), until the editor's workspace folder (nothing above it is read), or the file system's
 * root. Settings then apply in this order, later winning per key (and per code for severities):
 *
 *   defaults < the farthest babelq.json < its overrides that match < … < the nearest babelq.json
 *   < its overrides that match < what the user set in the editor (or `--config`) < CLI flags
 *
 * Paths and globs in a config are relative to its own folder. Each folder's config is read once
 * (bounded, regular files only) and kept until `forget` is told its file changed.
 */
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { existsSync, lstatSync } from 'node:fs';
import { PROJECT_CONFIG_FILE, readProjectConfig, type ConfigProblem, type ProjectConfig } from '../core/rules/settings/project-config';
import { readSuppressions, SUPPRESSIONS_FILE, type Suppression, type SuppressionsFile } from '../core/rules/settings/suppressions-file';
import { layerSettings, type Settings, type SettingsLayer } from '../core/rules/settings/settings';
import { globToRegExp, ignoreGlob, type GlobMatcher } from './glob';
import { PROJECT_MARKER, projectRootOf } from './project-root';
import { isInside, realPath, realPathIfThere } from './path-containment';
import { readFromDisk, REGISTRY_FILE_NAME, type TextReader } from './registry-loader';
import { notAFileToRead, UnreadableFile } from './bounded-read';
import { notUtf8FileMessage, notUtf8ProjectFile } from './not-utf8-file';
import { resolvedPath } from './absolute-path';

/** Registry paths (absolute) named by babelq.json files, each with the folders of the configs that name it. */
export type NamedRegistries = ReadonlyMap<string, readonly string[]>;

/** Adds to `named` the registry the config in `directory` names (`registryPath` as written, relative to that folder). */
function addNamedRegistry(named: Map<string, string[]>, directory: string, registryPath: string | undefined): void {
  if (registryPath === undefined || registryPath.trim() === '') return;
  const path = resolve(directory, registryPath);
  const by = named.get(path);
  if (by) by.push(directory);
  else named.set(path, [directory]);
}

/**
 * The folder a project file (`path`) linked elsewhere must stay inside when no workspace folder
 * says it: the Git work tree, else the nearest folder holding a babelq.json other than the file
 * judged, else (for a babelq.json) its own folder. A registry.json above bounds no babelq.json:
 * counted, it made the folder holding it the project of a package's linked config, so a link from
 * the package to any file below that folder (a credentials file beside the export) was read as
 * the config, where the package's own folder bounded it before.
 */
function linkedConfigProject(path: string, exists: (path: string) => boolean): string {
  const isConfig = basename(path) === PROJECT_CONFIG_FILE;
  return projectRootOf(path, (marker) => marker !== path && !(isConfig && basename(marker) === REGISTRY_FILE_NAME) && exists(marker));
}

const EMPTY_CONFIG: ProjectConfig = { root: false, layer: {}, ignore: [], overrides: [], problems: [] };

/** A config is a few dozen lines; a larger file is not one and is refused unread. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/** A baseline of a large legacy repository can list tens of thousands of findings. */
export const MAX_SUPPRESSIONS_FILE_BYTES = 32 * 1024 * 1024;

/** How many folders a walk looks at before it gives up (no real project is deeper). */
const MAX_LEVELS = 64;

/** One babelq.json as read: its path, its folder, what it says, and its globs compiled. */
export interface LoadedConfig {
  /** Where babelq.json is, or would be when `present` is false (a folder with only a suppressions file). */
  readonly path: string;
  readonly present: boolean;
  readonly directory: string;
  readonly config: ProjectConfig;
  readonly text: string;
  readonly ignore: readonly GlobMatcher[];
  readonly overrides: readonly { readonly files: readonly GlobMatcher[]; readonly layer: SettingsLayer }[];
  /** The babelq-suppressions.json beside it, when there is one. */
  readonly suppressions?: LoadedSuppressions;
}

export interface LoadedSuppressions {
  readonly path: string;
  readonly text: string;
  readonly file: SuppressionsFile;
  /** The entries by the absolute path of the fixture they name. */
  readonly byFile: ReadonlyMap<string, readonly Suppression[]>;
}

export class ProjectConfigs {
  /** The config in each folder (undefined: none), read once. */
  private readonly byDirectory = new Map<string, LoadedConfig | undefined>();
  private readonly markers = new Map<string, boolean>();
  /** The chain of each folder (and highest folder), farthest first: forgotten with any config. */
  private readonly chains = new Map<string, LoadedConfig[]>();
  /** The registries the configs read so far name (`registriesNamed`), worked out again after any config is read or forgotten. */
  private named: Map<string, string[]> | undefined;
  /**
   * The folders whose config named a registry when read: one forgotten (changed on disk, or saved
   * as it was) is read again by `registriesNamed`, so the file it names stays the registry it is
   * although nothing else (a fixture of that folder, the workspace's walk) reads it again.
   */
  private readonly namingDirectories = new Set<string>();

  /**
   * `projectOf`: the folder a project file must stay inside once its symbolic links are resolved
   * (the editor's workspace folder; for the CLI the work tree holding it, else its own folder).
   * `registryNamed` is told the registry (absolute path) each config read names, as it is read.
   *
   * Without .git (a `git archive` export), the project is the nearest folder holding a babelq.json
   * other than the linked one judged: the link does not mark its own folder. Counted, it made its
   * folder the project, so `pkg/babelq.json` linked to `../babelq.json` was refused as outside it,
   * while the walk up from `pkg` reads `../babelq.json` itself. Reading it through the link shows
   * nothing the walk does not; a link to a file outside that folder is still refused. A
   * registry.json above bounds no linked babelq.json (`linkedConfigProject`).
   */
  constructor(
    private readonly read: TextReader = readFromDisk,
    private readonly exists: (path: string) => boolean = existsSync,
    private readonly projectOf: (path: string) => string = (path) => linkedConfigProject(path, exists),
    private readonly registryNamed: (path: string) => void = () => undefined,
    private readonly foreignMarkOf: (path: string) => string | undefined = () => undefined,
  ) {}

  /**
   * The problem of a project file whose text `read` gave, when its bytes are not UTF-8. An editor
   * that decodes a UTF-16 file itself hands text without U+FFFD: `foreignMarkOf` (the editor's
   * record of the byte-order mark the file starts with, looked at on open and save) says so.
   */
  private notUtf8(path: string, text: string, name: string, limit: number): ConfigProblem | undefined {
    const mark = this.foreignMarkOf(path);
    if (mark !== undefined) return { offset: 0, end: 0, message: notUtf8FileMessage(name, mark) };
    return notUtf8ProjectFile(path, text, name, limit);
  }

  /**
   * The configs that govern `file`, farthest first (the order they apply in). `stopAt`, when
   * given, is the highest folder read (the editor's workspace folder).
   */
  chainFor(file: string, stopAt?: string): LoadedConfig[] {
    // Every fixture of a folder has the same chain; a lint of 10,000 files asks three times for each.
    const start = dirname(resolvedPath(file));
    const key = `${start}\u0000${stopAt ?? ''}`;
    const cached = this.chains.get(key);
    if (cached) return cached;
    const chain = this.walkUp(start, stopAt);
    this.chains.set(key, chain);
    return chain;
  }

  private walkUp(start: string, stopAt: string | undefined): LoadedConfig[] {
    const chain: LoadedConfig[] = [];
    const limit = stopAt === undefined ? undefined : resolvedPath(stopAt);
    let directory = start;
    for (let level = 0; level < MAX_LEVELS; level++) {
      const config = this.configIn(directory);
      if (config) chain.push(config);
      if (config?.config.root || directory === limit || this.isProjectTop(directory)) break;
      const parent = dirname(directory);
      if (parent === directory || (limit !== undefined && !isBelow(limit, parent))) break;
      directory = parent;
    }
    return chain.reverse();
  }

  /** The settings for `file`: `base`, then its configs and their overrides, then `top` (the user's and the command line's). */
  settingsFor(file: string, base: Settings, top: readonly SettingsLayer[], stopAt?: string): Settings {
    return layerSettings(base, [...this.layersFor(file, stopAt), ...top]);
  }

  /** What the configs set for `file`, in the order they apply. */
  layersFor(file: string, stopAt?: string): SettingsLayer[] {
    const layers: SettingsLayer[] = [];
    const absolute = resolvedPath(file);
    for (const loaded of this.chainFor(absolute, stopAt)) {
      const { registryPath } = loaded.config.layer;
      // A config's registry path is relative to the config itself; made absolute, it means the same from any folder.
      layers.push(registryPath === undefined ? loaded.config.layer : { ...loaded.config.layer, registryPath: resolve(loaded.directory, registryPath) });
      const path = relativePath(loaded.directory, absolute);
      for (const override of loaded.overrides) if (override.files.some((glob) => glob.test(path))) layers.push(override.layer);
    }
    return layers;
  }

  /** True when an `ignore` glob of a config that governs `file` matches it or a folder it lies in (workspace/glob.ts, ignoreGlob). */
  isIgnored(file: string, stopAt?: string): boolean {
    const absolute = resolvedPath(file);
    return this.chainFor(absolute, stopAt).some((loaded) => {
      if (loaded.ignore.length === 0) return false;
      const path = relativePath(loaded.directory, absolute);
      return loaded.ignore.some((glob) => glob.test(path));
    });
  }

  /** The suppressions that name `file`, from every suppressions file beside a config that governs it. */
  suppressionsFor(file: string, stopAt?: string): Suppression[] {
    const absolute = resolvedPath(file);
    const entries: Suppression[] = [];
    // One by one: a spread of 200,000 entries (a suppressions file under its bound) overflows the stack.
    for (const loaded of this.chainFor(absolute, stopAt)) for (const entry of loaded.suppressions?.byFile.get(absolute) ?? []) entries.push(entry);
    return entries;
  }

  /** Every config read so far (for reporting their problems). */
  loaded(): LoadedConfig[] {
    return [...this.byDirectory.values()].filter((config): config is LoadedConfig => config !== undefined);
  }

  /**
   * The registry each config read so far names, with the folders of the configs naming it: a
   * registry of another name in a folder no config above names (workspace/named-registries.ts).
   */
  registriesNamed(): NamedRegistries {
    if (this.named !== undefined) return this.named;
    for (const directory of [...this.namingDirectories]) {
      if (this.byDirectory.has(directory)) continue;
      // Read again as it is now; a config gone or naming none no longer names one.
      if (this.configIn(directory)?.config.layer.registryPath === undefined) this.namingDirectories.delete(directory);
    }
    const named = new Map<string, string[]>();
    for (const loaded of this.byDirectory.values()) if (loaded?.present) addNamedRegistry(named, loaded.directory, loaded.config.layer.registryPath);
    this.named = named;
    return named;
  }

  /** Forgets what was read from `path` (a babelq.json or its suppressions file that changed, was created or deleted). */
  forget(path: string): void {
    this.byDirectory.delete(dirname(resolve(path)));
    this.chains.clear();
    this.named = undefined;
  }

  /**
   * The babelq.json and suppressions file of every folder whose config is kept (read, or looked
   * for and not there): the files what is kept was worked out from.
   */
  *filesLookedAt(): Iterable<string> {
    for (const directory of this.byDirectory.keys()) {
      yield join(directory, PROJECT_CONFIG_FILE);
      yield join(directory, SUPPRESSIONS_FILE);
    }
  }

  clear(): void {
    this.byDirectory.clear();
    this.markers.clear();
    this.chains.clear();
    this.named = undefined;
    this.namingDirectories.clear();
  }

  /** The babelq.json in one folder, read on first use. */
  configIn(directory: string): LoadedConfig | undefined {
    if (this.byDirectory.has(directory)) return this.byDirectory.get(directory);
    const path = join(directory, PROJECT_CONFIG_FILE);
    let loaded: LoadedConfig | undefined;
    // A suppressions file counts on its own too: a baseline needs no babelq.json beside it.
    const linkedOut = this.exists(path) ? this.linkOutOfProject(path) : undefined;
    if (linkedOut) loaded = unreadableConfig(path, directory, linkedOut);
    else if (this.exists(path)) loaded = this.load(path, directory);
    else {
      const broken = brokenLink(path);
      if (broken) loaded = unreadableConfig(path, directory, whyUnread(broken));
    }
    if (loaded === undefined) {
      const suppressions = this.loadSuppressions(directory);
      if (suppressions) loaded = { path, directory, present: false, config: EMPTY_CONFIG, text: '', ignore: [], overrides: [], suppressions };
    }
    this.byDirectory.set(directory, loaded);
    const { registryPath } = loaded?.config.layer ?? {};
    if (registryPath !== undefined) {
      this.named = undefined;
      this.namingDirectories.add(directory);
      this.registryNamed(resolve(directory, registryPath));
    }
    return loaded;
  }

  /** The config at `path`; undefined when it is gone by the time it is opened (deleted since the look). */
  private load(path: string, directory: string): LoadedConfig | undefined {
    let text: string;
    try {
      text = this.read(path, MAX_CONFIG_FILE_BYTES);
    } catch (error) {
      if (error instanceof UnreadableFile && error.reason === 'missing') return undefined;
      return unreadableConfig(path, directory, whyUnread(error));
    }
    // Bytes that are not UTF-8 are that one problem, and no settings are read from what they decode to.
    const notUtf8 = this.notUtf8(path, text, PROJECT_CONFIG_FILE, MAX_CONFIG_FILE_BYTES);
    if (text.charCodeAt(0) === 0xfeff) text = ` ${text.slice(1)}`; // a BOM is fine in a config; a space keeps the offsets
    const config: ProjectConfig = notUtf8 ? { root: false, layer: {}, ignore: [], overrides: [], problems: [notUtf8] } : readProjectConfig(text);
    const suppressions = this.loadSuppressions(directory);
    return {
      path,
      directory,
      present: true,
      config,
      text,
      ignore: config.ignore.map(ignoreGlob),
      overrides: config.overrides.map((override) => ({ files: override.files.map(globToRegExp), layer: override.layer })),
      ...(suppressions ? { suppressions } : {}),
    };
  }

  private loadSuppressions(directory: string): LoadedSuppressions | undefined {
    const path = join(directory, SUPPRESSIONS_FILE);
    let text: string;
    let file: SuppressionsFile;
    if (!this.exists(path)) {
      const broken = brokenLink(path);
      if (!broken) return undefined;
      return { path, text: '', file: { entries: [], problems: [{ offset: 0, end: 0, message: `babelq-suppressions.json cannot be read: ${whyUnread(broken)}` }] }, byFile: new Map() };
    }
    const linkedOut = this.linkOutOfProject(path);
    if (linkedOut) return { path, text: '', file: { entries: [], problems: [{ offset: 0, end: 0, message: `babelq-suppressions.json cannot be read: ${linkedOut}` }] }, byFile: new Map() };
    try {
      text = this.read(path, MAX_SUPPRESSIONS_FILE_BYTES);
      // A BOM is fine here as in babelq.json: read with a space in its place, which keeps the
      // offsets, while `text` keeps the mark, so a baseline or prune writes it back as it was.
      const notUtf8 = this.notUtf8(path, text, SUPPRESSIONS_FILE, MAX_SUPPRESSIONS_FILE_BYTES);
      file = notUtf8 ? { entries: [], problems: [notUtf8] } : readSuppressions(text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text);
    } catch (error) {
      // Gone by the time it is opened (deleted since the look): no suppressions file there.
      if (error instanceof UnreadableFile && error.reason === 'missing') return undefined;
      text = '';
      file = { entries: [], problems: [{ offset: 0, end: 0, message: `babelq-suppressions.json cannot be read: ${whyUnread(error)}` }] };
    }
    // Pushed onto each fixture's list, not copied into a new one per entry: 50,000 entries naming one
    // fixture took 13 s so.
    const byFile = new Map<string, Suppression[]>();
    for (const entry of file.entries) {
      const fixture = resolve(directory, entry.file);
      const named = byFile.get(fixture);
      if (named) named.push(entry);
      else byFile.set(fixture, [entry]);
    }
    return { path, text, file, byFile };
  }

  /**
   * Why the project file at `path` is not read: it is a symbolic link to a file outside its project.
   * A checkout could link babelq.json to a JSON file elsewhere on the machine (a CI runner's
   * credentials), whose keys and values the findings would then quote into a log or the editor.
   * A link inside the project (a package's config shared from the top of the repository) is read.
   */
  private linkOutOfProject(path: string): string | undefined {
    const real = realPathIfThere(path);
    // Not a link itself (a folder above it may be one, the whole checkout reached through a link): its own.
    if (real === undefined || real === join(realPath(dirname(path)), basename(path))) return undefined;
    const project = this.projectOf(path);
    return isInside(project, path, realPath(project), real) ? undefined : `it is a symbolic link to a file outside the project (${real}); it was not read`;
  }

  private isProjectTop(directory: string): boolean {
    let marked = this.markers.get(directory);
    if (marked === undefined) {
      marked = this.exists(join(directory, PROJECT_MARKER));
      this.markers.set(directory, marked);
    }
    return marked;
  }
}

/**
 * Why a project file was not read, in words after "babelq.json cannot be read: ". The problem sits
 * in the file itself, so the reader's message, which names it by its absolute path (the CI
 * runner's checkout, in a log), is not repeated: "it is a named pipe, …", "permission denied.".
 */
function whyUnread(error: unknown): string {
  if (!(error instanceof UnreadableFile)) return error instanceof Error ? error.message : String(error);
  return error.detail.startsWith('cannot be read: ') ? error.detail.slice('cannot be read: '.length) : `it ${error.detail}`;
}

/** A babelq.json that is there but cannot be read: nothing of it applies, and its one problem says why. */
function unreadableConfig(path: string, directory: string, reason: string): LoadedConfig {
  const config: ProjectConfig = { root: false, layer: {}, ignore: [], overrides: [], problems: [{ offset: 0, end: 0, message: `babelq.json cannot be read: ${reason}` }] };
  return { path, directory, present: true, config, text: '', ignore: [], overrides: [] };
}

/**
 * Why a project file that does not exist as followed is still there by its name: a symbolic link
 * to nothing, or one that loops. Passed over as absent, a config moved away from under its link
 * would leave every fixture linted on defaults in silence.
 */
function brokenLink(path: string): UnreadableFile | undefined {
  try {
    const entry = lstatSync(path, { throwIfNoEntry: false });
    return entry?.isSymbolicLink() ? notAFileToRead(path, entry) : undefined;
  } catch {
    return undefined;
  }
}

/** `file` relative to `directory`, with `/` separators (what globs are matched against). */
export function relativePath(directory: string, file: string): string {
  const path = relative(directory, file);
  return sep === '/' ? path : path.split(sep).join('/');
}

function isBelow(root: string, directory: string): boolean {
  const path = relative(root, directory);
  return path === '' || (!path.startsWith('..') && !path.startsWith(sep) && !/^[A-Za-z]:/.test(path));
}
