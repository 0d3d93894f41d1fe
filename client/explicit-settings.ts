/**
 * What the user set, and only that: VS Code answers a configuration request with every default
 * filled in, so the server could not tell a default from a choice, and a default would win over
 * babelq.json. The language client's configuration middleware answers with the values set in the
 * user, workspace or folder settings (later levels winning, objects merged per key, as VS Code
 * merges them); the server applies them over babelq.json. No `vscode` import: tested as is.
 */
import { SETTING_KEYS } from '../core/rules/settings/settings';
import { isRecord } from '../core/model/js-value';

/** What `WorkspaceConfiguration.inspect` gives for one key (the levels this reads). */
export interface InspectedSetting {
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/** The `babelqueue` section as the user set it, nested as VS Code gives it (`{ diagnostics: { severity } }`). */
export function explicitSettings(inspect: (relativeKey: string) => InspectedSetting | undefined): Record<string, unknown> {
  return serverSettings((relativeKey) => {
    const inspected = inspect(relativeKey);
    if (!inspected) return undefined;
    let value: unknown;
    for (const level of [inspected.globalValue, inspected.workspaceValue, inspected.workspaceFolderValue]) {
      if (level === undefined) continue;
      value = isRecord(value) && isRecord(level) ? { ...value, ...level } : level;
    }
    return value;
  });
}

/**
 * The server's own keys with the values `valueOf` gives (undefined: left out), nested as VS Code
 * nests them, and nothing else: the broker URL (which may hold a password), the Redis prefix and
 * the preview's settings are the extension's, and sent to the server they would be written to the
 * output channel whenever the LSP traffic is traced. The Redis layout is the server's too: it
 * decides which findings a Laravel retry's re-encoding adds.
 */
function serverSettings(valueOf: (relativeKey: string) => unknown): Record<string, unknown> {
  const section: Record<string, unknown> = {};
  for (const key of Object.values(SETTING_KEYS)) {
    const relativeKey = key.slice('babelqueue.'.length);
    const value = valueOf(relativeKey);
    if (value === undefined) continue;
    const parts = relativeKey.split('.');
    let target = section;
    for (const part of parts.slice(0, -1)) {
      if (!isRecord(target[part])) target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    target[parts[parts.length - 1]] = value;
  }
  return section;
}
