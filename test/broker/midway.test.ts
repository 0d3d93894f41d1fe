/**
 * Faults in the middle of a send, against the real local Redis and RabbitMQ through a loopback
 * proxy that can act at the exact command: drop the connection before the push reaches the broker
 * (a restart), let the push through and then drop the connection (a restart right after storing),
 * or let it through and then swallow every reply (a half-open connection). Plus a Redis that hangs
 * up after the first command, and RabbitMQ closing the publish channel.
 *
 * Each must end in a clear BrokerError within the deadline, must never publish twice (no retry,
 * no resend: the queue is counted), and must not show the password in the error or in anything
 * printed while it ran.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { format } from 'node:util';
import { after, before, describe, test, type TestContext } from 'node:test';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import Redis from 'ioredis';
import { isBrokerError, openBroker, type Broker, type BrokerErrorKind } from '../../broker';
import type { OutgoingMessage } from '../../core/message/types';
import { AMQP_URL, FakeServer, leakedIn, outgoing, uniqueQueue, uniqueSecret } from './helpers';
import { fakeAuth, isBasicPublish, Proxy, respCommand, type Action } from './proxy';

const TIMEOUT_MS = 500;
const CLI = resolve(__dirname, '../../dist/cli.js');
const FIXTURE = resolve(__dirname, '../../examples/orders/order-created.babel.json');
const LATEST_MS = TIMEOUT_MS + 1500;

/** Everything printed (console and the process streams) while `work` runs. */
async function capturePrinted<T>(work: () => Promise<T>): Promise<{ value: T; printed: string }> {
  const printed: string[] = [];
  const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug, stdout: process.stdout.write, stderr: process.stderr.write };
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) console[method] = (...args: unknown[]) => void printed.push(format(...args));
  const tap = (stream: NodeJS.WriteStream, original: typeof process.stdout.write) =>
    ((chunk: unknown, ...rest: unknown[]) => {
      printed.push(String(chunk));
      return (original as (...a: unknown[]) => boolean).call(stream, chunk, ...rest);
    }) as typeof process.stdout.write;
  process.stdout.write = tap(process.stdout, saved.stdout);
  process.stderr.write = tap(process.stderr, saved.stderr);
  try {
    return { value: await work(), printed: printed.join('\n') };
  } finally {
    Object.assign(console, { log: saved.log, info: saved.info, warn: saved.warn, error: saved.error, debug: saved.debug });
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
  }
}

/** Opens (through the proxy), arms it, publishes once, closes; the error, the time and what was printed. */
async function sendThrough(url: string, proxy: Proxy | undefined, message: ReturnType<typeof outgoing>): Promise<{ error: unknown; ms: number; printed: string }> {
  const { value, printed } = await capturePrinted(async () => {
    let broker: Broker | undefined;
    let error: unknown;
    const start = performance.now();
    try {
      broker = await openBroker(url, { timeoutMs: TIMEOUT_MS });
      if (proxy) proxy.armed = true;
      await broker.publish(message);
    } catch (caught) {
      error = caught;
    } finally {
      await broker?.close();
    }
    return { error, ms: performance.now() - start };
  });
  return { ...value, printed };
}

function assertFault(t: TestContext, result: { error: unknown; ms: number; printed: string }, kinds: readonly BrokerErrorKind[], secret: string, says: RegExp): void {
  const { error, ms, printed } = result;
  assert.ok(isBrokerError(error), `expected a BrokerError, got ${String(error)}`);
  assert.ok(kinds.includes(error.kind), `kind ${error.kind} (${error.message}), expected ${kinds.join(' or ')}`);
  assert.match(error.message, says);
  assert.ok(ms < LATEST_MS, `took ${Math.round(ms)} ms`);
  assert.deepEqual(leakedIn(error, secret), [], `the password leaked in: ${error.message}`);
  assert.ok(!printed.includes(secret), `the password was printed: ${printed}`);
  t.diagnostic(`${error.kind} after ${Math.round(ms)} ms: ${error.message}`);
}

let redis: Redis;
let amqpConnection: ChannelModel;
let amqpChannel: Channel;
const redisKeys = new Set<string>();
const amqpQueues = new Set<string>();
const closers: (() => Promise<void>)[] = [];

before(async () => {
  redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, retryStrategy: null, maxRetriesPerRequest: 0 });
  await redis.connect();
  amqpConnection = await connect(AMQP_URL);
  amqpChannel = await amqpConnection.createChannel();
});

after(async () => {
  for (const close of closers) await close();
  if (redisKeys.size > 0) await redis.del(...redisKeys);
  for (const queue of amqpQueues) await amqpChannel.deleteQueue(queue);
  await redis.quit();
  await amqpConnection.close();
});

async function proxy(upstreamPort: number, action: Action, isTrigger: (chunk: Buffer) => boolean, intercept?: (chunk: Buffer) => Buffer | undefined): Promise<Proxy> {
  const started = await Proxy.start(upstreamPort, action, isTrigger, intercept);
  closers.push(() => started.close());
  return started;
}

function redisQueue(): string {
  const queue = uniqueQueue();
  redisKeys.add(queue).add(`queues:${queue}`).add(`queues:${queue}:notify`);
  return queue;
}

async function amqpQueue(): Promise<string> {
  const queue = uniqueQueue();
  amqpQueues.add(queue);
  await amqpChannel.assertQueue(queue, { durable: true });
  return queue;
}

describe('redis: faults in the middle of a send', () => {
  test('the connection drops before the RPUSH reaches Redis (a restart) → closed, nothing stored', async (t) => {
    const secret = uniqueSecret();
    const queue = redisQueue();
    const cutting = await proxy(6379, 'cut-before', respCommand('RPUSH'), fakeAuth);
    const result = await sendThrough(`redis://:${secret}@127.0.0.1:${cutting.port}`, cutting, outgoing(queue));
    assertFault(t, result, ['closed'], secret, /outcome is unknown \(it may have been stored\)\. Check with peek before sending again/);
    assert.equal(cutting.triggered, 1);
    assert.equal(await redis.llen(queue), 0);
  });

  test('Redis stores the push, then the connection drops before the reply → an error, and exactly one copy (no resend)', async (t) => {
    const secret = uniqueSecret();
    const queue = redisQueue();
    const cutting = await proxy(6379, 'cut-after', respCommand('RPUSH'), fakeAuth);
    const result = await sendThrough(`redis://:${secret}@127.0.0.1:${cutting.port}`, cutting, outgoing(queue));
    assertFault(t, result, ['closed', 'timeout'], secret, /outcome is unknown|may or may not have been stored/);
    assert.equal(await redis.llen(queue), 1, 'stored once, never resent');
  });

  test('a half-open connection (the push goes through, no reply ever comes back) → timeout that says the outcome is unknown; one copy', async (t) => {
    const secret = uniqueSecret();
    const queue = redisQueue();
    const silent = await proxy(6379, 'blackhole-after', respCommand('RPUSH'), fakeAuth);
    const result = await sendThrough(`redis://:${secret}@127.0.0.1:${silent.port}`, silent, outgoing(queue));
    assertFault(t, result, ['timeout'], secret, /may or may not have been stored/);
    assert.ok(result.ms >= TIMEOUT_MS - 50);
    assert.equal(await redis.llen(queue), 1, 'stored once, never resent');
  });

  test('Laravel layout: the connection drops at EXEC → closed, neither the list nor the notify marker written', async (t) => {
    const secret = uniqueSecret();
    const queue = redisQueue();
    const cutting = await proxy(6379, 'cut-before', respCommand('EXEC'), fakeAuth);
    const result = await sendThrough(`redis://:${secret}@127.0.0.1:${cutting.port}`, cutting, outgoing(queue, { layout: 'laravel' }));
    assertFault(t, result, ['closed'], secret, /outcome is unknown \(it may have been stored\)\. Check with peek before sending again/);
    assert.equal(await redis.llen(`queues:${queue}`), 0);
    assert.equal(await redis.llen(`queues:${queue}:notify`), 0);
  });

  test('a fake Redis that closes the connection after the first command → closed, within the deadline', async (t) => {
    const secret = uniqueSecret();
    const fake = await FakeServer.start((socket) => socket.once('data', () => socket.destroy()));
    closers.push(() => fake.close());
    const result = await sendThrough(`redis://:${secret}@127.0.0.1:${fake.port}`, undefined, outgoing(redisQueue()));
    assertFault(t, result, ['closed'], secret, /closed the connection/);
  });

  test('a fake Redis that answers the handshake, then closes on the push → closed; the push was sent once', async (t) => {
    const secret = uniqueSecret();
    let pushes = 0;
    const fake = await FakeServer.start((socket) =>
      socket.on('data', (chunk: Buffer) => {
        const text = chunk.toString('latin1');
        if (/RPUSH/i.test(text)) {
          pushes++;
          socket.destroy();
        } else if (/AUTH/i.test(text)) socket.write('+OK\r\n');
        else if (/PING/i.test(text)) socket.write('+PONG\r\n');
      }),
    );
    closers.push(() => fake.close());
    const result = await sendThrough(`redis://:${secret}@127.0.0.1:${fake.port}`, undefined, outgoing(redisQueue()));
    assertFault(t, result, ['closed'], secret, /outcome is unknown \(it may have been stored\)\. Check with peek before sending again/);
    assert.equal(pushes, 1, 'no retry');
  });
});

describe('rabbitmq: faults in the middle of a send', () => {
  const url = (port: number) => `amqp://guest:guest@127.0.0.1:${port}`;

  test('the connection drops before basic.publish reaches RabbitMQ → closed, nothing delivered', async (t) => {
    const queue = await amqpQueue();
    const cutting = await proxy(5672, 'cut-before', isBasicPublish);
    const result = await sendThrough(url(cutting.port), cutting, outgoing(queue));
    assertFault(t, result, ['closed'], 'guest:guest', /may not have happened/);
    assert.equal(cutting.triggered, 1);
    assert.equal((await amqpChannel.checkQueue(queue)).messageCount, 0);
  });

  test('RabbitMQ takes the message, then the connection drops before the confirm → an error, and one copy (no resend)', async (t) => {
    const queue = await amqpQueue();
    const cutting = await proxy(5672, 'cut-after', isBasicPublish);
    const result = await sendThrough(url(cutting.port), cutting, outgoing(queue));
    assertFault(t, result, ['closed', 'timeout'], 'guest:guest', /may (or may )?not have/);
    // Persisted once; give the broker a moment to route it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok((await amqpChannel.checkQueue(queue)).messageCount <= 1, 'never twice');
  });

  test('a half-open connection (publish goes through, the confirm never comes back) → timeout, outcome unknown; one copy', async (t) => {
    const queue = await amqpQueue();
    const silent = await proxy(5672, 'blackhole-after', isBasicPublish);
    const result = await sendThrough(url(silent.port), silent, outgoing(queue));
    assertFault(t, result, ['timeout'], 'guest:guest', /may or may not have been stored/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await amqpChannel.checkQueue(queue)).messageCount, 1, 'stored once, never resent');
  });

  test('babelq send over a half-open connection reports the timeout and exits at once (no heartbeat timers left behind)', async () => {
    const queue = await amqpQueue();
    const silent = await proxy(5672, 'blackhole-after', isBasicPublish);
    silent.armed = true;
    const started = performance.now();
    // Asynchronously: the proxy runs in this process and must keep forwarding meanwhile.
    const run = await new Promise<{ status: number | null; signal: string | null; stdout: string; stderr: string }>((done) => {
      const child = execFile(process.execPath, [CLI, 'send', FIXTURE, '--broker', `amqp://guest:guest@127.0.0.1:${silent.port}`, '--queue', queue, '--timeout', String(TIMEOUT_MS)], { encoding: 'utf8', timeout: 20_000 }, (_error, stdout, stderr) =>
        done({ status: child.exitCode, signal: child.signalCode, stdout, stderr }),
      );
    });
    const seconds = (performance.now() - started) / 1000;
    assert.equal(run.signal, null, `babelq send was still running after ${seconds.toFixed(1)} s`);
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /may or may not have been stored/);
    assert.ok(seconds < 8, `babelq send took ${seconds.toFixed(1)} s to exit`);
    assert.doesNotMatch(run.stdout + run.stderr, /guest:guest|:guest@/);
  });

  test('RabbitMQ closes the publish channel (an error on it): a clear error, and the next publish on the same connection works', async (t) => {
    const queue = await amqpQueue();
    const broker = await openBroker(url(5672), { timeoutMs: TIMEOUT_MS });
    try {
      const broken = outgoing(queue);
      // Publishing to an exchange that does not exist makes the broker close the channel (404).
      // The message type allows only the default exchange; this breaks that on purpose.
      const message: OutgoingMessage = { ...broken, amqp: { ...broken.amqp, exchange: `babelq-missing-${uniqueQueue()}` as unknown as '' } };
      const started = performance.now();
      const { value: error, printed } = await capturePrinted(() => broker.publish(message).then(() => undefined, (caught: unknown) => caught));
      // The channel's own close reason, not a connection that "closed before RabbitMQ answered".
      assertFault(t, { error, ms: performance.now() - started, printed }, ['rejected'], 'guest:guest', /no exchange/);
      await broker.publish(outgoing(queue));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal((await amqpChannel.checkQueue(queue)).messageCount, 1, 'only the second publish arrived');
    } finally {
      await broker.close();
    }
  });
});
