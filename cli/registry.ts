/**
 * The registry for `babelq lint`: `--registry <file>` when given, else the same discovery as the
 * editor (the nearest registry.json at or above each file, with the current directory as the
 * workspace folder). Each registry is loaded once per run.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CoreDiagnostic } from '../core/diagnostic';
import { registryFileDiagnostics } from '../core/registry/registry-diagnostics';
import type { RegistryState } from '../core/registry/types';
import type { Settings } from '../core/settings';
import { findRegistry, isInside, loadRegistry, readFromDisk } from '../workspace/registry-loader';
import { CliError } from './errors';

export class CliRegistries {
  private readonly loaded = new Map<string, RegistryState>();
  private readonly found = new Map<string, ReturnType<typeof findRegistry>>();
  private readonly explicit: string | undefined;

  constructor(
    private readonly cwd: string,
    explicitPath: string | undefined,
    private readonly settings: Settings,
  ) {
    if (explicitPath !== undefined) {
      const path = resolve(cwd, explicitPath);
      // Asked for by name: a registry that cannot be read is a usage problem, not a lint finding.
      if (!existsSync(path)) throw new CliError(`cannot read registry '${explicitPath}': the file does not exist`);
      try {
        readFromDisk(path);
      } catch (error) {
        throw new CliError(`cannot read registry '${explicitPath}': ${error instanceof Error ? error.message : String(error)}`);
      }
      this.explicit = path;
    }
  }

  /** The registry state for a fixture (absolute path). */
  stateFor(fixture: string): RegistryState {
    if (this.explicit) {
      // An explicit registry outside the current directory is the user's choice: its own folder bounds its schemas.
      const root = isInside(this.cwd, this.explicit) ? this.cwd : dirname(this.explicit);
      return this.load(this.explicit, root);
    }
    const root = isInside(this.cwd, fixture) ? this.cwd : dirname(fixture);
    // Fixtures of one directory find the same registry: look it up once per directory.
    const lookupKey = `${root}\u0000${dirname(fixture)}`;
    if (!this.found.has(lookupKey)) this.found.set(lookupKey, findRegistry(fixture, root, this.settings.registryPath));
    const found = this.found.get(lookupKey);
    if (!found) return { kind: 'none' };
    if ('error' in found) return { kind: 'broken', path: found.path, error: found.error };
    return this.load(found.path, root);
  }

  private load(path: string, root: string): RegistryState {
    const key = `${root}\u0000${path}`;
    let state = this.loaded.get(key);
    if (!state) {
      state = loadRegistry(path, root).state;
      this.loaded.set(key, state);
    }
    return state;
  }

  /**
   * The problems of every registry used in this run, as the editor shows them in registry.json
   * (duplicate URNs, bad names, unusable schemas), so CI sees them too.
   */
  registryReports(settings: Settings): { path: string; text: string; diagnostics: CoreDiagnostic[] }[] {
    const reports: { path: string; text: string; diagnostics: CoreDiagnostic[] }[] = [];
    const seen = new Set<string>();
    for (const state of this.loaded.values()) {
      if (state.kind === 'none') continue;
      const path = state.kind === 'loaded' ? state.registry.path : state.path;
      if (seen.has(path)) continue;
      seen.add(path);
      const diagnostics = registryFileDiagnostics(state, settings);
      if (diagnostics.length === 0) continue;
      let text = state.kind === 'loaded' ? state.registry.doc.text : '';
      if (state.kind === 'broken') {
        try {
          text = readFromDisk(path);
        } catch {
          // Unreadable: the diagnostic sits at the start.
        }
      }
      reports.push({ path, text, diagnostics });
    }
    return reports;
  }
}
