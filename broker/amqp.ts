/**
 * RabbitMQ (AMQP 0-9-1) publisher: the default exchange, routing key = queue, exactly the
 * projection's properties, and a publisher confirm before anything is reported as sent.
 *
 * The default exchange silently drops a message whose queue does not exist, so the queue is
 * checked first (on a throwaway channel: a 404 closes the channel it happens on) and the publish
 * is also `mandatory`, so a queue deleted between the check and the publish comes back as a
 * basic.return instead of vanishing.
 */
import { connect, type Channel, type ChannelModel, type ConfirmChannel, type GetMessage, type SocketOptions } from 'amqplib';
import { createHash } from 'node:crypto';
import { isIP, type NetConnectOpts } from 'node:net';
import type { AmqpProperties, OutgoingMessage, RedriveMove } from '../core/message/types';
import { BrokerError, RedriveInterrupted, type BrokerErrorKind } from './errors';
import { DEFAULT_TIMEOUT_MS, elapsed, PEEK_MAX_BYTES, READ_MAX_MESSAGES, errorCode, errorMessage, named, quoted, socketFailure, tlsExpected, tlsHint, tlsReach, withDeadline } from './internal';
import type { BrokerTarget } from './target';

/** Options for an AMQP connection. */
export interface AmqpPublisherOptions {
  /** Deadline for connecting and for each broker round trip, in ms (default 5000). */
  readonly timeoutMs?: number;
  /** The address to connect to (broker/connect-address.ts); the host name still names the TLS server. */
  readonly address?: string;
}

/** What an AMQP publish reports: how long it took, queue check and confirm included. */
export interface AmqpPublishResult {
  readonly durationMs: number;
}

/** The AMQP properties of a peeked message, as the broker delivered them (all optional: other producers set fewer). */
export interface PeekedAmqpProperties {
  readonly contentType?: string;
  readonly contentEncoding?: string;
  readonly deliveryMode?: number;
  readonly appId?: string;
  readonly type?: string;
  readonly correlationId?: string;
  readonly messageId?: string;
  readonly timestamp?: number;
  readonly headers?: Readonly<Record<string, unknown>>;
}

/** One message seen by peek: its body, properties and whether it had been delivered before. */
export interface PeekedAmqpMessage {
  readonly body: Uint8Array;
  readonly properties: PeekedAmqpProperties;
  readonly redelivered: boolean;
}

/** Queue counters from a passive declare. */
export interface QueueInfo {
  readonly messageCount: number;
  readonly consumerCount: number;
}

class Deadline extends Error {}

/** Redrive publishes awaiting their confirm at once. */
const CONFIRM_WINDOW = 64;

type Phase = 'connect' | 'check' | 'declare' | 'publish' | 'peek' | 'redrive';

/** What an AMQP redrive reports. */
export interface AmqpRedriveResult {
  readonly durationMs: number;
  readonly moved: number;
  /** Moves whose exact bytes were not in the DLQ, searched to its end (another consumer took them). */
  readonly missing: number;
  /** Set when a bound stopped the search before the moves still pending were found, with DLQ messages left unread. */
  readonly notSearched?: RedriveNotSearched;
}

/** Moves a RabbitMQ redrive did not find before its search stopped at a bound, the DLQ still holding messages it had not read. */
export interface RedriveNotSearched {
  /** How many moves were not found. */
  readonly count: number;
  /** The DLQ messages got by the search before it stopped: those it moved and those it passed over. */
  readonly messages: number;
  /** Of those, the ones it passed over (held unacked, requeued at the end). */
  readonly passedOver: number;
  /** The bytes of those passed over, bodies together, the one that went past `maxBytes` included (moved ones are not held, and not counted). */
  readonly bytes: number;
  /** Which bound stopped it. */
  readonly bound: 'messages' | 'bytes';
  readonly maxMessages: number;
  readonly maxBytes: number;
}

/** The bounds of a RabbitMQ redrive's search of its DLQ (each message it passes over is held unacked until the end). */
export interface RedriveSearchBounds {
  /** At most this many DLQ messages got (default READ_MAX_MESSAGES). */
  readonly maxMessages?: number;
  /** At most this many bytes of DLQ messages held (default PEEK_MAX_BYTES): the one past it is got, measured and requeued. */
  readonly maxBytes?: number;
}

/** A connected AMQP client that publishes OutgoingMessages with confirms and peeks queues. */
export class AmqpPublisher {
  private confirm: Promise<ConfirmChannel> | undefined;
  /** Why the broker is blocking publishers (memory or disk alarm), while it is. */
  private blocked: string | undefined;
  private closed = false;
  /** Set once the broker missed a deadline: a polite close would only wait out another one. */
  private stalled = false;
  /** Why the broker closed the publish channel: amqplib fails the pending confirm with only "channel closed". */
  private channelError: unknown;
  /**
   * Why the broker closed the connection itself (a close frame, with its reply code): RabbitMQ
   * answers some refusals so (a basic.get on a stream queue is 540 NOT_IMPLEMENTED), and amqplib
   * fails the pending call with only "Channel ended".
   */
  private connectionError: unknown;

  private constructor(
    private readonly model: ChannelModel,
    /** The target this publisher is connected to (its password is not enumerable). */
    readonly target: BrokerTarget,
    private readonly timeoutMs: number,
  ) {
    // Without listeners an 'error' event would crash the process; the failing operation reports it.
    model.on('error', (error: unknown) => {
      if (typeof (error as { code?: unknown } | null)?.code === 'number') this.connectionError = error;
    });
    model.on('close', () => {
      this.closed = true;
    });
    model.on('blocked', (reason: string) => {
      this.blocked = reason || 'resource alarm';
    });
    model.on('unblocked', () => {
      this.blocked = undefined;
    });
  }

  /** Connects and logs in (TCP, optional TLS, AMQP handshake) within the deadline. */
  static async open(target: BrokerTarget, options: AmqpPublisherOptions = {}): Promise<AmqpPublisher> {
    if (target.kind !== 'amqp') throw new TypeError(`AmqpPublisher needs an amqp:// or amqps:// target, got ${target.display}`);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // Ends the attempt's socket at the deadline. amqplib's own timeout is an idle one, which every
    // byte restarts: a server that trickles a handshake it never completes kept the connection
    // (and the process) alive after the error, and amqplib gives no socket to close before it opens.
    const abandon = new AbortController();
    const socketOptions: SocketOptions & Pick<NetConnectOpts, 'signal'> = {
      // amqplib's own idle timeout covers TCP, TLS and the AMQP handshake on the socket.
      timeout: timeoutMs,
      // Passed on to net.connect / tls.connect (amqplib's types leave it out): aborting destroys the socket.
      signal: abandon.signal,
      ...(target.tls && !isIP(target.host.replace(/\.$/, '')) ? { servername: target.host.replace(/\.$/, '') } : {}),
      clientProperties: { connection_name: 'babelqueue-envelope-tools' },
    };
    // The object form, not a URL string: amqplib never sees a URL it could echo into an error.
    const attempt = connect(
      {
        protocol: target.tls ? 'amqps' : 'amqp',
        hostname: options.address ?? target.host,
        port: target.port,
        ...(target.username !== undefined || target.password !== undefined ? { username: target.username ?? '', password: target.password ?? '' } : {}),
        // amqplib unescapes the vhost once more, so it is handed over escaped.
        vhost: encodeURIComponent(target.vhost ?? '/'),
      },
      socketOptions,
    );
    let model: ChannelModel;
    try {
      model = await withDeadline(attempt, timeoutMs, () => new Deadline());
    } catch (error) {
      // A connection that completes after the deadline must not stay open and keep the process
      // alive, nor one still opening.
      attempt.then((late) => late.close().catch(() => {}), () => {});
      if (error instanceof Deadline) abandon.abort();
      const classified = await classify(error, target, timeoutMs, 'connect', undefined, options.address);
      // amqplib's words for a socket the server closed before it answered the protocol header.
      const unanswered = classified.kind === 'closed' || /closed abruptly during opening handshake/i.test(errorMessage(error));
      throw await tlsExpected(classified, unanswered, target, timeoutMs, options.address);
    }
    return new AmqpPublisher(model, target, timeoutMs);
  }

  /** The broker's product and version as it announced them on connecting (`RabbitMQ 3.10.8`), if it did. */
  get server(): string | undefined {
    const { product, version } = this.model.connection.serverProperties ?? {};
    // Whatever answered on the port wrote these: named as a queue is, bounded and on one line.
    return typeof product === 'string' && typeof version === 'string' ? named(`${product} ${version}`) : undefined;
  }

  /** Passive declare of `queue`: its counters, or BrokerError('missing-queue') when it does not exist. */
  async checkQueue(queue: string): Promise<QueueInfo> {
    return this.onThrowawayChannel('check', queue, async (channel) => {
      const reply = await channel.checkQueue(queue);
      return { messageCount: reply.messageCount, consumerCount: reply.consumerCount };
    });
  }

  /** Declares `queue` durable, non-exclusive and not auto-deleted, as the BabelQueue transports do. */
  async declareQueue(queue: string): Promise<void> {
    await this.onThrowawayChannel('declare', queue, async (channel) => {
      await channel.assertQueue(queue, { durable: true, exclusive: false, autoDelete: false });
    });
  }

  /** Publishes `message.bytes` to the default exchange with the projection's properties and waits for the broker's confirm. */
  async publish(message: OutgoingMessage): Promise<AmqpPublishResult> {
    const { exchange, routingKey, properties } = message.amqp;
    const start = performance.now();
    await this.checkQueue(routingKey);
    const body = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
    this.channelError = undefined;
    try {
      const channel = await this.confirmChannel();
      await withDeadline(confirmedPublish(channel, exchange, routingKey, body, properties), this.timeoutMs, () => new Deadline());
    } catch (error) {
      const generic = /channel (closed|ended)/i.test(errorMessage(error)) && this.channelError !== undefined;
      // The broker closed the channel in answer to the publish, before its confirm: refused, not stored.
      if (generic && refusalClose(this.channelError)) throw refusedMessage(this.channelError, this.target, routingKey);
      // Closed in answer to another method: the close does not say whether the publish came before it.
      if (generic && otherChannelClose(this.channelError)) {
        throw channelClosed(this.channelError, this.target, 'publishes', ` before it confirmed the message for ${named(routingKey)}: it may or may not have been stored; peek before sending again.`);
      }
      throw await this.fail(generic ? this.channelError : error, 'publish', routingKey);
    }
    return { durationMs: elapsed(start) };
  }

  /**
   * Up to `count` messages from the head of `queue` (the next ones a consumer would get), read with
   * basic.get without ack and then requeued. Requeueing marks them redelivered and can change
   * the order in which consumers receive them; RabbitMQ cannot read a queue without taking messages.
   */
  async peek(queue: string, count: number, maxBytes = Number.MAX_SAFE_INTEGER): Promise<{ messages: PeekedAmqpMessage[]; nextBytes?: number }> {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`peek count must be a whole number ≥ 0, got ${count}`);
    // The deadline is per basic.get, as for every other round trip, not on the read as a whole: a
    // read of a thousand messages from a broker 10 ms away takes 10 s without any answer being late.
    return this.onThrowawayChannel('peek', queue, async (channel) => {
      const got: GetMessage[] = [];
      let bytes = 0;
      let nextBytes: number | undefined;
      try {
        while (got.length < count) {
          const message = await withDeadline(channel.get(queue, { noAck: false }), this.timeoutMs, () => new Deadline());
          if (message === false) break;
          got.push(message);
          // RabbitMQ cannot say a message's size before it is got: the one past the bound is got
          // (its size is bounded by the broker's max_message_size), requeued and not returned.
          if (bytes + message.content.byteLength > maxBytes) {
            nextBytes = message.content.byteLength;
            break;
          }
          bytes += message.content.byteLength;
        }
      } finally {
        // One nack for everything taken so far, even when a later get failed: nothing stays unacked.
        const last = got[got.length - 1];
        try {
          if (last) channel.nack(last, true, true);
        } catch {
          // The channel is already closed, and closing a channel requeues its unacked messages anyway.
        }
      }
      const messages = (nextBytes === undefined ? got : got.slice(0, -1)).map((message) => ({
        body: new Uint8Array(message.content.buffer, message.content.byteOffset, message.content.byteLength),
        properties: peekedProperties(message.properties as unknown as Record<string, unknown>),
        redelivered: message.fields.redelivered,
      }));
      return { messages, ...(nextBytes !== undefined ? { nextBytes } : {}) };
    }, true);
  }

  /**
   * Moves dead letters from `dlq` to their messages' queues. Each DLQ message is got without ack;
   * one whose body is exactly a move's `original` is published to its target with a confirm, and
   * only then acked; every other message got is requeued at the end. A failure closes the get
   * channel, which requeues whatever is not acked: the messages not yet moved stay in the DLQ, and
   * the one in flight is in the DLQ and perhaps also on its target (never in neither), unless the
   * broker closed the publish channel in answer to its publish, refusing it or routing it nowhere
   * (403, 404): then it is in the DLQ only. A channel the broker closed in answer to anything else
   * (a get or an ack on the DLQ's channel) is said as that close, not as a refused message.
   *
   * The search is bounded as a peek is: every message passed over is held unacked until the end,
   * so it gets at most `bounds.maxMessages` messages (default READ_MAX_MESSAGES) and holds at most
   * `bounds.maxBytes` of them (default PEEK_MAX_BYTES; the one past it is got, measured and
   * requeued). A move not found by then is in `notSearched`, not in `missing`, which counts only
   * moves the search looked for to the end of the DLQ: a bound reached at the DLQ's last message
   * (each get-ok says how many messages the queue still holds) left nothing unsearched.
   */
  async redrive(dlq: string, moves: readonly RedriveMove[], bounds: RedriveSearchBounds = {}): Promise<AmqpRedriveResult> {
    const maxMessages = bounds.maxMessages ?? READ_MAX_MESSAGES;
    const maxBytes = bounds.maxBytes ?? PEEK_MAX_BYTES;
    if (!Number.isInteger(maxMessages) || maxMessages < 1) throw new RangeError(`a redrive's search needs a whole number of messages ≥ 1, got ${maxMessages}`);
    const start = performance.now();
    // Every target must exist first: the default exchange would drop a message for a missing queue.
    for (const queue of new Set(moves.map((move) => move.message.amqp.routingKey))) await this.checkQueue(queue);
    const { messageCount } = await this.checkQueue(dlq);
    // The moves not yet found, by a digest of their exact stored bytes (moves of the same bytes in
    // their order): each message got is one lookup, not a comparison with every move pending.
    const pending = new Map<string, RedriveMove[]>();
    for (const move of moves) {
      const key = bytesKey(move.original);
      const same = pending.get(key);
      if (same) same.push(move);
      else pending.set(key, [move]);
    }
    let pendingCount = moves.length;
    const held: GetMessage[] = [];
    // Published, not yet confirmed: each is acked in the DLQ only once its own confirm arrives.
    const unconfirmed = new Map<RedriveMove, Promise<void>>();
    /** Confirmed on their queue when the get channel could no longer ack them: they go back to the DLQ too. */
    const confirmedNotAcked: RedriveMove[] = [];
    let moved = 0;
    /** DLQ messages got, those of them passed over (held unacked), and their bytes. */
    let reads = 0;
    let passedOver = 0;
    let heldBytes = 0;
    /** The bound that stopped the search, if one did. */
    let stoppedBy: 'messages' | 'bytes' | undefined;
    /**
     * The messages the DLQ still held ready after the last get (its get-ok says so): 0 when the
     * search has read all of them, so a bound reached then left nothing unsearched.
     */
    let unread: number | undefined;
    let failure: unknown;
    /** The queue of the move whose publish failed first, which the error names. */
    let failedQueue: string | undefined;
    let channel: Channel | undefined;
    /** Why the broker closed the channel that reads the DLQ (an ack or a get it refused), if it did. */
    let readChannelError: unknown;
    this.channelError = undefined;
    try {
      channel = await withDeadline(this.model.createChannel(), this.timeoutMs, () => new Deadline());
      channel.on('error', (error: unknown) => {
        readChannelError ??= error;
      });
      const getChannel = channel;
      const confirm = await this.confirmChannel();
      // One 'return' listener per message in flight.
      confirm.setMaxListeners(CONFIRM_WINDOW + 10);
      // At most the depth seen at the start plus what arrives meanwhile, read once each, and no
      // more than the bounds: past them the rest of the DLQ is not searched, and that is said.
      const depth = messageCount + moves.length;
      while (pendingCount > 0 && reads < depth && failure === undefined) {
        if (reads >= maxMessages) {
          if (unread !== 0) stoppedBy = 'messages';
          break;
        }
        const got = await withDeadline(getChannel.get(dlq, { noAck: false }), this.timeoutMs, () => new Deadline());
        if (got === false) break;
        reads++;
        unread = got.fields.messageCount;
        const key = bytesKey(got.content);
        const candidates = pending.get(key);
        // The digest finds the candidates; the bytes themselves decide (the first move of those bytes, in order).
        const index = candidates ? candidates.findIndex((move) => sameBytes(move.original, got.content)) : -1;
        if (index < 0) {
          held.push(got);
          passedOver++;
          heldBytes += got.content.byteLength;
          if (heldBytes > maxBytes) {
            // The one past the bound was compared like every other: when it was the DLQ's last, nothing is left unsearched.
            if (unread !== 0) stoppedBy = 'bytes';
            break;
          }
          continue;
        }
        const move = candidates!.splice(index, 1)[0]!;
        if (candidates!.length === 0) pending.delete(key);
        pendingCount--;
        const { exchange, routingKey, properties } = move.message.amqp;
        const bytes = move.message.bytes;
        const confirmed = withDeadline(confirmedPublish(confirm, exchange, routingKey, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), properties), this.timeoutMs, () => new Deadline()).then(
          () => {
            unconfirmed.delete(move);
            // Confirmed on its queue: acked in the DLQ even when another move failed meanwhile
            // (a publish after a nacked one can be confirmed after it), or it would be in both.
            try {
              getChannel.ack(got);
              moved++;
            } catch {
              confirmedNotAcked.push(move);
            }
          },
          (error: unknown) => {
            // Refused by the broker (a nack, or returned as unroutable), or by amqplib before sending
            // (a short string too long): not stored, so not in flight.
            if (error instanceof Returned || /message nacked/i.test(errorMessage(error)) || tooLongShortString(errorMessage(error)) !== undefined) unconfirmed.delete(move);
            if (failure === undefined) failedQueue = move.message.amqp.routingKey;
            failure ??= error;
          },
        );
        unconfirmed.set(move, confirmed);
        // A window of publishes in flight: one confirm round trip per message would cost a disk sync each.
        if (unconfirmed.size >= CONFIRM_WINDOW) await Promise.race(unconfirmed.values());
      }
      await Promise.all(unconfirmed.values());
      if (failure !== undefined) throw failure;
      for (const message of held) getChannel.nack(message, false, true);
      held.length = 0;
      // close-ok comes after the broker has processed every ack and nack sent before it.
      await withDeadline(getChannel.close(), this.timeoutMs, () => new Deadline());
      channel = undefined;
    } catch (error) {
      const inFlight = [...unconfirmed.keys()];
      const causeQueue = failedQueue ?? inFlight[0]?.message.amqp.routingKey ?? dlq;
      // Which channel failed: a publish's failure is the publish channel's; anything else the
      // broker closed is the reading channel's (a get or an ack it refused), which says nothing
      // about where the messages in flight went.
      const readClosed = error !== failure && readChannelError !== undefined && brokerChannelClose(readChannelError);
      const generic = !readClosed && /channel (closed|ended)/i.test(errorMessage(error)) && this.channelError !== undefined;
      // The broker closed the publish channel in answer to a publish: it refused the message (one
      // past its max_message_size), or did not route it (403: no write permission on the exchange;
      // 404: no such exchange). That one is not on its target, nor are those sent after it on the
      // channel; those sent before it may have been stored before the close.
      const refused = generic && refusalClose(this.channelError);
      const notPublished = refused || (generic && unroutedClose(this.channelError));
      const cause = readClosed
        ? channelClosed(readChannelError, this.target, `reads ${named(dlq)}`, '.')
        : refused
          ? refusedMessage(this.channelError, this.target, inFlight.length === 0 ? causeQueue : undefined)
          : generic && otherChannelClose(this.channelError)
            ? channelClosed(this.channelError, this.target, 'publishes', '.')
            : await this.fail(generic ? this.channelError : error, 'redrive', causeQueue);
      // Closing the get channel requeues every unacked message (held and in flight). Its close-ok
      // comes after the broker has processed every ack sent before it, so it is waited for: the
      // connection closed right after a close not waited for lost acks already sent, and moves
      // confirmed on their queue were back in the DLQ as well. Not for a broker that stopped answering.
      let acksSettled = channel === undefined;
      if (channel && !this.stalled) acksSettled = await withDeadline(channel.close(), this.timeoutMs, () => new Deadline()).then(() => true, () => false);
      else channel?.close().catch(() => {});
      // The ids and queues come from the dead letters: each named (bounded, on one line), and a
      // window of publishes in flight named by its first few ids.
      const ids = someIds(inFlight);
      const [from, firstTarget] = [named(dlq), named(inFlight[0]?.message.amqp.routingKey ?? '')];
      const doubled = confirmedNotAcked.length === 0
        ? ''
        : ` meta.id ${someIds(confirmedNotAcked)} ${confirmedNotAcked.length === 1 ? 'was' : 'were'} published and confirmed, but the DLQ could no longer be acknowledged: in both ${from} and ${named(confirmedNotAcked[0]!.message.amqp.routingKey)} (meta.id lets an idempotent consumer drop the second copy);`;
      const where = doubled + (notPublished && inFlight.length === 1
        ? ` meta.id ${ids} was not published to ${firstTarget}: it is still in ${from} only;`
        : notPublished && inFlight.length > 1
          ? ` meta.id ${ids} were being published without a confirm yet when RabbitMQ refused one of them: each is still in ${from}; the refused one and those published after it are not on ${firstTarget}, those published before it perhaps are (meta.id lets an idempotent consumer drop the second copy);`
          : inFlight.length > 0
        ? ` meta.id ${ids} ${inFlight.length === 1 ? 'was' : 'were'} being published without a confirm yet: still in ${from}, and perhaps also on ${firstTarget} (meta.id lets an idempotent consumer drop the second copy);`
        : moved > 0 && !acksSettled
          ? ` the ${moved} moved were published and confirmed, but their acknowledgements were not yet confirmed by the broker: any of them may be in ${from} again as well (meta.id lets an idempotent consumer drop the second copy);`
          : '');
      throw new RedriveInterrupted(cause, moved, `Redrive stopped after ${moved} of ${moves.length} message(s): ${cause.message}${where}${/[.!?]$/.test(`${cause.message}${where}`) ? ' Every' : ' every'} message not moved is still in ${from}.`);
    }
    if (stoppedBy !== undefined && pendingCount > 0) {
      return { durationMs: elapsed(start), moved, missing: 0, notSearched: { count: pendingCount, messages: reads, passedOver: passedOver, bytes: heldBytes, bound: stoppedBy, maxMessages, maxBytes } };
    }
    return { durationMs: elapsed(start), moved, missing: pendingCount };
  }

  /**
   * Read only (passive declares): the first target queue of `moves` that does not exist, as the
   * error redrive() would stop with before moving anything, or undefined.
   */
  async redriveTargetRefusal(moves: readonly RedriveMove[]): Promise<{ at: number; error: BrokerError } | undefined> {
    for (const queue of new Set(moves.map((move) => move.message.amqp.routingKey))) {
      try {
        await this.checkQueue(queue);
      } catch (error) {
        if (error instanceof BrokerError && error.kind === 'missing-queue') return { at: 0, error };
        throw error;
      }
    }
    return undefined;
  }

  /** Closes the channels and the connection; a stalled broker gets its socket dropped after the deadline. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const drop = () => {
      const connection = this.model.connection as unknown as { stream?: { destroy(error?: Error): void }; heartbeater?: { clear(): void } | null };
      // amqplib watches its socket for 'error' and 'end', not 'close': a plain destroy() leaves its
      // heartbeat timers running, which kept a process alive for minutes after a half-open send.
      connection.stream?.destroy(new Error('dropped after a missed deadline'));
      connection.heartbeater?.clear();
    };
    if (this.stalled) {
      drop();
      return;
    }
    try {
      await withDeadline(this.model.close(), this.timeoutMs, () => new Deadline());
    } catch {
      // Already closed, or the broker does not answer close: drop the socket so the process can exit.
      drop();
    }
  }

  private confirmChannel(): Promise<ConfirmChannel> {
    // The promise is cached, not the channel, so two publishes at once share one channel.
    if (this.confirm) return this.confirm;
    const pending = withDeadline(this.model.createConfirmChannel(), this.timeoutMs, () => new Deadline()).then((channel) => {
      channel.on('error', (error: unknown) => {
        this.channelError = error;
      });
      channel.on('close', () => {
        if (this.confirm === pending) this.confirm = undefined;
      });
      return channel;
    });
    pending.catch(() => {
      if (this.confirm === pending) this.confirm = undefined;
    });
    this.confirm = pending;
    return pending;
  }

  /**
   * Runs `work` on a channel of its own, closed afterwards. The deadline applies to `work` as a
   * whole, unless `roundTrips` says it sets one on each of its round trips itself.
   */
  private async onThrowawayChannel<T>(phase: Phase, queue: string, work: (channel: Channel) => Promise<T>, roundTrips = false): Promise<T> {
    let channel: Channel | undefined;
    let open = false;
    try {
      channel = await withDeadline(this.model.createChannel(), this.timeoutMs, () => new Deadline());
      open = true;
      channel.on('error', () => {});
      channel.on('close', () => {
        open = false;
      });
      return await (roundTrips ? work(channel) : withDeadline(work(channel), this.timeoutMs, () => new Deadline()));
    } catch (error) {
      // After a deadline the broker is not answering, so its close-ok is not awaited either.
      if (channel && open && error instanceof Deadline) channel.close().catch(() => {});
      open = open && !(error instanceof Deadline);
      throw await this.fail(error, phase, queue);
    } finally {
      if (channel && open) await withDeadline(channel.close(), this.timeoutMs, () => new Deadline()).catch(() => {});
    }
  }

  private async fail(error: unknown, phase: Phase, queue: string): Promise<BrokerError> {
    if (error instanceof Deadline) this.stalled = true;
    if (this.connectionError !== undefined && /channel ended|channel closed|connection closed/i.test(errorMessage(error))) error = this.connectionError;
    if (this.blocked !== undefined && error instanceof Deadline) {
      return new BrokerError('timeout', `${this.target.display} is blocking publishers (${quoted(this.blocked, this.target)}): nothing was confirmed within ${this.timeoutMs} ms.`, { target: this.target.display });
    }
    return classify(error, this.target, this.timeoutMs, phase, queue);
  }
}

/** Connects an AmqpPublisher to `target` (shorthand for AmqpPublisher.open). */
export function openAmqp(target: BrokerTarget, options: AmqpPublisherOptions = {}): Promise<AmqpPublisher> {
  return AmqpPublisher.open(target, options);
}

class Returned extends Error {}

function confirmedPublish(channel: ConfirmChannel, exchange: string, routingKey: string, body: Buffer, properties: AmqpProperties): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let returned = false;
    // RabbitMQ sends basic.return before the confirm of the same unroutable message.
    const onReturn = (returnedMessage: { properties: { messageId?: unknown } }) => {
      if (returnedMessage.properties.messageId === properties.messageId) returned = true;
    };
    channel.on('return', onReturn);
    const options = {
      contentType: properties.contentType,
      contentEncoding: properties.contentEncoding,
      deliveryMode: properties.deliveryMode,
      appId: properties.appId,
      type: properties.type,
      correlationId: properties.correlationId,
      messageId: properties.messageId,
      headers: typedHeaders(properties.headers ?? {}),
      mandatory: true,
    };
    try {
      channel.publish(exchange, routingKey, body, options, (error: unknown) => {
        channel.off('return', onReturn);
        if (error) reject(error);
        else if (returned) reject(new Returned());
        else resolve();
      });
    } catch (error) {
      channel.off('return', onReturn);
      reject(error);
    }
  });
}

/** A digest of the bytes, for a Map key: the same bytes have the same key (a message of hundreds of MiB is no string of that length). */
function bytesKey(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64');
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), b) === 0;
}

function peekedProperties(raw: Record<string, unknown>): PeekedAmqpProperties {
  const out: Record<string, unknown> = {};
  for (const key of ['contentType', 'contentEncoding', 'deliveryMode', 'appId', 'type', 'correlationId', 'messageId', 'timestamp', 'headers']) {
    if (raw[key] !== undefined && raw[key] !== null) out[key] = raw[key];
  }
  return out as PeekedAmqpProperties;
}

/** The amqplib fields that are AMQP short strings, in the envelope's or the command's words. */
const SHORT_STRING_FIELDS: Readonly<Record<string, string>> = {
  queue: 'a queue name',
  routingKey: 'the routing key (the queue name)',
  exchange: 'an exchange name',
  type: 'the type property (the URN)',
  correlationId: 'the correlation_id property (the trace_id)',
  messageId: 'the message_id property (meta.id)',
};

/** The amqplib field named by an error that refused a short string over 255 bytes before sending it, else undefined. */
function tooLongShortString(message: string): string | undefined {
  return /^Field '(\w+)' is the wrong type; must be a string \(up to 255 chars\)/.exec(message)?.[1];
}

/**
 * Turns whatever amqplib threw into a BrokerError in a user's words. `address`: the one connected
 * to, when broker/connect-address.ts pinned one (a TLS stall is probed there).
 */
async function classify(error: unknown, target: BrokerTarget, timeoutMs: number, phase: Phase, fullQueue?: string, address?: string): Promise<BrokerError> {
  if (error instanceof BrokerError) return error;
  // A queue a dead letter names (or a file's meta.queue), as an error names it: bounded, on one line, escaped.
  const queue = fullQueue === undefined ? undefined : named(fullQueue);
  const where = target.display;
  const message = errorMessage(error);
  const code = errorCode(error);
  const make = (kind: BrokerErrorKind, text: string) => new BrokerError(kind, text, { target: where, ...(code !== undefined ? { code } : {}) });
  // amqplib checks AMQP 0-9-1 short strings (at most 255 bytes) itself and throws before sending
  // anything: RabbitMQ was never asked, so this is not its refusal. In a redrive, the messages
  // before this one were sent.
  const tooLong = tooLongShortString(message);
  if (tooLong !== undefined) {
    const what = SHORT_STRING_FIELDS[tooLong] ?? `the field ${tooLong}`;
    return make('rejected', `AMQP 0-9-1 allows at most 255 bytes (UTF-8) in ${what}, and this one is longer: ${phase === 'redrive' ? 'it was not sent' : 'nothing was sent'} to ${where}.`);
  }
  if (error instanceof Returned) {
    return make('missing-queue', `${where} returned the message: the queue ${queue} disappeared before it arrived, so nothing was delivered.`);
  }
  if (error instanceof Deadline || /ETIMEDOUT/.test(message)) {
    if (phase === 'connect' && target.tls) {
      const reach = await tlsReach(target, Math.min(timeoutMs, 1000), address);
      if (reach === 'tcp') return make('tls', `${where} accepted the connection but did not complete a TLS handshake within ${timeoutMs} ms: ${tlsHint(target)}`);
      if (reach === 'handshake') return make('timeout', `${where} completed the TLS handshake but did not complete the AMQP handshake within ${timeoutMs} ms: is RabbitMQ listening behind TLS on that port?`);
    }
    if (phase === 'connect') {
      return make('timeout', `${where} did not complete the AMQP handshake within ${timeoutMs} ms: is RabbitMQ listening on that port (it may be another service that never answers)?`);
    }
    if (phase === 'publish') {
      return make('timeout', `${where} did not confirm the message for ${queue} within ${timeoutMs} ms: it may or may not have been stored; peek before sending again.`);
    }
    if (phase === 'redrive') return make('timeout', `${where} did not answer within ${timeoutMs} ms while moving messages onto ${queue}.`);
    return make('timeout', `${where} did not answer within ${timeoutMs} ms.`);
  }
  const socket = socketFailure(error, target, 'RabbitMQ', timeoutMs);
  if (socket) return socket;
  if ((/ACCESS.REFUSED/i.test(message) || code === '403') && phase === 'declare' && queue?.startsWith('amq.')) {
    // Not the user's permissions: RabbitMQ keeps the "amq." prefix for itself, for every user.
    return make('rejected', `${where} refused to declare queue ${queue}: names starting with "amq." are reserved for the broker (${quoted(brokerReason(message), target)}). Use another queue name.`);
  }
  const exchange = /access to exchange '([^']*)'/i.exec(message)?.[1];
  if (exchange !== undefined && (/ACCESS.REFUSED/i.test(message) || code === '403')) {
    // RabbitMQ checks a publish's write permission on the exchange, and names the default one
    // amq.default: write permission on the queue's name does not let a user publish to it.
    const which = exchange === 'amq.default' ? 'the default exchange (write permission on "amq.default", which RabbitMQ checks for every queue reached through it, not on the queue name)' : `the exchange ${quoted(exchange, target)} (write permission on it)`;
    return make('auth', `${where} does not allow this user to publish to ${which}, and refused the publish to ${queue}: check the user's permissions on the virtual host.`);
  }
  if (/ACCESS.REFUSED/i.test(message) || code === '403') {
    return phase === 'connect'
      // A user without a password is logged in with an empty one (amqplib's guest:guest applies only when neither is given).
      ? new BrokerError('auth', target.username !== undefined && !target.password
        ? `Login to ${where} refused: no password was given for the user ${JSON.stringify(target.username)}.`
        : `Login to ${where} refused: wrong user name or password (RabbitMQ's guest user may log in only from localhost).`, { target: where, ...(code !== undefined ? { code } : {}), loginRefused: true })
      : make('auth', `${where} does not allow this user to ${phase === 'peek' ? 'read' : phase === 'declare' ? 'declare' : 'use'} queue ${queue}: check the user's permissions on the virtual host.`);
  }
  // amqplib prints the close frame without its fields; a close in answer to connection.open is
  // RabbitMQ's NOT_ALLOWED for the virtual host, which it also sends when the virtual host or the
  // user has as many connections as its limit allows: the reason cannot be told apart here.
  if (/NOT.ALLOWED/i.test(message) || code === '530' || /Expected ConnectionOpenOk; got <ConnectionClose/.test(message)) {
    return make('rejected', `${where} refused the virtual host ${JSON.stringify(target.vhost ?? '/')}: it does not exist, this user has no access to it, or it or the user has reached its connection limit.`);
  }
  if (/NOT.FOUND - no exchange/i.test(message)) {
    return make('rejected', `${where} has no exchange ${quoted(/no exchange '([^']*)'/.exec(message)?.[1] ?? '', target)}: nothing was published.`);
  }
  if (/NOT.FOUND/i.test(message) || code === '404') {
    return make('missing-queue', phase === 'peek' || phase === 'check'
      ? `The queue ${queue} does not exist on ${where}.`
      : `The queue ${queue} does not exist on ${where}: the default exchange would drop the message silently. Declare it (durable) first.`);
  }
  if (/PRECONDITION.FAILED|RESOURCE.LOCKED|NOT.IMPLEMENTED/i.test(message) || code === '406' || code === '405' || code === '540') {
    return make('rejected', `${where} refused to ${phase} queue ${queue}: ${quoted(brokerReason(message), target)}.`);
  }
  if (/message nacked/i.test(message)) {
    return make('rejected', `${where} did not accept the message for ${queue} (negative confirm): nothing was stored.`);
  }
  if (phase === 'connect' && /Expected|Frame|Unexpected|Unknown|handshake|Invalid|unrecognised/i.test(message)) {
    return make('wrong-protocol', `${where} answered, but not in AMQP 0-9-1: is that port really RabbitMQ?`);
  }
  if ((/closed|Channel ended|CONNECTION.FORCED/i.test(message) || code === '320') && phase === 'redrive') {
    return make('closed', `The connection to ${where} closed in the middle of the redrive.`);
  }
  // amqplib fails an RPC still waiting for its reply with "Channel ended" when the socket drops:
  // the connection went away, the broker refused nothing.
  if (/closed|Channel ended|CONNECTION.FORCED/i.test(message) || code === '320') {
    return make('closed', `The connection to ${where} closed before RabbitMQ answered: the ${phase} may not have happened.`);
  }
  return make('rejected', `${where} refused the ${phase}${queue ? ` on queue ${queue}` : ''}: ${quoted(brokerReason(message), target) || 'no reason given'}.`);
}

/** The methods of AMQP 0-9-1's basic class (60) a channel.close can name as its cause, by method id. */
const BASIC_METHODS: Readonly<Record<number, string>> = {
  10: 'basic.qos',
  20: 'basic.consume',
  30: 'basic.cancel',
  40: 'basic.publish',
  70: 'basic.get',
  80: 'basic.ack',
  90: 'basic.reject',
  100: 'basic.recover-async',
  110: 'basic.recover',
  120: 'basic.nack',
};

/** The fields of a channel.close from the broker, as amqplib hands them on (its 'error' event, or the call it fails). */
interface ChannelCloseFields {
  readonly code?: unknown;
  readonly classId?: unknown;
  readonly methodId?: unknown;
}

/**
 * True when `error` is the broker closing a channel (a channel.close with a reply code), not a
 * connection that went away (320) or a normal close (200).
 */
function brokerChannelClose(error: unknown): boolean {
  const code = (error as ChannelCloseFields | null)?.code;
  return typeof code === 'number' && code !== 200 && code !== 320;
}

/** True when the broker's channel.close names basic.publish as its cause: it answers a message published. */
function closedOnPublish(error: unknown): boolean {
  const { classId, methodId } = (error ?? {}) as ChannelCloseFields;
  return brokerChannelClose(error) && classId === 60 && methodId === 40;
}

/**
 * True when the broker refused a published message by closing the channel in answer to its
 * basic.publish (406 PRECONDITION_FAILED for a message past max_message_size), other than by 403
 * or 404, which have words of their own (unroutedClose). A close in answer to another method (an
 * ack of an unknown delivery tag) is no refusal of a message.
 */
function refusalClose(error: unknown): boolean {
  const code = (error as ChannelCloseFields | null)?.code;
  return closedOnPublish(error) && code !== 403 && code !== 404;
}

/**
 * True when the broker closed the channel because it would not route a basic.publish: 403 (no
 * write permission on the exchange) or 404 (no such exchange). The message reached no queue.
 */
function unroutedClose(error: unknown): boolean {
  const code = (error as ChannelCloseFields | null)?.code;
  return closedOnPublish(error) && (code === 403 || code === 404);
}

/** True when the broker closed the channel in answer to something other than a basic.publish (or named no method). */
function otherChannelClose(error: unknown): boolean {
  return brokerChannelClose(error) && !closedOnPublish(error);
}

/** The method a broker's channel.close names as its cause (`basic.ack`), or undefined when it names none. */
function closedDuring(error: unknown): string | undefined {
  const { classId, methodId } = (error ?? {}) as ChannelCloseFields;
  if (typeof classId !== 'number' || typeof methodId !== 'number' || classId === 0) return undefined;
  return (classId === 60 ? BASIC_METHODS[methodId] : undefined) ?? `method ${methodId} of class ${classId}`;
}

/**
 * The error for a channel the broker closed other than in refusal of a published message: which
 * channel (`that ${channel}`), during which method, RabbitMQ's reason and reply code, then `after`.
 */
function channelClosed(error: unknown, target: BrokerTarget, channel: string, after: string): BrokerError {
  const code = errorCode(error);
  const during = closedDuring(error);
  const reason = quoted(brokerReason(errorMessage(error)), target);
  return new BrokerError('rejected', `${target.display}: RabbitMQ closed the channel that ${channel}${during ? ` during ${during}` : ''} (${reason ? `${reason}, ` : ''}reply code ${code})${after}`, {
    target: target.display,
    ...(code !== undefined ? { code } : {}),
  });
}

/** The error for a publish the broker refused by closing its channel: refused, why, and (given `queue`) not published to it. */
function refusedMessage(error: unknown, target: BrokerTarget, queue: string | undefined): BrokerError {
  const code = errorCode(error);
  // Without `queue` the caller says itself which message was not published, and where it is.
  const notPublished = queue === undefined ? '' : ` It was not published to ${named(queue)}.`;
  return new BrokerError('rejected', `${target.display}: RabbitMQ refused the message and closed the channel (${quoted(brokerReason(errorMessage(error)), target) || `reply code ${code}`}).${notPublished}`, {
    target: target.display,
    ...(code !== undefined ? { code } : {}),
  });
}

/** The most meta.ids an error names; the rest are counted. */
const NAMED_IDS = 5;

/** The meta.ids of `moves` as an error names them: the first few, each named, and how many more. */
function someIds(moves: readonly RedriveMove[]): string {
  const shown = moves.slice(0, NAMED_IDS).map((move) => named(move.message.metaId)).join(', ');
  return moves.length > NAMED_IDS ? `${shown} and ${moves.length - NAMED_IDS} more` : shown;
}

/** The broker's own reason from an amqplib message (`… with message "NOT_FOUND - no queue 'x'"`). */
function brokerReason(message: string): string {
  const quoted = /with message "([^"]*)"/.exec(message);
  return (quoted?.[1] ?? message.split('\n')[0] ?? '').trim();
}

/**
 * Integer headers as 32-bit signed AMQP integers ('I'), as the PHP and Go transports write them:
 * amqplib would otherwise pick the smallest type (a signed byte for 0 and 1), which strictly
 * typed consumers may not read as an int.
 */
function typedHeaders(headers: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const typed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(headers)) {
    const int32 = typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
    typed[key] = int32 ? { '!': 'int', value } : value;
  }
  return typed;
}
