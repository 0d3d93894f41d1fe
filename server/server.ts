/**
 * Wires the LSP connection to the handlers: capabilities, open documents, the parse cache,
 * settings, the registries, and pull or push diagnostics depending on what the client supports.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, sep } from 'node:path';
import {
  CodeActionKind,
  CodeActionRequest,
  CompletionItemTag,
  CompletionRequest,
  DefinitionRequest,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  DocumentFormattingRequest,
  DocumentLinkRequest,
  DocumentSymbolRequest,
  ErrorCodes,
  FoldingRangeRequest,
  HoverRequest,
  MarkupKind,
  ReferencesRequest,
  ResponseError,
  SelectionRangeRequest,
  TextDocuments,
  TextDocumentSyncKind,
  WatchKind,
  type ClientCapabilities,
  type Connection,
  type DocumentSelector,
  type FileEvent,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { uriForLog } from './log-uri';
import { ENVELOPE_LANGUAGE_ID, PREVIEW_COMMAND, WORKSPACE_TRUSTED_METHOD, type ServerInitializationOptions } from '../core/language/protocol';
import type { ServerContext } from './context';
import { checkedDocumentSync } from './document-sync-guard';
import type { InitializeRepair } from './initialize-shape';
import { refuseRequestsAfterShutdown } from './after-shutdown';
import { answerRefusedRequests } from './message-gate';
import { setCodeDescriptionTaken, setDiagnosticTagsTaken, setRelatedInformationShown } from './convert';
import { DiagnosticsFirst } from './diagnostics-first';
import { EDIT_TRACKING_DOCUMENTS, ParseCache } from './documents';
import { asEditable, LARGE_TEXT_CHARS, releaseEditBuffer } from './editable-document';
import { canCollect, collectWhenIdle } from './text-memory';
import { RegistryStatusReporter } from './registry-status';
import { JudgedFixtures } from './judged-fixtures';
import { StoredByteOrderMarks } from './stored-byte-order-marks';
import { registerPullDiagnostics, registerPushDiagnostics } from './handlers/diagnostics';
import { registerLanguageFeatures, type CodeActionsAs } from './handlers/language';
import { APPLY_FIX_COMMAND } from './handlers/code-action-commands';
import { registerNavigation } from './handlers/navigation';
import { registerMessageVerdicts } from './handlers/message-verdicts';
import { registerPreview } from './handlers/preview';
import { registerRegistryRequests } from './handlers/registry-requests';
import { registerStructureFeatures } from './handlers/structure';
import { RegistryService, toPath, toUri, type LinksReached } from './registry';
import { registryMessages } from './registry-messages';
import { isRecord, isUri, malformedExecuteCommandParams, MalformedRequests, quietRepeatedComplaints, workspaceFolderUris } from './request-shape';
import { SchemaCompat } from './schema-compat';
import { PushedWorkspaceFixtures } from './pushed-workspace-fixtures';
import { PushedRegistryFiles } from './registry-file-reports';
import { ProjectFileStamps } from './project-file-stamps';
import { FileWatchCoverage } from './file-watch-coverage';
import { foldersMadeAmong } from './folder-events';
import { SettingsStore } from './settings';
import { isFixturePath, WorkspaceFixtures } from './workspace-diagnostics';
import { CODE_ACTION_KINDS } from './handlers/language';
import { isEnvelopeDocument, projectFileKind, refuseMalformed } from './request';
import { ProjectConfigs } from '../workspace/project-config';
import type { NamedRegistries } from '../workspace/project-config';
import { isGitConfigFile, isGitExcludeFile } from '../workspace/gitignore';
import { ENVELOPE_SUFFIX, SKIPPED_DIRECTORIES } from '../workspace/fixture-files';

export const SERVER_NAME = 'babelqueue-language-server';

/**
 * Envelope fixtures, every feature: as the server judges them (server/request.ts): the VS Code extension's
 * language, or a file named *.babel.json whatever language another editor gives it (Sublime LSP
 * registers every feature dynamically and sends `json`: with the language alone no feature would
 * reach such a file).
 */
const ENVELOPES: DocumentSelector = [{ language: ENVELOPE_LANGUAGE_ID }, { pattern: `**/*${ENVELOPE_SUFFIX}` }];
/** JSON files, of which the server answers quick fixes for the registry's schema files only. */
const SCHEMA_FILES: DocumentSelector = [{ language: 'json', scheme: 'file' }];
/**
 * Registries: references and links (VS Code's JSON support does the rest). Every JSON file, not only
 * those named registry.json: a project's babelq.json may name its registry `config/sub.json`, which the
 * server tells apart (server/request.ts `registryFiles`) and answers, and any other file is answered
 * empty by its path, unread.
 */
const REGISTRIES: DocumentSelector = [{ language: 'json', scheme: 'file' }];

/** From this size a document's line starts are found before its first change (see onDidOpen below). */
const EARLY_LINE_SCAN_CHARS = 256 * 1024;

/** How long a client has to answer the registration of file events before it is taken as one that sends none. */
const WATCH_ANSWER_MS = 10_000;

/** How long after a registry or schema edit the affected envelopes are re-validated. */
const REGISTRY_REFRESH_MS = 100;

/** Starts serving on a connection; returns when the handlers are registered. */
export function startServer(connection: Connection, initializeRepair?: InitializeRepair): void {
  quietRepeatedComplaints(connection.console);
  refuseRequestsAfterShutdown(connection);
  answerRefusedRequests(connection);
  const documents = new TextDocuments(EDIT_TRACKING_DOCUMENTS);
  let canPullConfiguration = false;
  /** How a deprecated completion item is marked for the client (completionItem.tagSupport, else deprecatedSupport). */
  let deprecatedAs: 'tag' | 'flag' | 'none' = 'none';
  /** Whether the client takes the outline as a tree (DocumentSymbol[]); otherwise it is sent flat. */
  let hierarchicalSymbols = false;
  /** The roots the editor named that are no local folder, logged once initialized. */
  let unusableRoots: string[] = [];
  let canRegisterConfiguration = false;
  let pullDiagnostics = false;
  let canRefreshDiagnostics = false;
  /** Whether file events may come: the client declares them and has not refused (or left unanswered) their registration. */
  let canWatchFiles = false;
  let canWatchFolders = false;
  let canCreateFiles = false;
  /** Whether the client takes a workspace edit as documentChanges, each document named by its version. */
  let takesDocumentChanges = false;
  let canExpandSnippets = false;
  // Whether the client renders Markdown in hovers and in completion documentation (LSP: it says so by content format).
  let markdownIn = { hover: false, completion: false };
  let canInsertReplace = false;
  /** Whether the client shows source actions only where asked for by kind (the VS Code extension says so). */
  let sourceActionsByKindOnly = false;
  /** How the client takes code actions (server/handlers/language.ts); the commands it can run follow from it. */
  let codeActionsAs: CodeActionsAs = 'literals';
  const executeCommands = (): string[] => (codeActionsAs === 'commands' ? [PREVIEW_COMMAND, APPLY_FIX_COMMAND] : [PREVIEW_COMMAND]);
  let dynamic: { register: (settle: (what: string, promise: Promise<unknown>) => void) => void } | undefined;

  const openDocument = (path: string): TextDocument | undefined => documents.all().find((document) => toPath(document.uri) === path);
  const openText = (path: string): string | undefined => openDocument(path)?.getText();
  const byteOrderMarks = new StoredByteOrderMarks();
  // A registry or schema file is loaded as its bytes stand, unsaved edits included: a byte-order
  // mark the editor hides is given back, so the load refuses it as bqschema and lint do. (babelq.json
  // and the suppressions file take a mark in their stride, and their offsets are the editor's.)
  const openRegistryText = (path: string): string | undefined => {
    const document = openDocument(path);
    if (document === undefined) return undefined;
    return byteOrderMarks.hiddenIn(document) ? `\ufeff${document.getText()}` : document.getText();
  };
  // Which project files the client's own file events report, once it has taken their registration:
  // a file found not there may be in a folder not made yet, which the client may not watch once made.
  const coverage = new FileWatchCoverage(() => registries.workspaceFolders());
  // What the project files were when read, for the changes a client's file events do not report (server/project-file-stamps.ts).
  const stamps = new ProjectFileStamps((path) => coverage.noneThere(path));
  // A file a babelq.json anywhere in the workspace names is a registry when opened (monorepo packages naming a shared one).
  const registries: RegistryService = new RegistryService(openRegistryText, registryMessages(connection), stamps, (): NamedRegistries => configs.registriesNamed());
  /** Set when a babelq.json read names a registry an editor holds open: its diagnostics are asked for again, now a registry's. */
  let namedRegistryTimer: NodeJS.Timeout | undefined;
  // An unsaved edit of babelq.json counts as much as a saved one, as for registry.json.
  const configs = new ProjectConfigs(
    stamps.over(openText),
    // Where babelq.json and the suppressions file are looked for: one created there is a change (.git is not).
    (path) => (projectFileKind(basename(path)) === undefined ? existsSync(path) : stamps.exists(path)),
    // A project file linked out of its workspace folder is not read, as a registry so linked is not.
    (path) => registries.folderOf(path),
    // The file opened before the config naming it was read (by the workspace's walk, or a fixture
    // opened in its package) was answered as plain JSON. Told by the name alone, without a system
    // call: a document of the registry's name through a linked folder is asked for again too.
    (registry) => {
      const name = basename(registry);
      if (!documents.all().some((document) => basename(toPath(document.uri) ?? '') === name)) return;
      clearTimeout(namedRegistryTimer);
      namedRegistryTimer = setTimeout(() => refreshDiagnostics(), REGISTRY_REFRESH_MS);
    },
    // An open project file saved as UTF-16 holds its decoded text: its stored mark says it is not UTF-8.
    (path) => {
      const document = openDocument(path);
      return document === undefined ? undefined : byteOrderMarks.foreignMarkOf(document.uri);
    },
  );
  const cache = new ParseCache();
  const context: ServerContext = {
    connection,
    documents,
    cache,
    settings: new SettingsStore(connection, () => canPullConfiguration, configs, (path) => registries.folderOf(path), (uri) => registries.judgedPath(uri)),
    registries,
    configs,
    fresh: { uuid: randomUUID, now: Date.now },
    diagnosticsFirst: new DiagnosticsFirst(cache, () => pullDiagnostics),
    malformed: new MalformedRequests((message) => connection.console.warn(message)),
    registryStatus: new RegistryStatusReporter(connection, (uri) => documents.get(uri) !== undefined),
    byteOrderMarks,
    judgedFixtures: new JudgedFixtures(),
  };

  // A fixture is left to the client's file events where its project files are (server/file-watch-coverage.ts).
  const workspaceFixtures = new WorkspaceFixtures(context, () => registries.workspaceFolders(), () => (canWatchFiles ? coverage.forOneLook() : () => false));
  let schemaCompat: SchemaCompat | undefined;
  // For a client without pull diagnostics: the workspace's report, pushed.
  let workspacePush: PushedWorkspaceFixtures | undefined;

  // A client may answer any request with an error; an unhandled rejection would end the server.
  const settle = (what: string, promise: Promise<unknown>) => {
    promise.catch((error: unknown) => connection.console.warn(`${what} was refused by the client: ${error instanceof Error ? error.message : String(error)}`));
  };

  let revalidateAll: () => void = () => undefined;
  const refreshDiagnostics = () => {
    if (pullDiagnostics) {
      if (canRefreshDiagnostics) settle('Refreshing diagnostics', connection.languages.diagnostics.refresh());
    } else {
      revalidateAll();
    }
  };

  let registryTimer: NodeJS.Timeout | undefined;
  /** `edited`: by an editor's unsaved edit (or its close), not on disk. */
  const registryFilesChanged = (uris: readonly string[], edited = false) => {
    if (!context.registries.invalidate(uris, edited)) return;
    workspaceFixtures.changed();
    clearTimeout(registryTimer);
    registryTimer = setTimeout(refreshDiagnostics, REGISTRY_REFRESH_MS);
  };

  connection.onInitialize((params): InitializeResult => {
    const capabilities = params.capabilities;
    canPullConfiguration = capabilities.workspace?.configuration === true;
    canRegisterConfiguration = capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true;
    pullDiagnostics = capabilities.textDocument?.diagnostic !== undefined;
    canRefreshDiagnostics = capabilities.workspace?.diagnostics?.refreshSupport === true;
    canWatchFiles = capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    // Kept for every client: one that declares file events may refuse their registration, or
    // never answer it, and then sends none.
    stamps.setEnabled(true);
    canExpandSnippets = capabilities.textDocument?.completion?.completionItem?.snippetSupport === true;
    hierarchicalSymbols = capabilities.textDocument?.documentSymbol?.hierarchicalDocumentSymbolSupport === true;
    const completionItem = capabilities.textDocument?.completion?.completionItem;
    const completionTags: unknown = completionItem?.tagSupport?.valueSet;
    deprecatedAs = Array.isArray(completionTags) && completionTags.includes(CompletionItemTag.Deprecated) ? 'tag' : completionItem?.deprecatedSupport === true ? 'flag' : 'none';
    canInsertReplace = capabilities.textDocument?.completion?.completionItem?.insertReplaceSupport === true;
    // LSP 3.17: without codeActionLiteralSupport a client takes Command[] only, whose edits the server applies through workspace/applyEdit.
    codeActionsAs = isRecord(capabilities.textDocument?.codeAction?.codeActionLiteralSupport) ? 'literals' : capabilities.workspace?.applyEdit === true ? 'commands' : 'none';
    markdownIn = {
      hover: takesMarkdown(capabilities.textDocument?.hover?.contentFormat),
      completion: takesMarkdown(capabilities.textDocument?.completion?.completionItem?.documentationFormat),
    };
    canWatchFolders = capabilities.workspace?.workspaceFolders === true;
    const resourceOperations: unknown = capabilities.workspace?.workspaceEdit?.resourceOperations;
    takesDocumentChanges = capabilities.workspace?.workspaceEdit?.documentChanges === true;
    canCreateFiles = takesDocumentChanges && Array.isArray(resourceOperations) && resourceOperations.includes('create');
    setRelatedInformationShown(capabilities.textDocument?.publishDiagnostics?.relatedInformation === true);
    setCodeDescriptionTaken(capabilities.textDocument?.publishDiagnostics?.codeDescriptionSupport === true);
    setDiagnosticTagsTaken(capabilities.textDocument?.publishDiagnostics?.tagSupport?.valueSet);
    // Without workspace folders: the root URI, else the root path, else each file's project (server/registry.ts).
    const folders = params.workspaceFolders?.length
      ? params.workspaceFolders.map((folder) => folder.uri)
      : params.rootUri
        ? [params.rootUri]
        : params.rootPath
          ? [toUri(params.rootPath)]
          : [];
    context.registries.setWorkspaceFolders(folders);
    unusableRoots = folders.filter((uri) => toPath(uri) === undefined);
    // VS Code says whether the workspace is trusted (git is not run in one that is not); other editors trust what they open.
    const options = (params.initializationOptions ?? undefined) as { [K in keyof ServerInitializationOptions]?: unknown } | undefined;
    const trusted = options?.workspaceTrusted !== false;
    context.registryStatus.enabled = options?.registryStatus === true;
    sourceActionsByKindOnly = options?.sourceActionsByKindOnly === true;
    schemaCompat = new SchemaCompat(context, workspaceFixtures, trusted);
    if (pullDiagnostics) registerPullDiagnostics(context, workspaceFixtures, schemaCompat);
    else {
      // registry.json is pushed by one sender, fed by the open fixtures and by the workspace's report.
      const registryFiles = new PushedRegistryFiles(context);
      revalidateAll = registerPushDiagnostics(context, schemaCompat, registryFiles, (document) => {
        if (canCollect() && isLargeEnvelope(document)) collectWhenIdle();
      });
      workspacePush = new PushedWorkspaceFixtures(context, workspaceFixtures, registryFiles);
    }
    dynamic = dynamicFeatures(connection, capabilities);
    return {
      capabilities: {
        // Saves are heard for the byte-order mark alone ("Save with Encoding" changes no text): server/stored-byte-order-marks.ts.
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        ...(pullDiagnostics ? { diagnosticProvider: { identifier: 'babelqueue', interFileDependencies: true, workspaceDiagnostics: true } } : {}),
        ...staticFeatures(dynamic !== undefined),
        executeCommandProvider: { commands: executeCommands() },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
    };
  });

  connection.onInitialized(() => {
    if (initializeRepair?.unseenProcessId !== undefined) {
      connection.console.warn(
        `The client's process id ${initializeRepair.unseenProcessId} is no process this server can see (the editor runs in another PID namespace, such as outside the container or WSL the server runs in, or as another user): it is not watched, and the server ends when its input closes or on exit.`,
      );
    }
    if (initializeRepair?.repaired.length) connection.console.warn(`The client's initialize request was not as the protocol has it, and the server read it as best it could: ${initializeRepair.repaired.join('; ')}.`);
    // A root the server cannot read (a relative root_dir sent as file://., a remote URI) is left out: said, or the editor's root seems ignored.
    const noRootLeft = context.registries.workspaceFolders().length === 0;
    for (const uri of unusableRoots) connection.console.warn(`The root ${uriForLog(uri)} the editor named is no local folder (a file: URI of an absolute path): it is left out${noRootLeft ? ", and each file's project is found from the file, as without a root" : ''}.`);
    if (canRegisterConfiguration) settle('Registering for configuration changes', connection.client.register(DidChangeConfigurationNotification.type, { section: 'babelqueue' }));
    if (canWatchFiles) watchFiles();
    dynamic?.register(settle);
    workspacePush?.start();
    if (canWatchFolders) {
      connection.workspace.onDidChangeWorkspaceFolders(() => {
        settle(
          'Reading the workspace folders',
          connection.workspace.getWorkspaceFolders().then((answer: unknown) => {
            const folders = workspaceFolderUris(answer);
            if (folders === undefined) {
              connection.console.warn(`The client answered workspace/workspaceFolders with something other than a list of folders (${JSON.stringify(answer)?.slice(0, 80)}): the workspace folders stay as they were.`);
              return;
            }
            context.registries.setWorkspaceFolders(folders);
            foldersChanged();
            // The configs of a folder that left are no one's (and their files no longer looked at); the others are read again.
            configs.clear();
            // A document with no file is judged from the first folder, which may have changed.
            context.settings.projectChanged();
            workspaceFixtures.rescan();
            refreshDiagnostics();
          }),
        );
      });
    }
  });

  // A client may declare file events and still refuse their registration (an error), or never
  // answer it: it then sends none, and is treated as one that declares none (Neovim 0.7), which
  // the server's log says once. Until it answers, the disk is looked at on each save and open.
  const watchFiles = (): void => {
    let answered = false;
    let said = false;
    const notWatching = (why: string): void => {
      canWatchFiles = false;
      // A refusal after the wait ran out changes nothing the log has not said.
      if (said) return;
      said = true;
      connection.console.warn(`${why}: the server hears of no file changed on disk, so at each save and open it looks at the registry.json, schema, babelq.json and suppressions files it read instead of waiting for file events.`);
    };
    const unanswered = setTimeout(() => {
      if (!answered) notWatching(`The client has not answered the registration of file events in ${WATCH_ANSWER_MS / 1000} s`);
    }, WATCH_ANSWER_MS);
    unanswered.unref();
    const sentAt = Date.now();
    // The exclude files the walks read (workspace/git-exclude-file.ts): a checkout's own, which its
    // linked worktrees share, and a submodule's in its superproject's `.git/modules/`. A linked
    // worktree opened without its main checkout reads the main checkout's, outside every workspace
    // folder: no watcher reaches it (a client watches the workspace folders), so a change of it is
    // taken in at the next walk anew (a .gitignore, a babelq.json or the folders changed).
    connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.json' }, { globPattern: '**/.gitignore' }, { globPattern: '**/.git/info/exclude' }, { globPattern: '**/.git/modules/**/info/exclude' }, { globPattern: '**/.git/config' }, { globPattern: '**/.git/modules/**/config' }, { globPattern: '**/*', kind: WatchKind.Create | WatchKind.Delete }] }).then(
      () => {
        answered = true;
        clearTimeout(unanswered);
        canWatchFiles = true;
        coverage.registered(sentAt);
      },
      (error: unknown) => {
        answered = true;
        clearTimeout(unanswered);
        notWatching(`The client refused the registration of file events (${error instanceof Error ? error.message : String(error)})`);
      },
    );
  };

  connection.onNotification(WORKSPACE_TRUSTED_METHOD, () => {
    schemaCompat?.trust();
    refreshDiagnostics();
  });

  connection.onDidChangeConfiguration((change) => {
    // A notification without params (null) counts as one without a babelqueue section.
    const section = (change as { settings?: { babelqueue?: unknown } } | null | undefined)?.settings?.babelqueue;
    context.settings.changed(section);
    workspaceFixtures.changed();
    refreshDiagnostics();
  });

  // babelq.json or its suppressions changed (on disk, in an editor, or closed unsaved): every setting is worked out again.
  let projectTimer: NodeJS.Timeout | undefined;
  const projectFilesChanged = (uris: readonly string[]): boolean => {
    const paths = uris.filter((uri) => projectFileKind(uri) !== undefined).map(toPath).filter((path): path is string => path !== undefined);
    if (paths.length === 0) return false;
    for (const path of paths) configs.forget(path);
    context.settings.projectChanged();
    // A babelq.json's "ignore" decides which fixtures the workspace has.
    workspaceFixtures.rescan();
    clearTimeout(projectTimer);
    projectTimer = setTimeout(refreshDiagnostics, REGISTRY_REFRESH_MS);
    return true;
  };

  connection.onDidChangeWatchedFiles((params) => {
    // Only well-formed events count: one without a string URI or a type changes nothing.
    let changes: FileEvent[] = Array.isArray(params?.changes) ? params.changes.filter((change) => isRecord(change) && isUri(change.uri) && typeof change.type === 'number') : [];
    if (changes.length !== (Array.isArray(params?.changes) ? params.changes.length : -1)) context.malformed.report('workspace/didChangeWatchedFiles', 'a change without a URI or a type', 'notification');
    // A folder deleted or made (renamed away or into the workspace) is reported by its own path
    // alone (VS Code leaves out the events of what it held): each file below it changes too.
    changes = withFolderEvents(changes);
    /** The changes that can change a registry or a config as the server reads them. */
    const uris: string[] = [];
    // The open documents by path, made once for the whole batch (a checkout can change thousands of files).
    let openByPath: Map<string, string[]> | undefined;
    let marksChanged = false;
    const isOpen = (path: string): boolean => (openByPath ??= openDocumentsByPath(documents.all())).has(path);
    let linksReached: ((path: string | undefined, changedInPlace: boolean) => LinksReached) | undefined;
    for (const change of changes) {
      const path = toPath(change.uri);
      // A git config holds core.ignorecase, which decides how every .gitignore line matches.
      if (path?.endsWith('/.gitignore') || (path !== undefined && (isGitExcludeFile(path) || isGitConfigFile(path)))) workspaceFixtures.rescan();
      else if (path && isFixturePath(change.uri)) workspaceFixtures.fileChanged(path, change.type === FileChangeType.Deleted);
      // Written anew under an open document (a checkout, a script): with or without the mark now.
      let markChanged = false;
      let open = false;
      if (path && change.type !== FileChangeType.Deleted) {
        openByPath ??= openDocumentsByPath(documents.all());
        const openUris = openByPath.get(path) ?? [];
        open = openUris.length > 0;
        for (const uri of openUris) if (context.byteOrderMarks.look(uri)) markChanged = true;
      }
      marksChanged ||= markChanged;
      // A file a registry reads through a symbolic link is named here where it really is: the
      // links through which registries read it from disk (server/registry.ts).
      linksReached ??= context.registries.linksReachedByEvents(isOpen);
      const reached = linksReached(path, change.type === FileChangeType.Changed);
      if (reached.kind === 'nothing read' && !markChanged) continue;
      const links = reached.kind === 'links' ? reached.links : undefined;
      // A file an editor holds is read from the editor, whose edits were heard: its save's event
      // (VS Code's, right after the save) changes nothing read, unless the mark came or went, or a
      // registry reads it through a link from disk. Its creation or deletion still changes which
      // registry.json fixtures find on disk.
      if (open && change.type === FileChangeType.Changed && !markChanged && links === undefined) continue;
      // A change a look at the disk already took in (at a save before this event came, in a
      // folder the look does not leave to the client): read once, not again for its event. A file
      // a registry reads through a link is stamped under the link's path, which the event does not name.
      if (path && !markChanged && (links === undefined ? stamps.asRead(path) : links.every((link) => stamps.asRead(link)))) continue;
      if (path) stamps.toldByEvent(path);
      for (const link of links ?? []) stamps.toldByEvent(link);
      uris.push(change.uri);
    }
    if (marksChanged) refreshDiagnostics();
    projectFilesChanged(uris);
    registryFilesChanged(uris);
  });

  /**
   * `changes` with each folder deleted or made (renamed away or into the workspace, VS Code names
   * the folder alone) taken as that change of each file the server read, or looked for, below it
   * (registry.json, schema, babelq.json and suppressions files), as their own events would have
   * said, with the fixtures' next walk wanted (for a deleted folder, when it held any). The watcher
   * of folders reports every path (a client that does not tell kinds apart, eglot, every change
   * too): an event of a path that is no JSON file, .gitignore, .git/info/exclude or .git/config, nor a file read, nor such a folder,
   * is passed over, and an event two watchers report is taken once. Of the paths created, those
   * below another created in the batch, or where neither a file read nor the walk reaches, are not
   * looked at (server/folder-events.ts): an npm install reported path by path took a stat each.
   */
  const withFolderEvents = (changes: readonly FileEvent[]): FileEvent[] => {
    const seen = new Set<string>();
    const once = changes.filter((change) => {
      const key = `${change.type} ${change.uri}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const watchedName = (path: string | undefined): boolean => path === undefined || path.endsWith('.json') || path.endsWith('/.gitignore') || isGitExcludeFile(path) || isGitConfigFile(path);
    if (once.every((change) => watchedName(toPath(change.uri)))) return once;
    const read = new Set([...stamps.paths(), ...registries.filesDependedOn(), ...configs.filesLookedAt()]);
    /** Every folder above a file read, or at or above a fixture's folder. */
    const above = new Set<string>();
    const addAbove = (directory: string): void => {
      for (let at = directory; !above.has(at); at = dirname(at)) {
        above.add(at);
        if (dirname(at) === at) break;
      }
    };
    for (const path of read) addAbove(dirname(path));
    const fixtureDirectories = workspaceFixtures.fixtureDirectories();
    for (const directory of fixtureDirectories) addAbove(directory);
    const deleted: string[] = [];
    const made: string[] = [];
    const created: string[] = [];
    const kept = once.filter((change) => {
      const path = toPath(change.uri);
      if (watchedName(path) || read.has(path!)) return true;
      if (change.type === FileChangeType.Deleted && above.has(path!)) deleted.push(path!);
      else if (change.type === FileChangeType.Created) created.push(path!);
      return false;
    });
    // Looked at as folders made: not every path created (server/folder-events.ts).
    made.push(...foldersMadeAmong(created, above, registries.workspaceFolders(), SKIPPED_DIRECTORIES, isDirectory));
    // What they held at the watchers' registration no longer says anything (server/file-watch-coverage.ts).
    coverage.foldersDeleted(deleted);
    if (deleted.length === 0 && made.length === 0) return kept;
    const below = (folders: readonly string[]) => (path: string): boolean => folders.some((folder) => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep));
    const inDeleted = below(deleted);
    if ([...fixtureDirectories].some(inDeleted)) workspaceFixtures.fileChanged(deleted[0]!, true);
    if (made.length > 0) workspaceFixtures.foldersMade(made);
    const named = new Set(kept.map((change) => toPath(change.uri)));
    for (const [folders, type] of [[deleted, FileChangeType.Deleted], [made, FileChangeType.Created]] as const) {
      const inside = below(folders);
      for (const path of read) if (inside(path) && !named.has(path)) kept.push({ uri: toUri(path), type });
    }
    return kept;
  };

  // A client that sends no file events (Neovim 0.7), or none for a folder made after it registered
  // its watchers (eglot 1.9), hears nothing of a registry.json, schema file, babelq.json or
  // suppressions file another program changed (a checkout, another editor): when it saves a
  // document (when the workspace's folders are walked again for it) or opens one (which is then
  // checked against them), the files read from disk that its events do not report are looked at,
  // and those that changed are taken as a file event would name them. One look at a time: a save
  // or open during one has one more follow it.
  // The open documents' paths, and the directories they are judged from, kept as documents open
  // and close: a look runs at every open, and working both out from every open document at each
  // look made opening many documents quadratic (3,000 took 11 s, not 2).
  const openPaths = new Map<string, number>();
  const openJudgedFrom = new Map<string, number>();
  const openPlaces = new Map<string, { readonly path: string | undefined; readonly judgedFrom: string | undefined }>();
  const count = (counts: Map<string, number>, key: string | undefined, by: number): void => {
    if (key === undefined) return;
    const left = (counts.get(key) ?? 0) + by;
    if (left > 0) counts.set(key, left);
    else counts.delete(key);
  };
  const placeOpened = (uri: string): void => {
    // Opened again without a close (a client's breach of the protocol): the same places.
    if (openPlaces.has(uri)) return;
    const judged = registries.judgedPath(uri);
    const place = { path: toPath(uri), judgedFrom: judged === undefined ? undefined : dirname(judged) };
    openPlaces.set(uri, place);
    count(openPaths, place.path, 1);
    count(openJudgedFrom, place.judgedFrom, 1);
  };
  const placeClosed = (uri: string): void => {
    const place = openPlaces.get(uri);
    if (place === undefined) return;
    openPlaces.delete(uri);
    count(openPaths, place.path, -1);
    count(openJudgedFrom, place.judgedFrom, -1);
  };
  // A document with no file is judged from the first workspace folder, which may have changed.
  const foldersChanged = (): void => {
    for (const uri of [...openPlaces.keys()]) {
      placeClosed(uri);
      placeOpened(uri);
    }
  };
  documents.onDidOpen((event) => placeOpened(event.document.uri));
  documents.onDidClose((event) => placeClosed(event.document.uri));
  // The directories documents are judged from now: the report's fixtures' and the open documents'.
  // A registry search made for another (its fixtures moved or deleted) is kept for no one.
  const judgedFrom = { has: (directory: string): boolean => openJudgedFrom.has(directory) || workspaceFixtures.fixtureDirectories().has(directory) };
  let lookingAtDisk = false;
  let lookAgain = false;
  const projectFilesOnDisk = async (): Promise<void> => {
    if (lookingAtDisk) {
      lookAgain = true;
      return;
    }
    lookingAtDisk = true;
    try {
      do {
        lookAgain = false;
        // Only what the registries and configs kept were worked out from is looked at: a schema a
        // registry no longer names, or a folder that left the workspace, is not stat'ed at every save.
        registries.keepSearchesFor(judgedFrom);
        stamps.keepOnly([...registries.filesDependedOn(), ...configs.filesLookedAt()]);
        // For a client that sends file events, only the files its watchers miss (folders made
        // since it registered them: eglot 1.9 watches only those that were there).
        // A file a registry reads through a symbolic link changes where the link leads, and the
        // client tells that change there: left to it only when it watches that place too (eglot
        // watches no git-ignored folder, whatever folder holds the link).
        const watched = coverage.forOneLook();
        const placeOfLink = new Map<string, string>();
        for (const [place, links] of registries.linksByPlace()) for (const link of links) placeOfLink.set(link, place);
        const leftToClient = (path: string): boolean => {
          const place = placeOfLink.get(path);
          return watched(path) && (place === undefined || watched(place));
        };
        const uris = (await stamps.changed(openPaths, leftToClient)).map(toUri);
        if (uris.length === 0) continue;
        projectFilesChanged(uris);
        registryFilesChanged(uris);
      } while (lookAgain);
    } finally {
      lookingAtDisk = false;
    }
  };
  const lookAtProjectFiles = () => void projectFilesOnDisk().catch((error: unknown) => connection.console.error(`Looking at the project files on disk failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  documents.onDidSave(lookAtProjectFiles);
  documents.onDidOpen(lookAtProjectFiles);

  // An unsaved edit to registry.json or a schema counts as much as a saved one.
  documents.onDidChangeContent((event) => {
    if (event.document.languageId === ENVELOPE_LANGUAGE_ID) return;
    if (projectFilesChanged([event.document.uri])) return;
    if (context.registries.isRegistryFile(event.document.uri)) registryFilesChanged([event.document.uri], true);
  });

  // The workspace's report finds an open fixture under the URI the editor spells, and keeps a large
  // one's problems once it closes.
  documents.onDidOpen((event) => workspaceFixtures.documentOpened(event.document.uri));
  // A didOpen of a URI already open (no didClose between: a client's breach of the protocol) has
  // TextDocuments replace the document, often at the same version: the parse and analysis kept
  // under that URI and version are the earlier text's, so they go.
  documents.onDidOpen((event) => context.cache.delete(event.document.uri));
  documents.onDidClose((event) => workspaceFixtures.documentClosed(event.document.uri));

  // Whether a document's file starts with the byte-order mark its editor hides (an envelope's is
  // json-syntax, a registry's or schema's refuses it): looked at on open and on save, where "Save
  // with Encoding" may have added or removed it without changing the text.
  documents.onDidOpen((event) => context.byteOrderMarks.look(event.document.uri));
  documents.onDidSave((event) => {
    if (!context.byteOrderMarks.look(event.document.uri)) return;
    if (projectFilesChanged([event.document.uri])) return;
    if (context.registries.isRegistryFile(event.document.uri)) registryFilesChanged([event.document.uri]);
    else refreshDiagnostics();
  });

  // An open document (server/editable-document.ts) finds every line start on its first change (some
  // 35 ms on a 5 MB fixture, paid by the user's first keystroke), and a large one's first edit
  // also makes the buffer its versions are written through: both done once the opening's
  // diagnostics are out instead, while the user reads them, in steps with other messages answered
  // between them (a 46 MB fixture's preparation held the server for over a second in one piece).
  // A small document's scan costs nothing worth moving (and 10,000 open fixtures would each keep
  // an array they may never need).
  documents.onDidOpen((event) => {
    // Envelopes only: a large JSON file synced beside them (a lockfile) is rarely typed in.
    if (!isEnvelopeDocument(event.document) || event.document.getText().length < EARLY_LINE_SCAN_CHARS) return;
    const { uri, version } = event.document;
    void context.diagnosticsFirst.wait(event.document).then(() => {
      const document = documents.get(uri);
      if (document?.version !== version) return;
      const steps = asEditable(document).preparationSteps();
      // The same document object: one closed and opened again (even at the same version) is another.
      const step = (): void => {
        if (documents.get(uri) === document && document.version === version && !steps.next().done) setImmediate(step);
      };
      setImmediate(step);
    });
  });

  // A large envelope's earlier versions collected once its edits pause after their diagnostics, so
  // the next version is written into their memory (server/text-memory.ts); only when the server can
  // collect. Pulled diagnostics are computed when the editor asks; pushed ones after the server's
  // own pause, and the collection follows their publication instead (registerPushDiagnostics).
  if (canCollect()) {
    documents.onDidChangeContent((event) => {
      if (pullDiagnostics && isLargeEnvelope(event.document)) void context.diagnosticsFirst.wait(event.document).then(() => collectWhenIdle());
    });
  }

  documents.onDidClose((event) => {
    context.cache.delete(event.document.uri);
    context.settings.forget(event.document.uri);
    context.registryStatus.forget(event.document.uri);
    context.byteOrderMarks.forget(event.document.uri);
    const closedPath = toPath(event.document.uri);
    if (closedPath) context.judgedFixtures.forget(closedPath);
    // The last large document closed: its edit buffer (some 11 MB for a 5 MB envelope) goes with it.
    if (event.document.getText().length >= LARGE_TEXT_CHARS) releaseEditBuffer(documents.all());
    // Closing an edited registry, schema or babelq.json without saving brings back what the disk says.
    projectFilesChanged([event.document.uri]);
    if (context.registries.isRegistryFile(event.document.uri)) registryFilesChanged([event.document.uri], true);
  });

  const applyFix = registerLanguageFeatures(context, () => canCreateFiles, () => canExpandSnippets, () => markdownIn, () => canInsertReplace, () => deprecatedAs, () => sourceActionsByKindOnly, () => codeActionsAs, () => takesDocumentChanges);
  registerStructureFeatures(context, () => hierarchicalSymbols);
  registerNavigation(context, workspaceFixtures);
  registerRegistryRequests(context);
  const preview = registerPreview(context);
  // workspace/executeCommand runs the commands initialize named for this client, each by its name.
  connection.onExecuteCommand((params, token) => {
    const problem = malformedExecuteCommandParams(params);
    if (problem !== undefined) return refuseMalformed(context, 'workspace/executeCommand', problem);
    const offered = executeCommands();
    if (!offered.includes(params.command)) return new ResponseError(ErrorCodes.InvalidParams, `Unknown command ${params.command}; this server runs ${offered.join(' and ')}.`);
    return params.command === APPLY_FIX_COMMAND ? applyFix(params, token) : preview(params, token);
  });
  registerMessageVerdicts(context);
  documents.listen(checkedDocumentSync(connection, (message) => connection.console.warn(message)));
  connection.listen();
}

/** True when a client's list of content formats names Markdown; a client that gives none is sent plain text. */
function takesMarkdown(formats: unknown): boolean {
  return Array.isArray(formats) && formats.includes(MarkupKind.Markdown);
}

/** Capabilities announced up front, for clients that cannot register them per document selector. */
function staticFeatures(registeredDynamically: boolean): ServerCapabilities {
  if (registeredDynamically) return {};
  return {
    hoverProvider: true,
    completionProvider: { triggerCharacters: ['"', ':'], resolveProvider: false },
    codeActionProvider: { codeActionKinds: CODE_ACTION_KINDS },
    documentFormattingProvider: true,
    foldingRangeProvider: true,
    documentSymbolProvider: true,
    selectionRangeProvider: true,
    definitionProvider: true,
    referencesProvider: true,
    documentLinkProvider: { resolveProvider: false },
  };
}

/**
 * With dynamic registration each feature gets its own selector, so JSON files (synced only for
 * registry.json and schema edits) get no second formatter or outline next to VS Code's own.
 */
function dynamicFeatures(connection: Connection, capabilities: ClientCapabilities): { register: (settle: (what: string, promise: Promise<unknown>) => void) => void } | undefined {
  const text = capabilities.textDocument;
  const all = [text?.hover, text?.completion, text?.codeAction, text?.formatting, text?.foldingRange, text?.documentSymbol, text?.selectionRange, text?.definition, text?.references, text?.documentLink];
  if (!all.every((feature) => feature?.dynamicRegistration === true)) return undefined;
  return {
    register: (settle) => {
      const client = connection.client as unknown as { register(type: unknown, options: unknown): Promise<unknown> };
      const features: [unknown, object][] = [
        [HoverRequest.type, { documentSelector: ENVELOPES }],
        [CompletionRequest.type, { documentSelector: ENVELOPES, triggerCharacters: ['"', ':'] }],
        [CodeActionRequest.type, { documentSelector: ENVELOPES, codeActionKinds: CODE_ACTION_KINDS }],
        // The registry's schema files (the server answers for those alone): pii-unmarked, "Register as a new URN…".
        [CodeActionRequest.type, { documentSelector: SCHEMA_FILES, codeActionKinds: [CodeActionKind.QuickFix] }],
        [DocumentFormattingRequest.type, { documentSelector: ENVELOPES }],
        [FoldingRangeRequest.type, { documentSelector: ENVELOPES }],
        [DocumentSymbolRequest.type, { documentSelector: ENVELOPES }],
        [SelectionRangeRequest.type, { documentSelector: ENVELOPES }],
        [DefinitionRequest.type, { documentSelector: ENVELOPES }],
        [ReferencesRequest.type, { documentSelector: REGISTRIES }],
        [DocumentLinkRequest.type, { documentSelector: REGISTRIES }],
      ];
      for (const [type, options] of features) settle('Registering a feature', client.register(type, options));
    },
  };
}

declare const __SERVER_VERSION__: string | undefined;
const SERVER_VERSION = typeof __SERVER_VERSION__ === 'string' ? __SERVER_VERSION__ : '0.0.0-dev';

/** The URIs of the open documents, by the path of their file (an editor may spell one file's URI more than one way). */
function openDocumentsByPath(documents: readonly TextDocument[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const document of documents) {
    const path = toPath(document.uri);
    if (path !== undefined) byPath.set(path, [...(byPath.get(path) ?? []), document.uri]);
  }
  return byPath;
}

/** An envelope large enough that its earlier versions are worth collecting between edits. */
function isLargeEnvelope(document: TextDocument): boolean {
  return isEnvelopeDocument(document) && document.getText().length >= LARGE_TEXT_CHARS;
}

/** Whether `path` is a folder now, or a link to one (the walk decides whether it enters it). */
function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

