/**
 * What `client/extension.ts`'s activate needs beyond test/support/fake-vscode.ts: the rest of the
 * `vscode` API it touches at activation (as inert stand-ins), and a stand-in for
 * `vscode-languageclient/node` whose LanguageClient records what it was made with and what it was
 * asked, and starts, fails or stops as the test says. Install it before the first import of
 * client/extension.ts (each test file runs in a process of its own).
 */
import Module from 'node:module';
import { installFakeVscode, type FakeVscode } from './fake-vscode';

export type ClientState = 'stopped' | 'starting' | 'running' | 'startFailed';

export interface FakeLanguageClient {
  readonly id: string;
  readonly clientOptions: { initializationOptions?: unknown; [key: string]: unknown };
  /** Where it is; `state` is the library's public State of it. */
  phase: ClientState;
  readonly notifications: { method: string; params: unknown }[];
  stops: number;
}

export interface FakeExtensionHost {
  readonly vscode: FakeVscode;
  /** The clients made, newest last. */
  readonly clients: FakeLanguageClient[];
  /** How the next start ends: 'running', 'failed', or 'pending' (a start that ends when finishStart is called). */
  startOutcome: 'running' | 'failed' | 'pending';
  /** Ends a pending start: the server runs. */
  finishStart(): void;
  /** The URIs of the documents opened (openTextDocument) and shown (showTextDocument), in order. */
  readonly opened: string[];
  /** The content providers registered, by scheme, the CodeLens provider (as 'codelens') and the whole-envelope completion provider (as 'completion'). */
  readonly providers: Map<string, any>;
  /** The lines written to the BabelQueue output, as `<level>: <text>`. */
  readonly outputLines: string[];
  /** The BabelQueue output's log level (vscode.LogLevel; Info, 3, unless set). */
  outputLogLevel: number;
  /** What the extension's own diagnostic collections hold, by document URI. */
  readonly diagnostics: Map<string, readonly any[]>;
  /** Listeners registered with onDidGrantWorkspaceTrust. */
  readonly trustListeners: (() => void)[];
  /** A context for activate. */
  context(): any;
  /** Disposes what every context made so far holds, as VS Code does after deactivate. */
  disposeContexts(): void;
  /** A vscode.Uri of the fake `vscode` module. */
  uri(text: string): any;
  /** The fake `vscode` module itself (workspace.textDocuments can be set). */
  readonly api: any;
  /** Calls the listeners of a workspace or window event (`onDidCloseTextDocument`, `onDidChangeActiveTextEditor`, …) with `value`. */
  fire(event: string, value: unknown): void;
}

const CLIENT_ID = 'vscode-languageclient/node (fake, test/support/fake-extension-host.ts)';
const disposable = { dispose() {} };
/** vscode-languageclient's public states. */
const STATE = { Stopped: 1, Running: 2, Starting: 3, StartFailed: 4 };
const listen = () => disposable;

export function installFakeExtensionHost(): FakeExtensionHost {
  const fake = installFakeVscode();
  const contexts: { subscriptions: { dispose?(): void }[] }[] = [];
  const loader = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string; _cache: Record<string, unknown> };
  const vscode = (loader._cache[loader._resolveFilename('vscode')] as { exports: any }).exports;
  const host: FakeExtensionHost = {
    vscode: fake,
    clients: [],
    startOutcome: 'running',
    trustListeners: [],
    diagnostics: new Map(),
    opened: [],
    outputLines: [],
    providers: new Map(),
    outputLogLevel: 3,
    finishStart: () => undefined,
    uri: (text) => vscode.Uri.parse(text),
    api: vscode,
    fire: (event, value) => {
      for (const listener of [...(listeners.get(event) ?? [])]) listener(value);
    },
    context() {
      const context = { ...fake.services().context, asAbsolutePath: (path: string) => `/extension/${path}`, globalStorageUri: { fsPath: '/storage' } };
      contexts.push(context);
      return context;
    },
    disposeContexts() {
      for (const context of contexts.splice(0)) for (const subscription of context.subscriptions.splice(0)) subscription.dispose?.();
    },
  };
  // The events a test fires, recorded as they are listened to.
  const listeners = new Map<string, ((value: unknown) => void)[]>();
  const recorded = (event: string) => (listener: (value: unknown) => void) => {
    listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    return { dispose: () => listeners.set(event, (listeners.get(event) ?? []).filter((other) => other !== listener)) };
  };
  for (const event of ['onDidOpenTextDocument', 'onDidCloseTextDocument', 'onDidChangeTextDocument', 'onDidChangeConfiguration']) vscode.workspace[event] = recorded(event);
  vscode.window.onDidChangeVisibleTextEditors = recorded('onDidChangeVisibleTextEditors');
  vscode.window.onDidChangeActiveTextEditor = recorded('onDidChangeActiveTextEditor');
  /** An EventEmitter whose listeners hear what it fires. */
  vscode.EventEmitter = class {
    private readonly heard: ((value: unknown) => void)[] = [];
    readonly event = (listener: (value: unknown) => void) => (this.heard.push(listener), disposable);
    fire(value: unknown): void {
      for (const listener of this.heard) listener(value);
    }
    dispose(): void {}
  };
  vscode.Position ??= class {
    constructor(readonly line: number, readonly character: number) {}
  };
  // The BabelQueue output: its lines, at the log level the test sets (vscode.LogLevel: Info is 3, Trace 1).
  const line = (level: string) => (text: string) => void host.outputLines.push(`${level}: ${text}`);
  const output = () => ({
    get logLevel() {
      return host.outputLogLevel;
    },
    onDidChangeLogLevel: listen,
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    trace: line('trace'),
    debug: line('debug'),
    appendLine: line('info'),
    show() {},
    dispose() {},
  });
  vscode.window.createOutputChannel ??= output;
  vscode.LogLevel ??= { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 };
  vscode.window.onDidChangeActiveTextEditor ??= listen;
  vscode.window.onDidChangeVisibleTextEditors ??= listen;
  vscode.window.tabGroups.onDidChangeTabs ??= listen;
  vscode.workspace.onDidChangeTextDocument ??= listen;
  vscode.workspace.onDidOpenTextDocument ??= listen;
  // In place of fake-vscode.ts's: the activation tests call its listeners themselves.
  vscode.workspace.onDidGrantWorkspaceTrust = (listener: () => void) => (host.trustListeners.push(listener), disposable);
  vscode.workspace.registerTextDocumentContentProvider ??= (scheme: string, provider: unknown) => (host.providers.set(scheme, provider), disposable);
  vscode.languages.createLanguageStatusItem ??= () => ({ dispose() {} });
  vscode.languages.createDiagnosticCollection ??= () => ({
    set: (uri: { toString(): string }, items: readonly unknown[]) => void host.diagnostics.set(uri.toString(), items),
    delete: (uri: { toString(): string }) => void host.diagnostics.delete(uri.toString()),
    dispose() {},
  });
  vscode.Diagnostic ??= class {
    source?: string;
    code?: string;
    constructor(readonly range: unknown, readonly message: string, readonly severity: number) {}
  };
  vscode.languages.registerCodeLensProvider ??= (_selector: unknown, provider: unknown) => (host.providers.set('codelens', provider), disposable);
  vscode.languages.registerCompletionItemProvider ??= (_selector: unknown, provider: unknown) => (host.providers.set('completion', provider), disposable);
  vscode.tasks ??= { registerTaskProvider: listen };
  vscode.LanguageStatusSeverity ??= { Information: 0, Warning: 1, Error: 2 };
  vscode.ViewColumn ??= { Active: -1, Beside: -2 };
  /** Enough of vscode.Uri for the URIs the extension makes: scheme, authority, path and query, written as VS Code writes them (unescaped). */
  class Uri {
    constructor(readonly scheme: string, readonly authority: string | undefined, readonly path: string, readonly query: string) {}
    static from(parts: { scheme: string; authority?: string; path?: string; query?: string }): Uri {
      return new Uri(parts.scheme, parts.authority, parts.path ?? '', parts.query ?? '');
    }
    static parse(text: string): Uri {
      const match = /^([a-z][a-z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?/i.exec(text);
      return match ? new Uri(match[1]!, match[2], match[3]!, match[4] ?? '') : new Uri('file', '', text, '');
    }
    static joinPath(base: Uri, ...parts: string[]): Uri {
      return new Uri(base.scheme, base.authority, [base.path.replace(/\/$/, ''), ...parts].join('/'), '');
    }
    get fsPath(): string {
      return this.path;
    }
    toString(): string {
      return `${this.scheme}:${this.authority !== undefined ? `//${this.authority}` : ''}${this.path}${this.query ? `?${this.query}` : ''}`;
    }
  }
  vscode.Uri ??= Uri;
  vscode.workspace.openTextDocument ??= async (uri: { toString(): string }) => {
    host.opened.push(uri.toString());
    return { uri, languageId: 'babelqueue-preview' };
  };
  vscode.window.showTextDocument ??= async (shown: { uri: { toString(): string } } | { toString(): string }) => {
    host.opened.push(`shown ${('uri' in shown ? shown.uri : shown).toString()}`);
    return {};
  };

  class LanguageClient implements FakeLanguageClient {
    phase: ClientState = 'stopped';
    get state(): number {
      return { stopped: STATE.Stopped, starting: STATE.Starting, running: STATE.Running, startFailed: STATE.StartFailed }[this.phase];
    }
    readonly notifications: { method: string; params: unknown }[] = [];
    stops = 0;
    constructor(readonly id: string, _name: string, _serverOptions: unknown, readonly clientOptions: FakeLanguageClient['clientOptions']) {
      host.clients.push(this);
    }
    private readonly stateListeners: ((event: { oldState: number; newState: number }) => void)[] = [];
    /** As vscode-languageclient's: told each change of `state`. */
    onDidChangeState(listener: (event: { oldState: number; newState: number }) => void) {
      this.stateListeners.push(listener);
      return disposable;
    }
    private moveTo(phase: ClientState): void {
      const oldState = this.state;
      this.phase = phase;
      if (this.state !== oldState) for (const listener of this.stateListeners) listener({ oldState, newState: this.state });
    }
    onNotification() {
      return disposable;
    }
    isRunning() {
      return this.phase === 'running';
    }
    private starting: Promise<void> | undefined;
    needsStop() {
      return this.phase === 'starting' || this.phase === 'running';
    }
    /** As vscode-languageclient's: a start while one is under way is that start. */
    start(): Promise<void> {
      if (this.starting) return this.starting;
      this.moveTo('starting');
      if (host.startOutcome === 'pending') {
        this.starting = new Promise((resolve) => {
          host.finishStart = () => {
            this.moveTo('running');
            this.starting = undefined;
            resolve();
          };
        });
        return this.starting;
      }
      if (host.startOutcome === 'failed') {
        this.moveTo('startFailed');
        return Promise.reject(new Error('the server exited'));
      }
      this.moveTo('running');
      return Promise.resolve();
    }
    /** As vscode-languageclient's: refused unless running or stopped already (a start under way, or failed, cannot be stopped). */
    async stop(): Promise<void> {
      if (this.phase === 'stopped') return;
      if (this.phase !== 'running') throw new Error(`Client is not running and can't be stopped. It's current state is: ${this.phase}`);
      this.stops++;
      this.moveTo('stopped');
    }
    /** As vscode-languageclient's: refused when the client is stopped or its start failed. */
    async sendNotification(type: string | { method: string }, params?: unknown): Promise<void> {
      if (this.phase === 'stopped' || this.phase === 'startFailed') throw new Error('Client is not running');
      this.notifications.push({ method: typeof type === 'string' ? type : type.method, params });
    }
  }
  const client = {
    LanguageClient,
    State: STATE,
    TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 },
    DidChangeConfigurationNotification: { type: { method: 'workspace/didChangeConfiguration' } },
  };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode-languageclient/node' ? CLIENT_ID : resolve.call(this, request, ...rest);
  };
  loader._cache[CLIENT_ID] = { id: CLIENT_ID, filename: CLIENT_ID, loaded: true, exports: client };
  return host;
}
