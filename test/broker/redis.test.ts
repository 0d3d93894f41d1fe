/**
 * Redis against the machine's real server: both layouts store exactly the message bytes, the
 * Laravel pair is pushed in one MULTI/EXEC, peek reads without removing, and a consumer written
 * here from the contract (atomic move into `<queue>:processing`, decode, route on the URN, LREM
 * to ack) receives and accepts what was sent.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import Redis from 'ioredis';
import { openBroker, type Broker } from '../../broker';
import { parseTarget } from '../../broker/target';
import { NOTE, outgoing, REDIS_URL, uniqueQueue, URN } from './helpers';
import { Proxy, respCommand } from './proxy';

let plain: Redis;
const keys = new Set<string>();
const brokers: Broker[] = [];

/** Remembers every key a test may create, so afterEach can delete them. */
function track(...names: string[]): void {
  for (const name of names) keys.add(name);
}

async function open(): Promise<Broker> {
  const broker = await openBroker(REDIS_URL, { timeoutMs: 5000 });
  brokers.push(broker);
  return broker;
}

before(async () => {
  plain = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, retryStrategy: null, maxRetriesPerRequest: 0 });
  await plain.connect();
});

afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
  if (keys.size > 0) await plain.del(...keys);
  keys.clear();
});

after(async () => {
  await plain.quit();
});

describe('redis babelqueue layout', () => {
  test('RPUSH onto the bare queue stores exactly the message bytes', async () => {
    const queue = uniqueQueue();
    track(queue, `${queue}:notify`, `queues:${queue}`);
    const message = outgoing(queue);
    assert.ok(message.bytes.length > message.text.length, 'the fixture has multi-byte UTF-8');
    const broker = await open();
    const receipt = await broker.publish(message);
    assert.equal(receipt.target, 'redis://127.0.0.1:6379');
    assert.equal(receipt.length, 1);
    assert.ok(receipt.durationMs >= 0);

    const stored = await plain.lrangeBuffer(queue, 0, -1);
    assert.equal(stored.length, 1);
    assert.equal(Buffer.compare(stored[0]!, Buffer.from(message.bytes)), 0, 'byte for byte');
    assert.equal(stored[0]!.toString('utf8'), message.text);
    assert.ok(stored[0]!.toString('utf8').includes(NOTE));
    // Nothing else was written: no notify marker, no Laravel key.
    assert.equal(await plain.exists(`${queue}:notify`, `queues:${queue}`), 0);
  });

  test('peek returns the last N, oldest first, and removes nothing', async () => {
    const queue = uniqueQueue();
    track(queue);
    const broker = await open();
    const messages = [1, 2, 3].map((orderId) => outgoing(queue, { orderId }));
    for (const message of messages) await broker.publish(message);

    const lastTwo = await broker.peek(queue, 2);
    assert.deepEqual(lastTwo.map((m) => Buffer.from(m.body).toString('utf8')), [messages[1]!.text, messages[2]!.text]);
    assert.equal(await plain.llen(queue), 3, 'peek is non-destructive');
    const all = await broker.peek(queue, 10);
    assert.equal(all.length, 3);
    assert.deepEqual(Buffer.from(all[0]!.body), Buffer.from(messages[0]!.bytes));
    assert.deepEqual(await broker.peek(queue, 0), []);
    assert.deepEqual(await broker.peek(uniqueQueue(), 5), [], 'a missing list is just empty');
    assert.equal(await plain.llen(queue), 3);
  });

  test('peek reads no more than its byte bound: the newest that fit, and the size of the next, which stays unread', async () => {
    const queue = uniqueQueue();
    track(queue);
    const sized = (name: string, bytes: number) => Buffer.concat([Buffer.from(name), Buffer.alloc(bytes - name.length, 0x61)]);
    const [older, middle, newest] = [sized('older', 300), sized('middle', 100), sized('newest', 100)];
    await plain.rpush(queue, older, middle, newest);
    const broker = await open();

    const bounded = await broker.peek(queue, 3, 250);
    assert.deepEqual(bounded.map((m) => Buffer.from(m.body)), [middle, newest]);
    assert.deepEqual(bounded.stopped, { maxBytes: 250, nextBytes: 300 });
    const none = await broker.peek(queue, 3, 99);
    assert.deepEqual(none.length, 0);
    assert.deepEqual(none.stopped, { maxBytes: 99, nextBytes: 100 });
    const all = await broker.peek(queue, 3, 500);
    assert.deepEqual(all.map((m) => Buffer.from(m.body)), [older, middle, newest]);
    assert.equal(all.stopped, undefined);
    assert.deepEqual(await plain.lrangeBuffer(queue, 0, -1), [older, middle, newest], 'peek is non-destructive');
  });

  test('peek of a key that is not a list is refused as such', async () => {
    const queue = uniqueQueue();
    track(queue);
    await plain.hset(queue, 'field', 'value');
    const broker = await open();
    await assert.rejects(broker.peek(queue, 3), (error: Error & { kind?: string }) => {
      assert.equal(error.kind, 'rejected', error.message);
      assert.match(error.message, new RegExp(`the key ${queue} exists but is not a list, so nothing was read`));
      return true;
    });
  });

  test('a server without EVAL (renamed away) is still peeked, by LRANGE, and keeps the byte bound', async () => {
    const queue = uniqueQueue();
    track(queue);
    await plain.rpush(queue, 'older', 'middle', 'newest');
    // The real Redis behind a proxy that answers EVAL as a server whose EVAL was renamed away.
    const noEval = await Proxy.start(6379, 'cut-before', () => false, (chunk) => (respCommand('EVAL')(chunk) ? Buffer.from("-ERR unknown command 'EVAL', with args beginning with: ' local size' \r\n") : undefined));
    try {
      const broker = await openBroker(`redis://127.0.0.1:${noEval.port}`, { timeoutMs: 2000 });
      brokers.push(broker);
      const all = await broker.peek(queue, 3);
      assert.deepEqual(all.map((m) => Buffer.from(m.body).toString()), ['older', 'middle', 'newest']);
      const bounded = await broker.peek(queue, 3, 12);
      assert.deepEqual(bounded.map((m) => Buffer.from(m.body).toString()), ['middle', 'newest']);
      assert.deepEqual(bounded.stopped, { maxBytes: 12, nextBytes: 5 });
    } finally {
      await noEval.close();
    }
    assert.equal(await plain.llen(queue), 3, 'nothing was taken');
  });

  test('a consumer written from the contract reserves atomically, routes on the URN and accepts', async () => {
    const queue = uniqueQueue();
    const processing = `${queue}:processing`;
    track(queue, processing);
    const message = outgoing(queue);
    const broker = await open();
    await broker.publish(message);

    const handled: unknown[] = [];
    const handlers: Record<string, (data: Record<string, unknown>) => void> = {
      [URN]: (data) => handled.push(data),
    };
    // Reserve: LMOVE LEFT RIGHT is FIFO against RPUSH and atomic, so a crash leaves the message on :processing.
    const reserved = await plain.lmoveBuffer(queue, processing, 'LEFT', 'RIGHT');
    assert.ok(reserved, 'a message was reserved');
    assert.equal(await plain.llen(queue), 0);
    assert.equal(await plain.llen(processing), 1);
    const envelope = JSON.parse(reserved.toString('utf8')) as { job?: string; urn?: string; data: Record<string, unknown>; meta: { id: string; schema_version: number }; attempts: number };
    const urn = envelope.job ?? envelope.urn;
    assert.equal(envelope.meta.schema_version, 1);
    const handler = urn === undefined ? undefined : handlers[urn];
    assert.ok(handler, `a handler is registered for ${urn}`);
    handler(envelope.data);
    // Ack: remove exactly the reserved bytes from :processing.
    assert.equal(await plain.lrem(processing, 1, reserved), 1);

    assert.deepEqual(handled, [{ order_id: 1042, note: NOTE, total_cents: 9990, currency: 'EUR' }]);
    assert.equal(envelope.meta.id, message.metaId);
    assert.equal(await plain.llen(processing), 0);
  });

  test('the database in the URL path is the one written to', async () => {
    const queue = uniqueQueue();
    const db2 = new Redis({ host: '127.0.0.1', port: 6379, db: 2, lazyConnect: true, retryStrategy: null });
    await db2.connect();
    try {
      const broker = await openBroker(parseTarget('redis://127.0.0.1:6379/2'));
      brokers.push(broker);
      assert.equal(broker.target, 'redis://127.0.0.1:6379/2');
      await broker.publish(outgoing(queue));
      assert.equal(await plain.llen(queue), 0, 'not in db 0');
      assert.equal(await db2.llen(queue), 1);
    } finally {
      await db2.del(queue);
      await db2.quit();
    }
  });
});

describe('redis laravel layout', () => {
  for (const prefix of ['', 'laravel_database_']) {
    test(`queues:<q> and queues:<q>:notify in one MULTI/EXEC${prefix ? ' (with a connection prefix)' : ''}`, async () => {
      const queue = uniqueQueue();
      const listKey = `${prefix}queues:${queue}`;
      const notifyKey = `${listKey}:notify`;
      track(queue, listKey, notifyKey);
      const message = outgoing(queue, { layout: 'laravel', prefix });
      assert.equal(message.redis.listKey, listKey);

      const monitor = await plain.duplicate().monitor();
      const seen: { source: string; args: string[] }[] = [];
      monitor.on('monitor', (_time: string, args: string[], source: string) => seen.push({ source, args }));
      try {
        const broker = await open();
        const receipt = await broker.publish(message);
        assert.equal(receipt.length, 1);
        // MONITOR lines arrive asynchronously; wait for the EXEC.
        for (let i = 0; i < 50 && !seen.some((c) => c.args[0]?.toLowerCase() === 'exec'); i++) await new Promise((r) => setTimeout(r, 10));
      } finally {
        monitor.disconnect();
      }

      const stored = await plain.lrangeBuffer(listKey, 0, -1);
      assert.equal(stored.length, 1);
      assert.equal(Buffer.compare(stored[0]!, Buffer.from(message.bytes)), 0, 'byte for byte');
      assert.deepEqual(await plain.lrange(notifyKey, 0, -1), ['1']);
      assert.equal(await plain.exists(queue), 0, 'the bare queue is untouched');

      const start = seen.findIndex((c) => c.args[0]?.toLowerCase() === 'multi');
      assert.ok(start >= 0, 'a MULTI was sent');
      const source = seen[start]!.source;
      const transaction = seen.slice(start).filter((c) => c.source === source).slice(0, 4);
      assert.deepEqual(
        transaction.map((c) => [c.args[0]!.toLowerCase(), c.args[1]]),
        [['multi', undefined], ['rpush', listKey], ['rpush', notifyKey], ['exec', undefined]],
      );
    });
  }

  test('peek on the Laravel list key reads the body, not the marker', async () => {
    const queue = uniqueQueue();
    const message = outgoing(queue, { layout: 'laravel' });
    track(message.redis.listKey, message.redis.notifyKey!);
    const broker = await open();
    await broker.publish(message);
    const peeked = await broker.peek(message.redis.listKey, 5);
    assert.equal(peeked.length, 1);
    assert.equal(Buffer.from(peeked[0]!.body).toString('utf8'), message.text);
  });
});

test('round trip of a publish to the local Redis', async (t) => {
  const queue = uniqueQueue();
  track(queue);
  const broker = await open();
  const times: number[] = [];
  for (let i = 0; i < 20; i++) times.push((await broker.publish(outgoing(queue, { orderId: i }))).durationMs);
  times.sort((a, b) => a - b);
  t.diagnostic(`redis publish round trip: median ${times[10]} ms, max ${times[19]} ms over 20`);
  assert.equal(await plain.llen(queue), 20);
});
