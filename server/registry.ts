/**
 * The registry per workspace folder, as the server sees it: found for each fixture, loaded once,
 * swapped as a whole immutable value when any of its files changes (on disk or in an open editor),
 * and the files it depends on remembered so a change re-validates only what it affects.
 */
import { lstatSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NO_REGISTRY, type Registry, type RegistryEntry, type RegistryState } from '../core/registry/types';
import type { Settings } from '../core/rules/settings/settings';
import { MESSAGE_SCHEME } from '../core/language/protocol';
import { projectRootOf } from '../workspace/project-root';
import { findRegistry, loadRegistry, loadRegistrySteps, REGISTRY_FILE_NAME, shownFrom, type LoadResult, type TextReader } from '../workspace/registry-loader';
import { STAND_IN_FIXTURE_NAME } from '../workspace/fixture-files';
import { isUnder, realPathIfThere } from '../workspace/path-containment';
import { isNamedRegistry } from '../workspace/named-registries';
import type { NamedRegistries } from '../workspace/project-config';
import { runInSlices } from '../workspace/time-slices';
import { ProjectFileStamps } from './project-file-stamps';

/**
 * Told once per registry state the service computes: a registry loaded (or reloaded after a
 * change), one that cannot be used, or none found for a folder of fixtures (with the root searched).
 */
export type RegistryListener = (state: RegistryState, searched: Searched) => void;

/** Where a registry search began: the fixture's directory and the folder it stops at. */
type Searched = { readonly directory: string; readonly root: string };

/** A registry found to load; `passedOver`: the nearest registry.json passed over below it, as the workspace folder names it. */
type FoundRegistry = { readonly path: string; readonly passedOver?: string };

/** What one directory's search found, the places it looked at, and the registry.json it read last (for the load that follows). */
interface RegistrySearchResult {
  readonly found: FoundRegistry | RegistryState;
  readonly places: readonly string[];
  readonly read?: { readonly path: string; readonly text: string };
}

/** A search's key in `found`: the folder it stops at, the registry path a setting names, the directory it starts from. */
function searchKey(root: string, registryPath: string | undefined, directory: string): string {
  return `${root}\u0000${registryPath ?? ''}\u0000${directory}`;
}

/** Documents with no file: an untitled editor, a message the extension opened from a broker. */
const UNSAVED_SCHEMES = ['untitled', MESSAGE_SCHEME];

export class RegistryService {
  private readonly loaded = new Map<string, LoadResult>();
  /**
   * Which registry a directory's fixtures find (walking up the tree on every keystroke would be
   * waste): its path, or the state that says why there is none to load. The same state object
   * each time, because analyses are cached against the registry's identity.
   */
  private readonly found = new Map<string, FoundRegistry | RegistryState>();
  /**
   * Whether each registry.json a search read is a registry (has a "schemas" key): read once, not
   * by the search of each folder its fixtures are in; forgotten when the file changes, and when no
   * search or registry kept depends on it any longer (`keepSearchesFor`), since the look at the
   * disk then no longer looks at it. One reached through a symbolic link, whose file event names
   * the file the link leads to, is forgotten when that file changes on disk (`verdictsThroughLinks`).
   */
  private readonly registryVerdicts = new Map<string, boolean>();
  /** The registry.json paths of `registryVerdicts` reached through a symbolic link, by the place the link leads to. */
  private readonly verdictsThroughLinks = new Map<string, Set<string>>();
  /** Whether a search or a registry was forgotten since the verdicts were last pruned to those still depended on. */
  private verdictsToPrune = false;
  /** The places each search of `found` looked for a registry.json (from its fixtures' directory), kept as long as its answer is. */
  private readonly searchedPlaces = new Map<string, { readonly directory: string; readonly places: readonly string[] }>();
  /**
   * The keys of `found` whose search was made for a folder below (`searchFromParent`), which no
   * fixture of their own folder has used yet: the listener is told of such a search when one does,
   * as a search of that folder's own would have told it.
   */
  private readonly searchesUntold = new Set<string>();
  private folders: string[] = [];
  /** The first workspace folder as the editor listed it: where a document with no file belongs. */
  private firstFolder: string | undefined;
  /** Roots of files opened without any workspace folder, by the file's directory. */
  private readonly projectRoots = new Map<string, string>();
  /**
   * The schema files each registry read when it last loaded. Unlike `loaded`, an edit does not
   * forget them (opening a schema file counts as one): they say which open JSON files are schemas,
   * by the paths the registry reads them by and by where those reached through a link really are.
   */
  private readonly schemaFilesOf = new Map<string, SchemaFilesRead>();
  /**
   * The loads in time slices under way, by registry.json path, each with the files it has read so
   * far and the paths changed since it began, on disk (`changed`) or by an editor's unsaved edit
   * (`edited`): a load that read one of them is not kept. An edit of the place a file read through
   * a symbolic link leads to is no change of what the load read from disk. `readThroughLinks`:
   * where the files it read through a symbolic link really are, where their changes on disk are named.
   */
  private readonly loading = new Map<
    string,
    { readonly done: Promise<RegistryState | undefined>; readonly read: Set<string>; readonly readThroughLinks: Set<string>; readonly changed: Set<string>; readonly edited: Set<string> }
  >();
  /** Counts the changes of folders: a load in time slices begun before one is not kept. */
  private folderChanges = 0;

  /**
   * `overlay` returns the text of an open editor for a path, if it holds one; the rest is read from
   * disk through `stamps`, which keeps what each file was when read for a client that sends no file
   * events (server/project-file-stamps.ts). `namedByConfigs`: the registries the babelq.json files
   * read so far name, wherever they are in the workspace (`registryFilePath`).
   */
  constructor(
    overlay: (path: string) => string | undefined,
    private readonly listener: RegistryListener = () => undefined,
    private readonly stamps: ProjectFileStamps = new ProjectFileStamps(),
    private readonly namedByConfigs: () => NamedRegistries = () => new Map(),
  ) {
    this.reader = stamps.over(overlay);
  }

  setWorkspaceFolders(uris: readonly string[]): void {
    const paths = uris.map(toPath).filter((path): path is string => path !== undefined);
    this.firstFolder = paths[0];
    this.folders = [...paths].sort((a, b) => b.length - a.length);
    this.loaded.clear();
    this.found.clear();
    this.registryVerdicts.clear();
    this.verdictsThroughLinks.clear();
    this.searchedPlaces.clear();
    this.searchesUntold.clear();
    this.projectRoots.clear();
    this.schemaFilesOf.clear();
    // The loads under way are for the folders before: the next request for each starts another.
    this.folderChanges++;
    this.loading.clear();
  }

  /** The workspace folders' paths (none when the editor named no root). */
  workspaceFolders(): readonly string[] {
    return this.folders;
  }

  /**
   * The workspace folder that holds a file: the deepest one; a file outside every folder gets its
   * own directory. With no folder at all (an editor started without a root), the file's project:
   * the nearest folder above it holding `.git`, else `babelq.json`, else `registry.json`, else its
   * own directory (workspace/project-root.ts).
   */
  folderOf(path: string): string {
    const folder = this.workspaceFolderOf(path);
    if (folder) return folder;
    if (this.folders.length > 0) return dirname(path);
    const directory = dirname(path);
    let root = this.projectRoots.get(directory);
    if (root === undefined) {
      root = projectRootOf(path);
      this.projectRoots.set(directory, root);
    }
    return root;
  }

  /**
   * The workspace folder a path lies in (the deepest), undefined outside every folder and without
   * folders: there a registry is named by its absolute path, since no folder is the user's frame.
   */
  private workspaceFolderOf(path: string): string | undefined {
    return this.folders.find((candidate) => isUnder(candidate, path));
  }

  /**
   * Where a document is judged from: a file's own path; for a document with no file (an untitled
   * envelope, a queued message opened from a broker) a stand-in at the top of the first workspace
   * folder, so it finds that folder's registry and babelq.json as a fixture at its root would,
   * and is checked against its URN's schema like any fixture. Nothing reads the stand-in itself.
   */
  judgedPath(documentUri: string): string | undefined {
    const path = toPath(documentUri);
    if (path !== undefined) return path;
    // Only documents that have no file anywhere: a git: or other virtual copy of a file belongs
    // where that file is, which this server cannot tell, so it gets no registry (as before).
    if (!UNSAVED_SCHEMES.some((scheme) => documentUri.startsWith(`${scheme}:`))) return undefined;
    return this.firstFolder === undefined ? undefined : join(this.firstFolder, STAND_IN_FIXTURE_NAME);
  }

  /** The registry state for a document URI under its settings (a registry not loaded yet is loaded in one go). */
  stateFor(documentUri: string, settings: Settings): RegistryState {
    const target = this.target(documentUri, settings);
    return 'kind' in target ? target : this.load(target.path, target.searched);
  }

  /**
   * `stateFor` for a request: a registry not loaded yet is loaded in time slices, so requests about
   * other documents are answered while a registry of hundreds of thousands of entries loads.
   */
  async stateWhenLoaded(documentUri: string, settings: Settings): Promise<RegistryState> {
    let dropped = 0;
    for (;;) {
      // Found again after each load: a change meanwhile may have a fixture find another registry.
      const target = this.target(documentUri, settings);
      if ('kind' in target) return target;
      const result = this.loaded.get(target.path);
      if (result) return result.state;
      const unkept = await this.loadInSlices(target.path, target.searched, target.text);
      if (unkept !== undefined && ++dropped >= LOADS_WAITED) {
        const now = this.target(documentUri, settings);
        if (!('kind' in now) && now.path === target.path) return this.loaded.get(now.path)?.state ?? unkept;
      }
    }
  }

  /**
   * Where a document's registry is (its path, where the search began, and the text of registry.json
   * when the search has just read it), or the state that says why there is none to load.
   */
  private target(documentUri: string, settings: Settings): RegistryState | { readonly path: string; readonly searched: Searched; readonly text?: string } {
    const path = this.judgedPath(documentUri);
    if (!path) return NO_REGISTRY;
    const root = this.folderOf(path);
    const directory = dirname(path);
    const searched = { directory, root };
    const cacheKey = searchKey(root, settings.registryPath, directory);
    let found = this.found.get(cacheKey);
    // A search made for a folder below: its own fixture tells the listener now.
    if (found !== undefined && this.searchesUntold.delete(cacheKey) && 'kind' in found) this.listener(found, searched);
    // The last registry.json the search read, handed to the load that follows: a large one takes
    // tens of milliseconds to read, and the load would read it again at once. Not kept in `found`.
    let read: { readonly path: string; readonly text: string } | undefined;
    if (!found) {
      const search = (settings.registryPath === undefined ? this.searchFromParent(directory, root) : undefined) ?? this.search(directory, root, settings.registryPath);
      found = search.found;
      read = search.read;
      this.keepSearch(cacheKey, directory, search);
      if ('kind' in found) this.listener(found, searched);
    }
    if ('kind' in found) return found;
    return read?.path === found.path ? { path: found.path, searched, text: read.text } : { path: found.path, searched };
  }

  /** The registry a fixture in `directory` finds, searched from there up to `root`, and the places looked at. */
  private search(directory: string, root: string, registryPath: string | undefined): RegistrySearchResult {
    let read: { readonly path: string; readonly text: string } | undefined;
    const reader: TextReader = (candidate, limit) => {
      const text = this.reader(candidate, limit);
      read = { path: candidate, text };
      return text;
    };
    const places: string[] = [];
    // The nearest registry.json passed over (no "schemas" key): kept with the search, so a
    // fixture's status says why it has no registry without reading the file again at each pull.
    let passedOver: string | undefined;
    // findRegistry starts from a fixture's folder; the stand-in's name places one there.
    const search = findRegistry(join(directory, STAND_IN_FIXTURE_NAME), root, registryPath, {
      read: reader,
      passedOver: (candidate) => {
        passedOver ??= candidate;
      },
      looked: (candidate) => {
        places.push(candidate);
        this.stamps.looked(candidate);
      },
      verdicts: this.registryVerdicts,
      linkedVerdict: (candidate, place) => {
        const candidates = this.verdictsThroughLinks.get(place);
        if (candidates) candidates.add(candidate);
        else this.verdictsThroughLinks.set(place, new Set([candidate]));
      },
    });
    const shownPassedOver = passedOver === undefined ? undefined : this.shownInFolder(passedOver);
    const found = !search
      ? shownPassedOver === undefined ? NO_REGISTRY : { kind: 'none' as const, passedOver: shownPassedOver }
      : 'error' in search
        ? shownFrom({ kind: 'broken', path: search.path, error: search.error }, this.workspaceFolderOf(search.path))
        : { path: search.path, ...(shownPassedOver !== undefined ? { passedOver: shownPassedOver } : {}) };
    return { found, places, ...(read ? { read } : {}) };
  }

  /** A path as the workspace folder it lies in names it; outside every folder, as it is. */
  private shownInFolder(path: string): string {
    const folder = this.workspaceFolderOf(path);
    return folder === undefined ? path : relative(folder, path);
  }

  /**
   * The registry.json passed over (no "schemas" key) below the registry a document uses, as the
   * workspace folder names it: from the search kept for the document's folder, so a pull reads no
   * file for it. Undefined when none was, or when the document has no registry (its state says so).
   */
  passedOverBelow(documentUri: string, settings: Settings): string | undefined {
    const path = this.judgedPath(documentUri);
    if (!path) return undefined;
    const found = this.found.get(searchKey(this.folderOf(path), settings.registryPath, dirname(path)));
    return found !== undefined && !('kind' in found) ? found.passedOver : undefined;
  }

  /**
   * A directory's search made from its parent's, which a search from the directory would repeat
   * above it (10,000 one-fixture folders under one registry.json had it looked for, its path made
   * real and its containment checked 10,000 times): when nothing is at the directory's own
   * registry.json and no symbolic link is in its path (so the search climbs from it as from its
   * parent, within the same folder), it finds what its parent's search finds, having looked there
   * first. The climb goes up to the nearest folder with a search kept, or else to the highest
   * folder that qualifies, which is searched on its own; that search and the parent's are kept
   * (for the directory's siblings). Undefined when the directory itself does not qualify: it is
   * searched on its own.
   */
  private searchFromParent(directory: string, root: string): RegistrySearchResult | undefined {
    // No link in the directory's path: none in its parents' either.
    if (realPathIfThere(directory) !== directory) return undefined;
    // The folders whose own registry.json is not there, from `directory` up, each searched from the next.
    const below: string[] = [];
    let base: RegistrySearchResult | undefined;
    for (let current = directory; ; ) {
      const parent = dirname(current);
      if (current === root || parent === current || !isUnder(root, parent) || !this.nothingAt(join(current, REGISTRY_FILE_NAME))) {
        // Searched on its own: the highest folder of the climb.
        if (below.length === 0) return undefined;
        base = this.search(current, root, undefined);
        this.keepSearch(searchKey(root, undefined, current), current, base, false);
        break;
      }
      below.push(current);
      const found = this.found.get(searchKey(root, undefined, parent));
      const searched = this.searchedPlaces.get(searchKey(root, undefined, parent));
      if (found !== undefined && searched !== undefined) {
        base = { found, places: searched.places };
        break;
      }
      current = parent;
    }
    // The directory's own places first, then each folder's up the climb, then the base's.
    const result = { ...base, places: [...below.map((folder) => join(folder, REGISTRY_FILE_NAME)), ...base.places] };
    // The parent's is kept for the directory's siblings (the directory's own by its caller, with the
    // listener told) when the climb went through it; the folders between are not: each kept search
    // holds every place of its climb, and a fixture 1,500 folders deep would have kept a million.
    if (below.length > 1) this.keepSearch(searchKey(root, undefined, below[1]!), below[1]!, { ...base, places: result.places.slice(1) }, false);
    return result;
  }

  /** True when nothing is at `candidate` (a registry.json's place), recorded as looked at first: a file made meanwhile shows at the next look. */
  private nothingAt(candidate: string): boolean {
    this.stamps.looked(candidate);
    try {
      return lstatSync(candidate, { throwIfNoEntry: false }) === undefined;
    } catch {
      // Cannot be looked at: the search on its own says why.
      return false;
    }
  }

  /** `told`: the listener has been told of the search (made for its own folder's fixture), else it is told at that folder's first use. */
  private keepSearch(key: string, directory: string, search: RegistrySearchResult, told = true): void {
    this.found.set(key, search.found);
    this.searchedPlaces.set(key, { directory, places: search.places });
    if (told) this.searchesUntold.delete(key);
    else this.searchesUntold.add(key);
  }

  /** The loaded registry whose file this document is (`registryFilePath`), if it is one. */
  registryFileState(documentUri: string, settings?: Settings): RegistryState | undefined {
    const path = this.registryFilePath(documentUri, settings);
    return path === undefined ? undefined : this.load(path, this.searchedFrom(path));
  }

  /** `registryFileState` for a request: the registry loaded in time slices when it is not yet. */
  async registryFileStateWhenLoaded(documentUri: string, settings?: Settings): Promise<RegistryState | undefined> {
    const path = this.registryFilePath(documentUri, settings);
    return path === undefined ? undefined : this.whenLoaded(path);
  }

  /**
   * The path of a document that is a registry's file: a registry.json, or the file its own
   * settings name as the registry (babelq.json's "registry", babelqueue.registry.path), resolved
   * from its workspace folder as a fixture beside it resolves it (`search`), so `config/sub.json`
   * is the registry it is; or a file a babelq.json elsewhere in its workspace folder names (a
   * monorepo's `packages/a/babelq.json` naming `../../platform/main.json`, which no config above
   * the file names). A JSON file nothing names stays plain JSON. Decided by the path: nothing is
   * read, and only a file of a named registry's name is looked up on disk.
   */
  private registryFilePath(documentUri: string, settings: Settings | undefined): string | undefined {
    const path = toPath(documentUri);
    if (!path) return undefined;
    if (path.endsWith(`/${REGISTRY_FILE_NAME}`)) return path;
    if (this.namedByOwnSettings(path, settings?.registryPath)) return path;
    // Named from another folder: only inside a workspace folder, which bounds what its fixtures
    // may use as their registry (a config naming a file outside it makes no registry of that file).
    const folder = this.workspaceFolderOf(path);
    return folder !== undefined && isNamedRegistry(path, this.namedByConfigs(), folder) ? path : undefined;
  }

  /** Whether the file at `path` is the registry its own settings name (`named`). */
  private namedByOwnSettings(path: string, named: string | undefined): boolean {
    if (named === undefined || named.trim() === '') return false;
    const target = resolve(this.folderOf(path), named);
    if (target === path) return true;
    // The same file reached through a linked folder (cfg/sub.json, cfg a link to config): looked up
    // on disk only for a file of the registry's name, so other JSON files cost no system call.
    if (basename(target) !== basename(path)) return false;
    const real = realPathIfThere(path);
    return real !== undefined && real === realPathIfThere(target);
  }

  /** The registry.json at `path` as its own folder's search finds it. */
  private searchedFrom(path: string): Searched {
    return { directory: dirname(path), root: this.folderOf(path) };
  }

  /**
   * True when a registry loaded in this workspace reads this file as one of its schemas: by this
   * path, or through a symbolic link that leads to it (the file opened where it really is).
   */
  isSchemaFile(uri: string): boolean {
    const path = toPath(uri);
    if (!path || path.endsWith(`/${REGISTRY_FILE_NAME}`)) return false;
    for (const files of this.schemaFilesOf.values()) if (files.paths.has(path) || files.throughLinks.has(path)) return true;
    return false;
  }

  /**
   * The registry entries whose schema is this file, each with its registry (loaded, with unsaved
   * edits): read by this path, or through a link that leads to it. A registry that reads it
   * through a link reads it from disk, so its entries hold the file as saved.
   */
  schemaOwners(uri: string): { readonly registry: Registry; readonly entry: RegistryEntry }[] {
    const path = toPath(uri);
    if (!path) return [];
    const owners: { registry: Registry; entry: RegistryEntry }[] = [];
    for (const [registryPath, files] of this.schemaFilesOf) {
      const readBy = pathsReadBy(files, path);
      if (readBy.length === 0) continue;
      const state = this.load(registryPath, this.searchedFrom(registryPath));
      if (state.kind !== 'loaded') continue;
      for (const entry of state.registry.entries) if (entry.schema !== undefined && readBy.includes(entry.schema.path)) owners.push({ registry: state.registry, entry });
    }
    return owners;
  }

  /** Loads, in time slices, the registries that read this file as a schema and were forgotten since (before `schemaOwners`). */
  async schemaOwnersLoaded(uri: string): Promise<void> {
    const path = toPath(uri);
    if (!path) return;
    for (const [registryPath, files] of [...this.schemaFilesOf]) if (pathsReadBy(files, path).length > 0) await this.whenLoaded(registryPath);
  }

  /** The registry at `path`, loaded once (and again after a change to a file it read). */
  private load(path: string, searched: Searched): RegistryState {
    return this.loaded.get(path)?.state ?? this.keep(path, loadRegistry(path, searched.root, this.reader, this.workspaceFolderOf(path)), searched);
  }

  /** The registry at `path`, loaded in time slices when it is not loaded yet (again after each change meanwhile). */
  private async whenLoaded(path: string): Promise<RegistryState> {
    let dropped = 0;
    for (;;) {
      const result = this.loaded.get(path);
      if (result) return result.state;
      const unkept = await this.loadInSlices(path, this.searchedFrom(path));
      if (unkept !== undefined && ++dropped >= LOADS_WAITED) return this.loaded.get(path)?.state ?? unkept;
    }
  }

  /**
   * One load in time slices per registry at a time: every request that waits for it joins it. A
   * load during which one of the files it read changed (or the folders did) is not kept, since it
   * may have read that file before the change; whoever waits for it loads again, up to
   * LOADS_WAITED loads. Resolves to the state of a load not kept for a change of its files
   * (undefined when it was kept, or made for folders that are no longer the workspace's).
   */
  private loadInSlices(path: string, searched: Searched, text?: string): Promise<RegistryState | undefined> {
    const pending = this.loading.get(path);
    if (pending) return pending.done;
    const read = new Set<string>();
    const changed = new Set<string>();
    const edited = new Set<string>();
    const readThroughLinks = new Set<string>();
    const load = { done: this.sliced(path, searched, read, readThroughLinks, changed, edited, text).finally(() => {
      if (this.loading.get(path) === load) this.loading.delete(path);
    }), read, readThroughLinks, changed, edited };
    this.loading.set(path, load);
    return load.done;
  }

  /**
   * `read` is told each file the load reads, as it reads it, and `readThroughLinks` where each it
   * reads through a symbolic link really is; `text` is registry.json as the search just read it,
   * read once more if the load asks for it again.
   */
  private async sliced(path: string, searched: Searched, read: Set<string>, readThroughLinks: Set<string>, changed: ReadonlySet<string>, edited: ReadonlySet<string>, text?: string): Promise<RegistryState | undefined> {
    const folderChanges = this.folderChanges;
    let searchedText = text;
    const reader: TextReader = (file, limit) => {
      read.add(file);
      if (file !== path || searchedText === undefined) return this.reader(file, limit);
      const kept = searchedText;
      searchedText = undefined;
      return kept;
    };
    // The search just read registry.json (tens of milliseconds for a large one): other requests get a turn first.
    await new Promise((resume) => setImmediate(resume));
    const loaded = await runInSlices(loadRegistrySteps(path, searched.root, reader, (place) => readThroughLinks.add(place), this.workspaceFolderOf(path)));
    if (folderChanges !== this.folderChanges || this.loaded.has(path)) return undefined;
    if (dependsOnAny(loaded, changed) || dependsOnAny(loaded, edited, false)) return shownFrom(loaded.state, this.workspaceFolderOf(path));
    this.keep(path, loaded, searched);
    return undefined;
  }

  /** Keeps a registry just loaded, tells the listener, and returns its state. */
  private keep(path: string, loaded: LoadResult, searched: Searched): RegistryState {
    // Its fixtures' registry-error names it as babelq lint does from the workspace folder.
    const result = { ...loaded, state: shownFrom(loaded.state, this.workspaceFolderOf(path)) };
    this.loaded.set(path, result);
    this.schemaFilesOf.set(path, schemaFilesRead(path, result));
    this.listener(result.state, searched);
    return result.state;
  }

  /** Every loaded registry (for references and links). */
  all(): RegistryState[] {
    return [...this.loaded.values()].map((result) => result.state);
  }

  /**
   * Forgets every registry that read one of these files (or could be newly found because a
   * registry.json appeared); returns true when anything was forgotten, or a load under way had
   * read one of them. An editor's unsaved edit of a file (`edited`) changes nothing for a registry
   * that reads the file through a symbolic link: it reads it from disk.
   */
  invalidate(uris: readonly string[], edited = false): boolean {
    const paths = uris.map(toPath).filter((path): path is string => path !== undefined);
    let changed = paths.some((path) => path.endsWith(`/${REGISTRY_FILE_NAME}`));
    // A set, not a list: a checkout sends thousands of paths at once, and a registry may read as
    // many schema files; looking each file up in the list cost their product (20,000 of each: 0.8 s).
    const changedPaths = new Set(paths);
    for (const path of paths) {
      this.registryVerdicts.delete(path);
      // A registry.json reached through a link is read from disk: only a change there is one of it.
      if (edited) continue;
      const candidates = this.verdictsThroughLinks.get(path);
      if (candidates === undefined) continue;
      for (const candidate of candidates) this.registryVerdicts.delete(candidate);
      this.verdictsThroughLinks.delete(path);
      // The searches that judged it are made again: the file the link leads to need not be named
      // registry.json, so the check of the paths' names above does not tell.
      changed = true;
    }
    // A load under way may have read one of these files already: it is told, to be made again.
    // One that has read one is not kept, and may yet answer the requests that waited through
    // LOADS_WAITED loads with what it read before the change: the diagnostics are asked again.
    let loadRead = false;
    for (const load of this.loading.values()) {
      for (const path of paths) {
        (edited ? load.edited : load.changed).add(path);
        if (load.read.has(path) || (!edited && load.readThroughLinks.has(path))) loadRead = true;
      }
    }
    for (const [key, result] of this.loaded) {
      if (dependsOnAny(result, changedPaths, !edited)) {
        this.loaded.delete(key);
        changed = true;
      }
    }
    if (changed) {
      // A new or removed registry.json can change which registry a fixture finds.
      for (const path of paths) if (path.endsWith(`/${REGISTRY_FILE_NAME}`)) this.loaded.delete(path);
      this.found.clear();
      this.searchedPlaces.clear();
      this.searchesUntold.clear();
      this.verdictsToPrune = true;
    }
    return changed || loadRead;
  }

  /**
   * Every file what the service holds was worked out from: the registry.json and schema files of
   * each registry kept or being loaded (those its load has read so far: a look during the load
   * must not forget what it read), and each place a kept search looked for a registry.json. A file
   * not among them (a schema a registry no longer names, a folder no longer the workspace's)
   * changes nothing the service holds, so nothing needs to look at it.
   */
  *filesDependedOn(): Iterable<string> {
    for (const result of this.loaded.values()) yield* result.files;
    for (const load of this.loading.values()) yield* load.read;
    for (const { places } of this.searchedPlaces.values()) yield* places;
  }

  /**
   * Forgets the searches made for directories no document is judged from any longer (`live`:
   * the directories of the fixtures the workspace's report tracks and of the open documents): a
   * fixture there later searches again, and the places they looked at are not looked at meanwhile.
   */
  keepSearchesFor(live: { has(directory: string): boolean }): void {
    for (const [key, { directory }] of this.searchedPlaces) {
      if (live.has(directory)) continue;
      this.searchedPlaces.delete(key);
      this.found.delete(key);
      this.searchesUntold.delete(key);
      this.verdictsToPrune = true;
    }
    // What a registry.json was found to be goes with the last search or registry that read it: the
    // look at the disk that follows stops looking at the file (filesDependedOn), and a Neovim or
    // eglot client tells nothing of it, so a "schemas" key added or removed meanwhile would go unseen.
    // Worked out only when something was forgotten: a look runs at every open.
    if (!this.verdictsToPrune) return;
    this.verdictsToPrune = false;
    if (this.registryVerdicts.size === 0 && this.verdictsThroughLinks.size === 0) return;
    const inUse = new Set<string>([...this.loaded.keys(), ...this.loading.keys()]);
    for (const { places } of this.searchedPlaces.values()) for (const place of places) inUse.add(place);
    for (const path of this.registryVerdicts.keys()) if (!inUse.has(path)) this.registryVerdicts.delete(path);
    for (const [place, candidates] of this.verdictsThroughLinks) {
      // A candidate a kept search could not read has no verdict, and is searched again when the place changes.
      for (const candidate of candidates) if (!this.registryVerdicts.has(candidate) && !inUse.has(candidate)) candidates.delete(candidate);
      if (candidates.size === 0) this.verdictsThroughLinks.delete(place);
    }
  }

  /**
   * For each place a loaded registry reads a file at through a symbolic link (the file's path below
   * the folder as its file event names it), the paths it reads the file by: a look at the disk
   * stamps the file under those, not under the place. Made once for a batch of file events.
   */
  linksByPlace(): Map<string, string[]> {
    const links = new Map<string, string[]>();
    for (const result of this.loaded.values()) {
      result.linkedFiles.forEach((place, index) => {
        const through = links.get(place);
        if (through) through.push(result.linkedFrom[index]);
        else links.set(place, [result.linkedFrom[index]]);
      });
    }
    return links;
  }

  /**
   * How the file events of one batch reach the files registries read through symbolic links,
   * worked out once for the batch (a checkout names thousands of files). An editor's watcher
   * follows no link: it names the change of such a file where the file really is, not at the link.
   * A registry reads the file through the link from disk, so a change there is one of what it read,
   * unless an editor holds the link's own path (`isOpen`): that registry reads the editor's text,
   * whose edits were heard already, and the save's event changes nothing it read. A creation or a
   * deletion (`changedInPlace` false) reaches every link, held or not: what is behind it on disk
   * comes or goes.
   */
  linksReachedByEvents(isOpen: (path: string) => boolean): (path: string | undefined, changedInPlace: boolean) => LinksReached {
    const linksByPlace = this.linksByPlace();
    return (path, changedInPlace) => {
      const links = path === undefined ? undefined : linksByPlace.get(path);
      if (path === undefined || links === undefined) return BY_OWN_PATH;
      if (!changedInPlace) return { kind: 'links', links };
      const readFromDisk = links.filter((link) => !isOpen(link));
      if (readFromDisk.length > 0) return { kind: 'links', links: readFromDisk };
      return this.dependsOn(path) ? BY_OWN_PATH : NOTHING_READ;
    };
  }

  /**
   * True when a file is one a loaded registry depends on, or one a registry being loaded has read
   * (an edit of it must reach that load through `invalidate`, so it is made again).
   */
  isRegistryFile(uri: string): boolean {
    const path = toPath(uri);
    return path !== undefined && this.dependsOn(path);
  }

  /** `isRegistryFile` of a path. */
  private dependsOn(path: string): boolean {
    if (path.endsWith(`/${REGISTRY_FILE_NAME}`)) return true;
    for (const result of this.loaded.values()) if (result.files.includes(path)) return true;
    for (const load of this.loading.values()) if (load.read.has(path)) return true;
    return false;
  }

  private readonly reader: TextReader;
}

/** What a file event at a path reaches of the files registries read through symbolic links (`RegistryService.linksReachedByEvents`). */
export type LinksReached =
  /** No registry reads the file from disk through a link: the event is of the path it names, as any other. */
  | { readonly kind: 'own path' }
  /** The registries read the file from disk through these links: the event is a change of each. */
  | { readonly kind: 'links'; readonly links: readonly string[] }
  /** Read only through links an editor holds, and by no registry at the path the event names: it changes nothing a registry read. */
  | { readonly kind: 'nothing read' };

const BY_OWN_PATH: LinksReached = { kind: 'own path' };
const NOTHING_READ: LinksReached = { kind: 'nothing read' };

/**
 * How many loads a request waits through when each one's files change while it runs (an edit of a
 * schema of a registry that takes seconds to load, typed in without a pause): the second is the
 * answer, though not kept, and the change's own refresh asks again. Waiting for a load no change
 * meets would keep the request waiting as long as the typing lasts.
 */
const LOADS_WAITED = 2;

/** A file URI as a path; undefined for other schemes (untitled documents have no registry). */
export function toPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** A path as a file URI. */
export function toUri(path: string): string {
  return pathToFileURL(path).href;
}

/**
 * The schema files a registry read, as an editor may name an open one: by the paths the registry
 * reads them by, and those reached through a symbolic link also by where they really are (the file
 * the link leads to, opened there), each with the paths read through it. A set and a map, not the
 * load's lists: they are asked at each change of a JSON document, and a registry may read 50,000.
 */
interface SchemaFilesRead {
  readonly paths: ReadonlySet<string>;
  readonly throughLinks: ReadonlyMap<string, readonly string[]>;
}

function schemaFilesRead(registryPath: string, loaded: LoadResult): SchemaFilesRead {
  const paths = new Set(loaded.files);
  paths.delete(registryPath);
  const throughLinks = new Map<string, string[]>();
  loaded.linkedFiles.forEach((place, index) => {
    const path = loaded.linkedFrom[index];
    if (path === registryPath) return;
    const through = throughLinks.get(place);
    if (through) through.push(path);
    else throughLinks.set(place, [path]);
  });
  return { paths, throughLinks };
}

/** The paths a registry reads the file at `path` by as a schema: that path, and the links that lead to it; none when it reads no such schema. */
function pathsReadBy(files: SchemaFilesRead, path: string): readonly string[] {
  const throughLinks = files.throughLinks.get(path) ?? [];
  return files.paths.has(path) ? [path, ...throughLinks] : throughLinks;
}

/**
 * Whether a registry's load depends on one of `paths`: a file it read, or (`onDisk`: the paths
 * changed on disk) the place a file it read through a symbolic link really is, where an editor's
 * file event names its change.
 */
function dependsOnAny(result: LoadResult, paths: ReadonlySet<string>, onDisk = true): boolean {
  return result.files.some((file) => paths.has(file)) || (onDisk && result.linkedFiles.some((file) => paths.has(file)));
}
