/**
 * The one path from an envelope document to the message that is published: fresh ids when asked,
 * the chosen SDK's encoder for the exact body, and the broker projections. The preview shows
 * this value and the send publishes it, so they cannot disagree.
 */
import { encodeEnvelope, SDK_NAMES, type EncodeNote, type SdkName } from '../encode';
import type { Fresh } from '../model/fresh';
import { utf8Bytes } from '../model/utf8';
import { routingUrn } from '../contract/urn';
import { asObject, getValue, type ParsedDocument } from '../model/tree';
import { consumerVerdicts, type ConsumerVerdict } from './acceptance';
import type { OutgoingMessage, RedisLayout, RedisProjection } from './types';

export type EncoderChoice = SdkName | 'auto';

/** The broker a send goes to unless told otherwise: the local Redis. */
export const DEFAULT_BROKER_URL = 'redis://127.0.0.1:6379';

export interface MessageOptions {
  /** `auto`: the SDK named in meta.lang, else node. */
  readonly sdk: EncoderChoice;
  /** Mint a new meta.id and created_at = now (trace_id is kept: it is a correlation id). */
  readonly freshIds: boolean;
  readonly fresh: Fresh;
  /**
   * The queue to publish to. It also replaces meta.queue in the body, so the target and the body
   * agree: consumers use meta.queue as dead_letter.original_queue when they dead-letter.
   */
  readonly queue?: string;
  /**
   * Publish to `queue` but keep the body's meta.queue as written: a redrive re-emits the same
   * message (meta is immutable end to end), and the SDKs' redrives leave meta.queue alone.
   */
  readonly keepMetaQueue?: boolean;
  readonly redisLayout: RedisLayout;
  /** Laravel's connection prefix (e.g. `laravel_database_`), for the laravel layout only. */
  readonly redisPrefix?: string;
}

export type BuildResult =
  | {
      readonly ok: true;
      readonly message: OutgoingMessage;
      readonly notes: readonly EncodeNote[];
      /** Each SDK consumer's verdict on exactly these bytes. */
      readonly consumers: readonly ConsumerVerdict[];
    }
  | { readonly ok: false; readonly error: string };

/** The SDK an `auto` choice means for this document. */
export function chooseSdk(doc: ParsedDocument, choice: EncoderChoice): SdkName {
  if (choice !== 'auto') return choice;
  const lang = getValue(asObject(getValue(asObject(doc.root), 'meta')), 'lang');
  return lang?.kind === 'string' && (SDK_NAMES as readonly string[]).includes(lang.value) ? (lang.value as SdkName) : 'node';
}

/** Builds the exact bytes and projections of an envelope; an unusable document gives the reason. */
export function buildMessage(doc: ParsedDocument, options: MessageOptions): BuildResult {
  if (doc.syntaxProblems.length > 0) return { ok: false, error: 'The file has JSON syntax errors; fix them before previewing or sending.' };
  const root = asObject(doc.root);
  if (!root) return { ok: false, error: 'The document is not an envelope object.' };
  const resolved = routingUrn(root);
  if (!resolved) return { ok: false, error: 'The envelope has no URN (job): a message without identity cannot be sent.' };
  const meta = asObject(getValue(root, 'meta'));
  const metaQueue = getValue(meta, 'queue');
  const queue = options.queue?.trim() || (metaQueue?.kind === 'string' && metaQueue.value.trim() !== '' ? metaQueue.value : 'default');

  const sdk = chooseSdk(doc, options.sdk);
  const existingId = getValue(meta, 'id');
  const metaId = options.freshIds ? options.fresh.uuid() : existingId?.kind === 'string' ? existingId.value : '';
  const requestedQueue = options.queue?.trim();
  const overrides = {
    ...(options.freshIds ? { metaId, createdAt: options.fresh.now() } : {}),
    ...(requestedQueue && !options.keepMetaQueue ? { queue: requestedQueue } : {}),
  };
  const encoded = encodeEnvelope(doc, sdk, Object.keys(overrides).length > 0 ? { overrides } : undefined);
  if (!encoded.ok) return { ok: false, error: `The ${sdk} encoder cannot write this envelope: ${encoded.error}` };

  const traceId = getValue(root, 'trace_id');
  const lang = getValue(meta, 'lang');
  const version = getValue(meta, 'schema_version');
  const attempts = getValue(root, 'attempts');
  const message: OutgoingMessage = {
    text: encoded.text,
    bytes: utf8Bytes(encoded.text),
    sdk,
    queue,
    urn: resolved.node.value,
    metaId,
    redis: redisProjection(queue, options.redisLayout, options.redisPrefix ?? ''),
    amqp: {
      exchange: '',
      routingKey: queue,
      properties: {
        contentType: 'application/json',
        contentEncoding: 'utf-8',
        deliveryMode: 2,
        appId: 'babelqueue',
        type: resolved.node.value,
        correlationId: traceId?.kind === 'string' ? traceId.value : '',
        messageId: metaId,
        headers: {
          'x-schema-version': version?.kind === 'number' ? version.value : 1,
          'x-source-lang': lang?.kind === 'string' ? lang.value : sdk,
          'x-attempts': attempts?.kind === 'number' ? attempts.value : 0,
        },
      },
    },
  };
  return { ok: true, message, notes: encoded.notes, consumers: consumerVerdicts(encoded.text) };
}

/** Where each Redis layout puts a queue's messages (facts §4.1). */
export function redisProjection(queue: string, layout: RedisLayout, prefix: string): RedisProjection {
  if (layout === 'laravel') {
    const listKey = `${prefix}queues:${queue}`;
    const notifyKey = `${listKey}:notify`;
    return { layout, listKey, notifyKey, commands: [`MULTI`, `RPUSH ${listKey} <body>`, `RPUSH ${notifyKey} 1`, `EXEC`] };
  }
  return { layout, listKey: queue, commands: [`RPUSH ${queue} <body>`] };
}
