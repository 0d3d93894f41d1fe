/**
 * The one interface the client and the CLI use to reach a broker: open a target, publish an
 * OutgoingMessage exactly as built, peek, close. Which broker sits behind it follows the URL scheme.
 */
import type { OutgoingMessage, RedriveMove } from '../core/message/types';
import type { PeekedAmqpProperties, RedriveNotSearched, RedriveSearchBounds } from './amqp';
import { loadQuietly } from './quiet-debug';
import { connectAddresses, openThroughFirst, type Lookup } from './connect-address';
import { DEFAULT_TIMEOUT_MS, PEEK_MAX_BYTES, READ_MAX_MESSAGES } from './internal';
import { parseTarget, type BrokerTarget } from './target';
import type { BrokerError } from './errors';

export { BrokerError, isBrokerError, isRedriveInterrupted, redact, RedriveInterrupted, type BrokerErrorKind } from './errors';
export { describeTarget, isLoopback, parseTarget, withPassword, type BrokerTarget } from './target';

/** Options for openBroker. */
export interface BrokerOptions {
  /** Deadline for connecting and for each broker round trip, in ms (default 5000). */
  readonly timeoutMs?: number;
  /** The resolver asked for a name taken for this machine (default: the system's; a test stands in for another machine's hosts file). */
  readonly lookup?: Lookup;
}

/** What a successful publish reports. */
export interface PublishReceipt {
  /** Wall time of the publish, from the first command to the broker's answer (for AMQP: queue check and confirm). */
  readonly durationMs: number;
  /** The target as people see it (no password). */
  readonly target: string;
  /** Redis only: the list length right after the push. */
  readonly length?: number;
}

/** One message read back by peek. */
export interface PeekedMessage {
  /** The stored bytes, exactly. */
  readonly body: Uint8Array;
  /** AMQP only: the properties the message carries. */
  readonly properties?: PeekedAmqpProperties;
  /** AMQP only: true once the message has been delivered before (every peek sets it). */
  readonly redelivered?: boolean;
}

export { PEEK_MAX_BYTES, READ_MAX_MESSAGES };
export type { RedriveNotSearched, RedriveSearchBounds };

/** What a peek read: the messages, and, when the byte bound stopped it, why. */
export type PeekResult = PeekedMessage[] & {
  /** Set when the next message would have taken the read past `maxBytes`: it and the ones after it were not read. */
  readonly stopped?: { readonly maxBytes: number; readonly nextBytes: number };
};

/** What a redrive reports. */
export interface RedriveReceipt {
  readonly durationMs: number;
  /** Messages now on their target queue and gone from the DLQ. */
  readonly moved: number;
  /** Moves whose exact bytes were no longer in the DLQ (another reader took them): nothing was published for them. */
  readonly missing: number;
  /**
   * RabbitMQ only: set when the search's bound stopped it before the moves still pending were
   * found, with messages of the DLQ left unread (they may be further on in the DLQ, or gone): not
   * moved, nothing published for them. A bound reached at the DLQ's last message leaves them in `missing`.
   */
  readonly notSearched?: RedriveNotSearched;
}

/** Where a redrive would stop because of a target, and the error it would stop with. */
export interface RedriveTargetRefusal {
  /** The index in the moves of the first one that would not move. */
  readonly at: number;
  readonly error: BrokerError;
}

/** A connected broker. */
export interface Broker {
  readonly kind: 'redis' | 'amqp';
  /** The target as people see it (no password). */
  readonly target: string;
  /** AMQP only: the broker's product and version as it announced them (`RabbitMQ 3.10.8`). */
  readonly server?: string;
  /** Publishes exactly `message.bytes` as the message's projection for this broker says. */
  publish(message: OutgoingMessage): Promise<PublishReceipt>;
  /**
   * Up to `count` messages without consuming them. Redis: the last `count` elements of the list
   * `queue` (pass the projection's listKey, e.g. `queues:orders` for Laravel), oldest first.
   * RabbitMQ: the first `count` at the head of the queue, got and requeued (their delivery order
   * may change and they are marked redelivered). No more than `maxBytes` (default
   * PEEK_MAX_BYTES) of bodies together: the read stops before the message that would go past it
   * (on RabbitMQ that one is got, measured and requeued with the others) and says so in `stopped`.
   */
  peek(queue: string, count: number, maxBytes?: number): Promise<PeekResult>;
  /**
   * Moves dead letters, each found by its exact stored bytes in `dlq` (a Redis list key or a
   * RabbitMQ queue), to its message's queue, one at a time. Redis: one atomic script per message.
   * RabbitMQ: published with a confirm, then acked; the search gets DLQ messages from the head and
   * holds those it passes over unacked (requeued at the end), no more than `bounds` (Redis ignores
   * them: its script searches the list in the server). A failure throws RedriveInterrupted and
   * leaves every message not yet moved in the DLQ.
   */
  redrive(dlq: string, moves: readonly RedriveMove[], bounds?: RedriveSearchBounds): Promise<RedriveReceipt>;
  /**
   * Read only: where a redrive of `moves` would stop because of its targets, and why, or
   * undefined. RabbitMQ: a target queue that does not exist (the redrive checks every target
   * before it moves anything, so it stops at the first move). Redis: a target key that holds
   * something other than a list (the redrive stops at the first move onto it, after the ones before).
   */
  redriveTargetRefusal(moves: readonly RedriveMove[]): Promise<RedriveTargetRefusal | undefined>;
  /** RabbitMQ only: declares `queue` durable, non-exclusive, not auto-deleted (after a `missing-queue` error). */
  declareQueue?(queue: string): Promise<void>;
  /** Closes the connection; safe to call twice. */
  close(): Promise<void>;
}

/** Connects to the broker named by `target` (a parsed target or a URL); throws BrokerError in a user's words. */
export async function openBroker(target: BrokerTarget | string, options: BrokerOptions = {}): Promise<Broker> {
  const parsed = typeof target === 'string' ? parseTarget(target) : target;
  // Resolved once, checked against what the guards were told, and connected to as is.
  const addresses = await connectAddresses(parsed, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.lookup);
  // The client libraries load on first use: `babelq lint` and the editor never pay for them.
  if (parsed.kind === 'redis') {
    const { openRedis } = await loadQuietly(() => import('./redis'));
    const redis = await openThroughFirst(addresses, (address) => openRedis(parsed, { ...options, ...(address !== undefined ? { address } : {}) }));
    return {
      kind: 'redis',
      target: parsed.display,
      async publish(message) {
        const { durationMs, length } = await redis.publish(message);
        return { durationMs, target: parsed.display, ...(length !== undefined ? { length } : {}) };
      },
      async peek(queue, count, maxBytes = PEEK_MAX_BYTES) {
        const { items, nextBytes } = await redis.peek(queue, count, maxBytes);
        return Object.assign(items.map((body) => ({ body })), nextBytes !== undefined ? { stopped: { maxBytes, nextBytes } } : {});
      },
      redrive: (dlq, moves) => redis.redrive(dlq, moves),
      redriveTargetRefusal: (moves) => redis.redriveTargetRefusal(moves),
      close: () => redis.close(),
    };
  }
  const { openAmqp } = await loadQuietly(() => import('./amqp'));
  const amqp = await openThroughFirst(addresses, (address) => openAmqp(parsed, { ...options, ...(address !== undefined ? { address } : {}) }));
  const server = amqp.server;
  return {
    kind: 'amqp',
    target: parsed.display,
    ...(server !== undefined ? { server } : {}),
    async publish(message) {
      const { durationMs } = await amqp.publish(message);
      return { durationMs, target: parsed.display };
    },
    async peek(queue, count, maxBytes = PEEK_MAX_BYTES) {
      const { messages, nextBytes } = await amqp.peek(queue, count, maxBytes);
      return Object.assign(messages, nextBytes !== undefined ? { stopped: { maxBytes, nextBytes } } : {});
    },
    redrive: (dlq, moves, bounds) => amqp.redrive(dlq, moves, bounds),
    redriveTargetRefusal: (moves) => amqp.redriveTargetRefusal(moves),
    declareQueue: (queue) => amqp.declareQueue(queue),
    close: () => amqp.close(),
  };
}

/** `bytes` in words: MiB from one MiB up (one decimal), else bytes. */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB` : `${bytes} bytes`;
}

/**
 * A redrive's moves its search did not reach, in words (without a final full stop): how many, how
 * far the search went in `dlq`, which bound stopped it, and that they may still be there.
 */
export function notSearchedText(notSearched: RedriveNotSearched, dlq: string): string {
  const { count, messages, passedOver, bytes, bound, maxMessages, maxBytes } = notSearched;
  const them = count === 1 ? 'it' : 'them';
  // The byte bound is on the messages passed over (held unacked), not on those moved: their bytes alone are said.
  const reach = bound === 'messages'
    ? `the first ${messages} message(s) of ${dlq}, where the search stops (it gets at most ${maxMessages} messages)`
    : `the first ${messages} message(s) of ${dlq}, where the search stops (the ${passedOver} it passed over came to ${sizeText(bytes)}, past the ${sizeText(maxBytes)} of messages it holds at most)`;
  return `${count} not found in ${reach}: the DLQ was not searched beyond ${messages === 1 ? 'it' : 'them'}, so ${count === 1 ? 'that one' : 'those'} may still be in it; nothing was published for ${them}`;
}
