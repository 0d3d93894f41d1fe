/**
 * RabbitMQ against the machine's real server: the body and every projected property arrive as
 * built (headers with native number types), a missing queue is an error and receives nothing,
 * declareQueue makes a durable queue, and peek gives the messages back to the queue.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { isBrokerError, openBroker, type Broker } from '../../broker';
import { AMQP_URL, outgoing, uniqueQueue, untilQueueHolds } from './helpers';

let connection: ChannelModel;
let channel: Channel;
const queues = new Set<string>();
const brokers: Broker[] = [];

async function open(): Promise<Broker> {
  const broker = await openBroker(AMQP_URL, { timeoutMs: 5000 });
  brokers.push(broker);
  return broker;
}

/** A durable queue declared by the test's own plain client, deleted afterwards. */
async function declared(): Promise<string> {
  const queue = uniqueQueue();
  queues.add(queue);
  await channel.assertQueue(queue, { durable: true });
  return queue;
}

/** True when `queue` exists (a passive declare on a throwaway channel, since a 404 closes it). */
async function exists(queue: string): Promise<boolean> {
  const probe = await connection.createChannel();
  probe.on('error', () => {});
  try {
    await probe.checkQueue(queue);
    await probe.close();
    return true;
  } catch {
    return false;
  }
}

before(async () => {
  connection = await connect(AMQP_URL);
  channel = await connection.createChannel();
});

afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
  for (const queue of queues) await channel.deleteQueue(queue);
  queues.clear();
});

after(async () => {
  await connection.close();
});

describe('amqp publish', () => {
  test('the body bytes and the projected properties arrive exactly', async () => {
    const queue = await declared();
    const message = outgoing(queue);
    const broker = await open();
    const receipt = await broker.publish(message);
    assert.equal(receipt.target, 'amqp://127.0.0.1:5672', 'guest:guest: the user name equals the password, so neither is shown');
    assert.ok(receipt.durationMs > 0);

    const got = await channel.get(queue, { noAck: true });
    assert.ok(got, 'the message is on the queue');
    assert.equal(Buffer.compare(got.content, Buffer.from(message.bytes)), 0, 'byte for byte');
    const p = got.properties;
    const expected = message.amqp.properties;
    assert.equal(p.type, expected.type);
    assert.equal(p.correlationId, expected.correlationId);
    assert.equal(p.messageId, expected.messageId);
    assert.equal(p.appId, 'babelqueue');
    assert.equal(p.contentType, 'application/json');
    assert.equal(p.contentEncoding, 'utf-8');
    assert.equal(p.deliveryMode, 2);
    assert.deepEqual(p.headers, { 'x-schema-version': 1, 'x-source-lang': 'php', 'x-attempts': 0 });
    assert.equal(typeof p.headers?.['x-schema-version'], 'number', 'a native number, not "1"');
    assert.equal(typeof p.headers?.['x-attempts'], 'number', 'a native number, not "0"');
    // Nothing beyond the projection: no timestamp, priority, expiration or reply-to.
    assert.equal(p.timestamp, undefined);
    assert.equal(p.priority, undefined);
    assert.equal(p.expiration, undefined);
    assert.equal(p.replyTo, undefined);
    assert.equal(got.fields.exchange, '');
    assert.equal(got.fields.routingKey, queue);
    assert.equal(await channel.get(queue), false, 'exactly one message');
  });

  test('a missing queue gives missing-queue and publishes nothing; declareQueue then publish works', async () => {
    const queue = uniqueQueue();
    queues.add(queue);
    const broker = await open();
    const message = outgoing(queue);
    await assert.rejects(broker.publish(message), (error: unknown) => {
      assert.ok(isBrokerError(error));
      assert.equal(error.kind, 'missing-queue');
      assert.match(error.message, new RegExp(`queue ${queue} does not exist`));
      return true;
    });
    assert.equal(await exists(queue), false, 'the queue was not created as a side effect');

    assert.ok(broker.declareQueue);
    await broker.declareQueue(queue);
    // Declared durable, non-exclusive, not auto-delete: an inequivalent redeclare is refused.
    const probe = await connection.createChannel();
    probe.on('error', () => {});
    await assert.rejects(probe.assertQueue(queue, { durable: false }), /PRECONDITION_FAILED|406/);
    await channel.assertQueue(queue, { durable: true, exclusive: false, autoDelete: false });

    await broker.publish(message);
    const got = await channel.get(queue, { noAck: true });
    assert.ok(got);
    assert.equal(Buffer.compare(got.content, Buffer.from(message.bytes)), 0);
  });

  test('the same broker keeps publishing after a missing-queue error closed a channel', async () => {
    const queue = await declared();
    const broker = await open();
    await assert.rejects(broker.publish(outgoing(uniqueQueue())), { kind: 'missing-queue' });
    await broker.publish(outgoing(queue));
    const info = await channel.checkQueue(queue);
    assert.equal(info.messageCount, 1);
  });
});

describe('amqp peek', () => {
  test('gets up to N from the head, returns bodies and properties, and requeues them', async () => {
    const queue = await declared();
    const broker = await open();
    const messages = [1, 2, 3].map((orderId) => outgoing(queue, { orderId }));
    for (const message of messages) await broker.publish(message);

    const peeked = await broker.peek(queue, 2);
    assert.equal(peeked.length, 2);
    assert.deepEqual(peeked.map((m) => Buffer.from(m.body).toString('utf8')), [messages[0]!.text, messages[1]!.text]);
    assert.equal(peeked[0]!.properties?.type, messages[0]!.amqp.properties.type);
    assert.equal(peeked[0]!.properties?.messageId, messages[0]!.metaId);
    assert.deepEqual(peeked[0]!.properties?.headers, messages[0]!.amqp.properties.headers);
    assert.equal(peeked[0]!.redelivered, false);

    // All three are still there; the peeked ones now carry the redelivered flag.
    assert.equal((await channel.checkQueue(queue)).messageCount, 3);
    const drained = [];
    for (let got = await channel.get(queue, { noAck: true }); got; got = await channel.get(queue, { noAck: true })) drained.push(got);
    assert.deepEqual(drained.map((m) => m.content.toString('utf8')).sort(), messages.map((m) => m.text).sort());
    assert.equal(drained.filter((m) => m.fields.redelivered).length, 2);
  });

  test('an empty queue peeks as empty; a missing queue is missing-queue', async () => {
    const queue = await declared();
    const broker = await open();
    assert.deepEqual(await broker.peek(queue, 5), []);
    await assert.rejects(broker.peek(uniqueQueue(), 5), { kind: 'missing-queue' });
  });

  test('a stream queue, which RabbitMQ cannot basic.get from, is refused in the broker\'s words, not as a lost connection', async () => {
    const queue = uniqueQueue();
    queues.add(queue);
    await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'stream' } });
    const broker = await open();
    await assert.rejects(broker.peek(queue, 5), (error: unknown) => {
      assert.ok(isBrokerError(error));
      assert.equal(error.kind, 'rejected');
      assert.match(error.message, /basic\.get not supported by stream queues/);
      assert.match(error.message, new RegExp(queue));
      return true;
    });
  });

  test('peek reads no more than its byte bound: the first that fit, and the size of the next, requeued with them', async () => {
    const queue = await declared();
    const sized = (name: string, bytes: number) => Buffer.concat([Buffer.from(name), Buffer.alloc(bytes - name.length, 0x61)]);
    const bodies = [sized('first', 100), sized('second', 100), sized('third', 300)];
    const confirming = await connection.createConfirmChannel();
    for (const body of bodies) confirming.sendToQueue(queue, body);
    await confirming.waitForConfirms();
    await confirming.close();
    const broker = await open();

    const bounded = await broker.peek(queue, 3, 250);
    assert.deepEqual(bounded.map((m) => Buffer.from(m.body)), bodies.slice(0, 2));
    assert.deepEqual(bounded.stopped, { maxBytes: 250, nextBytes: 300 });
    const all = await broker.peek(queue, 3, 500);
    assert.deepEqual(all.map((m) => Buffer.from(m.body)), bodies);
    assert.equal(all.stopped, undefined);
    await untilQueueHolds(channel, queue, 3);
    const drained = [];
    for (let got = await channel.get(queue, { noAck: true }); got; got = await channel.get(queue, { noAck: true })) drained.push(got.content);
    assert.deepEqual(drained, bodies, 'every message requeued, in its place');
  });

  test('the timeout is per basic.get: a read of many messages that takes longer than it as a whole still succeeds', async () => {
    const queue = await declared();
    const confirming = await connection.createConfirmChannel();
    const total = 4000;
    for (let at = 0; at < total; at++) confirming.sendToQueue(queue, Buffer.from(`{"n":${at}}`));
    await confirming.waitForConfirms();
    await confirming.close();
    await untilQueueHolds(channel, queue, total);
    const timeoutMs = 150;
    const broker = await openBroker(AMQP_URL, { timeoutMs });
    brokers.push(broker);
    const start = performance.now();
    const peeked = await broker.peek(queue, total);
    const took = performance.now() - start;
    assert.equal(peeked.length, total);
    assert.deepEqual(peeked.slice(0, 3).map((m) => Buffer.from(m.body).toString('utf8')), ['{"n":0}', '{"n":1}', '{"n":2}']);
    // Slower as a whole than the timeout (each of the 4,000 round trips is well within it).
    assert.ok(took > timeoutMs, `the read took ${took} ms, not more than the ${timeoutMs} ms timeout: the test proves nothing`);
    // Every message goes back (RabbitMQ requeues a nack of many in the background).
    await untilQueueHolds(channel, queue, total);
  });
});

test('round trip of a publish to the local RabbitMQ (queue check + confirm)', async (t) => {
  const queue = await declared();
  const broker = await open();
  const times: number[] = [];
  for (let i = 0; i < 20; i++) times.push((await broker.publish(outgoing(queue, { orderId: i }))).durationMs);
  times.sort((a, b) => a - b);
  t.diagnostic(`rabbitmq publish round trip: median ${times[10]} ms, max ${times[19]} ms over 20`);
  assert.equal((await channel.checkQueue(queue)).messageCount, 20);
});
