/**
 * Settings pulled from the client per document (resource scope, so each workspace folder can
 * differ), normalised by core, cached until the client says the configuration changed.
 */
import type { Connection } from 'vscode-languageserver/node';
import { DEFAULT_SETTINGS, normalizeSettings, type Settings } from '../core/rules/settings';

export class SettingsStore {
  private readonly byUri = new Map<string, Promise<Settings>>();
  private pushed: Settings = DEFAULT_SETTINGS;
  private readonly reported = new Set<string>();

  constructor(
    private readonly connection: Connection,
    private readonly canPull: () => boolean,
  ) {}

  /** The settings that apply to a document. */
  forDocument(uri: string): Promise<Settings> {
    if (!this.canPull()) return Promise.resolve(this.pushed);
    let settings = this.byUri.get(uri);
    if (!settings) {
      settings = this.connection.workspace
        .getConfiguration({ scopeUri: uri, section: 'babelqueue' })
        .then((raw) => this.normalize(raw))
        .catch(() => DEFAULT_SETTINGS);
      this.byUri.set(uri, settings);
    }
    return settings;
  }

  /** Forgets cached settings; `pushedSection` is used by clients that cannot be asked. */
  changed(pushedSection: unknown): void {
    this.byUri.clear();
    this.reported.clear();
    if (!this.canPull()) this.pushed = this.normalize(pushedSection);
  }

  forget(uri: string): void {
    this.byUri.delete(uri);
  }

  private normalize(raw: unknown): Settings {
    const { settings, problems } = normalizeSettings(raw);
    for (const problem of problems) {
      const line = `Setting ${problem.setting}: ${problem.message}; the rest of the settings still apply.`;
      if (!this.reported.has(line)) {
        this.reported.add(line);
        this.connection.console.warn(line);
      }
    }
    return settings;
  }
}
