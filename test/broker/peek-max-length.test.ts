/**
 * What README.md's peek section says of a classic RabbitMQ queue with x-max-length and overflow
 * drop-head, against the real local RabbitMQ: messages held unacknowledged (as peek holds them
 * between its gets and its requeue) do not count toward the limit, producers refill the queue to
 * it meanwhile, and the requeued messages, back at the head, are the ones the broker drops.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { connect } from 'amqplib';
import { AMQP_URL, putOnQueue, uniqueQueue, useRealBrokers } from './helpers';

const brokers = useRealBrokers();

test('classic queue, x-max-length 3, drop-head: refilled while 3 are held, the 3 requeued are dropped', async () => {
  const queue = uniqueQueue();
  brokers.amqpQueues.add(queue);
  await brokers.channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'classic', 'x-max-length': 3, 'x-overflow': 'drop-head' } });
  await putOnQueue(brokers.channel, queue, ['held 1', 'held 2', 'held 3']);
  // Got without ack on a connection of its own, as peek gets them, and requeued with one nack, as peek does.
  const connection = await connect(AMQP_URL);
  try {
    const reader = await connection.createChannel();
    const held = [];
    for (let n = 0; n < 3; n++) {
      const got = await reader.get(queue, { noAck: false });
      assert.ok(got);
      held.push(got);
    }
    await putOnQueue(brokers.channel, queue, ['new 1', 'new 2', 'new 3']);
    assert.equal((await brokers.channel.checkQueue(queue)).messageCount, 3, 'the held messages do not count toward the limit');
    reader.nack(held[2]!, true, true);
    await reader.close();
  } finally {
    await connection.close();
  }
  const left: string[] = [];
  for (;;) {
    const got = await brokers.channel.get(queue, { noAck: true });
    if (got === false) break;
    left.push(got.content.toString('utf8'));
  }
  assert.deepEqual(left, ['new 1', 'new 2', 'new 3'], 'the requeued messages went back to the head and were dropped from there');
});

test("README.md's peek section says so", () => {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Preview, send and peek'), readme.indexOf('## Dead letters and redrive'));
  assert.match(section.replace(/\s+/g, ' '), /`x-max-length` and overflow `drop-head` \(the default\) that producers refill to its limit meanwhile drops, or dead-letters, the messages `peek` requeues/);
});
