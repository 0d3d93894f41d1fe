/**
 * Reading a RabbitMQ quorum queue counts deliveries (cli/quorum-deliveries.ts): peek, dlq list and
 * redrive say so when the messages read carry x-delivery-count, with the counts, and stay quiet on
 * a classic queue. Against the real RabbitMQ, with a quorum queue whose x-delivery-limit is 2: the
 * third peek is the last one the message survives, which is what the note warns of.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deadLettered, outgoing, putOnQueue, uniqueQueue, useRealBrokers } from '../broker/helpers';
import { babelq, REPO_ROOT } from './helpers';

const brokers = useRealBrokers();
const BROKER = ['--broker', 'amqp://guest:guest@127.0.0.1:5672'];

async function quorumQueue(name: string, deliveryLimit: number): Promise<void> {
  brokers.amqpQueues.add(name);
  await brokers.channel.assertQueue(name, { durable: true, arguments: { 'x-queue-type': 'quorum', 'x-delivery-limit': deliveryLimit } });
}

async function publish(queue: string, bodies: readonly string[]): Promise<void> {
  await putOnQueue(brokers.channel, queue, bodies);
}

describe('reading a quorum queue says that it counts deliveries', () => {
  test('peek: the note and each message\'s x-delivery-count, in text and JSON; the note is true (x-delivery-limit 2: gone after the third peek)', async () => {
    const queue = uniqueQueue();
    await quorumQueue(queue, 2);
    const body = outgoing(queue).text;
    await publish(queue, [body]);

    const first = babelq(['peek', '--queue', queue, ...BROKER], REPO_ROOT);
    assert.equal(first.status, 0, first.stderr);
    const [header, note] = first.stdout.split('\n');
    assert.match(header!, /^1 message from the head of/);
    assert.match(note!, new RegExp(`^note: amqp://127\\.0\\.0\\.1:5672 queue ${queue} is a quorum queue \\(the messages read carry x-delivery-count 0: their deliveries before this read\\)\\.`));
    assert.match(note!, /every get and requeue counts as a delivery toward the queue's delivery limit .*this peek's included/);
    assert.match(note!, /This server is RabbitMQ \d+\.\d+\.\d+\./);
    assert.match(first.stdout, /attempts 0  x-delivery-count 0  \d+ bytes/);

    const second = babelq(['peek', '--queue', queue, ...BROKER, '--format', 'json'], REPO_ROOT);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(JSON.parse(second.stdout)[0].deliveryCount, 1, 'the first peek counted one delivery');
    assert.match(second.stderr, /^babelq: note: .* is a quorum queue \(the messages read carry x-delivery-count 1/);

    const third = babelq(['peek', '--queue', queue, ...BROKER], REPO_ROOT);
    assert.match(third.stdout, /x-delivery-count 2/);
    const fourth = babelq(['peek', '--queue', queue, ...BROKER], REPO_ROOT);
    assert.match(fourth.stdout, /^0 messages/, 'past its delivery limit, the broker dropped the message: what the note warned of');
  });

  test('a classic queue gets no note and no delivery count', async () => {
    const queue = uniqueQueue();
    brokers.amqpQueues.add(queue);
    await brokers.channel.assertQueue(queue, { durable: true });
    await publish(queue, [outgoing(queue).text]);
    for (let i = 0; i < 2; i++) {
      const text = babelq(['peek', '--queue', queue, ...BROKER], REPO_ROOT);
      assert.equal(text.status, 0, text.stderr);
      assert.doesNotMatch(text.stdout, /quorum|x-delivery-count/);
    }
    const json = babelq(['peek', '--queue', queue, ...BROKER, '--format', 'json'], REPO_ROOT);
    assert.equal(json.stderr, '');
    assert.equal('deliveryCount' in JSON.parse(json.stdout)[0], false);
  });

  test('dlq list and redrive say it too; a redrive\'s read and its move each count for a message it does not move', async () => {
    const queue = uniqueQueue();
    brokers.amqpQueues.add(queue);
    await brokers.channel.assertQueue(queue, { durable: true });
    await quorumQueue(`${queue}.dlq`, 20);
    const bodies = [1, 2].map((orderId) => deadLettered(outgoing(queue, { orderId }).text, queue, 'gateway down', 1749132730000 + orderId));
    await publish(`${queue}.dlq`, bodies);

    const listed = babelq(['dlq', 'list', '--queue', queue, ...BROKER], REPO_ROOT);
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout.split('\n')[1]!, /^note: .* is a quorum queue .*this listing's included/);
    assert.match(listed.stdout, /x-delivery-count 0/);

    const dry = babelq(['dlq', 'redrive', '--queue', queue, ...BROKER, '--all', '--dry-run'], REPO_ROOT);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stderr, /note: .* is a quorum queue \(the messages read carry x-delivery-count 1: .*this dry run's read included/);

    // The second in the queue: the move gets the first, does not move it, and requeues it.
    const id = JSON.parse(bodies[1]!).meta.id as string;
    const moved = babelq(['dlq', 'redrive', '--queue', queue, ...BROKER, '--id', id], REPO_ROOT);
    assert.equal(moved.status, 0, moved.stderr);
    assert.match(moved.stderr, /x-delivery-count 2: .*this redrive's read included, and one more for each message its move gets but does not move/);
    // The message not picked: read (+1) and got again by the move (+1) on top of its 2.
    const left = await brokers.channel.get(`${queue}.dlq`, { noAck: true });
    assert.ok(left);
    assert.equal(JSON.parse(left.content.toString('utf8')).meta.id, JSON.parse(bodies[0]!).meta.id);
    assert.equal(left.properties.headers?.['x-delivery-count'], 4);
  });
});
