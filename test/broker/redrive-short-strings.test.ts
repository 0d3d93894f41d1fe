/**
 * A RabbitMQ redrive reaching a dead letter whose trace_id is longer than an AMQP short string
 * (255 bytes: amqplib refuses the publish before sending anything), after others were moved:
 * against the real local RabbitMQ. The error says that one was not sent, not that nothing was,
 * and not that it may be on its queue as well.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openBroker } from '../../broker';
import { AMQP_URL, deadLettered, drainQueue, outgoing, putOnQueue, redriveMove as move, uniqueQueue, useRealBrokers } from './helpers';

const brokers = useRealBrokers();
const { amqpQueues } = brokers;

test('a trace_id over 255 bytes stops a redrive after the moves before it: that message is not sent, and still in the DLQ alone', async () => {
  const queue = uniqueQueue();
  const dlq = `${uniqueQueue()}.dlq`;
  for (const name of [queue, dlq]) amqpQueues.add(name);
  await brokers.channel.assertQueue(queue, { durable: true });
  await brokers.channel.assertQueue(dlq, { durable: true });
  const long = (text: string) => text.replace(/"trace_id":"[^"]*"/, `"trace_id":"${'t'.repeat(300)}"`);
  const bodies = [1, 2, 3].map((orderId) => deadLettered(outgoing(queue, { orderId }).text, queue, 'boom'));
  bodies[2] = long(bodies[2]!);
  await putOnQueue(brokers.channel, dlq, bodies);

  const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
  let error: (Error & { moved?: number }) | undefined;
  try {
    await broker.redrive(dlq, bodies.map(move));
  } catch (caught) {
    error = caught as Error & { moved?: number };
  } finally {
    await broker.close();
  }
  assert.ok(error, 'the long trace_id stops the redrive');
  const onQueue = await drainQueue(brokers.channel, queue);
  const inDlq = await drainQueue(brokers.channel, dlq);
  assert.equal(onQueue.length, 2, 'the two before it were moved');
  assert.deepEqual(inDlq, [bodies[2]]);
  assert.equal(error.moved, 2);
  assert.match(error.message, /^Redrive stopped after 2 of 3 message\(s\): AMQP 0-9-1 allows at most 255 bytes \(UTF-8\) in the correlation_id property \(the trace_id\), and this one is longer: it was not sent to /);
  assert.doesNotMatch(error.message, /nothing was sent|perhaps also on|may be in .* again/);
});
