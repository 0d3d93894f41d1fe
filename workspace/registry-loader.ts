/**
 * Finds and reads a registry and its schema files from disk (the only file I/O of the registry),
 * shared by the language server and the CLI so both see the same registry. Every path is checked
 * to stay inside the workspace folder, through `..`, absolute paths and symbolic links alike; a
 * path that escapes is refused before anything is read.
 */
import { lstatSync, type Stats } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ENTRIES_PER_STEP, looksLikeRegistry, readRegistryIndexSteps, registryFileName, type RegistryProblems } from '../core/registry/registry-file';
import { runSteps, type Steps } from '../core/model/steps';
import { megabytes, readBoundedText, UnreadableFile } from './bounded-read';
import { notUtf8File, notUtf8FileMessage } from './not-utf8-file';
import { compileSchema, type CompileResult } from '../core/registry/schema-compiler';
import { messageOutsideEnvelope, parseJson } from '../core/parse/parser';
import { pointerAt } from '../core/model/json-pointer';
import { firstUnreadableNumber } from '../core/registry/validators/huge-numbers';
import { rememberWrittenNumbers } from '../core/registry/written-numbers';
import type { LoadedSchema, Registry, RegistryEntry, RegistryIndexEntry, RegistryState } from '../core/registry/types';
import { resolvedPath } from './absolute-path';
import { isInside, leavesRoot, linkedPlace, realPath, realPathIfThere, realPathOfMissing } from './path-containment';
import { digitGroups } from '../core/model/count-words';
import { shortened } from '../core/model/describe-value';

export const REGISTRY_FILE_NAME = 'registry.json';

/**
 * How the messages name the folder registries stay inside, after "outside" and "leaves": the
 * editor's workspace folder by default; the CLI says its own (the repository, or the current folder).
 */
export const WORKSPACE_FOLDER_WORDS = 'the workspace folder';

/**
 * Files above these sizes are refused unread, with a registry-error saying so: a payload schema is
 * a few kilobytes and a registry of 100,000 entries about 10 MB, so the limits only ever stop a
 * hostile or generated file that would stall the editor while it is parsed and compiled.
 */
export const MAX_SCHEMA_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_REGISTRY_FILE_BYTES = 32 * 1024 * 1024;

/**
 * This many distinct schema files are compiled while the registry loads (their errors are listed
 * on registry.json); the rest compile when a fixture first uses them. ajv takes about 2 ms per
 * schema, so a registry of 100,000 schema files would otherwise hold the editor for minutes.
 */
export const EAGER_COMPILE_LIMIT = 500;

/**
 * The most bytes a registry's schema files may hold together; the files after it are refused
 * unread. Each file's bound does not bound their sum: 40 schema files of 4.9 MB each (a checkout
 * of 200 MB) held the server 44 s and 1 GB while the registry loaded, and a lint 82 s and 2.7 GB.
 * A registry's schemas are a few kilobytes each, so this only stops a hostile or generated set.
 */
export const MAX_SCHEMA_BYTES_TOGETHER = 16 * 1024 * 1024;

/**
 * The most distinct schema files one registry reads; the entries that name others get no schema,
 * with one problem on registry.json saying so. Each file named costs a path resolved, an open and
 * (missing) an error built: 614,000 entries naming missing files held the server 25 s before its
 * first diagnostics, and `babelq lint` 27 s and 1.1 GB.
 * A large real registry has thousands (the benchmark's large case 20,000); this only stops a
 * generated one.
 */
export const MAX_SCHEMA_FILES = 50_000;

/**
 * Reads a file's text, preferring what an editor holds in memory over the disk, refusing what is
 * not a regular file or is above `limit` bytes (UnreadableFile) before reading it.
 */
export type TextReader = (absolutePath: string, limit: number) => string;

/** The default reader: the disk, as UTF-8, bounded (workspace/bounded-read.ts). */
export const readFromDisk: TextReader = (path, limit) => readBoundedText(path, limit);

/** A loaded registry state and every file it depends on (to know when to load it again). */
export interface LoadResult {
  readonly state: RegistryState;
  /** registry.json and the schema files read, by the paths the registry names them by. */
  readonly files: readonly string[];
  /**
   * Where those of `files` reached through a symbolic link inside the workspace folder really are
   * (`linkedPlace`): an editor's file event names a linked file's change there, not at the link.
   */
  readonly linkedFiles: readonly string[];
  /** The path of `files` each of `linkedFiles` is read by, at the same index. */
  readonly linkedFrom: readonly string[];
}

/** What is said of a registry.json passed over (`RegistrySearch.passedOver`), after its name: the CLI's note and the editor's status. */
export const NOT_READ_AS_REGISTRY = 'was not read as a registry: it has no "schemas" key (a BabelQueue registry is {"schemas": [...]})';

/** What a search for a fixture's registry.json is given besides where to start; all optional. */
export interface RegistrySearch {
  /** How a registry.json is read (default: from disk, bounded). */
  readonly read?: TextReader;
  /** Told each registry.json passed over (another shape: no "schemas" key). */
  readonly passedOver?: (path: string) => void;
  /**
   * Told each place a registry.json is looked for, before it is looked at (a server that hears of
   * no file changes looks there again later: one appearing there changes what the fixture finds).
   */
  readonly looked?: (candidate: string) => void;
  /**
   * Whether each registry.json read so far is one (has a "schemas" key), kept by the caller for as
   * long as the files stay as they were read: a registry.json is then read once, not once for each
   * folder its fixtures are in (a 20 MB registry.json read for each of 500 folders took 38 s of a
   * lint).
   */
  readonly verdicts?: Map<string, boolean>;
  /**
   * For a caller that forgets a verdict when a file event names the file: a verdict on a
   * registry.json reached through a symbolic link (a link itself, or in a linked folder) is kept
   * only once told here with the place the link leads to (`linkedPlace`), since the event names
   * that place, not this path; one whose place cannot be told is read at each search.
   */
  readonly linkedVerdict?: (candidate: string, place: string) => void;
  /**
   * What each place looked at held, kept by the caller while the files stay as they are (one lint
   * run): the folders above a fixture are the same for every folder below them, and each look is a
   * system call or two (10,000 fixtures each in a folder of its own looked at the same 30,000
   * places above them again).
   */
  readonly places?: Map<string, PlaceSeen>;
  /** The workspace folder's real path, when the caller has it (saves a realpath(3) per search). */
  readonly realRoot?: string;
  /** How the messages name the folder searched inside (default WORKSPACE_FOLDER_WORDS). */
  readonly boundWords?: string;
  /**
   * The folder the messages name a configured path from, and the folder inside which they do
   * (`loadRegistry`'s `shownFolder` and `shownWithin`); without it, the path as configured.
   */
  readonly shownFolder?: string;
  readonly shownWithin?: string;
}

/** What a place looked at for a registry.json held, and whether one there stays inside the folder (once asked). */
export interface PlaceSeen {
  readonly entry: Stats | undefined | 'unreadable';
  inside?: boolean;
}

/**
 * The registry for a fixture: the configured path (relative to the workspace folder) when given,
 * else the nearest registry.json in bqschema format at or above the fixture, inside the folder.
 * A registry.json of another shape (another tool's, or one whose `schemas` key is misspelt) is
 * passed over, and named to `search.passedOver` so a caller can say so.
 */
export function findRegistry(
  fixturePath: string,
  workspaceRoot: string,
  configured: string | undefined,
  search: RegistrySearch = {},
): { path: string } | { error: string; path: string } | undefined {
  const { read = readFromDisk, passedOver, looked, verdicts, places, linkedVerdict, boundWords = WORKSPACE_FOLDER_WORDS, shownFolder, shownWithin } = search;
  if (configured && configured.trim() !== '') {
    const path = resolve(workspaceRoot, configured);
    if (!isInside(workspaceRoot, path)) {
      // Bounded, as a checkout's babelq.json writes it; the CLI's from its current folder, so no
      // message carries the checkout's absolute path.
      const shown = shownFolder === undefined ? shortened(configured, MAX_SHOWN_PATH) : shownName(path, shownFolder, shownWithin);
      return { path, error: `The registry path "${shown}" resolves outside ${boundWords}; it was not read.` };
    }
    return { path };
  }
  let directory = dirname(resolvedPath(fixturePath));
  const root = resolvedPath(workspaceRoot);
  const realRoot = search.realRoot ?? realPath(root);
  // A folder whose path holds no symbolic link has none in its parents either: once the first is
  // found real, the folders above need no realpath(3) each, which costs as many lookups as the
  // path has folders (a checkout 1,500 folders deep took minutes to lint and held the server).
  // Only a folder that exists shows it: realPath gives a missing one's path back as it is, links
  // in its parents included (standard input named linked/new/x.babel.json).
  const realAll = realPathIfThere(directory) === directory;
  while (isInside(root, directory, realRoot, realAll ? directory : undefined)) {
    const candidate = join(directory, REGISTRY_FILE_NAME);
    looked?.(candidate);
    // lstat, not existsSync: a link whose target is gone (or that loops) is a registry.json that
    // cannot be read, so it fails closed below instead of being passed over as if there were none.
    let seen = places?.get(candidate);
    if (seen === undefined) {
      seen = { entry: lookAt(candidate) };
      places?.set(candidate, seen);
    }
    const { entry } = seen;
    if (entry === 'unreadable') return { path: candidate, error: 'registry.json cannot be looked at (permission denied, or a path too long); it was not read.' };
    if (entry) {
      // Contain before reading: a registry.json that links out of the folder is never opened.
      seen.inside ??= isInside(root, candidate, realRoot);
      if (!seen.inside) return { path: candidate, error: `registry.json is a link that leaves ${boundWords}; it was not read.` };
      try {
        const linked = verdicts !== undefined && linkedVerdict !== undefined ? throughLink(candidate, entry, realAll, root, realRoot) : undefined;
        const keptVerdicts = linked !== undefined && linked.place === undefined ? undefined : verdicts;
        let isRegistry = keptVerdicts?.get(candidate);
        if (isRegistry === undefined) {
          // Told before the read: one that fails (a link to a file not written yet) is searched
          // again once the place the link leads to changes.
          if (keptVerdicts !== undefined && linked?.place !== undefined) linkedVerdict?.(candidate, linked.place);
          const text = read(candidate, MAX_REGISTRY_FILE_BYTES);
          // A registry saved as UTF-16 (or UTF-32) hides its "schemas" key behind the NUL beside
          // each character: it may well be the registry, so it is used and its load says what is
          // wrong, not passed over. Other bytes that are not UTF-8 (another tool's registry.json in
          // Latin-1) leave the key to be seen: without it, the file is passed over as in UTF-8.
          isRegistry = looksLikeRegistry(text) || (text.includes('\u0000') && notUtf8File(candidate, text, MAX_REGISTRY_FILE_BYTES) !== undefined);
          keptVerdicts?.set(candidate, isRegistry);
        }
        if (isRegistry) return { path: candidate };
        passedOver?.(candidate);
      } catch (error) {
        // Fail closed: a registry.json that cannot be read may well be the registry, and linting
        // its fixtures without it would pass what it rejects. Only one that vanished is passed over.
        if (entry.isSymbolicLink() && error instanceof UnreadableFile && error.reason === 'missing') {
          return { path: candidate, error: 'registry.json is a link to a file that does not exist; it was not read.' };
        }
        if (!(error instanceof UnreadableFile && error.reason === 'missing')) return { path: candidate, error: `registry.json ${unreadable(error)}` };
      }
    }
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return undefined;
}

/**
 * Whether the registry.json at `candidate` (its entry `entry`) is reached through a symbolic link,
 * and where it leads: undefined when it is not (neither it nor a folder of its path below the
 * workspace folder `root` is a link), else the place (`linkedPlace`), undefined when that cannot
 * be told. `realAll`: the search began in a folder whose path holds no link, so none of the
 * folders above it does either, and only the entry itself can be one. A link above the folder
 * (the folder itself opened through a link) does not count: file events name the folder's files
 * as the folder is named.
 */
function throughLink(candidate: string, entry: Stats, realAll: boolean, root: string, realRoot: string): { readonly place: string | undefined } | undefined {
  if (!entry.isSymbolicLink() && realAll) return undefined;
  // A link to a file not there yet leads where that file will be written.
  const place = linkedPlace(root, candidate, realRoot, realPathIfThere(candidate) ?? realPathOfMissing(candidate));
  return place === undefined && !entry.isSymbolicLink() ? undefined : { place };
}

/** The entry at `path` itself (a link as the link), undefined when there is none, 'unreadable' when it cannot be looked at. */
function lookAt(path: string): Stats | undefined | 'unreadable' {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    // A file where a folder of the path should be: no registry.json there, as for a missing one.
    return (error as { code?: string }).code === 'ENOTDIR' ? undefined : 'unreadable';
  }
}

/**
 * The state with a broken registry's path as its fixtures' registry-error names it: relative to
 * `folder` (the CLI's current folder, the editor's workspace folder) when it lies inside `within`
 * (by default `folder` itself; the CLI's repository, which may lie above the current folder), as
 * the other paths the user sees are, so a CI log does not carry the runner's absolute checkout
 * path; outside it (or without a folder), as it is. Any other state is returned unchanged.
 */
export function shownFrom(state: RegistryState, folder: string | undefined, within: string | undefined = folder): RegistryState {
  if (state.kind !== 'broken' || folder === undefined) return state;
  const shown = namedWithin(state.path, folder, within ?? folder);
  return shown === undefined ? state : { ...state, shownPath: shown };
}

/** `path` named from `folder` when it lies inside `within` (`..`-led where `within` is above `folder`), else undefined. */
function namedWithin(path: string, folder: string, within: string): string | undefined {
  const inside = relative(resolve(within), path);
  if (inside === '' || leavesRoot(inside)) return undefined;
  return relative(resolve(folder), path);
}

/**
 * Loads a registry and compiles each entry's schema once. Never throws. With `shownFolder` (the
 * CLI's current folder), the messages name a file inside it relative to it, as the other paths the
 * user sees are (a CI log, and a SARIF fingerprint hashed from the message, then do not carry the
 * runner's absolute checkout path); without it, or outside it, by its absolute path.
 */
export function loadRegistry(registryPath: string, workspaceRoot: string, read: TextReader = readFromDisk, shownFolder?: string, boundWords = WORKSPACE_FOLDER_WORDS, shownWithin = shownFolder): LoadResult {
  return runSteps(loadRegistrySteps(registryPath, workspaceRoot, read, undefined, shownFolder, boundWords, shownWithin));
}

/**
 * A file as the loader's messages name it: from `shownFolder` when it lies inside `shownWithin`
 * (`shownFolder` itself unless the caller says; the CLI's repository), else as it is.
 */
function shownName(path: string, shownFolder: string | undefined, shownWithin: string | undefined = shownFolder): string {
  const shown = shownFolder === undefined ? undefined : namedWithin(path, shownFolder, shownWithin ?? shownFolder);
  // Cut as a message quotes a path: registry.json names its schema paths, of any length.
  return shortened(shown ?? path, MAX_SHOWN_PATH);
}

/** The longest path a registry's message quotes whole (as babelq's messages quote a path). */
const MAX_SHOWN_PATH = 200;

/**
 * `loadRegistry` in steps: it yields after reading registry.json, during its parse, every
 * ENTRIES_PER_STEP entries and after each schema file read, so the language server answers
 * requests while a registry of hundreds of thousands of entries loads (workspace/time-slices.ts
 * runs the steps). `readingThroughLink` is told, before each file reached through a symbolic link
 * is read, where it really is (LoadResult's `linkedFiles`, known so far): a change named there
 * meanwhile is one of a file the load read.
 */
export function* loadRegistrySteps(registryPath: string, workspaceRoot: string, read: TextReader = readFromDisk, readingThroughLink: (place: string) => void = () => undefined, shownFolder?: string, boundWords = WORKSPACE_FOLDER_WORDS, shownWithin = shownFolder): Steps<LoadResult> {
  const files = [registryPath];
  const realRoot = realPath(workspaceRoot);
  const { real: realRegistry, place: registryPlace } = locate(registryPath, workspaceRoot, realRoot);
  if (!isInside(workspaceRoot, registryPath, realRoot, realRegistry)) {
    return { files, linkedFiles: [], linkedFrom: [], state: { kind: 'broken', path: registryPath, error: `The registry resolves outside ${boundWords}; it was not read.` } };
  }
  const linkedFiles = registryPlace === undefined ? [] : [registryPlace];
  const linkedFrom = registryPlace === undefined ? [] : [registryPath];
  if (registryPlace !== undefined) readingThroughLink(registryPlace);
  // The file as its messages call it: `--registry sub.json` is sub.json, not registry.json.
  const name = registryFileName(registryPath);
  // Too large, it is named once, from the workspace folder (by its name with none), whether the
  // editor holds its text or the disk was asked: `config/sub.json is 33.0 MiB`.
  const sized = shownFolder === undefined ? name : shownName(registryPath, shownFolder, shownWithin);
  let text: string;
  try {
    text = read(registryPath, MAX_REGISTRY_FILE_BYTES);
  } catch (error) {
    const tooLarge = error instanceof UnreadableFile && error.reason === 'too-large';
    return { files, linkedFiles, linkedFrom, state: { kind: 'broken', path: registryPath, error: `${tooLarge ? sized : name} ${unreadable(error)}` } };
  }
  const tooLong = sizeProblem(sized, text, MAX_REGISTRY_FILE_BYTES);
  if (tooLong) return { files, linkedFiles, linkedFrom, state: { kind: 'broken', path: registryPath, error: tooLong } };
  const notUtf8 = notUtf8File(registryPath, text, MAX_REGISTRY_FILE_BYTES);
  if (notUtf8) {
    // bqschema's registry load refuses such bytes as not JSON: refused as a whole here too, said as a fixture's are.
    const message = notUtf8FileMessage(name, notUtf8.where);
    return { files, linkedFiles, linkedFrom, state: { kind: 'broken', path: registryPath, error: message, problems: [{ offset: notUtf8.offset, end: notUtf8.offset, message, refusesRegistry: true }], text } };
  }
  // Reading 30 MB takes tens of milliseconds: a step of its own, before the parse's.
  yield;
  const index = yield* readRegistryIndexSteps(text, name);
  if (!index.ok) return { files, linkedFiles, linkedFrom, state: { kind: 'broken', path: registryPath, error: index.error, problems: index.problems, text } };

  const entries = new EntryLoader(dirname(registryPath), workspaceRoot, realRoot, read, index.problemList, readingThroughLink, shownFolder, boundWords, shownWithin);
  for (let next = 0; next < index.entries.length; ) {
    next = entries.addSome(index.entries, next);
    yield;
  }
  entries.finish();
  const problemCount = index.problemList.countWhenUnlisted;
  const registry: Registry = { path: registryPath, doc: index.doc, entries: entries.entries, byUrn: entries.byUrn, problems: index.problemList.all(), ...(problemCount !== undefined ? { problemCount } : {}) };
  return { files: [...files, ...entries.schemaFiles], linkedFiles: [...linkedFiles, ...entries.linkedSchemaFiles], linkedFrom: [...linkedFrom, ...entries.linkedSchemaPaths], state: { kind: 'loaded', registry } };
}

/**
 * The registry's entries with their schemas, each schema file read once. The entries are added a
 * step's worth at a time by a method, not in the generator's loop: V8 runs a loop inside a
 * generator slower (the load of 200,000 entries took 15% longer so).
 */
class EntryLoader {
  readonly entries: RegistryEntry[] = [];
  // Filled entry by entry (the index has no duplicate URNs): made at the end, it was a step of 60 ms for 200,000.
  readonly byUrn = new Map<string, RegistryEntry>();
  /** The schema files, in the order first named. */
  readonly schemaFiles: string[] = [];
  /** Where the schema files reached through a symbolic link really are (LoadResult's `linkedFiles`). */
  readonly linkedSchemaFiles: string[] = [];
  /** The schema paths those are read by, at the same index. */
  readonly linkedSchemaPaths: string[] = [];
  /** The real path of each folder of a schema file not there, worked out once per load (`realPathOfMissing`). */
  private readonly realFoldersOfMissing = new Map<string, { readonly real: string; readonly there: boolean }>();
  private readonly schemas = new Map<string, { schema: SchemaLoad; lazy: boolean }>();

  private readonly schemaBytes = { left: MAX_SCHEMA_BYTES_TOGETHER };
  /** The entries that name a schema file past MAX_SCHEMA_FILES: how many, the first of them, and the one message all of them share (hundreds of thousands in a generated registry: one string, naming no schema path). */
  private pastLimit: { count: number; first: RegistryIndexEntry; notRead: string } | undefined;

  constructor(
    private readonly base: string,
    private readonly workspaceRoot: string,
    // Resolved once: a registry of 100,000 schema files would otherwise resolve the root 100,000 times.
    private readonly realRoot: string,
    private readonly read: TextReader,
    private readonly problems: RegistryProblems,
    private readonly readingThroughLink: (place: string) => void,
    /** The folder the messages name files from (`loadRegistry`'s `shownFolder`). */
    private readonly shownFolder: string | undefined,
    /** How the messages name the folder the schemas stay inside (`loadRegistry`'s `boundWords`). */
    private readonly boundWords: string,
    /** The folder inside which the messages name files from `shownFolder` (`loadRegistry`'s `shownWithin`). */
    private readonly shownWithin: string | undefined,
  ) {}

  /**
   * Adds the entries from `from` on: ENTRIES_PER_STEP of them, or up to and with the first that
   * reads a schema file (read and compiled, for the first EAGER_COMPILE_LIMIT, it is a step of its
   * own). Returns where the next step starts.
   */
  addSome(all: readonly RegistryIndexEntry[], from: number): number {
    const end = Math.min(all.length, from + ENTRIES_PER_STEP);
    for (let next = from; next < end; ) if (this.add(all[next++])) return next;
    return end;
  }

  /** Adds an entry; true when it read a schema file. */
  private add(entry: RegistryIndexEntry): boolean {
    const schemaPath = resolve(this.base, entry.schemaRef);
    let loaded = this.schemas.get(schemaPath);
    if (!loaded && this.schemas.size >= MAX_SCHEMA_FILES) {
      this.addUnread(entry, schemaPath);
      return false;
    }
    const readOne = !loaded;
    if (!loaded) {
      this.schemaFiles.push(schemaPath);
      const lazy = this.schemas.size >= EAGER_COMPILE_LIMIT;
      const { real: realSchema, place } = locate(schemaPath, this.workspaceRoot, this.realRoot, this.realFoldersOfMissing);
      if (place !== undefined) {
        this.linkedSchemaFiles.push(place);
        this.linkedSchemaPaths.push(schemaPath);
        this.readingThroughLink(place);
      }
      loaded = { schema: loadSchema(schemaPath, this.workspaceRoot, this.read, lazy, this.realRoot, realSchema, this.schemaBytes, shownName(schemaPath, this.shownFolder, this.shownWithin), this.boundWords), lazy };
      this.schemas.set(schemaPath, loaded);
    }
    const { schema, lazy } = loaded;
    // A lazily compiled schema reports compile errors where a fixture uses it, not here (asking would compile it).
    const error = lazy ? schema.readError : schema.error;
    // A schema only draft-07 refuses is no problem to bqschema: the bqschema setting leaves it out.
    const draft07Only = error !== undefined && schema.readError === undefined && schema.subsetReadable;
    if (error && this.problems.full) this.problems.count(entry.schemaOffset, entry.schemaEnd);
    else if (error) this.problems.add({ offset: entry.schemaOffset, end: entry.schemaEnd, message: error, ...(draft07Only ? { draft07Only } : {}) });
    this.keep(entry, schema);
    return readOne;
  }

  /** An entry whose schema file is past MAX_SCHEMA_FILES: kept, with a schema that says why it was not read, and counted for one problem. */
  private addUnread(entry: RegistryIndexEntry, schemaPath: string): void {
    if (this.pastLimit) this.pastLimit.count++;
    else this.pastLimit = { count: 1, first: entry, notRead: `The schema file was not read: ${this.problems.name} names more than ${digitGroups(MAX_SCHEMA_FILES)} distinct schema files, more than this tool reads for one registry.` };
    // Not remembered among the schemas: a file never read is no file the registry depends on.
    this.keep(entry, failed(schemaPath, this.pastLimit.notRead));
  }

  private keep(entry: RegistryIndexEntry, schema: SchemaLoad): void {
    // Written out rather than spread: a spread of 300,000 entries of four shapes is slow to copy.
    const { urn, schemaRef, owner, status, offset, end, urnOffset, urnEnd, schemaOffset, schemaEnd } = entry;
    const loadedEntry: RegistryEntry = { urn, schemaRef, owner, status, offset, end, urnOffset, urnEnd, schemaOffset, schemaEnd, schema };
    this.entries.push(loadedEntry);
    this.byUrn.set(urn, loadedEntry);
  }

  /** After the last entry: the one problem for the entries whose schema files were not read. */
  finish(): void {
    if (!this.pastLimit) return;
    const { count, first } = this.pastLimit;
    const entries = count === 1 ? 'entry' : 'entries';
    const message = `${this.problems.name} names more than ${digitGroups(MAX_SCHEMA_FILES)} distinct schema files, more than this tool reads for one registry: the schema files of the ${digitGroups(count)} ${entries} from here on that name another file were not read (so many files stall the editor while they are read; a real registry names far fewer).`;
    // Listed even when the list is full: it is the one problem that says why those schemas are missing.
    this.problems.addAlways({ offset: first.schemaOffset, end: first.schemaEnd, message });
  }
}


/** A loaded schema, and (for a lazily compiled one) the error found before compiling, if any. */
type SchemaLoad = LoadedSchema & { readonly readError?: string };

/**
 * Where a file a registry reads really is: `real`, its real path (its path resolved when it is not
 * there), for the check that it lies inside the workspace folder; and `place`, where a watcher of
 * the folder names it when it is reached through a symbolic link (`linkedPlace`). A file not there
 * (deleted by a checkout, or a link to a file not written yet) is created where the link leads, so
 * its place is worked out all the same (`realPathOfMissing`, with `realFoldersOfMissing` kept by
 * a caller that asks of many files).
 */
function locate(path: string, workspaceRoot: string, realRoot: string, realFoldersOfMissing?: Map<string, { readonly real: string; readonly there: boolean }>): { readonly real: string; readonly place: string | undefined } {
  const realIfThere = realPathIfThere(path);
  const place = linkedPlace(workspaceRoot, path, realRoot, realIfThere ?? realPathOfMissing(path, realFoldersOfMissing));
  return { real: realIfThere ?? resolve(path), place };
}

function failed(path: string, error: string, extra: Partial<LoadedSchema> = {}): SchemaLoad {
  return { path, ...extra, error, readError: error };
}

/**
 * A schema file's text, read within its own bound and what is left (`together.left`, taken from)
 * of MAX_SCHEMA_BYTES_TOGETHER for the registry's schema files; `overTogether` when it would pass
 * the latter, `unread` with the read's error otherwise. Every reader of a registry's schemas
 * (its load, `babelq gdpr`) goes through it, so none reads more than the others would.
 */
export function readSchemaWithin(path: string, read: TextReader, together: { left: number }): { readonly text: string } | { readonly overTogether: true } | { readonly unread: unknown } {
  const limit = Math.min(MAX_SCHEMA_FILE_BYTES, together.left);
  let text: string;
  try {
    text = read(path, limit);
  } catch (error) {
    if (error instanceof UnreadableFile && error.reason === 'too-large' && limit < MAX_SCHEMA_FILE_BYTES) return { overTogether: true };
    return { unread: error };
  }
  // A text past the file's own bound (an editor's, which no read bounded) is the caller's to refuse, taking nothing.
  if (text.length > MAX_SCHEMA_FILE_BYTES) return { text };
  if (text.length > together.left) return { overTogether: true };
  together.left -= text.length;
  return { text };
}

/** `schemaBytes.left`: what is left of MAX_SCHEMA_BYTES_TOGETHER for this file and the ones after it. */
/** `shown`: the path as the messages name it (`shownName`); `boundWords`, the folder it must stay inside. */
function loadSchema(path: string, workspaceRoot: string, read: TextReader, lazy: boolean, realRoot: string, realPathOf: string, schemaBytes: { left: number }, shown: string, boundWords: string): SchemaLoad {
  if (!isInside(workspaceRoot, path, realRoot, realPathOf)) return failed(path, `The schema path resolves outside ${boundWords} (${shown}); it was not read.`, { notToOpen: true });
  const within = readSchemaWithin(path, read, schemaBytes);
  if ('overTogether' in within) return failed(path, `The schema file ${shown} would bring the registry's schema files above ${megabytes(MAX_SCHEMA_BYTES_TOGETHER)} together, more than this tool reads for one registry; it was not read (that much schema stalls the editor while it is compiled).`);
  // A missing one is named by its entry (the finding's place); one that is there, by its path.
  if ('unread' in within) return failed(path, `The schema file ${within.unread instanceof UnreadableFile && within.unread.reason !== 'missing' ? `${shown} ` : ''}${unreadable(within.unread)}`, within.unread instanceof UnreadableFile && within.unread.reason === 'not-a-file' ? { notToOpen: true } : {});
  const { text } = within;
  const tooLong = sizeProblem(`The schema file ${shown}`, text, MAX_SCHEMA_FILE_BYTES);
  if (tooLong) return failed(path, tooLong);
  const doc = parseJson(text);
  if (doc.syntaxProblems.length > 0) return failed(path, `The schema file ${shown} is not valid JSON: ${messageOutsideEnvelope(doc.syntaxProblems[0].message)}`, { doc });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return failed(path, `The schema file ${shown} is not valid JSON: ${describeError(error)}`, { doc });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return failed(path, `The schema file ${shown} must hold a JSON Schema object.`, { doc });
  // bqschema reads the file with Go's encoding/json, which fails on a number beyond float64 anywhere
  // in it; JSON.parse reads it as Infinity, which draft-07 would then see as null.
  const huge = doc.root && firstUnreadableNumber(doc.root);
  if (huge) {
    const at = pointerAt(doc, huge.offset);
    return failed(path, `bqschema cannot read the number ${huge.raw}${at ? ` at ${at}` : ''} in the schema ${shown}: it is beyond float64, so Go's encoding/json fails on the whole file and bqschema refuses this schema (\`bqschema check\` fails, \`validate\` exits 2). Write a number within ±1.7976931348623157e308.`, { doc });
  }
  const schema = value as Record<string, unknown>;
  // The numbers a double changes (`"maximum": 9007199254740993`), for hovers and completions to name as written.
  rememberWrittenNumbers(schema, doc.root, text);
  const outcome = (compiled: CompileResult): Pick<LoadedSchema, 'compiled' | 'error'> =>
    'error' in compiled ? { error: `The schema ${shown} is not a valid draft-07 JSON Schema: ${compiled.error}` } : { compiled: compiled.compiled };
  // From here on bqschema and the SDKs read the schema, whatever draft-07 says of it.
  if (!lazy) return { path, doc, value: schema, subsetReadable: true, ...outcome(compileSchema(schema)) };
  let result: Pick<LoadedSchema, 'compiled' | 'error'> | undefined;
  const compileOnce = () => (result ??= outcome(compileSchema(schema)));
  return {
    path,
    doc,
    value: schema,
    subsetReadable: true,
    get compiled() {
      return compileOnce().compiled;
    },
    get error() {
      return compileOnce().error;
    },
  };
}

/**
 * Why the text an editor holds for a file is too large to use, if it is (the disk is bounded by the
 * read). `named`: the file as the message names it, once (`config/sub.json`, `The schema file schemas/a.json`).
 */
function sizeProblem(named: string, text: string, limit: number): string | undefined {
  // UTF-16 units: at most the UTF-8 size, except for text outside ASCII (close enough for a limit).
  if (text.length <= limit) return undefined;
  return `${named} is ${megabytes(text.length)}, above the ${megabytes(limit)} this tool reads; it was not read (a file that large stalls the editor; check it is the file you meant).`;
}

/** Why a file was not read, in words that follow its name (the caller names it: the reader's message would name it again, by the path it was given). */
function unreadable(error: unknown): string {
  if (error instanceof UnreadableFile) return error.reason === 'missing' ? 'cannot be read: the file does not exist' : error.detail;
  return `cannot be read: ${describeError(error)}`;
}

function describeError(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return 'the file does not exist';
  if (code === 'EACCES') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}
