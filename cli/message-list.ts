/**
 * What `peek` and `dlq` share: reading a queue's messages (bounded) and printing them as rows
 * (URN, meta.id, created at, attempts, size, lint verdict) or as JSON for scripts.
 */
import { openBroker, READ_MAX_MESSAGES } from '../broker';
import { describeTarget, type BrokerTarget } from '../broker/target';
import { dateText, deadLetterWords, urnLabel, verdictText, type MessageRow } from '../core/message/dead-letter';
import { consumedBody, lintedRows, type LintedRow } from '../core/language/message-rows';
import { LINT_DECODERS } from '../workspace/strict-utf8';
import { CliError, quoted, quotedId, quotedLine, quotedTextLine } from './errors';
import type { MessageJudgement } from './message-judgement';
import { DELIVERY_COUNT_HEADER, deliveryCountOf } from './quorum-deliveries';

/** The most messages one command reads (`--limit`); a DLQ can be long, memory is not endless. */
export const MAX_READ = READ_MAX_MESSAGES;

/**
 * The target and queue (or Redis key) for a message, as describeTarget says them, with a long
 * queue name cut as a long path is: a 100 KB --queue made each line that names it 100 KB.
 */
export function describeQueue(target: BrokerTarget, queue: string): string {
  return describeTarget(target, quotedLine(queue));
}

/** A whole number option between 1 and MAX_READ. */
export function countOption(value: string | true | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_READ) {
    throw new CliError(`--${name} needs a whole number from 1 to ${MAX_READ}, not '${quoted(value)}'`, true);
  }
  return Number(value);
}

/** A message read and linted, with its bytes exactly as stored (a redrive finds it in the DLQ by them). */
export interface ReadRow extends LintedRow {
  readonly body: Uint8Array;
  /** RabbitMQ quorum queues only: the delivery count the message was got with (cli/quorum-deliveries.ts). */
  readonly deliveryCount?: number;
  /** Redis only: the headers of the header frame the envelope is stored in (core/message/redis-frame.ts). */
  readonly frameHeaders?: Readonly<Record<string, unknown>>;
}

/** What one read found: the rows in the order read, and the broker as it announced itself (AMQP). */
export interface QueueRead {
  readonly rows: ReadRow[];
  readonly server?: string;
  /** Set when the read stopped at its byte bound (PEEK_MAX_BYTES): the message after the rows, and those after it, were not read. */
  readonly stopped?: { readonly maxBytes: number; readonly nextBytes: number };
}

/** The note for a read its byte bound stopped: how many were read, and why no more. */
export function byteBoundNote(read: QueueRead, where: string): string | undefined {
  if (!read.stopped) return undefined;
  const { maxBytes, nextBytes } = read.stopped;
  return `read ${read.rows.length} message(s) of ${where} and no more: the next one is ${nextBytes} bytes, and one read takes at most ${maxBytes} bytes (${Math.round(maxBytes / 1024 / 1024)} MiB) of messages together; it and those after it were not read.`;
}

/** Reads up to `count` messages of `key` (Redis: the newest `count`; RabbitMQ: got and requeued) and lints each as `judgement` says. */
export async function readRows(target: BrokerTarget, key: string, count: number, timeoutMs: number, judgement: MessageJudgement): Promise<QueueRead> {
  const broker = await openBroker(target, { timeoutMs });
  try {
    const peeked = await broker.peek(key, count);
    // A Redis header frame is linted on the envelope inside, as the SDK consumers read it; `body`
    // stays the stored bytes, by which a redrive finds the element.
    const consumed = peeked.map(({ body }) => consumedBody(body, LINT_DECODERS, target.kind === 'redis'));
    const rows = lintedRows(consumed.map((entry) => entry.body), judgement.settings, judgement.registry).map((linted, index) => {
      const { body, properties } = peeked[index]!;
      const deliveryCount = deliveryCountOf(properties?.headers);
      const { frame } = consumed[index]!;
      return { ...linted, body, ...(deliveryCount !== undefined ? { deliveryCount } : {}), ...(frame ? { frameHeaders: frame.headers } : {}) };
    });
    return { rows, ...(broker.server !== undefined ? { server: broker.server } : {}), ...(peeked.stopped ? { stopped: peeked.stopped } : {}) };
  } finally {
    await broker.close();
  }
}

/** One row as a line for people (with the delivery count a quorum queue's message was got with). */
export function rowLine(row: MessageRow, deliveryCount?: number): string {
  const attempts = row.attempts === undefined ? 'attempts —' : `attempts ${row.attempts}`;
  const deliveries = deliveryCount === undefined ? '' : `  ${DELIVERY_COUNT_HEADER} ${deliveryCount}`;
  return `${urnLabel({ ...row, urn: quotedLine(row.urn) })}  meta.id ${quotedId(row.metaId)}  created ${dateText(row.createdAt)}  ${attempts}${deliveries}  ${row.bytes} bytes  ${verdictText(row)}`;
}

/** The line under a row stored in a Redis header frame: the frame's headers. */
export function frameLine(frameHeaders: Readonly<Record<string, unknown>>): string {
  return `  (stored in a Redis header frame, __bq_frame; the envelope inside is shown) headers: ${quotedTextLine(JSON.stringify(frameHeaders))}`;
}

/** A row's dead-letter block, indented under its line: each field on its line, cut as a dead letter's text is. */
export function deadLetterLines(row: MessageRow): string[] {
  return deadLetterWords(row.deadLetter).map((line) => `    ${quotedTextLine(line)}`);
}

/** A group's heading in `dlq list`: its count, reason and error, each as a line names it. */
export function groupLine(group: { readonly count: number; readonly reason: string; readonly error: string }): string {
  return `${group.count} × ${quotedLine(group.reason)}: ${quotedTextLine(group.error)}`;
}

/** A row for scripts: the fields, the body text and the diagnostics. */
export function rowJson({ row, diagnostics, deliveryCount, frameHeaders }: LintedRow & { readonly deliveryCount?: number; readonly frameHeaders?: Readonly<Record<string, unknown>> }): Record<string, unknown> {
  return {
    urn: row.urn,
    ...(row.urnAlias ? { urnAlias: row.urnAlias } : {}),
    metaId: row.metaId,
    createdAt: row.createdAt ?? null,
    createdAtText: row.createdAt === undefined ? null : dateText(row.createdAt),
    attempts: row.attempts ?? null,
    ...(deliveryCount !== undefined ? { deliveryCount } : {}),
    ...(frameHeaders ? { frameHeaders } : {}),
    bytes: row.bytes,
    errors: row.errors,
    warnings: row.warnings,
    ...(row.deadLetter ? { deadLetter: row.deadLetter } : {}),
    text: row.text,
    diagnostics: diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message })),
  };
}
