/**
 * Which messages `babelq peek --count n` shows, and in what order, said truly per broker: Redis
 * reads the newest n (the list's tail) and shows them newest first; RabbitMQ can only get from
 * the head of a queue, so it shows the first n in the order a consumer would get them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { outgoing, putOnQueue, uniqueQueue, useRealBrokers } from '../broker/helpers';
import { babelq, REPO_ROOT } from './helpers';

const brokers = useRealBrokers();

/** Three envelopes for `queue`, oldest first, and their meta.ids. */
function threeMessages(queue: string): { bodies: string[]; ids: string[] } {
  const bodies = [1, 2, 3].map((orderId) => outgoing(queue, { orderId }).text);
  return { bodies, ids: bodies.map((body) => JSON.parse(body).meta.id as string) };
}

describe('peek --count says which end of the queue it read', () => {
  test('Redis: the newest n, newest first', async () => {
    const queue = uniqueQueue();
    brokers.redisKeys.add(queue);
    const { bodies, ids } = threeMessages(queue);
    await brokers.redis.rpush(queue, ...bodies);
    const json = babelq(['peek', '--queue', queue, '--count', '2', '--format', 'json'], REPO_ROOT);
    assert.equal(json.status, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).map((m: { metaId: string }) => m.metaId), [ids[2], ids[1]]);
    const text = babelq(['peek', '--queue', queue, '--count', '2'], REPO_ROOT);
    assert.match(text.stdout, new RegExp(`^2 messages on redis://127\\.0\\.0\\.1:6379 list ${queue}, newest first\\n`));
  });

  test('RabbitMQ: the first n at the head, in the order a consumer would get them, never called the newest', async () => {
    const queue = uniqueQueue();
    brokers.amqpQueues.add(queue);
    await brokers.channel.assertQueue(queue, { durable: true });
    const { bodies, ids } = threeMessages(queue);
    await putOnQueue(brokers.channel, queue, bodies);
    const broker = ['--broker', 'amqp://guest:guest@127.0.0.1:5672'];
    const json = babelq(['peek', '--queue', queue, '--count', '2', ...broker, '--format', 'json'], REPO_ROOT);
    assert.equal(json.status, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).map((m: { metaId: string }) => m.metaId), [ids[0], ids[1]]);
    const text = babelq(['peek', '--queue', queue, '--count', '2', ...broker], REPO_ROOT);
    assert.equal(text.status, 0, text.stderr);
    const header = text.stdout.split('\n')[0]!;
    assert.match(header, new RegExp(`^2 messages from the head of amqp://127\\.0\\.0\\.1:5672 queue ${queue}, in the order a consumer would get them`));
    assert.doesNotMatch(header, /newest/);
    const rows = text.stdout.split('\n').filter((line) => line.startsWith('urn:'));
    assert.deepEqual(rows.map((line) => /meta\.id (\S+)/.exec(line)![1]), [ids[0], ids[1]]);
    assert.equal((await brokers.channel.checkQueue(queue)).messageCount, 3, 'peek took nothing away');
    // A classic queue puts the requeued messages back in their places: the header claims no change of order.
    assert.doesNotMatch(header, /delivery order changed/);
    assert.match(header, /got and requeued: marked redelivered, and their place in the queue may have changed/);
    const drained = [];
    for (let got = await brokers.channel.get(queue, { noAck: true }); got; got = await brokers.channel.get(queue, { noAck: true })) drained.push(JSON.parse(got.content.toString()).meta.id);
    assert.deepEqual(drained, ids);
  });
});
