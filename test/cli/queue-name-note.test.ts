/**
 * `babelq preview` and `babelq send` with a queue name that is a broker's name for a queue
 * (core/contract/envelope.ts brokerNameOf, as babelq lint reads meta.queue): the Laravel key
 * `queues:orders` given to the laravel layout goes to `queues:queues:orders`, and a dead letter
 * given the dead-letter queue `orders.dlq` carries meta.queue `orders.dlq`. Not refused (the user
 * may have such a queue): a note on stderr names where it goes and the queue name to write.
 * Against the machine's real Redis and RabbitMQ; unique names, cleaned up.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { connect } from 'amqplib';
import Redis from 'ioredis';
import { assertCliBuilt, babelq, envelope, makeTree, removeTree } from './helpers';

const DEAD_LETTER = envelope({ extra: ',\n  "dead_letter": { "reason": "timeout", "failed_at": 1749132790000, "original_queue": "orders" }' });

describe('a queue name that is a broker\'s name for a queue: a note, not a refusal', () => {
  let dir: string;
  let redis: Redis;
  const keys: string[] = [];
  const amqpQueues: string[] = [];
  const unique = () => `babelq-note-${randomBytes(5).toString('hex')}`;
  before(async () => {
    assertCliBuilt();
    dir = makeTree({ 'order.babel.json': envelope({ lang: 'node' }), 'dead.babel.json': DEAD_LETTER, 'queued.babel.json': envelope({ lang: 'node' }).replace('"queue": "orders"', '"queue": "queues:orders"') });
    redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
  });
  after(async () => {
    removeTree(dir);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    if (amqpQueues.length > 0) {
      const connection = await connect('amqp://guest:guest@127.0.0.1:5672');
      const channel = await connection.createChannel();
      for (const queue of amqpQueues) await channel.deleteQueue(queue);
      await connection.close();
    }
  });

  test('preview --queue queues:orders --layout laravel: the body is printed (exit 0) and stderr names the key queues:queues:orders and the queue to write, in lint\'s words', () => {
    const result = babelq(['preview', 'order.babel.json', '--queue', 'queues:orders', '--layout', 'laravel'], dir);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /"queue":"queues:orders"/);
    assert.match(result.stderr, /^babelq: note: --queue "queues:orders" is the Laravel Redis key of the queue "orders", not a queue name: .*the Redis key "queues:queues:orders".* Write --queue orders\.$/m);
    // The same name in the file's meta.queue, with no --queue: the same note, on meta.queue.
    const fromFile = babelq(['preview', 'queued.babel.json', '--layout', 'laravel'], dir);
    assert.equal(fromFile.status, 0, fromFile.stderr);
    assert.match(fromFile.stderr, /^babelq: note: meta\.queue "queues:orders" is the Laravel Redis key of the queue "orders", not a queue name: .*the Redis key "queues:queues:orders".* Write meta\.queue "orders"\.$/m);
    // The comparison of every encoder says it too.
    assert.match(babelq(['preview', 'order.babel.json', '--sdk', 'all', '--queue', 'queues:orders', '--layout', 'laravel'], dir).stderr, /note: --queue "queues:orders" is the Laravel Redis key/);
  });

  test('a plain queue name, and orders.dlq for an envelope that is no dead letter (a queue of the author\'s), get no note', () => {
    for (const args of [['order.babel.json', '--queue', 'orders', '--layout', 'laravel'], ['order.babel.json', '--queue', 'orders.dlq'], ['order.babel.json', '--queue', 'queues-orders', '--layout', 'laravel']]) {
      const result = babelq(['preview', ...args], dir);
      assert.equal(result.status, 0, result.stderr);
      assert.doesNotMatch(result.stderr, /note: (--queue|meta\.queue)/, args.join(' '));
    }
  });

  test('a dead letter given --queue orders.dlq: a note that it is the dead-letter queue of orders, and that --queue orders would send it to the live queue, not that it should', () => {
    const result = babelq(['preview', 'dead.babel.json', '--queue', 'orders.dlq'], dir);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /^babelq: note: --queue "orders\.dlq" is the dead-letter queue of the queue "orders": .*dead-lettering leaves meta unchanged, so a dead letter from "orders" keeps meta\.queue "orders"/m);
    // --queue names both where the message goes and its meta.queue: "write orders" would publish the dead letter to the live queue.
    assert.doesNotMatch(result.stderr, /Write --queue orders/);
    assert.match(result.stderr, /--queue orders would publish it to "orders", where consumers would take it again/);
  });

  test('send --queue queues:orders --layout laravel to Redis: sent (exit 0) to queues:queues:orders, as the note says', async () => {
    const name = unique();
    keys.push(`queues:queues:${name}`, `queues:queues:${name}:notify`);
    const result = babelq(['send', 'order.babel.json', '--queue', `queues:${name}`, '--layout', 'laravel', '--broker', 'redis://127.0.0.1:6379'], dir);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(await redis.llen(`queues:queues:${name}`), 1);
    assert.match(result.stderr, new RegExp(`^babelq: note: --queue "queues:${name}" is the Laravel Redis key of the queue "${name}", not a queue name: .*the Redis key "queues:queues:${name}".* Write --queue ${name}\\.$`, 'm'));
  });

  test('send of a dead letter --queue x.dlq to RabbitMQ: sent, with the note naming the RabbitMQ queue', async () => {
    const name = unique();
    amqpQueues.push(`${name}.dlq`);
    const result = babelq(['send', 'dead.babel.json', '--queue', `${name}.dlq`, '--declare', '--yes', '--broker', 'amqp://guest:guest@127.0.0.1:5672'], dir);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, new RegExp(`^babelq: note: --queue "${name}\\.dlq" is the dead-letter queue of the queue "${name}": .*the RabbitMQ queue "${name}\\.dlq".* --queue ${name} would publish it to "${name}", where consumers would take it again`, 'm'));
  });
});
