/**
 * registry.json's own problems where nobody opened it. A fixture's `registry-error` says that its
 * registry cannot be used; the problems themselves are findings in registry.json, which an editor
 * shows only for a document it knows of. So every registry the fixtures use is reported too: in
 * the workspace's report (`workspace/diagnostic`) and, for clients without pull diagnostics, pushed
 * with `textDocument/publishDiagnostics`, once per change. A registry whose file is open is
 * diagnosed as that document; one that has never had a problem is not reported at all.
 */
import type { Diagnostic } from 'vscode-languageserver/node';
import { LineIndex } from '../core/model/positions';
import type { RegistryState } from '../core/registry/types';
import { fileDiagnostics } from '../core/rules/file-diagnostics';
import type { Settings } from '../core/rules/settings/settings';
import { MAX_REGISTRY_FILE_BYTES, readFromDisk } from '../workspace/registry-loader';
import type { ServerContext } from './context';
import { toLspDiagnostic } from './convert';
import { toPath, toUri } from './registry';

export interface RegistryFileReport {
  readonly path: string;
  readonly uri: string;
  readonly items: Diagnostic[];
}

/** The registry.json a fixture's registry state names, with its findings; undefined when it names none. */
export function registryFileReport(context: ServerContext, state: RegistryState, settings: Settings): RegistryFileReport | undefined {
  if (state.kind === 'none') return undefined;
  const path = state.kind === 'loaded' ? state.registry.path : state.path;
  const uri = toUri(path);
  // The text the findings' offsets are in: the parse the registry was loaded from, else the file as
  // the editor or the disk holds it (a registry refused unread has its findings at the start).
  let text = state.kind === 'loaded' ? state.registry.doc.text : undefined;
  if (text === undefined) {
    const open = context.documents.get(uri);
    try {
      text = open ? open.getText() : readFromDisk(path, MAX_REGISTRY_FILE_BYTES);
    } catch {
      text = '';
    }
  }
  const lines = new LineIndex(text);
  return { path, uri, items: fileDiagnostics('registryFile', state, settings).map((diagnostic) => toLspDiagnostic(diagnostic, lines)) };
}

/** Pushes registry.json's findings to a client without pull diagnostics, each registry once per change. */
export class PushedRegistryFiles {
  /** What was last pushed for each registry.json (its findings as JSON). */
  private readonly pushed = new Map<string, string>();

  constructor(private readonly context: ServerContext) {}

  /** After a fixture's diagnostics went out: its registry's, when they changed and the file is not open. */
  async publish(state: RegistryState, settings: Settings): Promise<void> {
    const report = registryFileReport(this.context, state, settings);
    if (!report || this.context.documents.get(report.uri)) return;
    const key = JSON.stringify(report.items);
    const last = this.pushed.get(report.path);
    // Never a problem: nothing to say. Otherwise each change, the last one empty when mended.
    if (last === key || (last === undefined && report.items.length === 0)) return;
    this.pushed.set(report.path, key);
    await this.context.connection.sendDiagnostics({ uri: report.uri, diagnostics: report.items });
  }

  /** registry.json was open and is closed (its diagnostics were cleared): push what the disk says again. */
  forget(uri: string): void {
    const path = toPath(uri);
    if (path) this.pushed.delete(path);
  }
}
