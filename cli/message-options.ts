/**
 * What `preview` and `send` share: reading the envelope file and turning the options into the
 * same MessageOptions, so `send` publishes exactly the bytes `preview` prints.
 */
import { resolve } from 'node:path';
import { SDK_NAMES } from '../core/encode';
import type { MessageOptions, EncoderChoice } from '../core/message/build';
import type { RedisLayout } from '../core/message/types';
import { parseJson } from '../core/parse/parser';
import { asObject, getValue, type ParsedDocument } from '../core/model/tree';
import { brokerNameMeaning, brokerNameOf } from '../core/contract/envelope';
import { literal } from '../core/model/describe-value';
import type { OptionSpec } from './args';
import { CliError, describeFsError, notUtf8ArgumentNote, quoted, quotedPath } from './errors';
import { printable } from './diagnostics';
import { FRESH } from './fresh-values';
import { decodeStrictly } from '../workspace/strict-utf8';
import { MAX_ENVELOPE_FILE_BYTES, readBoundedBytes } from '../workspace/bounded-read';

export { DEFAULT_BROKER_URL } from '../core/message/build';

/** Options every message-building command takes. */
export const MESSAGE_OPTION_SPECS: Readonly<Record<string, OptionSpec>> = {
  sdk: { value: true },
  'no-fresh-ids': { value: false },
  layout: { value: true },
  prefix: { value: true },
  queue: { value: true },
};

/**
 * An envelope file as read: its parse, or why its content is refused (bytes that are not UTF-8),
 * which the command reports with exit 1 after its options are checked, as it reports a syntax error.
 */
export type EnvelopeRead =
  | { readonly ok: true; readonly doc: ParsedDocument; readonly path: string }
  | { readonly ok: false; readonly refusal: string };

/**
 * Reads and parses an envelope file, bounded and regular files only, as lint reads one (a device
 * or a named pipe given by mistake is refused unread, not read until memory runs out or forever);
 * a missing or unreadable file is a usage problem (a CliError, exit 2). Bytes that are not UTF-8
 * are refused with lint's message (no `--yes` overrides it): publishing them would mean replacing
 * bytes the user wrote, and no consumer would see what the file says. That is a refusal of what
 * the file holds, like a syntax error or a byte-order mark, so it is returned, not thrown.
 */
export function readEnvelope(command: 'preview' | 'send', file: string | undefined, cwd: string): EnvelopeRead {
  if (!file) throw new CliError(`name the envelope file, e.g. babelq ${command} examples/orders/order-created.babel.json`, true);
  const path = resolve(cwd, file);
  let bytes: Uint8Array;
  try {
    bytes = readBoundedBytes(path, MAX_ENVELOPE_FILE_BYTES);
  } catch (error) {
    throw new CliError(`cannot read '${quotedPath(file)}': ${describeFsError(error)}${notUtf8ArgumentNote(file, error)}`);
  }
  const decoded = decodeStrictly(bytes);
  // The name is the user's (it may hold control characters): printable, as an error's names are.
  if (!decoded.ok) return { ok: false, refusal: printable(`${quotedPath(file)}: ${decoded.message} Nothing was previewed or sent.`) };
  return { ok: true, doc: parseJson(decoded.text), path };
}

/** The encoder choice from `--sdk` (auto when absent); `allowAll` for preview's `--sdk all`. */
export function sdkOption(value: string | true | undefined, allowAll: boolean): EncoderChoice | 'all' {
  if (value === undefined) return 'auto';
  const choices = [...SDK_NAMES, 'auto', ...(allowAll ? ['all'] : [])];
  if (typeof value !== 'string' || !choices.includes(value)) throw new CliError(`--sdk must be one of ${choices.join(', ')}, not '${quoted(value)}'`, true);
  return value as EncoderChoice | 'all';
}

/**
 * `--layout` and `--prefix` (preview, send, peek, dlq): the Redis layout, and Laravel's connection
 * prefix, which only the laravel layout's keys carry: given with the babelqueue layout, which pushes
 * to the bare queue, it would change nothing, so it is refused rather than passed over.
 */
export function layoutOptions(options: Map<string, string | true>): { readonly layout: RedisLayout; readonly prefix: string } {
  const layout = options.get('layout') ?? 'babelqueue';
  if (layout !== 'babelqueue' && layout !== 'laravel') throw new CliError(`--layout must be babelqueue or laravel, not '${quoted(layout)}'`, true);
  const prefix = options.get('prefix');
  if (prefix !== undefined && layout !== 'laravel') throw new CliError("--prefix is Laravel's connection prefix: it applies with --layout laravel only (the babelqueue layout pushes to the bare queue)", true);
  return { layout, prefix: typeof prefix === 'string' ? prefix : '' };
}

/** MessageOptions from parsed command-line options. */
export function messageOptions(options: Map<string, string | true>, sdk: EncoderChoice): MessageOptions {
  const { layout, prefix } = layoutOptions(options);
  const queue = options.get('queue');
  if (queue !== undefined && (typeof queue !== 'string' || queue.trim() === '')) throw new CliError('--queue needs a queue name', true);
  return {
    sdk,
    freshIds: !options.has('no-fresh-ids'),
    fresh: FRESH,
    redisLayout: layout,
    ...(typeof queue === 'string' ? { queue } : {}),
    ...(prefix !== '' ? { redisPrefix: prefix } : {}),
  };
}

/**
 * A note for send and preview when the queue a message goes to is a broker's name for a queue, as
 * babelq lint reads meta.queue (core/contract/envelope.ts brokerNameOf, with the message's
 * dead-letter status): the Laravel key `queues:orders`, which the laravel layout makes
 * `queues:queues:orders`, or in a dead letter the dead-letter queue `orders.dlq`, which a dead
 * letter from `orders` does not carry as meta.queue. Not refused (such a queue may be the user's
 * own): said, with where the message goes (`goesTo`) and the name to write instead.
 */
export function queueNameNote(doc: ParsedDocument, queue: string, fromOption: boolean, goesTo: string, laravelLayout: boolean): string | undefined {
  const root = asObject(doc.root);
  const broker = brokerNameOf(queue, asObject(getValue(root, 'dead_letter')) !== undefined);
  if (!broker) return undefined;
  const named = `${fromOption ? '--queue' : 'meta.queue'} ${literal(queue)} is ${brokerNameMeaning(broker)}`;
  const write = fromOption ? `--queue ${/^[\w.:@/-]+$/.test(broker.name) ? broker.name : literal(broker.name)}` : `meta.queue ${literal(broker.name)}`;
  const derived = laravelLayout ? `the laravel layout derives its key from the queue as queues:<name>, so ` : '';
  const body = `${derived}this message goes to ${goesTo}, with meta.queue ${literal(queue)} in its body`;
  if (broker.part === 'dead-letter queue') {
    // The queue a message goes to and its meta.queue are one value here: "write orders" would
    // publish the dead letter to the live queue, where consumers would take it again.
    const instead = fromOption
      ? `--queue ${/^[\w.:@/-]+$/.test(broker.name) ? broker.name : literal(broker.name)} would publish it to ${literal(broker.name)}, where consumers would take it again: babelq sends a message to the queue its meta.queue names, so it cannot put a dead letter as the SDKs leave it on ${literal(queue)}`
      : `babelq sends a message to the queue its meta.queue names, so it cannot put a dead letter as the SDKs leave it on ${literal(queue)}`;
    return `note: ${named}: ${body}, but dead-lettering leaves meta unchanged, so a dead letter from ${literal(broker.name)} keeps meta.queue ${literal(broker.name)} (babelq lint warns on this one's); ${instead}.`;
  }
  return `note: ${named}, not a queue name: meta.queue holds the logical name; ${body} (babelq lint warns on it). Write ${write}.`;
}
