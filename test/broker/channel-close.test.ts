/**
 * RabbitMQ closing a channel for something other than the message being published, against the
 * real local broker: an acknowledgement of a delivery tag the channel does not have (406
 * PRECONDITION_FAILED "unknown delivery tag"), on the channel that reads the DLQ or on the one
 * that publishes. broker/amqp.ts never sends such an ack of its own, so the test wraps amqplib's
 * ack or publish for the moment of the call; the close itself is the server's. The error says which
 * channel RabbitMQ closed, during which method, with its reason and code, and claims no more
 * about where the message in flight is than is known. A publish the broker does not route (404:
 * no such exchange) leaves the message in the DLQ only, and the error says so without "perhaps".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Channel } from 'amqplib';
import { openBroker } from '../../broker';
import type { RedriveMove } from '../../core/message/types';
import { AMQP_URL, amqpQueueWithDlq, deadLettered, drainQueue, outgoing, putOnQueue, redriveMove as move, uniqueQueue, useRealBrokers } from './helpers';

const brokers = useRealBrokers();

const drain = (queue: string) => drainQueue(brokers.channel, queue);

/** A delivery tag no channel of these tests ever had. */
const UNKNOWN_TAG = 987_654;

/** amqplib's Channel and ConfirmChannel prototypes (the package exports neither class). */
function prototypes(): { channel: Channel; confirm: Channel } {
  const confirm = Object.getPrototypeOf(brokers.channel) as Channel;
  return { confirm, channel: Object.getPrototypeOf(confirm) as Channel };
}

/** Runs `work` with `prototype[name]` replaced, and puts the original back after. */
async function withReplaced<K extends 'ack' | 'publish', T>(prototype: Channel, name: K, replace: (original: Channel[K]) => Channel[K], work: () => Promise<T>): Promise<T> {
  const original = prototype[name];
  prototype[name] = replace(original);
  try {
    return await work();
  } finally {
    prototype[name] = original;
  }
}

/**
 * Each publish preceded on its channel by an ack of UNKNOWN_TAG: RabbitMQ closes the channel on
 * the ack and drops the publish behind it. (An ack sent after the publish closes the channel only
 * after RabbitMQ 3.10 has confirmed the publish: nothing fails then.)
 */
const badAckThenPublish = (original: Channel['publish']): Channel['publish'] =>
  function (this: Channel, ...args: Parameters<Channel['publish']>) {
    prototypes().channel.ack.call(this, { fields: { deliveryTag: UNKNOWN_TAG } } as Parameters<Channel['ack']>[0]);
    return original.apply(this, args);
  };

const freshQueues = () => amqpQueueWithDlq(brokers);

async function failure(work: Promise<unknown>): Promise<Error & { kind?: string; code?: string; moved?: number }> {
  try {
    await work;
  } catch (error) {
    return error as Error & { kind?: string; code?: string; moved?: number };
  }
  assert.fail('it succeeded although RabbitMQ closed the channel');
}

describe('rabbitmq: the channel reading the DLQ closed during a redrive', () => {
  test('an ack RabbitMQ refuses (sent twice: 406 unknown delivery tag) is said as the close of the DLQ\'s channel, not as a refused message', async () => {
    const { queue, dlq } = await freshQueues();
    const bodies = [1, 2, 3].map((orderId) => deadLettered(outgoing(queue, { orderId }).text, queue, 'gateway down'));
    await putOnQueue(brokers.channel, dlq, bodies);
    const moves = bodies.map(move);
    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    let error;
    try {
      error = await withReplaced(prototypes().channel, 'ack', (ack) => function (this: Channel, ...args: Parameters<Channel['ack']>) {
        ack.apply(this, args);
        ack.apply(this, args);
      }, () => failure(broker.redrive(dlq, moves)));
    } finally {
      await broker.close();
    }
    assert.equal(error.kind, 'rejected', error.message);
    assert.equal(error.code, '406');
    assert.match(error.message, new RegExp(`RabbitMQ closed the channel that reads ${dlq.replace(/\./g, '\\.')} during basic\\.ack \\(PRECONDITION_FAILED - unknown delivery tag 1, reply code 406\\)`));
    // Nothing was refused on the way to the queue, and the publishes are not what failed.
    assert.doesNotMatch(error.message, /refused/);
    assert.doesNotMatch(error.message, new RegExp(`not published|only|redrive queue ${queue}`));
    // Nothing is lost: each dead letter is still in the DLQ, or on its queue (both at worst).
    const inDlq = await drain(dlq);
    const onQueue = await drain(queue);
    for (const [index, body] of bodies.entries()) assert.ok(inDlq.includes(body) || onQueue.includes(moves[index]!.message.text), `dead letter ${index + 1} is in neither queue`);
    assert.equal(error.moved, bodies.length - inDlq.length);
  });
});

describe('rabbitmq: the publish channel closed on another method than the publish', () => {
  test('send: not said as a refused message, and not said as not published (the close does not say where the publish was)', async () => {
    const { queue } = await freshQueues();
    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    let error;
    try {
      error = await withReplaced(prototypes().confirm, 'publish', badAckThenPublish, () => failure(broker.publish(outgoing(queue))));
    } finally {
      await broker.close();
    }
    assert.equal(error.code, '406');
    assert.match(error.message, new RegExp(`RabbitMQ closed the channel that publishes during basic\\.ack \\(PRECONDITION_FAILED - unknown delivery tag ${UNKNOWN_TAG}, reply code 406\\) before it confirmed the message for ${queue}: it may or may not have been stored`));
    assert.doesNotMatch(error.message, /refused the message|not published/);
    assert.equal((await brokers.channel.checkQueue(queue)).messageCount, 0);
  });

  test('redrive: the message in flight is in the DLQ and perhaps on its queue, not "in the DLQ only"', async () => {
    const { queue, dlq } = await freshQueues();
    const body = deadLettered(outgoing(queue).text, queue, 'gateway down');
    await putOnQueue(brokers.channel, dlq, [body]);
    const moved = move(body);
    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    let error;
    try {
      error = await withReplaced(prototypes().confirm, 'publish', badAckThenPublish, () => failure(broker.redrive(dlq, [moved])));
    } finally {
      await broker.close();
    }
    assert.equal(error.moved, 0);
    assert.equal(error.code, '406');
    assert.match(error.message, /RabbitMQ closed the channel that publishes during basic\.ack/);
    assert.ok(error.message.includes(`meta.id ${moved.message.metaId} was being published without a confirm yet: still in ${dlq}, and perhaps also on ${queue}`), error.message);
    assert.doesNotMatch(error.message, /refused the message|not published/);
    assert.deepEqual(await drain(queue), []);
    assert.deepEqual(await drain(dlq), [body]);
  });
});

describe('rabbitmq: a redrive publish RabbitMQ does not route', () => {
  test('404, no such exchange: the message is in the DLQ only, not perhaps on its queue', async () => {
    const { queue, dlq } = await freshQueues();
    const body = deadLettered(outgoing(queue).text, queue, 'gateway down');
    await putOnQueue(brokers.channel, dlq, [body]);
    const moved = move(body);
    const exchange = `${uniqueQueue()}-missing`;
    // Moves go to the default exchange; this one names an exchange that does not exist.
    const toMissing = { ...moved, message: { ...moved.message, amqp: { ...moved.message.amqp, exchange } } } as unknown as RedriveMove;
    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    let error;
    try {
      error = await failure(broker.redrive(dlq, [toMissing]));
    } finally {
      await broker.close();
    }
    assert.equal(error.moved, 0);
    assert.equal(error.code, '404');
    assert.match(error.message, new RegExp(`has no exchange ${exchange}: nothing was published`));
    assert.ok(error.message.includes(`meta.id ${moved.message.metaId} was not published to ${queue}: it is still in ${dlq} only`), error.message);
    assert.doesNotMatch(error.message, /perhaps/);
    assert.deepEqual(await drain(queue), []);
    assert.deepEqual(await drain(dlq), [body]);
  });
});
