/**
 * Settings per document: what the user set in the editor (pulled from the client per document,
 * resource scope, so each workspace folder can differ) applied over the babelq.json files above
 * the document (workspace/project-config.ts), exactly as `babelq lint` applies `--config` over
 * them. Cached until the client says the configuration changed or a babelq.json changes.
 */
import { MessageType, type Connection } from 'vscode-languageserver/node';
import { DEFAULT_SETTINGS, layerSettings, readSettingsLayer, type Settings, type SettingsLayer } from '../core/rules/settings/settings';
import type { ProjectConfigs } from '../workspace/project-config';
import { toUri } from './registry';
import { digitGroups } from '../core/model/count-words';
import { showOnOneLine, unlinked } from '../core/language/markdown';

/** How many settings problems of one read are named in the warning shown, and in the log. */
const MAX_SHOWN_PROBLEMS = 10;
const MAX_LOGGED_PROBLEMS = 20;

export class SettingsStore {
  private readonly byUri = new Map<string, Promise<Settings>>();
  /** What the user set, per workspace folder: files that are not open are asked for once per folder, not once each. */
  private readonly byFolder = new Map<string, Promise<SettingsLayer>>();
  private pushed: SettingsLayer = {};
  private readonly reported = new Set<string>();

  /**
   * `folderOf` names the workspace folder of a path: babelq.json is never read above it;
   * `judgedPath` is where a document is judged from (a stand-in for one with no file).
   */
  constructor(
    private readonly connection: Connection,
    private readonly canPull: () => boolean,
    private readonly configs: ProjectConfigs,
    private readonly folderOf: (path: string) => string,
    private readonly judgedPath: (uri: string) => string | undefined,
  ) {}

  /** The settings that apply to a document. */
  forDocument(uri: string): Promise<Settings> {
    let settings = this.byUri.get(uri);
    if (!settings) {
      settings = this.userLayer(uri).then((user) => this.withProject(uri, user));
      this.byUri.set(uri, settings);
    }
    return settings;
  }

  /** The settings of a fixture that is not open (the workspace's diagnostics), with its folder's user settings. */
  async forWorkspaceFile(path: string, folder: string): Promise<Settings> {
    let layer = this.byFolder.get(folder);
    if (!layer) {
      layer = this.userLayer(toUri(folder));
      this.byFolder.set(folder, layer);
    }
    return this.configs.settingsFor(path, DEFAULT_SETTINGS, [await layer], folder);
  }

  /** Forgets cached settings; `pushedSection` is used by clients that cannot be asked. */
  changed(pushedSection: unknown): void {
    this.byUri.clear();
    this.byFolder.clear();
    this.reported.clear();
    if (!this.canPull()) this.pushed = this.read(pushedSection);
  }

  /** A babelq.json or suppressions file changed: every document's settings are worked out again. */
  projectChanged(): void {
    this.byUri.clear();
  }

  forget(uri: string): void {
    this.byUri.delete(uri);
  }

  /** What the user set for `scopeUri`, asked of the client (or what it pushed, when it cannot be asked). */
  private userLayer(scopeUri: string): Promise<SettingsLayer> {
    if (!this.canPull()) return Promise.resolve(this.pushed);
    return this.connection.workspace
      .getConfiguration({ scopeUri, section: 'babelqueue' })
      .then((raw) => this.read(raw))
      .catch(() => ({}));
  }

  private withProject(uri: string, user: SettingsLayer): Settings {
    const path = this.judgedPath(uri);
    // A document with no file, opened with no workspace folder, has no babelq.json.
    if (path === undefined) return layerSettings(DEFAULT_SETTINGS, [user]);
    return this.configs.settingsFor(path, DEFAULT_SETTINGS, [user], this.folderOf(path));
  }

  private read(raw: unknown): SettingsLayer {
    const { layer, problems } = readSettingsLayer(raw);
    const fresh: string[] = [];
    for (const problem of problems) {
      // A problem may quote what the settings hold (an unknown code, a workspace's text): on one line,
      // so it cannot begin a line of the log of its own or reorder the notification.
      const line = showOnOneLine(`Setting ${problem.setting}: ${problem.message}`);
      if (!this.reported.has(line)) {
        this.reported.add(line);
        fresh.push(line);
      }
    }
    if (fresh.length === 0) return layer;
    // A severity object of thousands of unknown codes is one mistake: said in a few lines, not thousands.
    for (const line of fresh.slice(0, MAX_LOGGED_PROBLEMS)) this.connection.console.warn(`${line}; that value is ignored, the rest of the settings still apply.`);
    if (fresh.length > MAX_LOGGED_PROBLEMS) this.connection.console.warn(`… and ${digitGroups(fresh.length - MAX_LOGGED_PROBLEMS)} more settings problems like these, ignored too.`);
    // The log is read by few: a setting that silently does nothing looks like a linter that ignores it.
    const named = fresh.slice(0, MAX_SHOWN_PROBLEMS).join('; ');
    // The output holds at most MAX_LOGGED_PROBLEMS of them: the warning says so rather than send the user there for all.
    const listed = fresh.length > MAX_LOGGED_PROBLEMS ? `the BabelQueue output lists the first ${MAX_LOGGED_PROBLEMS}` : 'the BabelQueue output lists them';
    const more = fresh.length > MAX_SHOWN_PROBLEMS ? `; and ${digitGroups(fresh.length - MAX_SHOWN_PROBLEMS)} more (${listed})` : '';
    const message = `BabelQueue: ${named}${more}. ${fresh.length === 1 ? 'That value is' : 'Those values are'} ignored; the rest of the settings still apply.`;
    // The problems quote the workspace's values: unlinked, as VS Code makes `[text](command:…)` in a notification a link.
    void this.connection.sendNotification('window/showMessage', { type: MessageType.Warning, message: unlinked(message) }).catch(() => undefined);
    return layer;
  }
}
