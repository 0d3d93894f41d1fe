/**
 * The broker and preview settings of the extension, read through one function and defaulted in
 * one place (no `vscode` import, so it is tested directly).
 */
import { SDK_NAMES } from '../core/encode';
import type { EncoderChoice } from '../core/message/build';
import type { RedisLayout } from '../core/message/types';
import { isBrokerError, redact, scrub } from '../broker/errors';
import { parseTarget, type BrokerTarget } from '../broker/target';
import { SETTING_KEYS } from '../core/rules/settings/settings';
import { shortened } from '../core/model/describe-value';
import { showOnOneLine } from '../core/language/markdown';

export const SEND_SETTING_KEYS = {
  brokerUrl: 'babelqueue.broker.url',
  timeoutMs: 'babelqueue.broker.timeoutMs',
  // The language server reads it too (encoding-divergence's Laravel retry findings): one key.
  redisLayout: SETTING_KEYS.redisLayout,
  redisPrefix: 'babelqueue.redis.prefix',
  encoder: 'babelqueue.preview.sdk',
  freshIds: 'babelqueue.send.freshIds',
} as const;

export interface SendSettings {
  readonly brokerUrl: string;
  readonly timeoutMs: number;
  readonly redisLayout: RedisLayout;
  readonly redisPrefix: string;
  readonly encoder: EncoderChoice;
  readonly freshIds: boolean;
}

export const DEFAULT_SEND_SETTINGS: SendSettings = {
  brokerUrl: 'redis://127.0.0.1:6379',
  timeoutMs: 5000,
  redisLayout: 'babelqueue',
  redisPrefix: '',
  encoder: 'auto',
  freshIds: true,
};

const ENCODER_CHOICES: readonly string[] = [...SDK_NAMES, 'auto'];

/** Reads the send settings through `get` (VS Code's configuration), falling back to defaults on bad values. */
export function readSendSettings(get: (key: string) => unknown): SendSettings {
  const url = get(SEND_SETTING_KEYS.brokerUrl);
  const timeout = get(SEND_SETTING_KEYS.timeoutMs);
  const layout = get(SEND_SETTING_KEYS.redisLayout);
  const prefix = get(SEND_SETTING_KEYS.redisPrefix);
  const encoder = get(SEND_SETTING_KEYS.encoder);
  const fresh = get(SEND_SETTING_KEYS.freshIds);
  return {
    brokerUrl: typeof url === 'string' && url.trim() !== '' ? url.trim() : DEFAULT_SEND_SETTINGS.brokerUrl,
    timeoutMs: typeof timeout === 'number' && timeout >= TIMEOUT_RANGE.min && timeout <= TIMEOUT_RANGE.max ? timeout : DEFAULT_SEND_SETTINGS.timeoutMs,
    redisLayout: layout === 'laravel' ? 'laravel' : 'babelqueue',
    redisPrefix: typeof prefix === 'string' ? prefix : '',
    encoder: typeof encoder === 'string' && ENCODER_CHOICES.includes(encoder) ? (encoder as EncoderChoice) : 'auto',
    freshIds: typeof fresh === 'boolean' ? fresh : true,
  };
}

/** The timeouts the setting takes, as package.json declares them. */
const TIMEOUT_RANGE = { min: 100, max: 120_000 } as const;

/**
 * Each send setting set to a value readSendSettings cannot use, in words that name the setting and
 * what it takes. A broker command refuses to run on them: falling back would publish to another
 * key, another broker or with another encoder than the one written in the settings.
 */
/**
 * What a command reads: `send` every send setting; `broker` (Peek Queue, Dead Letters, Redrive)
 * only the broker's, so a preview or send setting those never read cannot stop them; `preview`
 * (the byte preview) every one but the timeout, as it connects to nothing.
 */
export type SettingsPurpose = 'send' | 'broker' | 'preview';

export function sendSettingsProblems(get: (key: string) => unknown, purpose: SettingsPurpose = 'send'): string[] {
  const problems: string[] = [];
  // A broker URL set in another setting by mistake is quoted with its password masked (before the
  // quote is cut: cut inside the password, it keeps no '@' by which to find it). A workspace writes
  // these values, and JSON leaves bidirectional marks, overrides and isolates as they are: those
  // are shown \uXXXX too, so they cannot reorder the message.
  const check = (key: string, usable: (value: unknown) => boolean, takes: string, shown: (value: unknown) => string = (value) => showOnOneLine(shortened(redact(JSON.stringify(value) ?? String(value))))) => {
    const value = get(key);
    // Unset (VS Code gives the default then) or null: the default applies, as the language server reads null.
    if (value === undefined || value === null || usable(value)) return;
    problems.push(`${key} must be ${takes}, not ${shown(value)}`);
  };
  // Named by its shape alone: a URL written inside a list or an object may hold a password. One set
  // to nothing is no URL either: taken for the default, it would send to a broker nobody wrote.
  check(SEND_SETTING_KEYS.brokerUrl, (value) => typeof value === 'string' && value.trim() !== '', 'a URL such as redis://127.0.0.1:6379 or amqp://guest@127.0.0.1:5672', (value) =>
    typeof value === 'string' ? `an empty value (remove the setting for the default, ${DEFAULT_SEND_SETTINGS.brokerUrl})` : shapeOf(value),
  );
  if (purpose !== 'preview') check(SEND_SETTING_KEYS.timeoutMs, (value) => typeof value === 'number' && Number.isFinite(value) && value >= TIMEOUT_RANGE.min && value <= TIMEOUT_RANGE.max, `a number of milliseconds from ${TIMEOUT_RANGE.min} to ${TIMEOUT_RANGE.max}`);
  check(SEND_SETTING_KEYS.redisLayout, (value) => value === 'babelqueue' || value === 'laravel', '"babelqueue" or "laravel"');
  check(SEND_SETTING_KEYS.redisPrefix, (value) => typeof value === 'string', 'text');
  if (purpose === 'broker') return problems;
  check(SEND_SETTING_KEYS.encoder, (value) => typeof value === 'string' && ENCODER_CHOICES.includes(value), `one of ${ENCODER_CHOICES.map((choice) => `"${choice}"`).join(', ')}`);
  check(SEND_SETTING_KEYS.freshIds, (value) => typeof value === 'boolean', 'true or false');
  return problems;
}

/**
 * The Redis settings a broker command leaves aside for `target`, in words: the prefix with the
 * babelqueue layout, and both with RabbitMQ. They are often set once for every workspace, so a
 * command is not refused over them (as babelq refuses the options); it says so, in the output.
 */
export function unusedSettingNotes(settings: Pick<SendSettings, 'redisLayout' | 'redisPrefix'>, target: Pick<BrokerTarget, 'kind' | 'display'>): string[] {
  const prefix = `${SEND_SETTING_KEYS.redisPrefix} (${showOnOneLine(shortened(redact(JSON.stringify(settings.redisPrefix))))})`;
  if (target.kind === 'amqp') {
    const set = [...(settings.redisLayout !== 'babelqueue' ? [`${SEND_SETTING_KEYS.redisLayout} ("${settings.redisLayout}")`] : []), ...(settings.redisPrefix !== '' ? [prefix] : [])];
    if (set.length === 0) return [];
    return [`${set.join(' and ')} ${set.length > 1 ? 'are' : 'is'} not used with RabbitMQ (${target.display}): a queue there is reached by its name alone.`];
  }
  if (settings.redisLayout === 'babelqueue' && settings.redisPrefix !== '') {
    return [`${prefix} is not used: the babelqueue layout keys a queue by its name alone; the prefix is Laravel's connection prefix, for ${SEND_SETTING_KEYS.redisLayout} "laravel".`];
  }
  return [];
}

/** A setting's value named by its shape, without its content. */
function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' ? 'a number' : typeof value === 'boolean' ? String(value) : `a ${typeof value}`;
}

/** What names a target's password slot: the target as shown, and whose user name may be shown. */
export type PasswordTarget = Pick<BrokerTarget, 'kind' | 'display' | 'username'>;

/**
 * The secret-storage key of the password for a target's user: the target without credentials.
 * An AMQP user name is part of it (amqplib reads `amqp://name@host` as the user `name`, and the
 * target shows it). A Redis one never is, since it may be a password (BrokerTarget.username): a
 * Redis server has one slot, and its value says for which user (passwordToKeep, keptPassword).
 */
export function passwordKey(target: PasswordTarget): string {
  return target.kind === 'redis' ? `babelqueue.broker.password:redis@${target.display}` : `babelqueue.broker.password:${target.username ?? ''}@${target.display}`;
}

/** The value kept under passwordKey: for Redis, the password with the user it is for. */
export function passwordToKeep(target: PasswordTarget, password: string): string {
  return target.kind === 'redis' ? JSON.stringify({ user: target.username, password }) : password;
}

/** The password kept for the target's user, or undefined: for Redis, none when the slot holds another user's. */
export function keptPassword(target: PasswordTarget, kept: string | undefined): string | undefined {
  if (kept === undefined || target.kind !== 'redis') return kept;
  try {
    const value = JSON.parse(kept) as { user?: unknown; password?: unknown } | null;
    return value?.user === target.username && typeof value?.password === 'string' ? value.password : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The password prompt's title and text. A Redis user name is not named (it may be a password),
 * and the text says how ioredis reads it, for whoever typed a password there.
 */
export function passwordPrompt(target: PasswordTarget): { title: string; prompt: string } {
  const kept = 'Kept in VS Code secret storage, never in settings or logs.';
  if (target.kind !== 'redis') return { title: `Password for ${target.username} on ${target.display}`, prompt: kept };
  return { title: `Password for the user named in the URL on ${target.display}`, prompt: `${kept} A URL's redis://NAME@host names the ACL user NAME; a password in the URL goes after a colon: redis://:PASSWORD@host.` };
}

/**
 * The secret-storage key of the password a broker just refused (`error` of kind `auth` refusing
 * the login itself), so that it is forgotten and asked again next time; undefined for any other
 * error, a user the broker let in but does not allow what was asked (a password it accepted), a
 * URL without a user name, or one that holds its own password (secret storage was not used, and
 * what it keeps for that user may be right). Worked out from the setting, as `resolveTarget`
 * stored it, whatever the command (send, peek, dead letters, redrive): not from the target the
 * command used, whose display leaves out a user name equal to the password (guest:guest), so its
 * key would not be the stored one.
 */
export function refusedPasswordKey(brokerUrl: string, error: unknown): string | undefined {
  if (!isBrokerError(error) || error.kind !== 'auth' || error.loginRefused !== true) return undefined;
  try {
    const target = parseTarget(brokerUrl);
    return target.username === undefined || target.password !== undefined ? undefined : passwordKey(target);
  } catch {
    return undefined;
  }
}

/**
 * A broker command's failure in words fit for the output channel and a notification: a broker
 * error's own message (built redacted), or any other error's message with URL credentials masked
 * and `secrets` (the password used) scrubbed, since it may quote what a library was given.
 */
export function failureText(error: unknown, secrets: readonly (string | undefined)[] = []): string {
  if (isBrokerError(error)) return error.message;
  const text = error instanceof Error ? (error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message) : String(error);
  return redact(scrub(text, secrets.filter((secret): secret is string => secret !== undefined)));
}
