/**
 * The user-facing settings, normalised into one fully defaulted value.
 *
 * The same JSON shape comes from VS Code (`babelqueue.*` settings) and from `babelq lint --config`;
 * both go through `normalizeSettings`, so the editor and the CLI cannot disagree on defaults.
 * Key names are declared once here and checked against package.json by a test.
 */
import { isCode, type Code } from './code-names';
import type { SeveritySetting } from './diagnostic';
import { PAYLOAD_VERDICTS, type PayloadVerdict } from '../registry/validators/verdicts';

export const SETTING_KEYS = {
  validationEnable: 'babelqueue.validation.enable',
  diagnosticsSeverity: 'babelqueue.diagnostics.severity',
  moneyKeyPatterns: 'babelqueue.money.keyPatterns',
  traceServer: 'babelqueue.trace.server',
  registryPath: 'babelqueue.registry.path',
  registryValidator: 'babelqueue.registry.validator',
} as const;

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
}

export const DEFAULT_SETTINGS: Settings = {
  validationEnabled: true,
  severityOverrides: new Map(),
  moneyKeyPatterns: DEFAULT_MONEY_KEY_PATTERNS,
  registryPath: undefined,
  registryValidator: 'draft-07',
};

/** A problem found in the settings themselves (an unknown code, a bad severity). */
export interface SettingsProblem {
  readonly setting: string;
  readonly message: string;
}

const SEVERITY_VALUES = new Set(['error', 'warning', 'information', 'hint', 'off']);

/**
 * Turns the `babelqueue` settings section (nested `{validation: {enable}, ...}` as VS Code gives
 * it, or flat dotted keys as a config file may write them) into `Settings`, collecting problems
 * instead of throwing.
 */
export function normalizeSettings(raw: unknown): { settings: Settings; problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = [];
  const section = isRecord(raw) ? raw : {};
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

  const enable = read(SETTING_KEYS.validationEnable);
  let validationEnabled = true;
  if (typeof enable === 'boolean') validationEnabled = enable;
  else if (enable !== undefined) problems.push({ setting: SETTING_KEYS.validationEnable, message: 'must be true or false' });

  const severityOverrides = new Map<Code, SeveritySetting>();
  const severity = read(SETTING_KEYS.diagnosticsSeverity);
  if (isRecord(severity)) {
    for (const [code, value] of Object.entries(severity)) {
      if (!isCode(code)) {
        problems.push({ setting: SETTING_KEYS.diagnosticsSeverity, message: `unknown diagnostic code "${code}"` });
      } else if (typeof value !== 'string' || !SEVERITY_VALUES.has(value)) {
        problems.push({ setting: SETTING_KEYS.diagnosticsSeverity, message: `"${code}" must be one of error, warning, information, hint, off` });
      } else {
        severityOverrides.set(code, value as SeveritySetting);
      }
    }
  } else if (severity !== undefined) {
    problems.push({ setting: SETTING_KEYS.diagnosticsSeverity, message: 'must be an object of { "<code>": "error|warning|information|hint|off" }' });
  }

  let moneyKeyPatterns = DEFAULT_MONEY_KEY_PATTERNS;
  const money = read(SETTING_KEYS.moneyKeyPatterns);
  if (Array.isArray(money) && money.every((p) => typeof p === 'string' && p.trim() !== '')) {
    moneyKeyPatterns = money.map((p: string) => p.trim());
  } else if (money !== undefined) {
    problems.push({ setting: SETTING_KEYS.moneyKeyPatterns, message: 'must be an array of non-empty key patterns such as "amount" or "*_price"' });
  }

  let registryPath: string | undefined;
  const registry = read(SETTING_KEYS.registryPath);
  if (typeof registry === 'string') registryPath = registry.trim() === '' ? undefined : registry.trim();
  else if (registry !== undefined && registry !== null) problems.push({ setting: SETTING_KEYS.registryPath, message: 'must be a path relative to the workspace folder, e.g. "schemas/registry.json"' });

  let registryValidator: PayloadVerdict = 'draft-07';
  const validator = read(SETTING_KEYS.registryValidator);
  if (typeof validator === 'string' && (PAYLOAD_VERDICTS as readonly string[]).includes(validator)) registryValidator = validator as PayloadVerdict;
  else if (validator !== undefined && validator !== null) problems.push({ setting: SETTING_KEYS.registryValidator, message: `must be one of ${PAYLOAD_VERDICTS.map((v) => `"${v}"`).join(', ')}` });

  return { settings: { validationEnabled, severityOverrides, moneyKeyPatterns, registryPath, registryValidator }, problems };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
