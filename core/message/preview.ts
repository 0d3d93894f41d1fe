/**
 * The byte preview as text: the body exactly as published with its byte count, each SDK
 * consumer's verdict on it, the broker target and projection (with the laravel layout, then the
 * bytes a Laravel retry leaves on the queue), each SDK's bytes with the differences marked and
 * the consumers that reject them, and a hex view. The editor shows
 * it beside the envelope and `babelq preview --sdk all` prints it.
 */
import { SDK_NAMES, type SdkName } from '../encode';
import { fixedFresh, type Fresh } from '../model/fresh';
import type { ParsedDocument } from '../model/tree';
import { utf8Bytes } from '../model/utf8';
import { rejecting, verdictLines } from './acceptance';
import { whyDifferent } from './difference';
import { buildMessage, sdkFallbackText, type BuildMemo, type EncoderChoice, type MessageOptions } from './build';
import type { OutgoingMessage } from './types';
import { digitGroups } from '../model/count-words';
import { retryNote, retrySectionLines } from './retry-preview';

/** How many bytes of the body the hex view shows before it stops. */
export const HEX_LIMIT = 4096;

/**
 * Above this body size the per-SDK comparison is left out: it encodes the body six more times,
 * which on a 10 MB fixture would hold the editor for a minute on every edit.
 */
export const PER_SDK_LIMIT = 1024 * 1024;

/**
 * A body longer than this many UTF-16 units is shown by its start and its end, with how much is
 * left out between them (the byte count and the verdicts are of the whole body; the hex view is,
 * as always, of its first HEX_LIMIT bytes). The
 * editor lays out and wraps every character of its preview on every update, and compares the
 * new text with the old character by character to update it: a 5 MB fixture's 2.8 MB body on one
 * line held the preview for seconds. Nobody reads that much there; `babelq preview <file>`
 * prints it whole.
 */
export const BODY_SHOWN_LIMIT = 16 * 1024;
/** Of a longer body: the start shown, and the end. */
const BODY_HEAD = 12 * 1024;
const BODY_TAIL = 2 * 1024;

/** The longest differing middle `markDifference` shows, in UTF-16 units (per side). */
const MAX_MARKED = 200;

export interface PreviewOptions extends MessageOptions {
  /** The target as people see it, already without any password (e.g. `redis://127.0.0.1:6379`). */
  readonly target: string;
  /** Kept from one preview of an envelope to the next, so that a version differing in one value is built around it. */
  readonly memo?: BuildMemo;
}

/** Renders the full preview of an envelope, or the reason there is none. */
export function renderPreview(doc: ParsedDocument, options: PreviewOptions): string {
  const preview = fullPreview(doc, options);
  return preview.ok ? preview.text : `Nothing to publish: ${preview.error}\n`;
}

/** The full preview, or why the envelope cannot be published (the body is built once either way). */
function fullPreview(doc: ParsedDocument, options: PreviewOptions): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string } {
  // Every SDK gets the same fresh ids, so the sections differ only where the encoders do.
  const fresh = pinned(options.fresh);
  const built = buildMessage(doc, { ...options, fresh }, options.memo);
  if (!built.ok) return built;
  const { choice, message, notes, consumers } = built;
  const lines: string[] = [];
  const from = choice.from === 'setting' ? '' : ` (${sdkFallbackText(choice) ?? 'from meta.lang'})`;
  lines.push(`BabelQueue: bytes published with the ${message.sdk} encoder${from}${options.freshIds ? ', fresh meta.id and created_at' : ''}`);
  lines.push('');
  lines.push(`── Body: ${message.byteLength} bytes (UTF-8) ──`);
  lines.push(...bodyLines(message));
  // The notes are the published encoder's, about the body: under it, not under the target.
  for (const note of notes) lines.push(`Note (${note.kind}): ${note.message}`);
  lines.push('');
  lines.push('── Consumers (each SDK decoding the body above) ──');
  lines.push(...verdictLines(consumers));
  lines.push('');
  lines.push('── Target ──');
  lines.push(`Broker: ${options.target}`);
  if (options.queue?.trim()) lines.push(`Queue: ${message.queue} (chosen for this send, and written as meta.queue in the body)`);
  lines.push(`Redis (${message.redis.layout} layout): ${message.redis.commands.join('; ')}`);
  const p = message.amqp.properties;
  lines.push(`RabbitMQ: exchange "" (default), routing key "${message.amqp.routingKey}"`);
  lines.push(`  properties: content_type=${p.contentType} content_encoding=${p.contentEncoding} delivery_mode=${p.deliveryMode} app_id=${p.appId}`);
  lines.push(`              type=${p.type} correlation_id=${p.correlationId} message_id=${p.messageId}`);
  lines.push(`  headers: x-schema-version=${p.headers['x-schema-version']} (int) x-source-lang=${p.headers['x-source-lang']} x-attempts=${p.headers['x-attempts']} (int)`);
  if (message.redis.layout === 'laravel') {
    // Laravel's reservation re-encodes the body (facts §4.1): what a retried message carries.
    lines.push('');
    if (message.byteLength > PER_SDK_LIMIT) {
      lines.push('── After a Laravel retry (laravel layout) ──', `Left out: the body is ${message.byteLength} bytes, and its cjson re-encoding is shown for bodies up to ${PER_SDK_LIMIT} bytes.`);
    } else {
      lines.push(...retrySectionLines(message.text, textLines));
    }
  }
  lines.push('');
  lines.push('── Per SDK ──');
  if (message.byteLength > PER_SDK_LIMIT) {
    lines.push(`Left out: the body is ${message.byteLength} bytes, and the comparison runs for bodies up to ${PER_SDK_LIMIT} bytes (\`babelq preview --sdk <name>\` prints one SDK's bytes).`);
  } else {
    for (const sdk of SDK_NAMES) lines.push(...sdkSection(doc, options, fresh, sdk, message.text));
  }
  lines.push('');
  lines.push(`── Hex (published body${message.byteLength > HEX_LIMIT ? `, first ${HEX_LIMIT} of ${message.byteLength} bytes` : ''}) ──`);
  // The bytes of the body's first HEX_LIMIT + 1 code units at most (each is at least a byte), not of all of it.
  const start = message.textHead(HEX_LIMIT + 2);
  lines.push(hexDump(utf8Bytes(start.slice(0, codePointBoundary(start, HEX_LIMIT + 1))).subarray(0, HEX_LIMIT)));
  return { ok: true, text: lines.join('\n') + '\n' };
}

/** What `babelq preview` prints and the server's preview request answers, from the same options. */
export interface PreviewOutputOptions extends Omit<PreviewOptions, 'sdk'> {
  /** One encoder (its exact body bytes, nothing else), or `all` for the full comparison. */
  readonly sdk: EncoderChoice | 'all';
  /** A hex dump of the body instead of its text (one encoder only). */
  readonly hex?: boolean;
  /** With `all`: the encoder whose bytes are the published body the others are compared with (default auto). */
  readonly published?: EncoderChoice;
}

export type PreviewOutput =
  | { readonly ok: true; readonly text: string; readonly notes: readonly string[] }
  | { readonly ok: false; readonly error: string };

/**
 * The preview text for one encoder (the body exactly as published, or its hex dump) or for all of
 * them (renderPreview); a document that cannot be published gives the reason instead.
 */
export function previewOutput(doc: ParsedDocument, options: PreviewOutputOptions): PreviewOutput {
  if (options.sdk === 'all') {
    const preview = fullPreview(doc, { ...options, sdk: options.published ?? 'auto' });
    return preview.ok ? { ...preview, notes: [] } : preview;
  }
  const built = buildMessage(doc, { ...options, sdk: options.sdk }, options.memo);
  if (!built.ok) return { ok: false, error: built.error };
  const fallback = sdkFallbackText(built.choice);
  const notes = [
    // Said as the full preview's header says it, so the CLI and the editor agree on the fallback.
    ...(fallback ? [`note: ${fallback}`] : []),
    ...built.notes.map((note) => `note (${built.message.sdk}, ${note.kind}): ${note.message}`),
    // The consumers that would reject exactly these bytes, so a preview warns before a send asks.
    ...verdictLines(rejecting(built.consumers)).map((line) => `consumer ${line}`),
  ];
  if (options.redisLayout === 'laravel' && built.message.byteLength <= PER_SDK_LIMIT) {
    const note = retryNote(built.message.text);
    if (note) notes.push(`note: ${note}`);
  }
  return { ok: true, text: options.hex ? `${hexDump(built.message.bytes)}\n` : built.message.text, notes };
}

function sdkSection(doc: ParsedDocument, options: PreviewOptions, fresh: Fresh, sdk: SdkName, published: string): string[] {
  const built = buildMessage(doc, { ...options, fresh, sdk });
  if (!built.ok) return [`${sdk.padEnd(7)} cannot encode: ${built.error}`];
  const { text, bytes } = built.message;
  const head = `${sdk.padEnd(7)} ${String(bytes.length).padStart(6)} bytes  ${text === published ? 'identical to the published body' : `DIFFERS: ${whyDifferent(published, text)}`}`;
  const lines = [head];
  for (const note of built.notes) lines.push(`        note (${note.kind}): ${note.message}`);
  if (text !== published) {
    lines.push(`        ${markDifference(published, text)}`);
    const rejected = rejecting(built.consumers);
    if (rejected.length > 0) lines.push(...verdictLines(rejected, '        consumer '));
  }
  return lines;
}

/**
 * The body on one line, or a long one's start and end on two, with a line between them saying what
 * is left out; a long body is read by its ends only (a 5 MB payload need not be written whole for
 * them: ../encode/written-text.ts).
 */
function bodyLines(message: OutgoingMessage): string[] {
  if (message.textLength <= BODY_SHOWN_LIMIT) return [message.text];
  return endsShown(message.textLength, (units) => message.textHead(units), (units) => message.textTail(units), 'characters of the body are not shown here (`babelq preview <file>` prints the whole body)');
}

/** A text on one line, or a long one by its start and end, as `bodyLines` shows the body. */
function textLines(text: string): string[] {
  if (text.length <= BODY_SHOWN_LIMIT) return [text];
  return endsShown(text.length, (units) => text.slice(0, units), (units) => text.slice(text.length - units), 'characters are not shown here');
}

/**
 * A long text of `length` UTF-16 units by its first BODY_HEAD and last BODY_TAIL units, with a
 * line between that counts the rest (`notShown` after the count); `head(n)` and `tail(n)` give its
 * first and last `n` units, so a body held as bytes is not decoded whole.
 */
function endsShown(length: number, head: (units: number) => string, tail: (units: number) => string, notShown: string): string[] {
  const start = head(BODY_HEAD + 1);
  const first = start.slice(0, codePointBoundary(start, BODY_HEAD));
  // One unit more than the tail, so that a surrogate pair at its start is seen whole.
  const end = tail(BODY_TAIL + 1);
  const last = end.slice(codePointBoundary(end, 1));
  return [first, `… ${digitGroups(length - first.length - last.length)} more ${notShown} …`, last];
}

/** `at`, or one before it when it would split a surrogate pair. */
function codePointBoundary(text: string, at: number): number {
  return (text.charCodeAt(at) & 0xfc00) === 0xdc00 && (text.charCodeAt(at - 1) & 0xfc00) === 0xd800 ? at - 1 : at;
}

/**
 * The text with its differing middle (against `base`) marked as ⟦…⟧, with some context around it.
 * Every cut falls between characters: half of a character outside the BMP would show as U+FFFD,
 * a character neither SDK wrote.
 */
export function markDifference(base: string, other: string, context = 24): string {
  let start = 0;
  while (start < base.length && start < other.length && base[start] === other[start]) start++;
  // Two characters alike in their first half only: both halves go in the middle.
  if (codePointBoundary(other, start) !== start || codePointBoundary(base, start) !== start) start--;
  let endBase = base.length;
  let endOther = other.length;
  while (endBase > start && endOther > start && base[endBase - 1] === other[endOther - 1]) {
    endBase--;
    endOther--;
  }
  // Alike in their second half only: the same.
  if (codePointBoundary(other, endOther) !== endOther || codePointBoundary(base, endBase) !== endBase) {
    endBase++;
    endOther++;
  }
  const beforeAt = Math.max(0, start - context);
  const before = other.slice(afterPair(other, beforeAt), start);
  const after = other.slice(endOther, codePointBoundary(other, Math.min(other.length, endOther + context)));
  return `${start > context ? '…' : ''}${before}⟦${bounded(other.slice(start, endOther))}⟧${after}${endOther + context < other.length ? '…' : ''}  (published: ⟦${bounded(base.slice(start, endBase))}⟧)`;
}

/** `at`, or one after it when it would split a surrogate pair. */
function afterPair(text: string, at: number): number {
  return codePointBoundary(text, at) === at ? at : at + 1;
}

/**
 * A differing middle of at most about MAX_MARKED units, shortened in the middle when longer, the
 * part left out counted; one that the count would not make shorter is shown whole.
 */
function bounded(text: string): string {
  if (text.length <= MAX_MARKED) return text;
  const half = MAX_MARKED / 2;
  const head = text.slice(0, codePointBoundary(text, half));
  const tail = text.slice(afterPair(text, text.length - half));
  const leftOut = text.length - head.length - tail.length;
  const gap = `… (${digitGroups(leftOut)} more characters) …`;
  return gap.length < leftOut ? `${head}${gap}${tail}` : text;
}

/** Classic hex dump: offset, 16 bytes in hex, and the printable ASCII. */
export function hexDump(bytes: Uint8Array): string {
  const rows: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += 16) {
    const chunk = bytes.subarray(offset, offset + 16);
    const hex = Array.from(chunk, (byte) => byte.toString(16).padStart(2, '0')).join(' ');
    const ascii = Array.from(chunk, (byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('');
    rows.push(`${offset.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  |${ascii}|`);
  }
  return rows.join('\n');
}

/** A Fresh that returns, on every call, the id and time `fresh` gives once. */
function pinned(fresh: Fresh): Fresh {
  return fixedFresh(fresh.uuid(), fresh.now());
}
