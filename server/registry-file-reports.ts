/**
 * registry.json's own problems where nobody opened it. A fixture's `registry-error` says that its
 * registry cannot be used; the problems themselves are findings in registry.json, which an editor
 * shows only for a document it knows of. So every registry the fixtures use is reported too: in
 * the workspace's report (`workspace/diagnostic`) and, for clients without pull diagnostics, pushed
 * with `textDocument/publishDiagnostics`, once per change (PushedRegistryFiles, below, for the
 * workspace's fixtures and the open ones alike). A registry whose file is open is diagnosed as
 * that document; one that has never had a problem is not reported at all.
 */
import type { Diagnostic } from 'vscode-languageserver/node';
import { registryText, type RegistryState } from '../core/registry/types';
import { fileDiagnostics } from '../core/rules/file-diagnostics';
import type { Settings } from '../core/rules/settings/settings';
import type { ServerContext } from './context';
import { findingSettingsKey, projectFileReport, type ProjectFileReport } from './project-file-report';
import { toPath, toUri } from './registry';

/** Each registry state's report, made once per state and settings (a report runs every poll, a push after every keystroke). */
const reports = new WeakMap<RegistryState, { readonly key: string; readonly report: ProjectFileReport | undefined }>();

/** The registry.json a fixture's registry state names, with its findings; undefined when it names none. */
export function registryFileReport(state: RegistryState, settings: Settings): ProjectFileReport | undefined {
  // A registry refused unread (outside the workspace, unreadable, too large) is not reported on its
  // file, which nobody read: its fixtures' registry-error says why it cannot be used.
  if (state.kind === 'none' || (state.kind === 'broken' && state.text === undefined)) return undefined;
  // Severities and the on/off switch are what the settings change in registry.json's findings.
  const key = findingSettingsKey(settings);
  const cached = reports.get(state);
  if (cached?.key === key) return cached.report;
  const path = state.kind === 'loaded' ? state.registry.path : state.path;
  const diagnostics = fileDiagnostics('registryFile', state, settings);
  // The findings' offsets are in registry.json as it was read.
  const report = projectFileReport(path, registryText(state), diagnostics);
  reports.set(state, { key, report });
  return report;
}

/**
 * Pushes registry.json's findings to a client without pull diagnostics: the one sender of every
 * registry.json notification, so no two pushers ever answer for the same file. It hears of a
 * registry from two places: the workspace's report (server/pushed-workspace-fixtures.ts hands it
 * each registry.json the report lists) and the open fixtures (after each one's diagnostics go out).
 * A registry the report lists is sent with the report's findings, open fixtures or not, until the
 * report drops it; one it does not list (no workspace folder, a fixture outside the folders or
 * left out by the ignores, the scope `openFiles`) is sent for as long as an open fixture uses it.
 * Each registry.json is sent once per change of its findings and cleared once neither uses it;
 * while the file itself is open, it is that document's.
 */
export class PushedRegistryFiles {
  /** What was last pushed for each registry.json (its findings as JSON). */
  private readonly pushed = new Map<string, string>();
  /** The registry.json each open fixture last used, with its findings under that fixture's settings. */
  private readonly usedBy = new Map<string, ProjectFileReport>();
  /** The registry.json files the workspace's report lists, by path, with the findings it last gave. */
  private readonly listed = new Map<string, readonly Diagnostic[]>();

  constructor(private readonly context: ServerContext) {}

  /** After a fixture's diagnostics went out: its registry's, when they changed and the file is not open. */
  async publish(fixtureUri: string, state: RegistryState, settings: Settings): Promise<void> {
    const report = registryFileReport(state, settings);
    const before = this.usedBy.get(fixtureUri)?.path;
    if (report) this.usedBy.set(fixtureUri, report);
    else this.usedBy.delete(fixtureUri);
    if (before !== undefined && before !== report?.path) await this.settle(before);
    if (report) await this.settle(report.path);
  }

  /**
   * The workspace's report listed the registry.json at `path` with `items` (undefined: no longer
   * lists it); resolves once what the client is sent for it, if anything, is written.
   */
  async fromWorkspace(path: string, items: readonly Diagnostic[] | undefined): Promise<void> {
    if (items === undefined) this.listed.delete(path);
    else this.listed.set(path, items);
    await this.settle(path);
  }

  /**
   * A document closed: a fixture's registry may be used by none now. registry.json itself was
   * cleared by the close; what its file holds is sent again by the next report or fixture push,
   * which read it anew (what is kept here was found in the editor's text).
   */
  async closed(uri: string): Promise<void> {
    const path = toPath(uri);
    if (path) this.pushed.delete(path);
    const used = this.usedBy.get(uri);
    if (used === undefined) return;
    this.usedBy.delete(uri);
    await this.settle(used.path);
  }

  /** Sends what the client should hold for the registry.json at `path`, when that is not what it holds. */
  private async settle(path: string): Promise<void> {
    const uri = toUri(path);
    // Open: that document's own diagnostics are pushed. Found by path: an editor may spell the
    // file's URI otherwise than `toUri` does (VS Code percent-encodes `(`, `)` and `+`, which
    // Node's file URLs keep), and a second sender under the other spelling would write over them.
    if (this.isOpen(path)) return;
    const items = this.listed.get(path) ?? this.usedReport(path)?.items;
    const last = this.pushed.get(path);
    if (items === undefined) {
      // Neither the report nor an open fixture uses it: cleared, if it was ever shown.
      this.pushed.delete(path);
      if (last === undefined || last === '[]') return;
      await this.context.connection.sendDiagnostics({ uri, diagnostics: [] });
      return;
    }
    const key = JSON.stringify(items);
    // Never a problem: nothing to say. Otherwise each change, the last one empty when mended.
    if (last === key || (last === undefined && items.length === 0)) return;
    this.pushed.set(path, key);
    await this.context.connection.sendDiagnostics({ uri, diagnostics: [...items] });
  }

  /** True when a document of the file at `path` is open, whatever spelling of its URI the editor used. */
  private isOpen(path: string): boolean {
    if (this.context.documents.get(toUri(path))) return true;
    for (const document of this.context.documents.all()) if (toPath(document.uri) === path) return true;
    return false;
  }

  /** The findings an open fixture found for the registry.json at `path`. */
  private usedReport(path: string): ProjectFileReport | undefined {
    for (const report of this.usedBy.values()) if (report.path === path) return report;
    return undefined;
  }
}
