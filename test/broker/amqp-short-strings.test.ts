/**
 * AMQP 0-9-1 short strings (queue names, and the type, correlation_id and message_id properties)
 * hold at most 255 bytes: amqplib refuses a longer one before anything is sent. Against the real
 * local RabbitMQ, the error says so and names the field in the envelope's words, instead of saying
 * that RabbitMQ refused, and nothing arrives.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { isBrokerError, openBroker, type Broker } from '../../broker';
import { AMQP_URL, outgoing, uniqueQueue } from './helpers';

let connection: ChannelModel;
let channel: Channel;
let broker: Broker;
const queues: string[] = [];

before(async () => {
  connection = await connect(AMQP_URL);
  channel = await connection.createChannel();
  broker = await openBroker(AMQP_URL, { timeoutMs: 5000 });
});

after(async () => {
  await broker.close();
  for (const queue of queues) await channel.deleteQueue(queue);
  await connection.close();
});

async function failure(work: Promise<unknown>): Promise<Error & { kind: string }> {
  try {
    await work;
  } catch (error) {
    assert.ok(isBrokerError(error), `expected a BrokerError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

test('a queue name of 130 characters but 260 bytes: said to be too long, not refused by RabbitMQ', async () => {
  const queue = 'é'.repeat(130);
  for (const error of [await failure(broker.publish(outgoing(queue))), await failure(broker.peek(queue, 1))]) {
    assert.equal(error.kind, 'rejected');
    assert.match(error.message, /AMQP 0-9-1 allows at most 255 bytes \(UTF-8\) in a queue name, and this one is longer: nothing was sent to amqp:\/\/127\.0\.0\.1:5672\./);
    assert.doesNotMatch(error.message, /refused/);
  }
});

test('a trace_id over 255 bytes (correlation_id): said to be too long, and nothing arrives', async () => {
  const queue = uniqueQueue();
  queues.push(queue);
  await channel.assertQueue(queue, { durable: true });
  const message = outgoing(queue);
  const long = { ...message, amqp: { ...message.amqp, properties: { ...message.amqp.properties, correlationId: 't'.repeat(300) } } };
  const error = await failure(broker.publish(long));
  assert.equal(error.kind, 'rejected');
  assert.match(error.message, /at most 255 bytes \(UTF-8\) in the correlation_id property \(the trace_id\)/);
  assert.doesNotMatch(error.message, /refused/);
  assert.equal((await channel.checkQueue(queue)).messageCount, 0);
});
