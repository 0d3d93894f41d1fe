/**
 * The workspace's report pushed to a client without pull diagnostics (Neovim 0.7, eglot 1.9): the
 * findings of every fixture nobody has open, as `workspace/diagnostic` gives them (the same walk,
 * ignores, settings and bounds: server/workspace-diagnostics.ts), and of the project files that
 * report lists beside them (registry.json, babelq.json, the suppressions file), sent as
 * `textDocument/publishDiagnostics`, so the editor's list of problems (Neovim's
 * `vim.diagnostic.setqflist()`, Emacs's `flymake-show-project-diagnostics`) holds the files a
 * pulling client's Problems panel holds, and `babelq lint .` reports.
 *
 * Only files with findings are sent, and each again whenever its findings change, with an empty
 * list once it is clean, deleted, ignored or out of scope: ten thousand clean fixtures cost no
 * notification at all. One sender per file: an open fixture or config file belongs to the
 * open-document push (handlers/diagnostics.ts): nothing is sent for it here while it is open, and
 * once it closes its on-disk findings are sent again. Every registry.json the report lists is
 * handed to the registry push (server/registry-file-reports.ts), which the open fixtures feed too
 * and which sends the report's findings while the report lists it. The notifications go out in
 * batches, each written before the next is queued: the connection writes its messages in order,
 * so answers to the editor's requests go out between batches instead of behind thousands of
 * notifications.
 */
import type { Diagnostic } from 'vscode-languageserver/node';
import type { ServerContext } from './context';
import type { PushedRegistryFiles } from './registry-file-reports';
import { toPath, toUri } from './registry';
import type { WorkspaceFixtures } from './workspace-diagnostics';

/** How many notifications are written before the connection reads and answers what came in meanwhile. */
const PUSH_BATCH = 100;

/**
 * How long after a change the workspace is reported again: the changes of a burst (typing in
 * registry.json, a checkout's file events) that come meanwhile make one report, not one each.
 */
const SETTLE_MS = 100;

export class PushedWorkspaceFixtures {
  /**
   * The report's result id of what the client holds for each fixture, by URI: what it was last
   * sent, or, for one whose findings were always none, what it was never sent. The workspace's
   * report answers against it as against a pulling client's previous result ids.
   */
  private readonly known = new Map<string, string>();
  /** The fixtures sent with findings and not sent an empty list since, by path, with the URI they were sent under. */
  private readonly shown = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** A change came while a round ran: one more round follows it. */
  private again = false;

  constructor(
    private readonly context: ServerContext,
    private readonly workspace: WorkspaceFixtures,
    private readonly registryFiles: PushedRegistryFiles,
  ) {
    workspace.onChanged(() => this.schedule());
    context.documents.onDidOpen((event) => this.opened(event.document.uri));
    context.documents.onDidClose((event) => this.closed(event.document.uri));
    // These editors' file events miss fixtures: Neovim 0.7 sends none (a report then also looks at
    // every file's size and time), eglot 1.9 watches only the folders that held project files when
    // it registered. So each save of any document has the folders walked again: a fixture created,
    // changed or deleted outside the editor is listed as it is at the user's next save.
    context.documents.onDidSave(() => workspace.rescan());
  }

  /** The first report, once the client is initialized. */
  start(): void {
    this.schedule();
  }

  private schedule(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    // Not put off again by each change of a burst: a stream of them (typing) still gets its reports.
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, SETTLE_MS);
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      do {
        this.again = false;
        await this.round();
      } while (this.again);
    } catch (error) {
      this.context.connection.console.error(`Pushing the workspace's diagnostics failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } finally {
      this.running = false;
    }
  }

  /** One report of the workspace, and what changed in it sent. */
  private async round(): Promise<void> {
    const items = await this.workspace.report(this.known);
    /** `registry`: a registry.json's item, and whether the report still lists it (an empty item without a result id is its last word on one it dropped). */
    const sends: { uri: string; path: string; diagnostics: Diagnostic[]; registry?: 'listed' | 'dropped' }[] = [];
    for (const item of items) {
      if (item.kind !== 'full') continue;
      const path = toPath(item.uri);
      if (path === undefined) continue;
      if (item.version !== null) {
        // Open: its editor's document is pushed as it stands. Its file's findings go out again once it closes.
        this.known.delete(item.uri);
        continue;
      }
      if (item.resultId === undefined) this.known.delete(item.uri);
      else this.known.set(item.uri, item.resultId);
      // registry.json goes to its own push, which open fixtures also feed: one sender per file.
      if (this.workspace.listsRegistryFile(item.uri)) {
        sends.push({ uri: item.uri, path, diagnostics: item.items, registry: item.resultId === undefined ? 'dropped' : 'listed' });
        continue;
      }
      if (item.items.length === 0 && !this.shown.has(path)) continue;
      sends.push({ uri: item.uri, path, diagnostics: item.items });
    }
    for (let start = 0; start < sends.length; start += PUSH_BATCH) {
      // Opened while the report was made or the previous batch written: the open-document push has it.
      const open = this.openPaths();
      const writes: Promise<void>[] = [];
      for (const { uri, path, diagnostics, registry } of sends.slice(start, start + PUSH_BATCH)) {
        if (registry) {
          writes.push(this.registryFiles.fromWorkspace(path, registry === 'listed' ? diagnostics : undefined));
          continue;
        }
        if (open.has(path)) {
          this.known.delete(uri);
          continue;
        }
        if (diagnostics.length > 0) this.shown.set(path, uri);
        else this.shown.delete(path);
        writes.push(this.context.connection.sendDiagnostics({ uri, diagnostics }));
      }
      await Promise.all(writes);
      await new Promise((resume) => setImmediate(resume));
    }
  }

  private openPaths(): Set<string> {
    const paths = new Set<string>();
    for (const document of this.context.documents.all()) {
      const path = toPath(document.uri);
      if (path !== undefined) paths.add(path);
    }
    return paths;
  }

  /**
   * A fixture or config file opened: its editor's document is pushed from now on. Sent under
   * another spelling of its URI, the workspace's entry is cleared at once, before the document's
   * own push, so a client that keeps the two apart does not list the file twice.
   */
  private opened(uri: string): void {
    const path = toPath(uri);
    if (path === undefined) return;
    const sentAs = this.shown.get(path);
    if (sentAs !== undefined && sentAs !== uri) {
      this.shown.delete(path);
      this.context.connection.sendDiagnostics({ uri: sentAs, diagnostics: [] }).catch(() => undefined);
    }
  }

  /**
   * A document closed: the open-document push cleared it, so what its file holds is sent again
   * (the next report reads it), a fixture's, a config's or a registry's alike, even when no report
   * ran while it was open.
   */
  private closed(uri: string): void {
    const path = toPath(uri);
    if (path === undefined) return;
    this.known.delete(toUri(path));
    this.schedule();
  }
}
