/**
 * The user-facing settings, normalised into one fully defaulted value.
 *
 * The same JSON shape comes from VS Code (`babelqueue.*` settings) and from `babelq lint --config`;
 * both go through `normalizeSettings`, so the editor and the CLI cannot disagree on defaults.
 * Key names are declared once here and checked against package.json by a test.
 */
import { isRecord } from '../../model/js-value';
import { shortened } from '../../model/describe-value';
import { digitGroups } from '../../model/count-words';
import { CODE_NAMES, isCode, type Code } from '../code-names';
import { closestWord } from '../../model/edit-distance';
import type { SeveritySetting } from '../diagnostic';
import { PAYLOAD_VERDICTS, type PayloadVerdict } from '../../registry/validators/verdicts';
import type { RedisLayout } from '../../message/types';

export const SETTING_KEYS = {
  validationEnable: 'babelqueue.validation.enable',
  diagnosticsSeverity: 'babelqueue.diagnostics.severity',
  moneyKeyPatterns: 'babelqueue.money.keyPatterns',
  traceServer: 'babelqueue.trace.server',
  registryPath: 'babelqueue.registry.path',
  registryValidator: 'babelqueue.registry.validator',
  diagnosticsScope: 'babelqueue.diagnostics.scope',
  compatBase: 'babelqueue.compat.base',
  redisLayout: 'babelqueue.redis.layout',
} as const;

export const REDIS_LAYOUTS: readonly RedisLayout[] = ['babelqueue', 'laravel'];

/** The git revision a schema file is compared with while it is edited (breaking-change). */
export const DEFAULT_COMPAT_BASE = 'HEAD';

/** Which fixtures the editor reports: every one under the workspace folders, or the open ones only. */
export type DiagnosticsScope = 'workspace' | 'openFiles';
export const DIAGNOSTICS_SCOPES: readonly DiagnosticsScope[] = ['workspace', 'openFiles'];

export const DEFAULT_MONEY_KEY_PATTERNS: readonly string[] = [
  'amount',
  'price',
  'cost',
  'total',
  'subtotal',
  'tax',
  'fee',
  'balance',
  'discount',
  'refund',
  'payment',
  '*_amount',
  '*_price',
  '*_cost',
  '*_total',
  '*_subtotal',
  '*_tax',
  '*_fee',
  '*_balance',
  '*_discount',
  '*_refund',
];

export interface Settings {
  readonly validationEnabled: boolean;
  readonly severityOverrides: ReadonlyMap<Code, SeveritySetting>;
  readonly moneyKeyPatterns: readonly string[];
  /** The registry path relative to the workspace folder; undefined = find the nearest registry.json. */
  readonly registryPath: string | undefined;
  /** Whose verdict the payload-schema errors follow: draft-07 (ajv) or bqschema (CI's gate); the other is a validator-divergence. */
  readonly registryValidator: PayloadVerdict;
  /** The editor's reach (not a babelq.json key: it is how one person works, not what the project checks). */
  readonly diagnosticsScope: DiagnosticsScope;
  /** The git revision an edited schema file is compared with; undefined: not compared. */
  readonly compatBase: string | undefined;
  /**
   * Whose Redis queues the fixtures' messages travel on. `laravel`: Laravel's reservation script
   * re-encodes a message through Lua cjson, and a retry or release puts those bytes back on the
   * queue (facts §4.1), so encoding-divergence reports the values that re-encoding changes.
   */
  readonly redisLayout: RedisLayout;
}

/**
 * Everything of the settings an envelope's findings depend on, as text: each file's settings are a
 * new object, and a change of any project file makes them anew (the language server keeps findings
 * of files nobody has open under this key).
 */
export function settingsKey(settings: Settings): string {
  return [settings.validationEnabled, [...settings.severityOverrides].join(','), settings.moneyKeyPatterns.join(','), settings.registryPath ?? '', settings.registryValidator, settings.redisLayout].join(';');
}

export const DEFAULT_SETTINGS: Settings = {
  validationEnabled: true,
  severityOverrides: new Map(),
  moneyKeyPatterns: DEFAULT_MONEY_KEY_PATTERNS,
  registryPath: undefined,
  registryValidator: 'draft-07',
  diagnosticsScope: 'workspace',
  compatBase: DEFAULT_COMPAT_BASE,
  redisLayout: 'babelqueue',
};

/** A problem found in the settings themselves (an unknown code, a bad severity). */
export interface SettingsProblem {
  readonly setting: string;
  readonly message: string;
}

const SEVERITY_LEVELS: readonly string[] = ['error', 'warning', 'information', 'hint', 'off'];
const SEVERITY_VALUES = new Set(SEVERITY_LEVELS);

/**
 * The settings one source sets (a babelq.json, an override, what a user set in the editor, a
 * `--config` file): only the keys it names. Sources are applied over the defaults in order with
 * `layerSettings`; a later source wins per key, and per code for severities.
 */
export interface SettingsLayer {
  readonly validationEnabled?: boolean;
  readonly severityOverrides?: ReadonlyMap<Code, SeveritySetting>;
  readonly moneyKeyPatterns?: readonly string[];
  /** Relative to the workspace folder (editor settings) or absolute (babelq.json, resolved from its folder). */
  readonly registryPath?: string;
  readonly registryValidator?: PayloadVerdict;
  readonly diagnosticsScope?: DiagnosticsScope;
  /** A git revision, or null: compare with none. */
  readonly compatBase?: string | null;
  readonly redisLayout?: RedisLayout;
}

/** `layers` applied over `base` in order: a later layer wins per key, and per code for severities. */
export function layerSettings(base: Settings, layers: readonly SettingsLayer[]): Settings {
  if (layers.length === 0) return base;
  let { validationEnabled, moneyKeyPatterns, registryPath, registryValidator, diagnosticsScope, compatBase, redisLayout } = base;
  let severityOverrides = base.severityOverrides;
  for (const layer of layers) {
    if (layer.validationEnabled !== undefined) validationEnabled = layer.validationEnabled;
    if (layer.moneyKeyPatterns !== undefined) moneyKeyPatterns = layer.moneyKeyPatterns;
    if (layer.registryPath !== undefined) registryPath = layer.registryPath;
    if (layer.registryValidator !== undefined) registryValidator = layer.registryValidator;
    if (layer.diagnosticsScope !== undefined) diagnosticsScope = layer.diagnosticsScope;
    if (layer.compatBase !== undefined) compatBase = layer.compatBase ?? undefined;
    if (layer.redisLayout !== undefined) redisLayout = layer.redisLayout;
    if (layer.severityOverrides !== undefined && layer.severityOverrides.size > 0) severityOverrides = new Map([...severityOverrides, ...layer.severityOverrides]);
  }
  return { validationEnabled, severityOverrides, moneyKeyPatterns, registryPath, registryValidator, diagnosticsScope, compatBase, redisLayout };
}

/**
 * Turns the `babelqueue` settings section (nested `{validation: {enable}, ...}` as VS Code gives
 * it, or flat dotted keys as a config file may write them) into `Settings`, collecting problems
 * instead of throwing.
 */
export function normalizeSettings(raw: unknown): { settings: Settings; problems: SettingsProblem[] } {
  const { layer, problems } = readSettingsLayer(raw);
  return { settings: layerSettings(DEFAULT_SETTINGS, [layer]), problems };
}

/** The keys a settings section sets, each checked; a key with a bad value is left out and named in `problems`. */
export function readSettingsLayer(raw: unknown): { layer: SettingsLayer; problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = [];
  const section = isRecord(raw) ? raw : {};
  // None (null) and an empty list (an empty Lua table, as Neovim writes one) are no settings; any
  // other value is a section of the wrong shape, left out and said as a wrong setting is.
  if (!isRecord(raw) && raw !== undefined && raw !== null && !(Array.isArray(raw) && raw.length === 0)) {
    problems.push({ setting: 'babelqueue', message: `must be an object of settings ({ "diagnostics": { "scope": "openFiles" } }), not ${Array.isArray(raw) ? 'a list' : `a ${typeof raw}`}` });
  }
  const read = (dotted: string): unknown => {
    const relative = dotted.replace(/^babelqueue\./, '');
    if (relative in section) return section[relative];
    if (dotted in section) return section[dotted];
    let current: unknown = section;
    for (const part of relative.split('.')) {
      if (!isRecord(current) || !(part in current)) return undefined;
      current = current[part];
    }
    return current;
  };
  const layer: { -readonly [K in keyof SettingsLayer]: SettingsLayer[K] } = {};

  const enable = read(SETTING_KEYS.validationEnable);
  if (typeof enable === 'boolean') layer.validationEnabled = enable;
  else if (enable !== undefined && enable !== null) problems.push({ setting: SETTING_KEYS.validationEnable, message: 'must be true or false' });

  const severity = read(SETTING_KEYS.diagnosticsSeverity);
  if (isRecord(severity)) {
    const read = readSeverities(severity);
    layer.severityOverrides = read.severities;
    problems.push(...read.problems.map((message) => ({ setting: SETTING_KEYS.diagnosticsSeverity, message })));
  } else if (severity !== undefined && severity !== null) {
    problems.push({ setting: SETTING_KEYS.diagnosticsSeverity, message: SEVERITY_SHAPE });
  }

  const money = read(SETTING_KEYS.moneyKeyPatterns);
  const patterns = readMoneyKeyPatterns(money);
  if (patterns) layer.moneyKeyPatterns = patterns;
  else if (money !== undefined && money !== null) problems.push({ setting: SETTING_KEYS.moneyKeyPatterns, message: MONEY_SHAPE });

  const registry = read(SETTING_KEYS.registryPath);
  const registryShape = 'must be a path relative to the workspace folder, e.g. "schemas/registry.json"';
  if (typeof registry === 'string') {
    const trimmed = registry.trim();
    if (trimmed.length > MAX_PATH_SETTING_LENGTH) problems.push({ setting: SETTING_KEYS.registryPath, message: `${registryShape}, ${pathTooLong(trimmed)}` });
    else if (trimmed !== '') layer.registryPath = trimmed;
  } else if (registry !== undefined && registry !== null) {
    problems.push({ setting: SETTING_KEYS.registryPath, message: registryShape });
  }

  const validator = read(SETTING_KEYS.registryValidator);
  if (isPayloadVerdict(validator)) layer.registryValidator = validator;
  else if (validator !== undefined && validator !== null) problems.push({ setting: SETTING_KEYS.registryValidator, message: VALIDATOR_SHAPE });

  const scope = read(SETTING_KEYS.diagnosticsScope);
  if (typeof scope === 'string' && (DIAGNOSTICS_SCOPES as readonly string[]).includes(scope)) layer.diagnosticsScope = scope as DiagnosticsScope;
  else if (scope !== undefined && scope !== null) problems.push({ setting: SETTING_KEYS.diagnosticsScope, message: 'must be "workspace" or "openFiles"' });

  const compat = read(SETTING_KEYS.compatBase);
  const base = readCompatBase(compat);
  if (base !== undefined) layer.compatBase = base;
  else if (compat !== undefined && compat !== null) problems.push({ setting: SETTING_KEYS.compatBase, message: COMPAT_BASE_SHAPE });

  const layout = read(SETTING_KEYS.redisLayout);
  if (isRedisLayout(layout)) layer.redisLayout = layout;
  else if (layout !== undefined && layout !== null) problems.push({ setting: SETTING_KEYS.redisLayout, message: REDIS_LAYOUT_SHAPE });

  return { layer, problems };
}

/** The longest path a file can be opened by (Linux's PATH_MAX): a longer setting names no file, and looking for it costs by its length. */
export const MAX_PATH_SETTING_LENGTH = 4096;

/** What a path setting longer than MAX_PATH_SETTING_LENGTH is told, after what it must be. */
export function pathTooLong(path: string): string {
  return `of at most ${digitGroups(MAX_PATH_SETTING_LENGTH)} characters (this one has ${digitGroups(path.length)})`;
}

export const REDIS_LAYOUT_SHAPE = `must be one of ${REDIS_LAYOUTS.map((layout) => `"${layout}"`).join(', ')}`;

export function isRedisLayout(value: unknown): value is RedisLayout {
  return typeof value === 'string' && (REDIS_LAYOUTS as readonly string[]).includes(value);
}

export const COMPAT_BASE_SHAPE = 'must be a git revision such as "HEAD" or "origin/main", or "" to compare with none';

/**
 * A compat base as written: a revision (trimmed), null for "" (compare with none), undefined when
 * it is not one. A revision never starts with "-": it would be read as an option of git.
 */
export function readCompatBase(value: unknown): string | null | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return null;
  return /^[^-\s][^\s]*$/.test(trimmed) && !trimmed.includes('..') ? trimmed : undefined;
}

export const SEVERITY_SHAPE = 'must be an object of { "<code>": "error|warning|information|hint|off" }';
/**
 * The most characters the money key patterns may hold together. Every distinct key of a payload is
 * tested against each pattern, character by character: one pattern of 900,000 stars held a lint of
 * a 2,000-key payload (and the server's event loop) for 14 s. The defaults hold about 150.
 */
export const MAX_MONEY_PATTERN_CHARACTERS = 4096;
export const MONEY_SHAPE = `must be an array of non-empty key patterns such as "amount" or "*_price", at most ${digitGroups(MAX_MONEY_PATTERN_CHARACTERS)} characters together`;
export const VALIDATOR_SHAPE = `must be one of ${PAYLOAD_VERDICTS.map((v) => `"${v}"`).join(', ')}`;

/** A `{code: level}` object read code by code: unknown codes and levels are problems, the rest apply. */
export function readSeverities(severity: Record<string, unknown>): { severities: Map<Code, SeveritySetting>; problems: string[] } {
  const severities = new Map<Code, SeveritySetting>();
  const problems: string[] = [];
  for (const [code, value] of Object.entries(severity)) {
    if (!isCode(code)) {
      const near = closestWord(code, CODE_NAMES);
      problems.push(`unknown diagnostic code "${shortened(code)}"${near ? ` (did you mean "${near}"?)` : '; the codes are listed in docs/diagnostics.md'}`);
    } else if (!isSeveritySetting(value)) {
      const near = typeof value === 'string' ? closestLevel(value) : undefined;
      problems.push(`"${code}" must be one of ${SEVERITY_LEVELS.join(', ')}${near ? ` (did you mean "${near}"?)` : ''}`);
    }
    else severities.set(code, value);
  }
  return { severities, problems };
}

/** The level a mistyped one most likely meant: another case (`Warning`), a prefix (`warn`, `info`) or a typo (`eror`). */
function closestLevel(value: string): string | undefined {
  const lower = value.trim().toLowerCase();
  if (lower === '') return undefined;
  return SEVERITY_LEVELS.find((level) => level === lower) ?? (lower.length >= 3 ? SEVERITY_LEVELS.find((level) => level.startsWith(lower)) : undefined) ?? closestWord(lower, SEVERITY_LEVELS);
}

export function isSeveritySetting(value: unknown): value is SeveritySetting {
  return typeof value === 'string' && SEVERITY_VALUES.has(value);
}

export function isPayloadVerdict(value: unknown): value is PayloadVerdict {
  return typeof value === 'string' && (PAYLOAD_VERDICTS as readonly string[]).includes(value);
}

/** Trimmed patterns, or undefined when `value` is not a list of non-empty strings. */
export function readMoneyKeyPatterns(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || !value.every((p) => typeof p === 'string' && p.trim() !== '')) return undefined;
  const patterns = value.map((p: string) => p.trim());
  return patterns.reduce((total, pattern) => total + pattern.length, 0) > MAX_MONEY_PATTERN_CHARACTERS ? undefined : patterns;
}
