/**
 * A minimal LSP client for tests: spawns the built `dist/server.js` over stdio and speaks real
 * JSON-RPC to it. It answers `workspace/configuration` from a settings object the test controls
 * and records everything the server logs or publishes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import {
  ConnectionError,
  createProtocolConnection,
  ErrorCodes,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { ENVELOPE_LANGUAGE_ID } from '../../core/language/protocol';

export const SERVER_PATH = resolve(__dirname, '../../dist/server.js');

/**
 * How long after a server's output closes its last messages are given to be handled before the
 * connection is disposed (vscode-jsonrpc handles a message per event-loop turn). Disposing drops
 * what is still queued: a test whose own event loop is blocked longer than this while the server
 * dies could miss the server's last notifications (none relies on them).
 */
const LAST_MESSAGES_MS = 100;

/**
 * Code actions taken as CodeAction literals, as VS Code, Neovim and eglot declare them (LSP 3.17: a
 * client that does not is answered with Command[]).
 */
export const CODE_ACTION_LITERALS = { codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source'] } } };

export interface TestClientOptions {
  /** Announce pull-diagnostic support (default true). */
  readonly pullDiagnostics?: boolean;
  /** The `babelqueue` settings section the client answers with. */
  settings?: Record<string, unknown>;
  /** Workspace folder URIs announced at initialize (registry discovery is bounded by them). */
  readonly workspaceFolders?: readonly string[];
  /** The root announced without workspace folders (an editor started on a folder, or on one file when both are absent). */
  readonly root?: { readonly rootUri?: string; readonly rootPath?: string };
  /** Announce only what a plain editor does: no configuration requests, no dynamic registration (the outline as a tree and code actions as literals, as VS Code, Neovim 0.7 and eglot take them). */
  readonly plainClient?: boolean;
  /** The server command after `node` (default: dist/server.js --stdio). */
  readonly command?: readonly string[];
  /** The server's environment (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
  /** Sent as initialize's initializationOptions (VS Code's client sends the workspace trust). */
  readonly initializationOptions?: unknown;
  /** Delay before answering workspace/configuration, to widen race windows on purpose. */
  readonly configurationDelayMs?: number;
  /** Announce that the client watches files (VS Code does): the server then relies on file events. */
  readonly watchesFiles?: boolean;
  /** Announce exactly these capabilities (another editor's, as it sends them), in place of VS Code's. */
  readonly capabilities?: Record<string, unknown>;
  /**
   * How the client answers the server's registration of watched files (client/registerCapability
   * for workspace/didChangeWatchedFiles): accepted (the default), refused with an error, never answered,
   * or refused with an error after the server's 10 s wait for an answer.
   */
  readonly watchRegistration?: 'accepted' | 'refused' | 'unanswered' | 'refused late';
}

export class TestLspClient {
  readonly connection: ProtocolConnection;
  readonly process: ChildProcess;
  readonly logs: string[] = [];
  readonly published: PublishDiagnosticsParams[] = [];
  /** When each of `published` arrived (Date.now()), at the same index. */
  readonly publishedAt: number[] = [];
  /** window/showMessage notifications, as an editor would pop them up. */
  readonly shown: { type: number; message: string }[] = [];
  readonly stderr: string[] = [];
  settings: Record<string, unknown>;
  configurationRequests = 0;
  /** What the server registered (client/registerCapability), in order. */
  readonly registrations: { method?: string; registerOptions?: any }[] = [];
  /** workspace/diagnostic/refresh requests the server sent. */
  refreshes = 0;
  /** The methods of any other request the server sent (answered MethodNotFound, as a client without them would). */
  readonly otherRequests: string[] = [];
  /** When each refresh arrived (Date.now()), in order. */
  readonly refreshedAt: number[] = [];
  private exited: Promise<number | null>;
  /** How the server process ended, once it has; set before the connection is disposed. */
  private ended: string | undefined;
  /** Set once the server's last messages were handled and the connection disposed. */
  private gone = false;
  /** Set once shutdown is asked for: the exit that follows is the expected one. */
  private stopping = false;

  constructor(private readonly options: TestClientOptions = {}) {
    this.settings = options.settings ?? {};
    this.process = spawn(process.execPath, [...(options.command ?? [SERVER_PATH, '--stdio'])], { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env });
    this.exited = new Promise((resolveExit) => this.process.on('exit', (code) => resolveExit(code)));
    // A server that dies leaves no request pending: once its output has closed and its last
    // messages are handled, the connection is disposed, which fails every request still waiting
    // (request() says how the server ended), so the test fails at once instead of at its timeout.
    this.process.on('close', (code, signal) => {
      this.ended = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      setTimeout(() => {
        this.gone = true;
        this.connection.dispose();
      }, LAST_MESSAGES_MS);
    });
    this.process.stderr!.on('data', (chunk) => this.stderr.push(String(chunk)));
    this.connection = createProtocolConnection(new StreamMessageReader(this.process.stdout!), new StreamMessageWriter(this.process.stdin!));
    this.connection.onRequest('workspace/configuration', async (params: { items: { section?: string }[] }) => {
      this.configurationRequests++;
      if (options.configurationDelayMs) await new Promise((r) => setTimeout(r, options.configurationDelayMs));
      return params.items.map(() => this.settings);
    });
    this.connection.onRequest('client/registerCapability', (params: { registrations?: { method?: string; registerOptions?: unknown }[] }) => {
      this.registrations.push(...(params.registrations ?? []));
      const watch = params.registrations?.some((registration) => registration.method === 'workspace/didChangeWatchedFiles') === true;
      if (watch && options.watchRegistration === 'refused') return new ResponseError(ErrorCodes.MethodNotFound, 'this client does not watch files');
      if (watch && options.watchRegistration === 'unanswered') return new Promise<never>(() => undefined);
      // Refused once the server has stopped waiting for the answer (10 s).
      if (watch && options.watchRegistration === 'refused late') return new Promise<never>((_, refuse) => setTimeout(() => refuse(new ResponseError(ErrorCodes.MethodNotFound, 'this client does not watch files')), 10_500));
      return null;
    });
    this.connection.onRequest('workspace/diagnostic/refresh', () => {
      this.refreshes++;
      this.refreshedAt.push(Date.now());
      return null;
    });
    // The star handler of vscode-jsonrpc (every request no other handler takes), which the protocol connection's types leave out.
    (this.connection as unknown as { onRequest(handler: (method: string) => unknown): void }).onRequest((method: string) => {
      this.otherRequests.push(method);
      return new ResponseError(ErrorCodes.MethodNotFound, `this client has no ${method}`);
    });
    this.connection.onNotification('window/logMessage', (params: { message: string }) => {
      this.logs.push(params.message);
    });
    this.connection.onNotification('window/showMessage', (params: { type: number; message: string }) => {
      this.shown.push(params);
    });
    this.connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      this.published.push(params);
      this.publishedAt.push(Date.now());
    });
    this.connection.listen();
  }

  /** initialize + initialized, with the capabilities a VS Code client announces. */
  async initialize(): Promise<any> {
    const pull = this.options.pullDiagnostics ?? true;
    const root = this.options.root;
    const result = await this.request('initialize', {
      processId: process.pid,
      rootUri: root ? (root.rootUri ?? null) : (this.options.workspaceFolders?.[0] ?? null),
      ...(root?.rootPath ? { rootPath: root.rootPath } : {}),
      workspaceFolders: this.options.workspaceFolders?.map((uri, index) => ({ uri, name: `folder${index}` })) ?? null,
      ...(this.options.initializationOptions !== undefined ? { initializationOptions: this.options.initializationOptions } : {}),
      capabilities: this.options.capabilities ?? (this.options.plainClient ? { textDocument: { ...(pull ? { diagnostic: {} } : {}), publishDiagnostics: {}, documentSymbol: { hierarchicalDocumentSymbolSupport: true }, codeAction: CODE_ACTION_LITERALS } } : {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, diagnostics: { refreshSupport: true }, ...(this.options.watchesFiles ? { didChangeWatchedFiles: { dynamicRegistration: true } } : {}), workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] } },
        textDocument: {
          ...(pull ? { diagnostic: { dynamicRegistration: false } } : {}),
          publishDiagnostics: { versionSupport: true, relatedInformation: true, codeDescriptionSupport: true, tagSupport: { valueSet: [1, 2] } },
          completion: { completionItem: { snippetSupport: true, insertReplaceSupport: true, documentationFormat: ['markdown', 'plaintext'], tagSupport: { valueSet: [1] } } },
          hover: { contentFormat: ['markdown'] },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          codeAction: CODE_ACTION_LITERALS,
        },
      }),
    });
    await this.connection.sendNotification('initialized', {});
    return result;
  }

  open(uri: string, text: string, version = 1): Promise<void> {
    return this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: ENVELOPE_LANGUAGE_ID, version, text } });
  }

  /** Replaces the whole text (a full-document change). */
  change(uri: string, text: string, version: number): Promise<void> {
    return this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
  }

  /** didSave without the text (what the server asks for). */
  save(uri: string): Promise<void> {
    return this.connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
  }

  close(uri: string): Promise<void> {
    return this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  pullDiagnostics(uri: string): Promise<{ kind: string; items: any[] }> {
    return this.request('textDocument/diagnostic', { textDocument: { uri } });
  }

  /** A request; if the server ends before answering it, an error that says how, with its stderr. */
  async request<R = any>(method: string, params: unknown): Promise<R> {
    try {
      return await this.connection.sendRequest<R>(method, params);
    } catch (error) {
      // Only the connection's own failures say the server is gone; an answer that is an error stays one.
      const lost = error instanceof ConnectionError || (error instanceof ResponseError && error.code === ErrorCodes.PendingResponseRejected);
      if (!lost || this.ended === undefined || this.stopping) throw error;
      throw new Error(`${this.endedMessage()} before answering ${method}`, { cause: error });
    }
  }

  /** How the server ended, with the end of its stderr. */
  private endedMessage(): string {
    return `The server ${this.ended}. Its stderr:\n${this.stderr.join('').slice(-4000)}`;
  }

  /** Waits until `predicate` holds for the published diagnostics (push mode), or fails. */
  async waitForPublished(predicate: (all: PublishDiagnosticsParams[]) => boolean, timeoutMs = 5000): Promise<void> {
    const started = Date.now();
    while (!predicate(this.published)) {
      if (this.gone && !this.stopping) throw new Error(`${this.endedMessage()} while diagnostics were awaited; got ${JSON.stringify(this.published)}`);
      if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for published diagnostics; got ${JSON.stringify(this.published)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /**
   * Waits until no diagnostics have been published for `quietMs` (push mode): the publications a
   * change set off have all come, whatever order the server's concurrent pushes wrote them in.
   */
  waitForQuiet(quietMs = 300, timeoutMs = 10_000): Promise<void> {
    return this.untilQuiet(this.publishedAt, () => true, quietMs, timeoutMs, () => `Diagnostics still published after ${timeoutMs} ms; got ${JSON.stringify(this.published.slice(-5))}`);
  }

  /**
   * Waits until the server has sent more than `after` diagnostic refreshes and then none for
   * `quietMs` (pull mode): the refreshes a change set off have all come, however late its timer ran.
   */
  waitForRefreshes(after: number, quietMs = 300, timeoutMs = 10_000): Promise<void> {
    return this.untilQuiet(this.refreshedAt, () => this.refreshes > after, quietMs, timeoutMs, () => `${this.refreshes > after ? 'Refreshes still sent' : `No refresh past the ${after} before`} after ${timeoutMs} ms`);
  }

  /** Waits until `ready` holds and nothing has been added to `times` (Date.now() of each arrival) for `quietMs`, counted from the call at the earliest. */
  private async untilQuiet(times: readonly number[], ready: () => boolean, quietMs: number, timeoutMs: number, timedOut: () => string): Promise<void> {
    const started = Date.now();
    for (;;) {
      const since = Date.now() - Math.max(times.at(-1) ?? started, started);
      if (ready() && since >= quietMs) return;
      if (this.gone && !this.stopping) throw new Error(`${this.endedMessage()} while quiet was awaited`);
      if (Date.now() - started > timeoutMs) throw new Error(timedOut());
      await new Promise((r) => setTimeout(r, ready() ? Math.max(1, Math.min(50, quietMs - since)) : 20));
    }
  }

  /** The diagnostics last published for `uri`, once a publication of at least `atLeast` has come (push mode). */
  async lastPublished(uri: string, atLeast = 1): Promise<PublishDiagnosticsParams['diagnostics']> {
    await this.waitForPublished((all) => all.some((params) => params.uri === uri && params.diagnostics.length >= atLeast));
    return this.published.filter((params) => params.uri === uri).at(-1)!.diagnostics;
  }

  /** shutdown + exit; resolves with the server's exit code. */
  async shutdown(): Promise<number | null> {
    this.stopping = true;
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    const code = await this.exited;
    this.connection.dispose();
    return code;
  }

  kill(): void {
    this.stopping = true;
    this.connection.dispose();
    this.process.kill();
  }
}
