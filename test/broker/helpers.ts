/**
 * Shared pieces of the broker tests: unique names, hand-built OutgoingMessages (the tests must not
 * depend on the encoder they are checking against), and loopback-only fake servers.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { inspect } from 'node:util';
import { after, before } from 'node:test';
import { connect, type Channel, type ChannelModel, type ConfirmChannel, type Options } from 'amqplib';
import Redis from 'ioredis';
import assert from 'node:assert/strict';
import type { OutgoingMessage, RedisLayout, RedriveMove } from '../../core/message/types';
import { redriveMessage } from '../../core/message/dead-letter';
import { redisProjection } from '../../core/message/build';

export const REDIS_URL = 'redis://127.0.0.1:6379';
export const AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';
export const URN = 'urn:babel:orders:created';
export const NOTE = 'Café — naïve ☕ 😀';

/** A queue name no other test (or run) uses. */
export function uniqueQueue(): string {
  return `babelq-test-${randomBytes(6).toString('hex')}`;
}

/** A password-like secret that would be noticed anywhere it leaked. */
export function uniqueSecret(): string {
  return `S3cr3t-${randomBytes(6).toString('hex')}`;
}

export interface MessageOptions {
  readonly layout?: RedisLayout;
  /** Laravel's connection prefix, e.g. `laravel_database_`. */
  readonly prefix?: string;
  readonly orderId?: number;
}

/** An OutgoingMessage for `queue` built by hand from a realistic envelope with non-ASCII text. */
export function outgoing(queue: string, options: MessageOptions = {}): OutgoingMessage {
  const metaId = randomUUID();
  const traceId = randomUUID();
  const orderId = options.orderId ?? 1042;
  // Written out as the wire text (PHP-style key order), not produced by an encoder under test.
  const text =
    `{"job":"${URN}","trace_id":"${traceId}",` +
    `"data":{"order_id":${orderId},"note":"${NOTE}","total_cents":9990,"currency":"EUR"},` +
    `"meta":{"id":"${metaId}","queue":"${queue}","lang":"php","schema_version":1,"created_at":1749132727000},"attempts":0}`;
  const bytes = new TextEncoder().encode(text);
  return {
    text,
    bytes,
    byteLength: bytes.byteLength,
    textLength: text.length,
    textHead: (units) => text.slice(0, units),
    textTail: (units) => text.slice(Math.max(0, text.length - units)),
    sdk: 'php',
    queue,
    urn: URN,
    metaId,
    // The key layout is core's (tested in test/core/message/build.test.ts); the broker adapters are under test here.
    redis: redisProjection(queue, options.layout ?? 'babelqueue', options.prefix ?? ''),
    amqp: {
      exchange: '',
      routingKey: queue,
      properties: {
        contentType: 'application/json',
        contentEncoding: 'utf-8',
        deliveryMode: 2,
        appId: 'babelqueue',
        type: URN,
        correlationId: traceId,
        messageId: metaId,
        headers: { 'x-schema-version': 1, 'x-source-lang': 'php', 'x-attempts': 0 },
      },
    },
  };
}

/**
 * Publishes `bodies` to the RabbitMQ `queue` on a channel in confirm mode and resolves once RabbitMQ
 * has confirmed every one: they are on the queue then, for a get on any connection. (A plain
 * publish is only written to the socket; the queue may take it later than a fixed pause.)
 */
export async function putOnQueue(channel: ConfirmChannel, queue: string, bodies: readonly (string | Buffer)[], options: Options.Publish = { persistent: true }): Promise<void> {
  for (const body of bodies) channel.sendToQueue(queue, typeof body === 'string' ? Buffer.from(body) : body, options);
  await channel.waitForConfirms();
}

/** Resolves once the RabbitMQ `queue` holds `count` messages ready for a consumer; fails after `timeoutMs` saying how many it held. */
export async function untilQueueHolds(channel: Channel, queue: string, count: number, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const { messageCount } = await channel.checkQueue(queue);
    if (messageCount === count) return;
    assert.ok(Date.now() - started < timeoutMs, `${queue} still held ${messageCount} message(s), not ${count}, after ${timeoutMs} ms`);
    await new Promise((resume) => setTimeout(resume, 20));
  }
}

/** The bodies in the RabbitMQ `queue`, taken out of it (it is empty after), oldest first. */
export async function drainQueue(channel: Channel, queue: string): Promise<string[]> {
  const bodies: string[] = [];
  for (;;) {
    const got = await channel.get(queue, { noAck: true });
    if (got === false) return bodies;
    bodies.push(got.content.toString('utf8'));
  }
}

/** A loopback port nothing listens on (bound, read, released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await listen(server);
  const port = portOf(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A loopback TCP server; `onConnection` decides what (if anything) it ever says. */
export class FakeServer {
  readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server) {}

  static async start(onConnection: (socket: Socket) => void = () => {}): Promise<FakeServer> {
    const server = createServer();
    const fake = new FakeServer(server);
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => fake.sockets.delete(socket));
      onConnection(socket);
    });
    await listen(server);
    return fake;
  }

  get port(): number {
    return portOf(this.server);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The ways of showing `error` (message, String, stack, JSON, inspect) in which `secret` appears. */
export function leakedIn(error: unknown, secret: string): string[] {
  const e = error as Error;
  const views: Record<string, string> = {
    message: e.message,
    'String(error)': String(e),
    stack: e.stack ?? '',
    'JSON.stringify': JSON.stringify(e),
    inspect: inspect(e, { depth: 5 }),
  };
  return Object.entries(views)
    .filter(([, text]) => text.includes(secret) || text.includes(encodeURIComponent(secret)))
    .map(([name]) => name);
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  return address.port;
}

/**
 * The body the Node Redis and RabbitMQ consumers push to `<queue>.dlq` after `maxTries` 3 failed
 * runs (facts part 2 §3.1): a spread copy of the envelope with `attempts` 2 and the block. Built
 * here with JSON.stringify as that consumer does, not by the code under test.
 */
export function deadLettered(envelopeText: string, queue: string, error: string, failedAt = 1749132730000): string {
  const envelope = JSON.parse(envelopeText) as Record<string, unknown> & { meta?: { queue?: string } };
  return JSON.stringify({
    ...envelope,
    attempts: 2,
    dead_letter: { reason: 'failed', error, exception: 'Error', failed_at: failedAt, original_queue: envelope.meta?.queue ?? queue, attempts: 2, lang: 'node' },
  });
}

/** Plain clients of the machine's Redis and RabbitMQ for a test file, and what it leaves to clean up. */
export interface RealBrokers {
  readonly redis: Redis;
  /** In confirm mode, for putOnQueue. */
  readonly channel: ConfirmChannel;
  /** Redis keys and RabbitMQ queues deleted after the file's tests. */
  readonly redisKeys: Set<string>;
  readonly amqpQueues: Set<string>;
  /** Run before the deletions (proxies to close, …). */
  readonly closers: (() => Promise<void>)[];
}

/** Connects before the file's tests and cleans up after them (registers the hooks). */
export function useRealBrokers(): RealBrokers {
  const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, retryStrategy: null, maxRetriesPerRequest: 0 });
  let connection: ChannelModel | undefined;
  const brokers = { redis, channel: undefined as unknown as ConfirmChannel, redisKeys: new Set<string>(), amqpQueues: new Set<string>(), closers: [] as (() => Promise<void>)[] };
  before(async () => {
    await redis.connect();
    connection = await connect(AMQP_URL);
    brokers.channel = await connection.createConfirmChannel();
  });
  after(async () => {
    for (const close of brokers.closers) await close();
    if (brokers.redisKeys.size > 0) await redis.del(...brokers.redisKeys);
    for (const queue of brokers.amqpQueues) await brokers.channel.deleteQueue(queue);
    await redis.quit();
    await connection?.close();
  });
  return brokers;
}

/** A fresh RabbitMQ queue and its `<queue>.dlq`, both durable, deleted after the file's tests. */
export async function amqpQueueWithDlq(brokers: RealBrokers): Promise<{ queue: string; dlq: string }> {
  const queue = uniqueQueue();
  const dlq = `${queue}.dlq`;
  for (const name of [queue, dlq]) {
    brokers.amqpQueues.add(name);
    await brokers.channel.assertQueue(name, { durable: true });
  }
  return { queue, dlq };
}

/** A redrive of `body` (a dead letter's text) as the Node SDK would redrive it, for the broker's redrive. */
export function redriveMove(body: string): RedriveMove {
  const redriven = redriveMessage(body, { sdk: 'node', redisLayout: 'babelqueue' });
  assert.ok(redriven.ok, redriven.ok ? '' : redriven.error);
  return { original: new TextEncoder().encode(body), message: redriven.message };
}
