/**
 * Every fixture's problems in the editor, open or not: LSP 3.17 `workspace/diagnostic` for every
 * `*.babel.json` under the workspace folders (what `.gitignore` and babelq.json's `ignore` leave
 * out excepted), unless `babelqueue.diagnostics.scope` is `openFiles`.
 *
 * Each fixture's text is read once (bounded) and kept; a file is read again only when a watched
 * file event names it (or, for clients that cannot watch, when its stamp changed: server/file-stamps.ts). Its
 * findings are kept with a key made of what they depend on: the text's version, the settings, the
 * suppressions naming it, and the registry entry of its URN (the entry's status and compiled
 * schema; the whole registry when the URN has no entry, for "did you mean"). After an edit of
 * registry.json or a schema, saved or not, only the fixtures whose key changed are analysed again.
 *
 * The registry.json of every registry the fixtures use is in the report too once it has a problem,
 * open or not (server/registry-file-reports.ts), and so is every babelq.json (and suppressions
 * file) read for the folders (server/config-file-reports.ts).
 *
 * The client asks again 2 s after each answer (vscode-languageclient). An answer with nothing new
 * is held open instead, and what changes meanwhile goes out at once as a partial result, so a
 * schema edit reaches the Problems panel without waiting for the next poll. A client that does not
 * pull is sent the same report instead (server/pushed-workspace-fixtures.ts).
 */
import type { Stats } from 'node:fs';
import { dirname } from 'node:path';
import type { CancellationToken, Diagnostic, Location, Range, ResultProgressReporter, WorkspaceDiagnosticReport, WorkspaceDiagnosticReportPartialResult, WorkspaceDocumentDiagnosticReport } from 'vscode-languageserver/node';
import { DocumentDiagnosticReportKind } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { routingUrn } from '../core/contract/urn';
import { detachedString } from '../core/model/detached-string';
import { LineIndex } from '../core/model/positions';
import type { ObjectNode, ParsedDocument } from '../core/model/tree';
import { recycleColumns } from '../core/parse/column-storage';
import { parseText } from '../core/parse/parser';
import type { RegistryState } from '../core/registry/types';
import { analyze } from '../core/rules/analyze';
import { splitByteOrderMark, withByteOrderMark } from '../core/rules/byte-order-mark';
import { settingsKey, type Settings } from '../core/rules/settings/settings';
import { ENVELOPE_SUFFIX, findFixtureFiles, MAX_FIXTURES_FOUND, SKIPPED_DIRECTORIES } from '../workspace/fixture-files';
import { GitIgnores } from '../workspace/gitignore';
import { projectIgnores, type IgnoreFilter } from '../workspace/ignores';
import { MAX_ENVELOPE_FILE_BYTES, MAX_WORKSPACE_FIXTURE_BYTES, readBoundedBytes, type UnreadableFile } from '../workspace/bounded-read';
import { decodeStrictly } from '../workspace/strict-utf8';
import { notUtf8Diagnostics } from '../core/rules/not-utf8';
import { isUnder } from '../workspace/path-containment';
import { TimeSlices, type Cancellation } from '../workspace/time-slices';
import { isFixtureLink } from '../workspace/urn-references';
import type { ServerContext } from './context';
import { toLspDiagnostic, toRange } from './convert';
import { openEnvelopeFindings, today, withSuppressions } from './project-files';
import { registryFileReport } from './registry-file-reports';
import type { ProjectFileReport } from './project-file-report';
import { configFileReports } from './config-file-reports';
import { toPath, toUri } from './registry';
import { lookAt, markOf, readsAsMarked, stampOf, withinTick, type ReadMark } from './file-stamps';
import { digitGroups } from '../core/model/count-words';
import { showOnOneLine } from '../core/language/markdown';

/** How long an answer with nothing new is held open (the client asks again 2 s after it ends). */
const HOLD_MS = 5 * 60_000;


interface TrackedFixture {
  readonly path: string;
  readonly uri: string;
  readonly folder: string;
  /** Its stamp (server/file-stamps.ts) when last read or looked at; undefined: look again. */
  stamp?: string;
  /**
   * What was read, when it was read within a tick of its modification time: a write since at the
   * same size can leave the stamp as it was, so the next look reads the file again to tell.
   */
  mark?: ReadMark;
  /**
   * A symbolic link to a fixture (the walk follows one to a file inside the folder): a file event
   * names the file it leads to, never the link, so the link is looked at again at every report.
   */
  linked?: boolean;
  /** Set when the file is not reported here (too large for the workspace's report, unreadable). */
  skipped?: string;
  /** The URN it routes on, from its last analysis (the text decides it), and where it writes it. */
  urn?: string;
  urnRange?: Range;
  key?: string;
  resultId?: string;
  items?: Diagnostic[];
}

/** What the report last said of such a file: its findings as JSON and their result id. */
interface ReportedFile {
  readonly uri: string;
  key?: string;
  resultId?: string;
}

/** A fixture's text as read from disk: strictly decoded, or the message for bytes that are not UTF-8 with what a lenient decode made of them. */
type DiskText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string; readonly before: string; readonly lenient: string };

/** The buffer the report reads each fixture into, kept between reads (each is decoded before the next). */
const fixtureReads = { buffer: Buffer.allocUnsafe(64 * 1024) };

export class WorkspaceFixtures {
  private readonly fixtures = new Map<string, TrackedFixture>();
  /** URIs reported before that are gone (deleted, newly ignored, scope turned off): reported empty once. */
  private readonly gone = new Set<string>();
  /** Counts the changes that ask for a walk of the folders (rescan, a fixture created or deleted); the first walk is wanted from the start. */
  private walkWanted = 1;
  /** The walkWanted a finished walk started at: the fixtures it found hold every change counted up to it. */
  private walkedAt = 0;
  /** The walk of the folders under way, which the callers that need the fixtures wait for. */
  private scanning: Promise<void> | undefined;
  /** A .gitignore that is not applied is said in the log, once (its rules are kept until it changes). */
  private readonly gitignores = new GitIgnores(undefined, undefined, (path, reason) => this.context.connection.console.warn(showOnOneLine(`${path} ${reason}`)));
  private readonly waiters = new Set<() => void>();
  /** Told of every change, for a client that is sent the report instead of asking for it (server/pushed-workspace-fixtures.ts). */
  private readonly changeListeners: (() => void)[] = [];
  private readonly ids = new WeakMap<object, number>();
  private nextId = 0;
  private nextResult = 0;
  private skipsLogged = 0;
  /** The files the walk left out as no file to read that the log named, with why (logUnreadable). */
  private readonly unreadableLogged = new Map<string, string>();
  /** The folders whose fixtures went past MAX_FIXTURES_FOUND, said once each. */
  private readonly capLogged = new Set<string>();
  /**
   * The files of the documents opened in the editor since the server started, by path (a client
   * spells a URI its own way: VS Code writes `(` as `%28` and `c:` as `c%3A`, where fixture.uri does
   * not): read from disk with lint's bound, not the report's.
   */
  private readonly opened = new Set<string>();
  /**
   * The URI each open document was opened under, by its file's path: the editor's spelling, which
   * the document store is keyed by (`%40scope` for `@scope`), where fixture.uri is Node's.
   */
  private readonly openUris = new Map<string, string>();
  /** Counts changes, so one that arrives while a report is being made is not missed. */
  private generation = 0;
  /** The registry.json files reported (once one had a problem), by path: what was reported, with its result id. */
  private readonly registryFiles = new Map<string, ReportedFile>();
  /** The babelq.json and suppressions files reported (once one had a problem), by path, likewise. */
  private readonly configFiles = new Map<string, ReportedFile>();
  /**
   * The URIs the report has listed as registry.json files, kept after they leave it: a client that
   * is pushed the report tells their items apart from a fixture's or a config's by it (a registry's
   * name is the settings' to choose), the last empty one included.
   */
  private readonly registryUris = new Set<string>();

  /** The directories of the tracked fixtures, made once per walk (fixtureDirectories). */
  private directories: Set<string> | undefined;

  /**
   * `watched` makes, once per report, the test of whether the client's file events report a
   * fixture's changes (server/file-watch-coverage.ts: not before it took their registration, nor in
   * a folder made after it, which eglot 1.9 hears nothing in), so that file is not looked at again
   * until one names it.
   */
  constructor(
    private readonly context: ServerContext,
    private readonly folders: () => readonly string[],
    private readonly watched: () => (path: string) => boolean,
  ) {}

  /** The workspace folders, a .gitignore, .git/info/exclude or ignore globs changed: the next report walks the folders again. */
  rescan(): void {
    this.walkWanted++;
    this.gitignores.forget();
    this.changed();
  }

  /** The directories that hold a fixture the report tracks, as the last walk found them. */
  fixtureDirectories(): ReadonlySet<string> {
    if (this.directories === undefined) {
      this.directories = new Set();
      for (const path of this.fixtures.keys()) this.directories.add(dirname(path));
    }
    return this.directories;
  }

  /** A fixture changed on disk; `deleted` (or renamed away): the next report walks again and clears it. */
  fileChanged(path: string, deleted: boolean): void {
    const fixture = this.fixtures.get(path);
    if (fixture && !deleted) {
      // Read again whatever its stamp says: a write within a tick of the last, at the same size, leaves the stamp as it was.
      fixture.stamp = undefined;
      fixture.key = undefined;
    } else this.walkWanted++; // created or deleted: the next walk (which applies the ignores) says what is there
    this.changed();
  }

  /**
   * Folders made in the workspace or moved into it (told by their own events alone): the next
   * report walks the folders again once one of them holds a fixture the walk would find (or a
   * *.babel.json it would name in the log). A folder made with nothing of the kind (a checkout's,
   * an npm install's) asks for no walk: each batch of its events walked every workspace folder
   * again. Looked at in the background, with the walk's own time slices and ignores.
   */
  foldersMade(paths: readonly string[]): void {
    const check = async (): Promise<boolean> => {
      for (const path of paths) {
        const folder = this.folders().find((root) => isUnder(root, path));
        if (folder === undefined) continue;
        const ignores = this.ignoresFor(folder);
        if (path.slice(folder.length).split(/[\\/]/).some((name) => SKIPPED_DIRECTORIES.has(name)) || ignores.skipDirectory(path)) continue;
        let named = false;
        const found = await findFixtureFiles(path, { limit: 1, ignores, unreadable: () => (named = true) });
        if (found.length > 0 || named) return true;
      }
      return false;
    };
    void check().then(
      (holds) => {
        if (!holds) return;
        this.walkWanted++;
        this.changed();
      },
      () => {
        // A folder that could not be looked at: the walk says what is there.
        this.walkWanted++;
        this.changed();
      },
    );
  }

  /** A document was opened in the editor: from now on its file is read with lint's bound (MAX_WORKSPACE_FIXTURE_BYTES says why). */
  documentOpened(uri: string): void {
    const path = toPath(uri);
    if (path === undefined) return;
    this.opened.add(path);
    this.openUris.set(path, uri);
    // Analysed again at the next report: one the report left out for its size is read with that
    // bound, and one opened again without a close (a client's breach of the protocol) may hold a
    // new text under the version its findings are kept by.
    const fixture = this.fixtures.get(path);
    if (fixture) fixture.key = undefined;
  }

  /** A document was closed in the editor. */
  documentClosed(uri: string): void {
    const path = toPath(uri);
    if (path !== undefined && this.openUris.get(path) === uri) this.openUris.delete(path);
  }

  /** The editor's document of `fixture`, when it is open, whatever spelling of its URI the editor used. */
  private openDocument(fixture: TrackedFixture): TextDocument | undefined {
    return this.context.documents.get(this.openUris.get(fixture.path) ?? fixture.uri);
  }

  /** Something every key may depend on changed (a registry, a schema, settings, babelq.json): wake a held request. */
  changed(): void {
    this.generation++;
    for (const wake of [...this.waiters]) wake();
    for (const listener of this.changeListeners) listener();
  }

  /** Calls `listener` at every change that may change the report (the same ones that wake a held answer). */
  onChanged(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /** Answers `workspace/diagnostic`: what changed since `previous` (uri → resultId) at once, else held and streamed. */
  async answer(previous: ReadonlyMap<string, string>, token: CancellationToken, progress: ResultProgressReporter<WorkspaceDiagnosticReportPartialResult> | undefined): Promise<WorkspaceDiagnosticReport> {
    const known = new Map(previous);
    let seen = this.generation;
    const first = await this.report(known);
    if (first.some((item) => item.kind === DocumentDiagnosticReportKind.Full) || token.isCancellationRequested) return { items: first };
    const started = Date.now();
    while (!token.isCancellationRequested && Date.now() - started < HOLD_MS) {
      await this.nextChange(token, HOLD_MS - (Date.now() - started), seen);
      if (token.isCancellationRequested) break;
      seen = this.generation;
      const delta = (await this.report(known)).filter((item) => item.kind === DocumentDiagnosticReportKind.Full);
      if (delta.length === 0) continue;
      if (!progress) return { items: delta };
      progress.report({ items: delta });
      for (const item of delta) if (item.resultId) known.set(item.uri, item.resultId);
    }
    return { items: [] };
  }

  /** One report of every tracked fixture against what the client holds (`known`, updated in place by the caller). */
  async report(known: ReadonlyMap<string, string>): Promise<WorkspaceDocumentDiagnosticReport[]> {
    await this.walked();
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    for (const uri of this.gone) items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: null, items: [] });
    this.gone.clear();
    const watched = this.watched();
    /** The registries the fixtures use, each with the settings of the first fixture that uses it. */
    const registries = new Map<RegistryState, Settings>();
    // Nobody waits for the report as a whole: a references search or a schema edit's count goes first.
    for await (const fixture of this.eachFixture(undefined, true)) {
      const update = await this.update(fixture, watched);
      if (update === 'out of scope') {
        if (fixture.resultId) items.push({ kind: DocumentDiagnosticReportKind.Full, uri: fixture.uri, version: null, items: [] });
        fixture.resultId = undefined;
        fixture.key = undefined;
        continue;
      }
      const open = update.open;
      if (update.registry.kind !== 'none' && !registries.has(update.registry)) registries.set(update.registry, update.settings);
      if (known.get(fixture.uri) === fixture.resultId) items.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri: fixture.uri, version: null, resultId: fixture.resultId! });
      else items.push({ kind: DocumentDiagnosticReportKind.Full, uri: fixture.uri, version: open ? open.version : null, resultId: fixture.resultId, items: fixture.items! });
    }
    items.push(...this.reportRegistryFiles(registries, known));
    // After the fixtures: their settings and the walk have read every config they depend on.
    items.push(...this.reportFiles(await configFileReports(this.context, this.folders()), this.configFiles, known));
    return items;
  }

  /**
   * registry.json of every registry the fixtures use, with its own findings, opened or not
   * (server/registry-file-reports.ts): from its first problem on, reported like a fixture; a
   * registry no fixture uses any more is reported empty once, then left out.
   */
  private reportRegistryFiles(registries: ReadonlyMap<RegistryState, Settings>, known: ReadonlyMap<string, string>): WorkspaceDocumentDiagnosticReport[] {
    const used: ProjectFileReport[] = [];
    for (const [state, settings] of registries) {
      const report = registryFileReport(state, settings);
      if (report) used.push(report);
    }
    const items = this.reportFiles(used, this.registryFiles, known);
    for (const item of items) this.registryUris.add(item.uri);
    return items;
  }

  /** True when the report has listed `uri` as a registry.json file (server/pushed-workspace-fixtures.ts hands those to their own push). */
  listsRegistryFile(uri: string): boolean {
    return this.registryUris.has(uri);
  }

  /**
   * Files other than fixtures with their own findings (`reports`, the first for each path counts),
   * against what the client holds: a file is reported from its first problem on, with a result id
   * that changes only with its findings; one `tracked` before and not among `reports` now is
   * reported empty once, then left out.
   */
  private reportFiles(reports: Iterable<ProjectFileReport>, tracked: Map<string, ReportedFile>, known: ReadonlyMap<string, string>): WorkspaceDocumentDiagnosticReport[] {
    const used = new Map<string, ProjectFileReport>();
    for (const report of reports) if (!used.has(report.path)) used.set(report.path, report);
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    for (const [path, report] of used) {
      let file = tracked.get(path);
      if (!file) {
        if (report.items.length === 0) continue;
        file = { uri: report.uri };
        tracked.set(path, file);
      }
      const key = JSON.stringify(report.items);
      if (file.key !== key) {
        file.key = key;
        file.resultId = `${++this.nextResult}`;
      }
      const open = this.context.documents.get(report.uri);
      if (known.get(report.uri) === file.resultId) items.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri: report.uri, version: null, resultId: file.resultId! });
      else items.push({ kind: DocumentDiagnosticReportKind.Full, uri: report.uri, version: open ? open.version : null, resultId: file.resultId, items: report.items });
    }
    for (const [path, file] of tracked) {
      if (used.has(path)) continue;
      items.push({ kind: DocumentDiagnosticReportKind.Full, uri: file.uri, version: null, items: [] });
      tracked.delete(path);
    }
    return items;
  }

  /**
   * Of the fixtures routing on `urn`, how many have findings (with the registry as it is now,
   * unsaved edits included) that hold a payload-schema error: what a schema edit breaks.
   * Undefined when the workspace's fixtures are not checked (scope openFiles).
   */
  async rejectedBy(urn: string): Promise<{ rejected: number; total: number } | undefined> {
    await this.walked();
    let rejected = 0;
    let total = 0;
    let checked = false;
    const watched = this.watched();
    for await (const fixture of this.eachFixture()) {
      // Only a fixture that routed on this URN when last read can, unless its text changed since
      // (a file event cleared its stamp, or it is open): the others need no fresh analysis.
      if (fixture.items !== undefined && fixture.urn !== urn && fixture.stamp !== undefined && !this.openDocument(fixture)) {
        checked = true;
        continue;
      }
      const update = await this.update(fixture, watched);
      if (update === 'out of scope') continue;
      checked = true;
      if (fixture.urn !== urn) continue;
      total++;
      if (fixture.items!.some((item) => item.code === 'payload-schema')) rejected++;
    }
    return checked || this.fixtures.size === 0 ? { rejected, total } : undefined;
  }

  /**
   * Find-references from the workspace's report: the fixtures under `root` that route on `urn`,
   * where each writes it, from the findings' own analyses (a fixture is read again only when it
   * changed); a fixture the report skips for its size, or has not analysed yet (its first report
   * under way), has its URN read here, as a walk reads it. Undefined when the report's walk of the
   * folders has not run (or is under way, or due), does not cover `root` (a folder that is not, or
   * not inside, a workspace folder) or not every fixture in it (scope openFiles): the caller then
   * walks the files itself.
   */
  async referencesTo(urn: string, root: string, readUnanalysed: (path: string) => Location | undefined, cancellation?: Cancellation): Promise<Location[] | undefined> {
    if (this.walkedAt < this.walkWanted || this.scanning || !this.folders().some((folder) => isUnder(folder, root))) return undefined;
    const locations: Location[] = [];
    const watched = this.watched();
    for await (const fixture of this.eachFixture(cancellation)) {
      if (!isUnder(root, fixture.path)) continue;
      if (fixture.items === undefined) {
        // Found by the walk, not analysed yet: what the files already analysed know is not read again.
        const location = readUnanalysed(fixture.path);
        if (location) locations.push(location);
        continue;
      }
      // The URN depends on the text alone: a file no event named since, and no editor holds, is as last read.
      const asLastRead = fixture.stamp !== undefined && watched(fixture.path) && !fixture.linked && !fixture.key?.startsWith('open:') && !this.openDocument(fixture);
      if (!asLastRead && (await this.update(fixture, watched)) === 'out of scope') return undefined;
      if (fixture.skipped !== undefined) {
        const location = readUnanalysed(fixture.path);
        if (location) locations.push(location);
      } else if (fixture.urn === urn && fixture.urnRange && !isFixtureLink(fixture.path)) {
        // Looked at only for the few that route on the URN: a linked one is listed where it really is.
        locations.push({ uri: fixture.uri, range: fixture.urnRange });
      }
    }
    return locations.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  /**
   * The tracked fixtures in time slices, so hovers and keystrokes are answered meanwhile; none more
   * once `cancellation` is. A `background` walk gives way to the walks someone waits for.
   */
  private async *eachFixture(cancellation?: Cancellation, background = false): AsyncGenerator<TrackedFixture> {
    const slices = new TimeSlices(cancellation, background);
    for (const fixture of this.fixtures.values()) {
      if (!(await slices.pause())) return;
      yield fixture;
    }
  }

  /** Brings one fixture's findings up to date with what they depend on (analysed again only when that changed). */
  /**
   * `watched` (FileWatchCoverage's test for this report) is asked only where its answer counts: a
   * file read before, and one read now within a tick of its last write (its mark). In a workspace
   * of a folder per fixture it costs a look at each folder, and a first report reads every file
   * anyway: asked for all of them, it took a third of that report's time.
   */
  private async update(fixture: TrackedFixture, watched: (path: string) => boolean): Promise<'out of scope' | { open: TextDocument | undefined; registry: RegistryState; settings: Settings }> {
    const open = this.openDocument(fixture);
    // An open fixture is judged as its editor judges it: the same settings, so the same cached analysis.
    const settings = open ? await this.context.settings.forDocument(open.uri) : await this.context.settings.forWorkspaceFile(fixture.path, fixture.folder);
    if (settings.diagnosticsScope === 'openFiles') return 'out of scope';
    // A fixture never analysed is read whatever its stamp would say, and the read's own look at
    // the open file stamps it: no second look at 10,000 files in the first report.
    const firstRead = !open && fixture.items === undefined;
    // An open file's byte-order mark can come or go on a save that changes no version ("Save with Encoding").
    let version = open ? `open:${open.version}${this.context.byteOrderMarks.hiddenIn(open) ? ':bom' : ''}` : firstRead ? undefined : this.diskVersion(fixture, fixture.linked === true || !watched(fixture.path));
    const registry = await this.context.registries.stateWhenLoaded(fixture.uri, settings);
    // The document closed meanwhile, or closed and opened again (its versions restarted, perhaps at
    // this one with another text): the findings and their key are worked out for what is open now.
    if (open && this.openDocument(fixture) !== open) return this.update(fixture, watched);
    const suppressions = this.context.configs.suppressionsFor(fixture.path, fixture.folder);
    const dependsOn = () => [version, settingsKey(settings), this.registryKey(registry, fixture.urn), suppressions.map((entry) => this.idOf(entry)).join(','), suppressions.length > 0 ? today() : ''].join('|');
    if (fixture.items === undefined || fixture.key !== dependsOn()) {
      const before = fixture.items === undefined ? undefined : JSON.stringify(fixture.items);
      if (open) this.analyseOpen(fixture, open, settings, registry);
      else {
        this.analyse(fixture, this.readText(fixture, () => !watched(fixture.path)), settings, registry);
        version = fixture.stamp; // as the text was read, which may be newer than the look above
      }
      fixture.key = dependsOn();
      // Findings that came out the same keep their id: the client is not sent what it already shows.
      // One without an id (cleared while out of scope) gets one: the client was sent an empty list.
      if (before === undefined || fixture.resultId === undefined || before !== JSON.stringify(fixture.items)) fixture.resultId = `${++this.nextResult}`;
    }
    return { open, registry, settings };
  }

  private analyse(fixture: TrackedFixture, decoded: DiskText | undefined, settings: Settings, registry: RegistryState): void {
    if (decoded === undefined) {
      fixture.items = [];
      return;
    }
    if (!decoded.ok) {
      // As lint reports it: one json-syntax finding where the first invalid byte is (the editor shows
      // what it decoded once the file is opened); the URN it routes on still counts for find references, as the walk finds it.
      const lenient = parseText(decoded.lenient);
      this.noteUrn(fixture, lenient, (end) => new LineIndex(decoded.lenient.slice(0, end)));
      recycleColumns(lenient.columns);
      fixture.items = notUtf8Diagnostics(decoded.message, settings, decoded.before).map((diagnostic) => toLspDiagnostic(diagnostic, new LineIndex(decoded.before), fixture.uri));
      return;
    }
    // A byte-order mark is split off as lint splits it: the positions are the editor's, which hides it.
    const { text, byteOrderMark } = splitByteOrderMark(decoded.text);
    const doc = parseText(text);
    // The URN's position needs the lines up to it only (it ends with a quote, so no CRLF is cut in
    // two): the lines of a fixture without findings are never scanned to its end.
    this.noteUrn(fixture, doc, (end) => new LineIndex(text.slice(0, end)));
    const found = withSuppressions(this.context, fixture.uri, doc, withByteOrderMark(byteOrderMark, analyze(doc, settings, registry), settings));
    const lines = new LineIndex(text);
    fixture.items = found.map((diagnostic) => toLspDiagnostic(diagnostic, lines, fixture.uri));
    recycleColumns(doc.columns);
  }

  /**
   * An open fixture's findings are the ones its editor pulls: one parse and one analysis of the
   * version, shared through the parse cache (a 5 MB fixture is not analysed twice per keystroke).
   */
  private analyseOpen(fixture: TrackedFixture, document: TextDocument, settings: Settings, registry: RegistryState): void {
    const { entry, findings } = openEnvelopeFindings(this.context, document, settings, registry);
    this.noteUrn(fixture, entry.parsed, () => entry.lines);
    fixture.items = findings.map((diagnostic) => toLspDiagnostic(diagnostic, entry.lines, fixture.uri));
  }

  /** The URN the fixture routes on (`job`, else the `urn` alias), and where it writes it (`linesUpTo(end)`: an index of the lines at least up to `end`). */
  private noteUrn(fixture: TrackedFixture, doc: ParsedDocument, linesUpTo: (end: number) => LineIndex): void {
    const urn = routingUrn(doc.root?.kind === 'object' ? (doc.root as ObjectNode) : undefined)?.node;
    // Kept while the fixture is tracked: a copy of its own, as the value is a view into the whole text.
    fixture.urn = urn?.kind === 'string' ? detachedString(urn.value) : undefined;
    fixture.urnRange = urn?.kind === 'string' ? toRange(linesUpTo(urn.end), urn.offset, urn.end) : undefined;
  }

  /**
   * The text's version on disk (its stamp), looked at again when a file event names it or the
   * client cannot watch. A file read within a tick of its time and stamped as it was then is read
   * again to tell whether it still holds what was read: when not, the version is one no key holds.
   */
  private diskVersion(fixture: TrackedFixture, stampAgain: boolean): string {
    if (fixture.stamp !== undefined && !stampAgain) return fixture.stamp;
    const now = lookAt(fixture.path);
    if (now === fixture.stamp && fixture.mark !== undefined) {
      const stat = readsAsMarked(fixture.path, fixture.mark, (path, limit, onStat) => readBoundedBytes(path, limit, fixtureReads, onStat));
      if (!stat) {
        fixture.mark = undefined;
        return `${now}:rewritten`;
      }
      fixture.stamp = stampOf(stat);
      if (!withinTick(stat)) fixture.mark = undefined;
      return fixture.stamp;
    }
    fixture.stamp = now;
    fixture.mark = undefined;
    return now;
  }

  /**
   * The fixture's text from disk, bounded and decoded as `babelq lint` decodes it (the message for
   * bytes that are not UTF-8 instead); undefined (nothing to report until it is opened) when too
   * large (MAX_WORKSPACE_FIXTURE_BYTES, lint's bound once it has been opened) or unreadable.
   * `stampedAgain`: no file event reports its changes, so each report looks at its stamp.
   */
  private readText(fixture: TrackedFixture, stampedAgain: () => boolean): DiskText | undefined {
    let looked = false;
    try {
      // A large fixture read once it has been opened gets a buffer of its own, not kept after the read.
      const [limit, into] = this.opened.has(fixture.path) ? [MAX_ENVELOPE_FILE_BYTES, undefined] : [MAX_WORKSPACE_FIXTURE_BYTES, fixtureReads];
      let opened: Stats | undefined;
      const bytes = readBoundedBytes(fixture.path, limit, into, (stat) => {
        looked = true;
        opened = stat;
        fixture.stamp = stampOf(stat);
        fixture.mark = undefined;
      });
      // Kept only where a look will compare it: a client's file event names a rewrite itself, but not one behind a link.
      fixture.mark = withinTick(opened!) && (fixture.linked || stampedAgain()) ? markOf(opened!, limit, bytes) : undefined;
      fixture.skipped = undefined;
      const decoded = decodeStrictly(bytes);
      // The lenient text as an editor shows it (a byte-order mark split off), for the URN's position.
      return decoded.ok ? decoded : { ...decoded, lenient: splitByteOrderMark(bytes.toString('utf8')).text };
    } catch (error) {
      if (!looked) this.diskVersion(fixture, true); // not opened (missing, no permission): stamped as before
      const reason = error instanceof Error ? error.message : String(error);
      // Said for the first few only: a hostile checkout of 20,000 such files must not flood the log.
      // On one line: git lets a file's name hold a line break, which would begin a line of the log.
      if (fixture.skipped !== reason && this.skipsLogged++ < 20) this.context.connection.console.info(showOnOneLine(`${fixture.path} is checked when it is opened, not in the workspace's problems: ${reason}`));
      fixture.skipped = reason;
      return undefined;
    }
  }

  /**
   * The fixtures under every folder, as of a walk that started after every change counted when
   * this was called: one walk at a time, shared by whoever waits for it. A caller waits for at
   * most two (the one under way, begun before a change it must see, then one more); changes that
   * keep coming meanwhile are the next caller's, so a stream of them (typing in babelq.json) never
   * holds a report back for good. A walk that failed counts as done, as the walk did before.
   */
  private async walked(): Promise<void> {
    const wanted = this.walkWanted;
    while (this.walkedAt < wanted) {
      if (!this.scanning) {
        const startedAt = this.walkWanted;
        this.scanning = this.scan().finally(() => {
          this.walkedAt = Math.max(this.walkedAt, startedAt);
          this.scanning = undefined;
        });
      }
      await this.scanning;
    }
  }

  /**
   * What a walk of `folder` leaves out (.gitignore, babelq.json's `ignore`), as the report applies
   * it: find references walks with it too, so a .gitignore not applied is logged once, not per walk.
   */
  ignoresFor(folder: string): IgnoreFilter {
    return projectIgnores(this.context.configs, this.gitignores, folder);
  }

  /** The fixtures under every folder, ignores applied; what is no longer there is reported empty once. */
  private async scan(): Promise<void> {
    const found = new Map<string, string>();
    const links = new Set<string>();
    for (const folder of this.folders()) {
      const ignores = this.ignoresFor(folder);
      // One more than the bound is looked for, to know whether the bound left fixtures out.
      const paths = await findFixtureFiles(folder, { limit: MAX_FIXTURES_FOUND + 1, ignores, links, unreadable: (problem) => this.logUnreadable(problem) });
      if (paths.length > MAX_FIXTURES_FOUND) {
        paths.length = MAX_FIXTURES_FOUND;
        if (!this.capLogged.has(folder)) {
          this.capLogged.add(folder);
          this.context.connection.console.info(`${showOnOneLine(folder)} holds more than ${digitGroups(MAX_FIXTURES_FOUND)} fixtures: the workspace's problems list the first ${digitGroups(MAX_FIXTURES_FOUND)} its walk finds (each folder's own files, then its subfolders in name order); the others are checked when they are opened (babelq lint checks them all).`);
        }
      }
      for (const path of paths) if (!found.has(path)) found.set(path, folder);
    }
    for (const [path, fixture] of this.fixtures) {
      if (found.has(path)) continue;
      this.fixtures.delete(path);
      if (fixture.resultId) this.gone.add(fixture.uri);
    }
    for (const [path, folder] of found) if (!this.fixtures.has(path)) this.fixtures.set(path, { path, uri: toUri(path), folder });
    this.directories = undefined;
    // A file replaced by a link (or a link by a file) keeps its place in the report.
    for (const [path, fixture] of this.fixtures) fixture.linked = links.has(path);
  }

  /**
   * A `*.babel.json` the walk left out as no file to read (a named pipe, a device, a link to
   * nothing): said in the log, once for each path and reason, within the same bound as the files
   * the report skips. Not a finding: there is no text to place one in, nor a document the editor
   * could open to show it; `babelq lint` fails on it.
   */
  private logUnreadable(problem: UnreadableFile): void {
    if (this.unreadableLogged.get(problem.path) === problem.detail || this.skipsLogged >= 20) return;
    this.skipsLogged++;
    this.unreadableLogged.set(problem.path, problem.detail);
    this.context.connection.console.info(showOnOneLine(`${problem.message.replace(/\.$/, '')}, and is not in the workspace's problems.`));
  }

  /** What a fixture's registry findings depend on: its URN's entry, or the whole registry when it has none. */
  private registryKey(state: RegistryState, urn: string | undefined): string {
    if (state.kind === 'none') return 'none';
    if (state.kind === 'broken') return `broken:${this.idOf(state)}`;
    const entry = urn === undefined ? undefined : state.registry.byUrn.get(urn);
    if (!entry) return `registry:${this.idOf(state.registry)}`;
    const schema = entry.schema?.compiled ? `s${this.idOf(entry.schema.compiled)}` : `e:${entry.schema?.error ?? ''}`;
    return `entry:${entry.status ?? ''}:${entry.owner ?? ''}:${schema}`;
  }

  private idOf(value: object): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = ++this.nextId;
      this.ids.set(value, id);
    }
    return id;
  }

  /** Resolves at the next change after generation `seen` (at once if one came meanwhile), a cancellation or the timeout. */
  private nextChange(token: CancellationToken, timeoutMs: number, seen: number): Promise<void> {
    if (this.generation !== seen) return Promise.resolve();
    return new Promise((done) => {
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(finish);
        cancel.dispose();
        done();
      };
      const timer = setTimeout(finish, timeoutMs);
      const cancel = token.onCancellationRequested(finish);
      this.waiters.add(finish);
    });
  }
}

/** True for the path of a fixture (what the index tracks). */
export function isFixturePath(uri: string): boolean {
  return toPath(uri)?.endsWith(ENVELOPE_SUFFIX) === true;
}
