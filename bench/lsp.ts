/**
 * A small LSP client for the benchmark: spawns dist/server.js over stdio as the extension starts
 * it (optionally with a memory probe preloaded), answers what a VS Code client answers, and measures requests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { ENVELOPE_LANGUAGE_ID } from '../core/language/protocol';
import { SERVER_EXEC_ARGV, serverEnvironment } from '../client/server-process';

export const SERVER = resolve(__dirname, '../dist/server.js');
/** Where the servers the benchmark starts keep their code cache (the extension keeps it in its storage); emptied with each production build. */
export const SERVER_CODE_CACHE = join(__dirname, 'out', 'server-code-cache');
const PROBE = resolve(__dirname, 'memory-probe.cjs');

export interface Range {
  readonly start: { line: number; character: number };
  readonly end: { line: number; character: number };
}

export class BenchClient {
  readonly connection: ProtocolConnection;
  readonly process: ChildProcess;
  private readonly memoryFile = join(tmpdir(), `babelq-bench-memory-${process.pid}-${Date.now()}.json`);
  private readonly exited: Promise<void>;
  /** Without pull support (`push: true`): the server pushes diagnostics, as to Neovim 0.7 or eglot. */
  private readonly push: boolean;
  /** Who waits for the diagnostics published for a document version (push clients only). */
  private readonly publishWaiters = new Map<string, (at: number) => void>();

  constructor(options: { probe?: boolean; server?: string; push?: boolean } = {}) {
    this.push = options.push ?? false;
    const server = options.server ?? SERVER;
    // Started as the extension starts it: its Node flags and environment (client/server-process.ts),
    // its code cache kept in one folder as the extension keeps it in its storage.
    const args = [...SERVER_EXEC_ARGV, ...(options.probe ? ['--require', PROBE] : []), server, '--stdio'];
    this.process = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'], env: serverEnvironment({ ...process.env, BENCH_MEMORY_FILE: this.memoryFile }, SERVER_CODE_CACHE) });
    this.exited = new Promise((done) => this.process.on('exit', () => done()));
    this.connection = createProtocolConnection(new StreamMessageReader(this.process.stdout!), new StreamMessageWriter(this.process.stdin!));
    this.connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('workspace/diagnostic/refresh', () => null);
    this.connection.onNotification('window/logMessage', () => undefined);
    this.connection.onNotification('babelqueue/registryStatus', () => undefined);
    this.connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; version?: number }) => {
      const key = `${params.uri}\u0000${params.version}`;
      this.publishWaiters.get(key)?.(performance.now());
      this.publishWaiters.delete(key);
    });
    this.connection.listen();
  }

  async initialize(workspaceFolder: string): Promise<void> {
    const uri = `file://${workspaceFolder}`;
    await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: uri,
      workspaceFolders: [{ uri, name: 'bench' }],
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, didChangeWatchedFiles: { dynamicRegistration: true }, diagnostics: { refreshSupport: true } },
        textDocument: {
          ...(this.push ? {} : { diagnostic: { dynamicRegistration: false } }),
          publishDiagnostics: { versionSupport: true },
          completion: { completionItem: { snippetSupport: true } },
          hover: { contentFormat: ['markdown'] },
        },
      },
    });
    await this.connection.sendNotification('initialized', {});
  }

  open(uri: string, text: string, version = 1): Promise<void> {
    return this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: ENVELOPE_LANGUAGE_ID, version, text } });
  }

  /** One incremental change: `text` replaces `range`. */
  change(uri: string, version: number, range: Range, text: string): Promise<void> {
    return this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text }] });
  }

  /** When (performance.now()) the server publishes diagnostics for this version of `uri`; ask before sending the change. */
  published(uri: string, version: number, timeoutMs = 10_000): Promise<number> {
    return new Promise((resolve, reject) => {
      const key = `${uri}\u0000${version}`;
      const timer = setTimeout(() => {
        this.publishWaiters.delete(key);
        reject(new Error(`no diagnostics published for version ${version} of ${uri} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.publishWaiters.set(key, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  }

  pull(uri: string): Promise<{ items: unknown[] }> {
    return this.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
  }

  request<R = unknown>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest(method, params);
  }

  /** The server's memory after a full GC (needs `probe: true`). */
  async memory(): Promise<NodeJS.MemoryUsage> {
    rmSync(this.memoryFile, { force: true });
    this.process.kill('SIGUSR2');
    const started = Date.now();
    while (!existsSync(this.memoryFile)) {
      if (Date.now() - started > 10_000) throw new Error('the server did not report its memory');
      await new Promise((done) => setTimeout(done, 10));
    }
    await new Promise((done) => setTimeout(done, 20));
    const usage = JSON.parse(readFileSync(this.memoryFile, 'utf8')) as NodeJS.MemoryUsage;
    rmSync(this.memoryFile, { force: true });
    return usage;
  }

  async shutdown(): Promise<void> {
    try {
      await this.connection.sendRequest('shutdown');
      await this.connection.sendNotification('exit');
      await Promise.race([this.exited, new Promise((done) => setTimeout(done, 2000))]);
    } finally {
      this.connection.dispose();
      if (this.process.exitCode === null) this.process.kill();
    }
  }
}
