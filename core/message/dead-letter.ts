/**
 * Dead letters, the pure part: where each layout keeps a queue's dead-letter queue, the
 * `dead_letter` block in words, the rows of a message list, grouping by reason and error, and
 * the redrive transformation (what an SDK's redrive changes before it publishes the message back
 * to `original_queue`). The CLI and the editor both use these; broker/ only moves the bytes.
 *
 * Facts (part 2 §3): every SDK's DLQ is `<queue>.dlq` (Redis bare `Q.dlq`, Laravel layout
 * `queues:Q.dlq`, RabbitMQ queue `Q.dlq`); a redrive removes `dead_letter`, sets `attempts` to 0
 * and keeps `job`, `trace_id`, `meta.id`, `meta.created_at`, `meta.lang`, `meta.queue`. Where the
 * SDKs differ (unknown top-level keys, the `urn` alias, number text, `{}` vs `[]`), the redrive
 * follows the SDK the user picks, and its relay encoder writes the bytes.
 */
import { formatUtc } from '../contract/time';
import { goDecodedObjects, goField, goLast, goString } from '../encode/go';
import { isJavaBlank, javaDecodedJob } from '../encode/java';
import { isFalsy } from '../encode/node';
import { list } from '../encode/divergence';
import { SDK_LABELS, SDK_NAMES, type SdkName } from '../encode/types';
import { digitGroups } from '../model/count-words';
import { numberLiteral, shortened } from '../model/describe-value';
import { applyEdits, type TextEdit } from '../model/edits';
import { insertProperty, removeProperty, renameKey, replaceValue } from '../model/property-edits';
import { asObject, getProperty, type ObjectNode, type ParsedDocument, type ValueNode } from '../model/tree';
import { invalidUtf8At } from '../model/utf8';
import { parseJson } from '../parse/parser';
import { consumerVerdicts, decodedUrn, nodeRoute, type ConsumerVerdict } from './acceptance';
import { buildMessage, redisProjection } from './build';
import { lastValue } from '../encode/writer';
import type { OutgoingMessage, RedisLayout } from './types';

/** The SDKs that ship a redrive, each with its own idea of what to keep (facts part 2 §3.2). */
export const REDRIVE_SDKS = ['node', 'go', 'python', 'php', 'java'] as const;
export type RedriveSdk = (typeof REDRIVE_SDKS)[number];

/** The suffix every SDK's dead-letter queue carries by default. */
export const DLQ_SUFFIX = '.dlq';

/** Where a work queue's dead letters are, per broker and Redis layout. */
export interface DeadLetterLocation {
  /** The logical DLQ name (`orders.dlq`). */
  readonly queue: string;
  /** What is read: the Redis list key (`orders.dlq`, `queues:orders.dlq`) or the RabbitMQ queue. */
  readonly key: string;
}

/** The DLQ of `queue`: `Q.dlq` on bare Redis and RabbitMQ, `<prefix>queues:Q.dlq` in the Laravel layout. */
export function deadLetterLocation(queue: string, broker: 'redis' | 'amqp', layout: RedisLayout, prefix = ''): DeadLetterLocation {
  const dlq = `${queue}${DLQ_SUFFIX}`;
  return { queue: dlq, key: broker === 'redis' ? redisProjection(dlq, layout, prefix).listKey : dlq };
}

/** The `dead_letter` block as read (each field undefined when absent or of the wrong type). */
export interface DeadLetterBlock {
  readonly reason?: string;
  readonly error?: string | null;
  readonly exception?: string | null;
  readonly failedAt?: number;
  readonly originalQueue?: string;
  readonly attempts?: number;
  readonly lang?: string;
}

/** One message of a list, as the list shows it. */
export interface MessageRow {
  /** Position in the list as read (0 = the oldest read). */
  readonly position: number;
  readonly bytes: number;
  /** The URN (`job`, else the `urn` alias the decoders fall back to), or a placeholder saying why there is none. */
  readonly urn: string;
  /**
   * Set when `urn` is the `urn` alias's value, because job holds no URN (missing, null, "", blank or
   * no string): the SDKs whose decoders read something else there (none when all six read the alias).
   */
  readonly urnAlias?: { readonly notReadBy: readonly SdkName[] };
  readonly metaId: string;
  /** `meta.created_at` in Unix ms, when it is a number. */
  readonly createdAt?: number;
  readonly attempts?: number;
  readonly errors: number;
  readonly warnings: number;
  readonly deadLetter?: DeadLetterBlock;
  /** The body as UTF-8 text. */
  readonly text: string;
}

/** The lint counts of one message, computed by the caller (core/rules sits above this layer). */
export interface LintCounts {
  readonly errors: number;
  readonly warnings: number;
}

/** A row for a message body; never throws, whatever the bytes are. */
export function messageRow(text: string, bytes: number, position: number, lint: LintCounts): MessageRow {
  // A leading BOM is lint's json-syntax error, counted in the verdict; it is no reason to hide
  // which message it is, so the fields are read past it.
  const parsed = parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const root = parsed.syntaxProblems.length === 0 ? asObject(parsed.root) : undefined;
  // A repeated key is read as JSON.parse, json.loads, json_decode and Java's parser read it: its
  // last copy (Go differs only where its own rules apply, which its redrive reads through goLast).
  const meta = asObject(lastValue(root, 'meta'));
  const metaId = lastValue(meta, 'id');
  const createdAt = lastValue(meta, 'created_at');
  const attempts = lastValue(root, 'attempts');
  const block = deadLetterBlock(root);
  return {
    position,
    bytes,
    ...(root ? rowUrn(parsed, root) : { urn: '(not an envelope)' }),
    metaId: metaId?.kind === 'string' ? metaId.value : '(no meta.id)',
    ...(createdAt?.kind === 'number' ? { createdAt: createdAt.value } : {}),
    ...(attempts?.kind === 'number' ? { attempts: attempts.value } : {}),
    errors: lint.errors,
    warnings: lint.warnings,
    ...(block ? { deadLetter: block } : {}),
    text,
  };
}

/**
 * The URN a row shows: the last job when it is a string that is not blank, which every decoder
 * reads. Else the `urn` alias, where one SDK's decoder or more falls back to it (decodedUrn, an
 * SDK whose decoder fails on the body reading none), marked as the alias with the SDKs that read
 * something else: PHP's `job ?? urn` keeps a "" or false job, a blank job is the URN to PHP,
 * Python, Node and Go, and Go's Decode fails on a job that is no string. Else a blank job as it
 * is (PHP, Python and Go take it), and "(no URN)" for the rest.
 */
function rowUrn(doc: ParsedDocument, root: ObjectNode): Pick<MessageRow, 'urn' | 'urnAlias'> {
  const job = lastValue(root, 'job');
  if (job?.kind === 'string' && /\S/u.test(job.value)) return { urn: job.value };
  const alias = lastValue(root, 'urn');
  if (alias?.kind === 'string' && /\S/u.test(alias.value)) {
    const verdicts = consumerVerdicts(doc);
    const readsAlias = (sdk: SdkName) => {
      const verdict = verdicts.find((candidate) => candidate.sdk === sdk)!;
      if (!decodes(verdict)) return false;
      return decodedUrn(root, sdk)?.trim() === alias.value.trim();
    };
    const notReadBy = SDK_NAMES.filter((sdk) => !readsAlias(sdk));
    if (notReadBy.length < SDK_NAMES.length) return { urn: alias.value, urnAlias: { notReadBy } };
  }
  return { urn: job?.kind === 'string' && job.value !== '' ? job.value : '(no URN)' };
}

/**
 * A row's URN for people: as it is, or, from the `urn` alias, marked so, with the SDKs that read
 * something else (the fewer of those that do and those that do not): `… (urn alias)`,
 * `… (urn alias; not PHP)`, `… (urn alias; Java and .NET only)`.
 */
export function urnLabel(row: Pick<MessageRow, 'urn' | 'urnAlias'>): string {
  if (!row.urnAlias) return row.urn;
  const { notReadBy } = row.urnAlias;
  if (notReadBy.length === 0) return `${row.urn} (urn alias)`;
  const readBy = SDK_NAMES.filter((sdk) => !notReadBy.includes(sdk));
  const labels = (sdks: readonly SdkName[]) => list(sdks.map((sdk) => SDK_LABELS[sdk]));
  return notReadBy.length <= readBy.length ? `${row.urn} (urn alias; not ${labels(notReadBy)})` : `${row.urn} (urn alias; ${labels(readBy)} only)`;
}

/** The dead_letter block as the decoders read it: the last copy of a repeated key (what auto's SDK and the groups follow). */
function deadLetterBlock(root: ObjectNode | undefined): DeadLetterBlock | undefined {
  const block = asObject(lastValue(root, 'dead_letter'));
  if (!block) return undefined;
  const text = (key: string) => {
    const value = lastValue(block, key);
    return value?.kind === 'string' ? value.value : value?.kind === 'null' ? null : undefined;
  };
  const number = (key: string) => {
    const value = lastValue(block, key);
    return value?.kind === 'number' ? value.value : undefined;
  };
  const entries: [string, unknown][] = [
    ['reason', text('reason') ?? undefined],
    ['error', text('error')],
    ['exception', text('exception')],
    ['failedAt', number('failed_at')],
    ['originalQueue', text('original_queue') ?? undefined],
    ['attempts', number('attempts')],
    ['lang', text('lang') ?? undefined],
  ];
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as DeadLetterBlock;
}

/** A Unix-ms time as people read it, or a dash. */
export function dateText(ms: number | undefined): string {
  return ms === undefined ? '—' : formatUtc(ms);
}

/** The lint verdict in a few words: `valid`, `2 errors`, `1 warning`, `1 error, 2 warnings`. */
export function verdictText(row: LintCounts): string {
  const parts: string[] = [];
  if (row.errors > 0) parts.push(`${row.errors} error${row.errors === 1 ? '' : 's'}`);
  if (row.warnings > 0) parts.push(`${row.warnings} warning${row.warnings === 1 ? '' : 's'}`);
  return parts.length === 0 ? 'valid' : parts.join(', ');
}

/** The `dead_letter` block in words, one line per field that is there. */
export function deadLetterWords(block: DeadLetterBlock | undefined): string[] {
  if (!block) return ['no dead_letter block (a raw dead letter: the consumer could not read it as an envelope)'];
  const lines = [`reason: ${block.reason ?? '(none)'}${REASON_WORDS[block.reason ?? ''] ? ` (${REASON_WORDS[block.reason ?? '']})` : ''}`];
  lines.push(`error: ${block.error ?? '(none)'}`);
  if (block.exception) lines.push(`exception: ${block.exception}`);
  lines.push(`failed at: ${dateText(block.failedAt)}`);
  lines.push(`original queue: ${block.originalQueue === undefined ? '(none)' : JSON.stringify(block.originalQueue)}`);
  if (block.attempts !== undefined) lines.push(`attempts before the DLQ: ${block.attempts}`);
  if (block.lang) lines.push(`dead-lettered by: ${block.lang}`);
  return lines;
}

const REASON_WORDS: Readonly<Record<string, string>> = {
  failed: 'the handler failed on every attempt',
  unknown_urn: 'no handler is registered for the URN',
  poison: 'the message could not be processed at all',
};

/** Rows newest first: dead letters by `failed_at`, then everything by list position (the newest last in). */
/**
 * A queue's rows in the order a peek lists them: Redis is read at the list's tail and listed newest
 * first; RabbitMQ can only get from the head of a queue, so its rows stay in the order read, the
 * order a consumer gets them.
 */
export function listingOrder(rows: readonly MessageRow[], broker: 'redis' | 'amqp'): MessageRow[] {
  return broker === 'redis' ? newestFirst(rows) : [...rows];
}

export function newestFirst(rows: readonly MessageRow[]): MessageRow[] {
  return [...rows].sort((a, b) => (b.deadLetter?.failedAt ?? -Infinity) - (a.deadLetter?.failedAt ?? -Infinity) || b.position - a.position);
}

/** True when `filter` (case-insensitive) occurs in the URN, meta.id, the reason, the error or the exception. */
export function matchesFilter(row: MessageRow, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (needle === '') return true;
  const haystack = [row.urn, row.metaId, row.deadLetter?.reason, row.deadLetter?.error, row.deadLetter?.exception];
  return haystack.some((value) => typeof value === 'string' && value.toLowerCase().includes(needle));
}

/** True when `text` occurs (case-insensitive) in the row's dead-letter reason or error: `--reason`. */
export function matchesReason(row: MessageRow, text: string): boolean {
  const needle = text.trim().toLowerCase();
  return [row.deadLetter?.reason, row.deadLetter?.error].some((value) => typeof value === 'string' && value.toLowerCase().includes(needle));
}

/** Dead letters with the same reason and error. */
export interface DeadLetterGroup {
  readonly reason: string;
  readonly error: string;
  readonly count: number;
  readonly rows: readonly MessageRow[];
}

/** Groups rows by reason and error, the largest group first (ties by reason, then error). */
export function groupDeadLetters(rows: readonly MessageRow[]): DeadLetterGroup[] {
  const groups = new Map<string, { reason: string; error: string; rows: MessageRow[] }>();
  for (const row of rows) {
    const reason = row.deadLetter?.reason ?? '(no dead_letter block)';
    const error = row.deadLetter?.error ?? '(no error)';
    const key = JSON.stringify([reason, error]);
    const group = groups.get(key) ?? { reason, error, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  return [...groups.values()]
    .map((group) => ({ ...group, count: group.rows.length }))
    .sort((a, b) => b.count - a.count || byCodeUnits(a.reason, b.reason) || byCodeUnits(a.error, b.error));
}

/**
 * Text order by UTF-16 code units: the same on every machine, whatever its locale, and without
 * `localeCompare`, which pages in Node's ICU data (some 3 MB more for `babelq dlq`).
 */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Options of a redrive. */
export interface RedriveOptions {
  /** Whose redrive to reproduce; `auto` = `dead_letter.lang` when that SDK has one, else node. */
  readonly sdk: RedriveSdk | 'auto';
  readonly redisLayout: RedisLayout;
  readonly redisPrefix?: string;
}

export type RedriveResult =
  | { readonly ok: true; readonly message: OutgoingMessage; readonly sdk: RedriveSdk; readonly target: string; readonly note?: string }
  | { readonly ok: false; readonly error: string };

// The top-level keys of the contract; Go, Node and Java drop any other key on redrive (Go's
// encoder does it itself, as it also reads the keys that differ from a field only in case).
const CORE_KEYS = new Set(['job', 'trace_id', 'data', 'meta', 'attempts']);
const DROPS_UNKNOWN_KEYS: ReadonlySet<RedriveSdk> = new Set(['node', 'java']);

/** The SDK an `auto` redrive follows for this message. */
export function chooseRedriveSdk(row: Pick<MessageRow, 'deadLetter'>, choice: RedriveSdk | 'auto'): RedriveSdk {
  if (choice !== 'auto') return choice;
  const lang = row.deadLetter?.lang;
  return (REDRIVE_SDKS as readonly string[]).includes(lang ?? '') ? (lang as RedriveSdk) : 'node';
}

/** Where a redrive sends a message, and what to say about it first when a queue name is only white space. */
export interface RedriveTarget {
  readonly queue: string;
  readonly note?: string;
}

/**
 * The queue the chosen SDK's redrive sends the message to: `dead_letter.original_queue`, else
 * `meta.queue` (facts part 2 §3.2), each read as that SDK's decoder reads it (`queueFields`). The
 * SDKs differ on a whitespace-only original_queue: Java's sourceQueueOf takes a blank one
 * (String.isBlank) for none, while Node's (`||`), Go's and PHP's (`!= ""`) and Python's
 * (truthiness) fall back only on "", so they send to the queue named by the white space. meta.queue
 * is taken as it is by all five. A refusal when the queue would be "" (or there is none), or when
 * the SDK would take a value that is not a string for the queue's name. (For Go, a value that is
 * not a string fails its Decode, which redriveMessage checks first: decodeFailure.)
 */
function redriveTarget(doc: ParsedDocument, sdk: RedriveSdk): RedriveTarget | { readonly error: string } {
  const root = asObject(doc.root);
  const fields = root ? queueFields(root, sdk) : {};
  const label = SDK_LABELS[sdk];
  if (sdk === 'node') {
    // sourceQueueOf: original_queue || meta.queue, JavaScript truthiness, whatever the value's type.
    const [name, taken] = fields.original && !isFalsy(fields.original) ? ['dead_letter.original_queue', fields.original] : ['meta.queue', fields.metaQueue];
    if (taken && taken.kind !== 'string' && !isFalsy(taken)) {
      return {
        error: `${name} is ${valueWords(taken)}, not a string: the Node redrive (original_queue || meta.queue) hands that value itself to the transport as the queue's name, which amqplib refuses (a routing key must be a string) and a Redis client writes as its text, so this redrive does not guess. Make it a string, or pick another SDK.`,
      };
    }
  }
  const original = fields.original?.kind === 'string' ? fields.original.value : undefined;
  const metaQueue = fields.metaQueue?.kind === 'string' ? fields.metaQueue.value : undefined;
  const blankOriginal = original !== undefined && original !== '' && (original.trim() === '' || isJavaBlank(original));
  const fallsBack = original === undefined || original === '' || (sdk === 'java' && isJavaBlank(original));
  const queue = fallsBack ? metaQueue : original;
  if (queue === undefined || queue === '') return { error: noQueueError(fields, sdk) };
  const notes: string[] = [];
  // Python (a non-empty str), PHP (is_string) and Java (a decoder that reads anything else as null)
  // take an original_queue that is not a string for none; Node gets here only with a falsy one.
  const passedOver = fields.original && fields.original.kind !== 'string' && fields.original.kind !== 'null' ? fields.original : undefined;
  if (passedOver) {
    notes.push(`dead_letter.original_queue is ${valueWords(passedOver)}, not a string: the ${label} redrive takes it for no queue (${PASSED_OVER_WHY[sdk]}) and sends to meta.queue ${quotedQueue(queue)}.`);
  }
  if (blankOriginal && fallsBack) {
    notes.push(`dead_letter.original_queue is ${quotedQueue(original!)}, only white space: the ${label} redrive takes it for no queue and sends to meta.queue ${quotedQueue(queue)}; the Node, Go, Python and PHP redrives would send to the queue named ${quotedQueue(original!)}.`);
  } else if (blankOriginal) {
    notes.push(`dead_letter.original_queue is ${quotedQueue(original!)}, only white space: the ${label} redrive sends to the queue of that name${metaQueue ? `, not to meta.queue ${quotedQueue(metaQueue)}` : ''}${sdk === 'java' ? '' : " (only Java's falls back to meta.queue)"}.`);
  } else if (queue.trim() === '') {
    notes.push(`meta.queue is ${quotedQueue(queue)}, only white space, and dead_letter.original_queue names no queue: the ${label} redrive, as every SDK's, sends to the queue of that name.`);
  }
  return notes.length === 0 ? { queue } : { queue, note: notes.join(' ') };
}

/**
 * A queue's name as a redrive note quotes it: a JSON string of its start (shortened), its length
 * said when cut, so a name of 100,000 spaces reads `"      …" (100,000 characters)`, still white
 * space and bounded, not a line of 100,000 spaces. JSON.stringify escapes its line breaks and
 * control characters; planRedrive shows the other invisible ones (showOnOneLine).
 */
function quotedQueue(name: string): string {
  const start = shortened(name);
  return start === name ? JSON.stringify(name) : `${JSON.stringify(start)} (${digitGroups(name.length)} characters)`;
}

/** Why each SDK's redrive passes over an original_queue that is not a string (Go's Decode fails on it first). */
const PASSED_OVER_WHY: Readonly<Record<RedriveSdk, string>> = {
  node: 'original_queue || meta.queue, and the value is falsy',
  go: 'Go cannot decode it',
  python: 'it reads original_queue only when it is a non-empty str',
  php: 'it reads original_queue only when is_string',
  java: 'its decoder reads a value that is not a string as null',
};

/**
 * The refusal when the SDK's redrive would name no queue: what it would hand its transport as the
 * queue's name. Go, Python and PHP fall back to "" (their string fields default to it); Java's
 * sourceQueueOf returns meta.queue as its decoder read it, null when that is not a string, which
 * goes to Redrive.Transport.publish; Node's `original_queue || meta.queue` is meta.queue's value
 * itself (undefined when there is none).
 */
function noQueueError(fields: { original?: ValueNode; metaQueue?: ValueNode }, sdk: RedriveSdk): string {
  const label = SDK_LABELS[sdk];
  const notStrings = ([['dead_letter.original_queue', fields.original], ['meta.queue', fields.metaQueue]] as const)
    .filter(([, value]) => value && value.kind !== 'string' && value.kind !== 'null')
    .map(([name, value]) => `${name} is ${valueWords(value!)}, not a string`);
  const why = notStrings.length === 0 ? '' : ` (${notStrings.join('; ')})`;
  const metaQueue = fields.metaQueue;
  const handed =
    sdk === 'java' ? (metaQueue?.kind === 'string' ? '""' : 'null') : sdk === 'node' ? (metaQueue === undefined ? 'undefined' : metaQueue.kind === 'string' ? '""' : valueText(metaQueue)) : '""';
  if (handed === '""') return `Neither dead_letter.original_queue nor meta.queue names a queue${why}: the ${label} redrive would publish to the queue named "", so this redrive refuses.`;
  const call = sdk === 'java' ? ' (Redrive.Transport.publish(null, body), whatever the caller\'s transport makes of it)' : '';
  return `Neither dead_letter.original_queue nor meta.queue names a queue${why}: the ${label} redrive would hand ${handed} to its transport as the queue's name${call}, so this redrive refuses.`;
}

/** A value that is not a string, in words: `the number 5`, `true`, `an object`. */
function valueWords(value: ValueNode): string {
  if (value.kind === 'number') return `the number ${numberLiteral(value.raw)}`;
  if (value.kind === 'boolean' || value.kind === 'null') return valueText(value);
  return `an ${value.kind}`;
}

/** A scalar as JavaScript would print it (`0`, `false`, `null`); containers by their kind. */
function valueText(value: ValueNode): string {
  if (value.kind === 'number') return String(value.value);
  if (value.kind === 'boolean') return String(value.value);
  if (value.kind === 'null') return 'null';
  if (value.kind === 'string') return JSON.stringify(value.value);
  return `an ${value.kind}`;
}

/**
 * `dead_letter.original_queue` and `meta.queue` as the SDK's decoder reads them. Go's encoding/json
 * matches keys case-insensitively, merges repeated meta objects (and dead_letter objects since the
 * last null) and skips a null where a value was (`goLast`); its strings have U+FFFD for an unpaired
 * surrogate escape. JSON.parse, json.loads, json_decode and Java's parser keep a repeated key's
 * last copy, matched exactly.
 */
function queueFields(root: ObjectNode, sdk: RedriveSdk): { original?: ValueNode; metaQueue?: ValueNode } {
  if (sdk === 'go') {
    const goText = (value: ValueNode | undefined) => (value?.kind === 'string' ? { ...value, value: goString(value.value) } : value);
    const original = goText(goLast(goDecodedObjects(root, 'dead_letter'), 'dead_letter', 'original_queue'));
    const metaQueue = goText(goLast(goDecodedObjects(root, 'meta'), 'meta', 'queue'));
    return { ...(original ? { original } : {}), ...(metaQueue ? { metaQueue } : {}) };
  }
  const original = lastValue(asObject(lastValue(root, 'dead_letter')), 'original_queue');
  const metaQueue = lastValue(asObject(lastValue(root, 'meta')), 'queue');
  return { ...(original ? { original } : {}), ...(metaQueue ? { metaQueue } : {}) };
}

/**
 * Why a dead letter's stored bytes are left in the DLQ as they are, or undefined when they can be
 * redriven. A redrive changes what the SDK's redrive changes and never replaces what the message
 * holds, as a send never publishes a file that is not UTF-8 (facts part 2 §2: a BOM is rejected
 * by every SDK consumer, so no SDK's redrive moves it; a byte that is not UTF-8 is rejected by PHP,
 * cannot be read by Python's transports, and becomes U+FFFD in Node, Go and Java).
 */
export function bytesNotRedriven(bytes: Uint8Array): string | undefined {
  const invalid = invalidUtf8At(bytes);
  if (invalid !== undefined) {
    return `its body is not UTF-8 (${invalid}; lint: json-syntax): the PHP and Python redrives cannot read it and the Node, Go and Java ones would publish U+FFFD in place of those bytes; this redrive replaces no byte of a message.`;
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return 'its body starts with a UTF-8 byte-order mark (lint: json-syntax), which every SDK consumer rejects and no SDK\'s redrive moves: remove the BOM, then send the envelope.';
  }
  return undefined;
}

/**
 * The message a redrive publishes for a dead-lettered body: `dead_letter` removed, `attempts` 0,
 * ids and times unchanged, unknown top-level keys dropped or kept and the `urn` alias renamed or
 * kept as the chosen SDK does, then written by that SDK's encoder, to `original_queue`.
 * "Edit, then redrive" passes the edited text with `stored` false: the same steps apply to it, but
 * not the Node redrive's gate on what it moves, which judges a stored message, not the user's edit.
 */
export function redriveMessage(text: string, options: RedriveOptions, stored = true): RedriveResult {
  const doc = parseJson(text);
  if (doc.syntaxProblems.length > 0) return { ok: false, error: notJsonError(doc) };
  const root = asObject(doc.root);
  if (!root) return { ok: false, error: 'The message is not a JSON object, so it is not an envelope.' };
  const raw = getProperty(root, 'raw');
  if (raw && !getProperty(root, 'job') && !getProperty(root, 'urn')) {
    return { ok: false, error: 'This is a raw dead letter (the consumer could not parse the body): open it, rebuild the envelope, then redrive the edited envelope.' };
  }
  const block = deadLetterBlock(root);
  const sdk = chooseRedriveSdk({ ...(block ? { deadLetter: block } : {}) }, options.sdk);
  const verdict = consumerVerdicts(doc).find((candidate) => candidate.sdk === sdk)!;
  const undecodable = decodeFailure(verdict);
  if (undecodable) return { ok: false, error: undecodable };
  const target = redriveTarget(doc, sdk);
  if ('error' in target) return { ok: false, error: target.error };
  // json.loads keeps a repeated key's last copy.
  const job = lastValue(root, 'job');
  // Java's redrive puts back what has no job once decoded (null or isBlank(), the urn alias read).
  if (sdk === 'java') {
    const decoded = javaDecodedJob(root);
    if (decoded === undefined || isJavaBlank(decoded)) {
      return { ok: false, error: `The Java redrive needs a job (or urn) that is not blank (String.isBlank()) and puts anything else back on the DLQ${decoded === undefined ? '' : `: it reads ${JSON.stringify(decoded)}`}: pick another SDK or fix "job".` };
    }
  }
  if (sdk === 'python' && job?.kind !== 'string') {
    return { ok: false, error: 'The Python redrive needs a string "job" and puts anything else back on the DLQ: pick another SDK or add "job".' };
  }

  // Node's redrive only moves what EnvelopeCodec.accepts() passes and restores the rest to the DLQ
  // (facts part 2 §3.2, D3: schema_version 2 stays), so the Node verdict on the message is its gate.
  if (sdk === 'node' && stored) {
    if (verdict.kind === 'rejects') {
      const why = verdict.reasons.map((reason) => reason.message).join('; ');
      return { ok: false, error: `The Node redrive puts back on the DLQ a message its accepts() rejects (${why}): pick another SDK, or edit the envelope and redrive the edited one.` };
    }
  }

  const reset = resetForRedrive(doc, sdk);
  const built = buildMessage(reset, {
    sdk,
    freshIds: false,
    fresh: NO_FRESH_VALUES,
    queue: target.queue,
    keepMetaQueue: true,
    redisLayout: options.redisLayout,
    ...(options.redisPrefix ? { redisPrefix: options.redisPrefix } : {}),
  });
  if (!built.ok) return { ok: false, error: built.error };
  return { ok: true, message: built.message, sdk, target: target.queue, ...(target.note ? { note: target.note } : {}) };
}

/** What a lenient decoder of an SDK with a redrive takes that is not JSON (facts part 2 §2). */
const LENIENT_READS: Partial<Record<RedriveSdk, string>> = {
  python: 'json.loads takes a bare NaN or Infinity',
  java: 'its parser takes a raw tab in a string or a number with a leading zero',
};

/**
 * Why JSON that is not valid is not redriven. Node's, Go's and PHP's decoders refuse it all; where
 * Python's or Java's lenient one reads it, their redrive would move it (Python's publishing the
 * bare NaN again), but this redrive publishes only valid JSON, as a send does.
 */
function notJsonError(doc: ParsedDocument): string {
  const fix = '(fix it first, then redrive the edited envelope)';
  // A decode not known (past the parser's bound on listed problems) is not said to read it.
  const readers = consumerVerdicts(doc).filter((verdict) => LENIENT_READS[verdict.sdk as RedriveSdk] !== undefined && verdict.kind !== 'not-known' && decodes(verdict));
  if (readers.length === 0) return `The message is not valid JSON: no SDK redrives it ${fix}.`;
  const who = readers.map((verdict) => `${SDK_LABELS[verdict.sdk]}'s decoder reads it (${LENIENT_READS[verdict.sdk as RedriveSdk]})`).join(' and ');
  return `The message is not valid JSON: ${who}, but this redrive publishes only valid JSON, whichever SDK it follows ${fix}.`;
}

/** Whether the SDK's decoder reads the body (its verdict has no reason at the decode stage). */
function decodes(verdict: ConsumerVerdict): boolean {
  return !(verdict.kind === 'rejects' && verdict.reasons.some((reason) => reason.stage === 'decode'));
}

/** What each SDK's redrive calls the decode it runs on a dead letter before anything else. */
const DECODER_NAMES: Readonly<Record<RedriveSdk, string>> = {
  go: 'Decode',
  node: 'decode()',
  python: 'decode()',
  php: 'decode()',
  java: 'decode()',
};

/**
 * Why the chosen SDK's redrive cannot decode the stored message, or undefined when it can. Each
 * SDK's redrive decodes a message before its gate looks at it (facts part 2 §3.2): Go's moves only
 * what `Decode` reads, PHP's only what `decode()` does not read as [] (json_decode failed), Python's
 * only what `decode()` does not read as {} (json.loads raised ValueError), and a decoder that
 * crashes (RecursionError, StackOverflowError) throws out of the redrive, which moves nothing of
 * it. The decode sees the whole body, so a failure in what the redrive would then reset (attempts,
 * dead_letter) counts all the same. The consumer's decode verdict (core/message/acceptance.ts) is
 * the gate; it applies to an edited envelope too, as there is nothing decoded to write.
 */
function decodeFailure(verdict: ConsumerVerdict): string | undefined {
  const reasons = verdict.reasons.filter((reason) => reason.stage === 'decode');
  if (verdict.kind !== 'rejects' || reasons.length === 0) return undefined;
  const sdk = verdict.sdk as RedriveSdk;
  const label = SDK_LABELS[sdk];
  // The verdict's "(the consumer crashes)" is said here as what the redrive does.
  const why = reasons.map((reason) => reason.message.replace(/ \(the consumer crashes\)$/u, '')).join('; ');
  const crashes = reasons.some((reason) => reason.crashes);
  const does = crashes ? `crashes on it (${why}), so the ${label} redrive stops on it (the exception escapes) and does not move it` : `fails on it (${why}), so the ${label} redrive puts the message back on the DLQ as it is`;
  return `${label}'s ${DECODER_NAMES[sdk]} ${does}: pick another SDK, or edit the envelope so that ${label} can decode it and redrive the edited one.`;
}

// A redrive keeps meta.id and created_at: nothing is minted.
const NO_FRESH_VALUES = {
  uuid: () => {
    throw new Error('a redrive mints no ids');
  },
  now: () => {
    throw new Error('a redrive reads no clock');
  },
};

/**
 * The document with `dead_letter` removed and `attempts` 0 (inserted when absent); for Node and
 * Java, every other non-contract top-level key removed too, and a lone `urn` alias renamed `job`.
 * Go's redrive sets DeadLetter to nil and Attempts to 0 in the struct it decoded, so for Go every
 * key its decoder reads into either (`Dead_Letter`, `ATTEMPTS`) goes; its encoder drops the rest
 * and reads the `urn` alias as Decode does. One edit at a time, each on a fresh parse, so
 * neighbouring removals never fight over the comma between them (envelopes have a handful of
 * top-level keys).
 */
function resetForRedrive(doc: ParsedDocument, sdk: RedriveSdk): ParsedDocument {
  const aliasJob = DROPS_UNKNOWN_KEYS.has(sdk) ? aliasAsJob(asObject(doc.root)!, sdk) : undefined;
  let current = doc;
  for (;;) {
    const edit = nextResetEdit(current, sdk, aliasJob);
    if (!edit) return current;
    current = parseJson(applyEdits(current.text, [edit]));
  }
}

/**
 * The `urn` alias as the job that Node's or Java's decode makes of it, when that
 * decode reads the alias (nodeRoute: job falsy; javaDecodedJob: job no string or blank), else
 * undefined. Read once, before the reset edits anything.
 */
function aliasAsJob(root: ObjectNode, sdk: RedriveSdk): string | undefined {
  const alias = lastValue(root, 'urn');
  if (alias?.kind !== 'string') return undefined;
  const taken = sdk === 'node' ? nodeRoute(root) === alias : sdk === 'java' && javaDecodedJob(root) === alias.value && !isJavaJobText(lastValue(root, 'job'), alias.value);
  return taken ? alias.value : undefined;
}

/** Whether javaDecodedJob took `text` from job itself (a string that is not blank) rather than from the alias. */
function isJavaJobText(job: ValueNode | undefined, text: string): boolean {
  return job?.kind === 'string' && !isJavaBlank(job.value) && job.value === text;
}

/**
 * The edits that make the decoded job the alias's value: every copy of job after the first
 * removed, then the first given the alias's value (where JSON.parse keeps the key); with no job,
 * every copy of urn before the last removed, so that the rename below takes the last.
 */
function aliasJobEdit(doc: ParsedDocument, root: ObjectNode, aliasJob: string): TextEdit | undefined {
  const jobs = root.properties.filter((property) => property.key === 'job');
  if (jobs.length > 1) return removeProperty(doc, jobs[1]);
  const [job] = jobs;
  if (job?.value) return job.value.kind === 'string' && job.value.value === aliasJob ? undefined : replaceValue(job.value, JSON.stringify(aliasJob));
  const urns = root.properties.filter((property) => property.key === 'urn');
  return urns.length > 1 ? removeProperty(doc, urns[0]) : undefined;
}

function nextResetEdit(doc: ParsedDocument, sdk: RedriveSdk, aliasJob: string | undefined): TextEdit | undefined {
  const root = asObject(doc.root)!;
  const aliasEdit = aliasJob === undefined ? undefined : aliasJobEdit(doc, root, aliasJob);
  if (aliasEdit) return aliasEdit;
  const hasJob = getProperty(root, 'job') !== undefined;
  const dropUnknown = DROPS_UNKNOWN_KEYS.has(sdk);
  for (const property of root.properties) {
    const field = sdk === 'go' ? goField('root', property.key) : property.key;
    if (field === 'dead_letter' || (field === 'attempts' && property.key !== 'attempts')) return removeProperty(doc, property);
    const value = property.value;
    if (property.key === 'attempts' && value && !(value.kind === 'number' && value.raw === '0')) return replaceValue(value, '0');
    if (dropUnknown && !CORE_KEYS.has(property.key)) return property.key === 'urn' && !hasJob ? renameKey(property, 'job') : removeProperty(doc, property);
  }
  return getProperty(root, 'attempts') ? undefined : insertProperty(doc, root, 'attempts', 0);
}
