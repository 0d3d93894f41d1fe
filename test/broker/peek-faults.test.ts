/**
 * A connection that drops in the middle of a RabbitMQ peek, against the real local server through
 * a loopback proxy that cuts it at the first basic.get: the error is a closed connection (exit 2),
 * not the broker refusing the read (exit 1), and the queue still holds every message.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { isBrokerError, openBroker, type Broker } from '../../broker';
import { brokerErrorExit } from '../../cli/errors';
import { AMQP_URL, outgoing, uniqueQueue } from './helpers';
import { isAmqpMethod, Proxy } from './proxy';

let connection: ChannelModel;
let channel: Channel;
const queues: string[] = [];
const closers: (() => Promise<void>)[] = [];

before(async () => {
  connection = await connect(AMQP_URL);
  channel = await connection.createChannel();
});

after(async () => {
  for (const close of closers) await close();
  for (const queue of queues) await channel.deleteQueue(queue);
  await connection.close();
});

test('the connection drops at basic.get → closed (exit 2), not a refusal; the messages stay on the queue', async () => {
  const queue = uniqueQueue();
  queues.push(queue);
  await channel.assertQueue(queue, { durable: true });
  for (const orderId of [1, 2]) channel.sendToQueue(queue, Buffer.from(outgoing(queue, { orderId }).text));
  // basic.get is class 60, method 70.
  const cutting = await Proxy.start(5672, 'cut-before', isAmqpMethod(60, 70));
  closers.push(() => cutting.close());
  let broker: Broker | undefined;
  let error: unknown;
  try {
    broker = await openBroker(`amqp://guest:guest@127.0.0.1:${cutting.port}`, { timeoutMs: 2000 });
    cutting.armed = true;
    await broker.peek(queue, 5);
  } catch (caught) {
    error = caught;
  } finally {
    await broker?.close();
  }
  assert.equal(cutting.triggered, 1);
  assert.ok(isBrokerError(error), `expected a BrokerError, got ${String(error)}`);
  assert.equal(error.kind, 'closed', error.message);
  assert.doesNotMatch(error.message, /refused/);
  assert.equal(brokerErrorExit(error), 2);
  assert.equal((await channel.checkQueue(queue)).messageCount, 2);
});
