/**
 * The one path from an envelope document to the message that is published: fresh ids when asked,
 * the chosen SDK's encoder for the exact body, and the broker projections. The preview shows
 * this value and the send publishes it, so they cannot disagree.
 */
import { encodeEnvelopeFrom, SDK_NAMES, type EncodeMemo, type EncodeNote, type SdkName } from '../encode';
import { keepsWrittenKeyOrder } from '../encode/node';
import { WrittenText, writtenTextOf } from '../encode/written-text';
import type { Fresh } from '../model/fresh';
import { LineIndex } from '../model/positions';
import { utf8Bytes } from '../model/utf8';
import { isBlank } from '../contract/envelope';
import { isDotnetBlank } from '../encode/dotnet';
import { goDecodedObjects, goLast } from '../encode/go';
import { isJavaBlank } from '../encode/java';
import { SDK_LABELS } from '../encode/types';
import { asObject, getProperty, getValue, type ObjectNode, type ParsedDocument } from '../model/tree';
import { ParsedText } from '../parse/document';
import { sameOrReparsed } from '../parse/incremental';
import { parseJson } from '../parse/parser';
import { consumerVerdicts, decodedUrn, pythonRoute, type ConsumerVerdict, type WrittenBody } from './acceptance';
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
   * message (meta is immutable end to end), and the SDKs' redrives leave meta.queue alone. The
   * queue is then the one the SDK's redrive names, used as it is: no SDK trims it.
   */
  readonly keepMetaQueue?: boolean;
  readonly redisLayout: RedisLayout;
  /** Laravel's connection prefix (e.g. `laravel_database_`), for the laravel layout only. */
  readonly redisPrefix?: string;
}

/**
 * What one build leaves for the next build of the same envelope: the document its body was
 * written from and, when the consumers' check needed it, the body parsed back. A preview that
 * follows edits passes the same memo each time, and a version that differs in one value is then
 * written and checked around that value (core/encode/plain-subtree.ts) instead of whole. It holds
 * one or two parses (the document written, often the caller's own, and the body): one memo per
 * envelope shown.
 */
export interface BuildMemo extends EncodeMemo {
  body?: ParsedDocument;
}

export type BuildResult =
  | {
      readonly ok: true;
      /** The SDK whose encoder wrote the bytes, and why it was that one. */
      readonly choice: SdkChoice;
      readonly message: OutgoingMessage;
      readonly notes: readonly EncodeNote[];
      /** Each SDK consumer's verdict on exactly these bytes. */
      readonly consumers: readonly ConsumerVerdict[];
    }
  | { readonly ok: false; readonly error: string };

/** The SDK an `auto` choice means for this document. */
export function chooseSdk(doc: ParsedDocument, choice: EncoderChoice): SdkName {
  return sdkChoice(doc, choice).sdk;
}

/**
 * The SDK a choice means, and why: the setting, meta.lang, or node because meta.lang names no SDK
 * (`lang` is what it says) or is absent. Node is a fallback the preview must say it is, not pass
 * off as meta.lang's choice.
 */
export type SdkChoice =
  | { readonly sdk: SdkName; readonly from: 'setting' | 'meta.lang' | 'no-lang' }
  | { readonly sdk: SdkName; readonly from: 'not-an-sdk'; readonly lang: string };

export function sdkChoice(doc: ParsedDocument, choice: EncoderChoice): SdkChoice {
  if (choice !== 'auto') return { sdk: choice, from: 'setting' };
  const lang = getValue(asObject(getValue(asObject(doc.root), 'meta')), 'lang');
  if (lang?.kind !== 'string') return { sdk: 'node', from: 'no-lang' };
  return (SDK_NAMES as readonly string[]).includes(lang.value) ? { sdk: lang.value as SdkName, from: 'meta.lang' } : { sdk: 'node', from: 'not-an-sdk', lang: lang.value };
}

/** Why an `auto` choice fell back to node, in the preview's words; undefined when it did not. */
export function sdkFallbackText(choice: SdkChoice): string | undefined {
  if (choice.from === 'not-an-sdk') return `meta.lang ${JSON.stringify(choice.lang)} is no SDK: ${choice.sdk}'s encoder is shown`;
  if (choice.from === 'no-lang') return `no meta.lang: ${choice.sdk}'s encoder is shown`;
  return undefined;
}

/** Builds the exact bytes and projections of an envelope; an unusable document gives the reason. */
export function buildMessage(doc: ParsedDocument, options: MessageOptions, memo?: BuildMemo): BuildResult {
  if (doc.syntaxProblems.length > 0) return { ok: false, error: syntaxErrorMessage(doc) };
  const root = asObject(doc.root);
  if (!root) return { ok: false, error: 'The document is not an envelope object.' };
  const choice = sdkChoice(doc, options.sdk);
  const { sdk } = choice;
  // The URN as the chosen SDK's decoder reads it: the last copy of job, its own fallback to urn.
  const decoded = decodedUrn(root, sdk);
  if (decoded === undefined || isBlankUrn(sdk, decoded)) return { ok: false, error: noUrnMessage(root, sdk, decoded) };
  // Go decodes every meta object into its one Meta struct, key by key: its body carries the merged meta.
  const meta = asObject(getValue(root, 'meta'));
  const metaField = (field: string) => (sdk === 'go' ? goLast(goDecodedObjects(root, 'meta'), 'meta', field) : getValue(meta, field));
  const metaQueue = metaField('queue');
  const queue = (options.keepMetaQueue ? options.queue : undefined) || options.queue?.trim() || (metaQueue?.kind === 'string' && metaQueue.value.trim() !== '' ? metaQueue.value : 'default');

  const existingId = metaField('id');
  const metaId = options.freshIds ? options.fresh.uuid() : existingId?.kind === 'string' ? existingId.value : '';
  const requestedQueue = options.queue?.trim();
  const overrides = {
    ...(options.freshIds ? { metaId, createdAt: options.fresh.now() } : {}),
    ...(requestedQueue && !options.keepMetaQueue ? { queue: requestedQueue } : {}),
  };
  const { result: encoded, input } = encodeEnvelopeFrom(doc, sdk, { ...(Object.keys(overrides).length > 0 ? { overrides } : {}), ...(memo ? { memo } : {}) });
  if (!encoded.ok) return { ok: false, error: `The ${sdk} encoder cannot write this envelope: ${encoded.error}` };
  // The body as each consumer reads it: the tree written when the encoder vouches for it, else the
  // body parsed back (from the previous build's when one value is what differs).
  const written = writtenBody(sdk, encoded.notes, input);
  // The body's text, written when first read: a preview of a large envelope reads its length and ends.
  const bodyText = writtenTextOf(encoded) ?? new WrittenText([encoded.text]);
  const body = written ?? ((memo?.body instanceof ParsedText && sameOrReparsed(memo.body, bodyText.text())) || parseJson(bodyText.text()));
  if (memo) {
    if (written) delete memo.body;
    else memo.body = body as ParsedDocument;
  }

  // The AMQP properties project the body as the encoder wrote it, which a typed SDK may have
  // changed: Go trims a "urn" alias into "job", Java reads an attempts beyond an int as its low bits.
  const bodyRoot = asObject(body.root);
  const bodyMeta = asObject(getValue(bodyRoot, 'meta'));
  const urn = (bodyRoot && decodedUrn(bodyRoot, sdk)) || decoded;
  const traceId = getValue(bodyRoot, 'trace_id');
  const lang = getValue(bodyMeta, 'lang');
  const version = getValue(bodyMeta, 'schema_version');
  const attempts = getValue(bodyRoot, 'attempts');
  let bytes: Uint8Array | undefined;
  const message: OutgoingMessage = {
    get text() {
      return bodyText.text();
    },
    // Encoded when first read: a preview reads only the count and the first bytes.
    get bytes() {
      return (bytes ??= utf8Bytes(bodyText.text()));
    },
    byteLength: bodyText.utf8Length,
    textLength: bodyText.length,
    textHead: (units) => bodyText.head(units),
    textTail: (units) => bodyText.tail(units),
    sdk,
    queue,
    urn: decoded,
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
        type: urn,
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
  const consumers = consumerVerdicts(body);
  // What the check needed of the previous body is carried over now; the link would keep it alive.
  if (body instanceof ParsedText) body.forgetEdit();
  return { ok: true, choice, message, notes: encoded.notes, consumers };
}

/**
 * A URN no handler can have: ASCII white space only, or blank as the SDK's own accepts() tests it
 * (Node's trim(), Java's String.isBlank(), .NET's char.IsWhiteSpace), which reject an em space too.
 */
function isBlankUrn(sdk: SdkName, urn: string): boolean {
  if (sdk === 'node') return urn.trim() === '';
  if (sdk === 'java') return isJavaBlank(urn);
  if (sdk === 'dotnet') return isDotnetBlank(urn);
  return isBlank(urn);
}

/** Why a document has no URN to send, as the chosen SDK's decoder reads it. */
function noUrnMessage(root: ObjectNode, sdk: SdkName, decoded: string | undefined): string {
  const plain = 'The envelope has no URN (job): a message without identity cannot be sent.';
  if (!getProperty(root, 'job') && !getProperty(root, 'urn') && sdk !== 'go') return plain;
  const route = sdk === 'python' ? pythonRoute(root) : undefined;
  const container = route?.kind === 'array' ? 'list' : route?.kind === 'object' ? 'dict' : undefined;
  const read = container ? `reads a ${container} as the URN (str() writes its repr), which is none` : decoded === undefined ? 'reads no URN in it' : `reads the URN ${JSON.stringify(decoded)}, which is blank`;
  return `The envelope has no URN as the ${SDK_LABELS[sdk]} decoder reads it (the last copy of "job"${URN_FALLBACK[sdk]}): it ${read}, and a message without identity cannot be sent.`;
}

/** When each SDK's decoder reads the `urn` alias instead of `job`. */
const URN_FALLBACK: Readonly<Record<SdkName, string>> = {
  php: ', else "urn" when job is missing or null',
  python: ', else "urn" when job is falsy',
  node: ', else "urn" when job is falsy',
  go: ', else "urn" when job is ""',
  java: ', else "urn" when job is no string or blank',
  dotnet: ', else "urn" when job is no string or white space',
};

/**
 * The relays that decode into maps and encode them again (JavaScript objects, PHP arrays, Python
 * dicts): what they write has the shape of what they read. The typed SDKs (Go, Java, .NET) write
 * their own structs instead.
 */
const MAP_RELAYS: ReadonlySet<SdkName> = new Set(['node', 'php', 'python']);

/**
 * The tree the encoder wrote, as the consumers' check may read it in place of the body parsed back:
 * when a map relay noted nothing, it changed no number's text, no string's or key's value, no
 * object's keys (a repeated one, a list made of one) and nothing the contract fixes, and kept their
 * order (PHP arrays and Python dicts keep it; Node's is checked), so the body parses to this tree.
 * On a 5 MB body that spares parsing megabytes back.
 * test/core/message/build-verdicts.test.ts holds the claim against the body parsed back.
 */
function writtenBody(sdk: SdkName, notes: readonly EncodeNote[], input: { readonly root: WrittenBody['root']; readonly depth: number } | undefined): WrittenBody | undefined {
  if (notes.length > 0 || !input || !MAP_RELAYS.has(sdk)) return undefined;
  // The one change Node makes without a note: array-index keys first. The consumers that list
  // the keys they drop would list them in the body's order.
  if (sdk === 'node' && !keepsWrittenKeyOrder(input.root)) return undefined;
  return { kind: 'written', root: input.root, depth: input.depth };
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

/** Where the first syntax error is, so the author can go to it (line and column counted from 1). */
function syntaxErrorMessage(doc: ParsedDocument): string {
  const count = doc.syntaxProblems.length;
  const first = doc.syntaxProblems[0];
  const at = new LineIndex(doc.text).positionAt(first.offset);
  return `The file has ${count === 1 ? 'a JSON syntax error' : `${count} JSON syntax errors, the first`} at line ${at.line + 1}, column ${at.character + 1}: ${first.message} Fix ${count === 1 ? 'it' : 'them'} before previewing or sending.`;
}
