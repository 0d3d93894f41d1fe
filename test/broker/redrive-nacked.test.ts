/**
 * A RabbitMQ redrive where the broker refuses one publish (a nack: the target queue is full and
 * rejects publishes) while the publishes after it, to another queue, are confirmed: against the
 * real local RabbitMQ. Each message must end in exactly one place, and the error must say where.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openBroker } from '../../broker';
import { AMQP_URL, deadLettered, drainQueue, outgoing, putOnQueue, redriveMove as move, uniqueQueue, useRealBrokers } from './helpers';

const brokers = useRealBrokers();
const { amqpQueues } = brokers;

const drain = (queue: string) => drainQueue(brokers.channel, queue);

test('one move nacked (its queue is full), the moves after it confirmed: those are acked in the DLQ, never left in both queues', async () => {
  const full = uniqueQueue();
  const open = uniqueQueue();
  const dlq = `${uniqueQueue()}.dlq`;
  for (const name of [full, open, dlq]) amqpQueues.add(name);
  await brokers.channel.assertQueue(full, { durable: true, arguments: { 'x-max-length': 0, 'x-overflow': 'reject-publish' } });
  await brokers.channel.assertQueue(open, { durable: true });
  await brokers.channel.assertQueue(dlq, { durable: true });
  // The first dead letter goes back to the full queue, the next ones to the open one.
  const bodies = [deadLettered(outgoing(full, { orderId: 1 }).text, full, 'boom'), ...[2, 3, 4, 5].map((orderId) => deadLettered(outgoing(open, { orderId }).text, open, 'boom'))];
  await putOnQueue(brokers.channel, dlq, bodies);

  const moves = bodies.map(move);
  const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
  let error: (Error & { moved?: number }) | undefined;
  try {
    await broker.redrive(dlq, moves);
  } catch (caught) {
    error = caught as Error & { moved?: number };
  } finally {
    await broker.close();
  }
  assert.ok(error, "a nacked publish stops the redrive");
  const inDlq = await drain(dlq);
  const onOpen = await drain(open);
  assert.deepEqual(await drain(full), []);
  assert.ok(inDlq.includes(bodies[0]!), 'the nacked one is still in the DLQ');
  for (const [index, body] of bodies.entries()) {
    if (index === 0) continue;
    const moved = onOpen.includes(moves[index]!.message.text);
    assert.notEqual(moved, inDlq.includes(body), `dead letter ${index + 1} is in exactly one of the DLQ and its queue (${moved ? 'moved' : 'not moved'})`);
  }
  assert.equal(error.moved, onOpen.length, `the error counts every move made: ${error.message}`);
  assert.match(error.message, new RegExp(`Redrive stopped after ${onOpen.length} of 5 message\\(s\\): .* did not accept the message for ${full} \\(negative confirm\\): nothing was stored\\.`));
  // Refused, so not "being published without a confirm" and "perhaps also" on the full queue; the
  // moves made were acknowledged before the error was written, so no "may be in the DLQ again".
  assert.doesNotMatch(error.message, /perhaps also on|may be in .* again/);
});
