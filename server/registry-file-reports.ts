/**
 * registry.json's own problems where nobody opened it. A fixture's `registry-error` says that its
 * registry cannot be used; the problems themselves are findings in registry.json, which an editor
 * shows only for a document it knows of. So every registry the fixtures use is reported too: in
 * the workspace's report (`workspace/diagnostic`) and, for clients without pull diagnostics, pushed
 * with `textDocument/publishDiagnostics`, once per change. A registry whose file is open is
 * diagnosed as that document; one that has never had a problem is not reported at all.
 */
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
 * Pushes registry.json's findings to a client without pull diagnostics, each registry once per
 * change, for as long as an open fixture uses it: a registry no open fixture uses any more (the
 * fixtures closed, the registry path changed) is cleared, as the workspace's report clears it.
 */
export class PushedRegistryFiles {
  /** What was last pushed for each registry.json (its findings as JSON). */
  private readonly pushed = new Map<string, string>();
  /** The registry.json each open fixture last used. */
  private readonly usedBy = new Map<string, string>();

  constructor(private readonly context: ServerContext) {}

  /** After a fixture's diagnostics went out: its registry's, when they changed and the file is not open. */
  async publish(fixtureUri: string, state: RegistryState, settings: Settings): Promise<void> {
    const report = registryFileReport(state, settings);
    const before = this.usedBy.get(fixtureUri);
    if (report) this.usedBy.set(fixtureUri, report.path);
    else this.usedBy.delete(fixtureUri);
    if (before !== undefined && before !== report?.path) await this.clearUnused(before);
    if (!report || this.context.documents.get(report.uri)) return;
    const key = JSON.stringify(report.items);
    const last = this.pushed.get(report.path);
    // Never a problem: nothing to say. Otherwise each change, the last one empty when mended.
    if (last === key || (last === undefined && report.items.length === 0)) return;
    this.pushed.set(report.path, key);
    await this.context.connection.sendDiagnostics({ uri: report.uri, diagnostics: report.items });
  }

  /** A document closed: a fixture's registry may be used by none now; registry.json itself is pushed again from the disk's version. */
  async closed(uri: string): Promise<void> {
    const path = toPath(uri);
    if (path) this.pushed.delete(path);
    const used = this.usedBy.get(uri);
    if (used === undefined) return;
    this.usedBy.delete(uri);
    await this.clearUnused(used);
  }

  /** Clears what was pushed for a registry.json no open fixture uses (unless the file itself is open: then it is that document's). */
  private async clearUnused(path: string): Promise<void> {
    for (const used of this.usedBy.values()) if (used === path) return;
    const last = this.pushed.get(path);
    this.pushed.delete(path);
    const uri = toUri(path);
    if (last === undefined || last === '[]' || this.context.documents.get(uri)) return;
    await this.context.connection.sendDiagnostics({ uri, diagnostics: [] });
  }
}
