/**
 * RabbitMQ under a user whose permissions refuse a publish, against the real local broker: the
 * default exchange is checked for write permission as "amq.default", not as the queue a message
 * is routed to, so a user given write on the queue's name alone cannot publish to it. The error
 * must say that, and nothing may be lost. The user is made with rabbitmqctl and deleted after.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { openBroker } from '../../broker';
import { redriveMessage } from '../../core/message/dead-letter';
import { deadLettered, outgoing, putOnQueue, uniqueQueue, uniqueSecret, useRealBrokers } from './helpers';

const brokers = useRealBrokers();
const { amqpQueues } = brokers;
const users: string[] = [];

after(() => {
  for (const user of users) execFileSync('rabbitmqctl', ['delete_user', user], { stdio: 'ignore' });
});

/** A user on vhost / with the three permission patterns (configure, write, read). */
function rabbitUser(configure: string, write: string, read: string): string {
  const user = `babelq-test-${uniqueQueue().slice(-12)}`;
  const password = uniqueSecret();
  execFileSync('rabbitmqctl', ['add_user', user, password], { stdio: 'ignore' });
  users.push(user);
  execFileSync('rabbitmqctl', ['set_permissions', '-p', '/', user, configure, write, read], { stdio: 'ignore' });
  return `amqp://${user}:${password}@127.0.0.1:5672`;
}

async function depth(queue: string): Promise<number> {
  return (await brokers.channel.checkQueue(queue)).messageCount;
}

const escaped = (name: string) => `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

describe('amqp: a user with write permission on the queue but not on amq.default', () => {
  test('send: refused, and the error names amq.default, not the queue', async () => {
    const queue = uniqueQueue();
    amqpQueues.add(queue);
    await brokers.channel.assertQueue(queue, { durable: true });
    const broker = await openBroker(rabbitUser('', escaped(queue), '.*'), { timeoutMs: 2000 });
    let error: (Error & { kind?: string }) | undefined;
    try {
      await broker.publish(outgoing(queue));
    } catch (caught) {
      error = caught as Error & { kind?: string };
    } finally {
      await broker.close();
    }
    assert.ok(error, 'the publish succeeded');
    assert.equal(error.kind, 'auth', error.message);
    assert.match(error.message, /does not allow this user to publish to the default exchange \(write permission on "amq\.default"/);
    assert.equal(await depth(queue), 0);
  });

  test('redrive: stops before anything moved, the DLQ keeps the message, and the error names amq.default', async () => {
    const queue = uniqueQueue();
    const dlq = `${queue}.dlq`;
    amqpQueues.add(queue).add(dlq);
    await brokers.channel.assertQueue(queue, { durable: true });
    await brokers.channel.assertQueue(dlq, { durable: true });
    const body = deadLettered(outgoing(queue).text, queue, 'gateway down');
    await putOnQueue(brokers.channel, dlq, [body]);
    const redriven = redriveMessage(body, { sdk: 'node', redisLayout: 'babelqueue' });
    assert.ok(redriven.ok);
    const broker = await openBroker(rabbitUser('', `${escaped(queue)}|${escaped(dlq)}`, '.*'), { timeoutMs: 2000 });
    let error: (Error & { kind?: string; moved?: number }) | undefined;
    try {
      await broker.redrive(dlq, [{ original: new TextEncoder().encode(body), message: redriven.message }]);
    } catch (caught) {
      error = caught as Error & { kind?: string; moved?: number };
    } finally {
      await broker.close();
    }
    assert.ok(error, 'the redrive succeeded');
    assert.equal(error.moved, 0);
    assert.equal(error.kind, 'auth', error.message);
    assert.match(error.message, /publish to the default exchange \(write permission on "amq\.default"/);
    // RabbitMQ did not route it: not on the queue, so not "perhaps also" there.
    assert.ok(error.message.includes(`meta.id ${redriven.message.metaId} was not published to ${queue}: it is still in ${dlq} only`), error.message);
    assert.doesNotMatch(error.message, /perhaps/);
    assert.equal(await depth(dlq), 1);
    assert.equal(await depth(queue), 0);
  });
});

test('a user at its connection limit: refused on opening the virtual host, and the error says a limit can be why', async () => {
  const url = rabbitUser('.*', '.*', '.*');
  const user = new URL(url).username;
  execFileSync('rabbitmqctl', ['set_user_limits', user, '{"max-connections": 0}'], { stdio: 'ignore' });
  await assert.rejects(openBroker(url, { timeoutMs: 2000 }), (error: Error & { kind?: string }) => {
    assert.equal(error.kind, 'rejected', error.message);
    // RabbitMQ answers a missing virtual host, one the user may not use and a connection limit alike.
    assert.match(error.message, /refused the virtual host "\/"/);
    assert.match(error.message, /connection limit/);
    return true;
  });
});
