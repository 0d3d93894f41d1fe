/**
 * Redrive against the real local Redis (both layouts) and RabbitMQ: a message dead-lettered the
 * way the Node consumer does it (spread copy, `dead_letter` block, `<queue>.dlq`), found by its
 * exact bytes, moved back to `original_queue` with the bytes the redrive transformation wrote,
 * and read back there by a plain client; messages not picked stay in the DLQ, in order.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { notSearchedText, openBroker } from '../../broker';
import { deadLetterLocation, redriveMessage } from '../../core/message/dead-letter';
import type { RedisLayout, RedriveMove } from '../../core/message/types';
import { AMQP_URL, REDIS_URL, deadLettered, outgoing, putOnQueue, uniqueQueue, useRealBrokers } from './helpers';

const brokers = useRealBrokers();
const { redis, redisKeys, amqpQueues } = brokers;

function move(body: string, layout: RedisLayout): RedriveMove {
  const redriven = redriveMessage(body, { sdk: 'node', redisLayout: layout });
  assert.ok(redriven.ok, redriven.ok ? '' : redriven.error);
  return { original: new TextEncoder().encode(body), message: redriven.message };
}

for (const layout of ['babelqueue', 'laravel'] as const) {
  describe(`redis (${layout} layout): redrive`, () => {
    test('moves the picked dead letters back to original_queue with the redriven bytes; the others stay, in order', async () => {
      const queue = uniqueQueue();
      const dlq = deadLetterLocation(queue, 'redis', layout);
      const work = layout === 'laravel' ? `queues:${queue}` : queue;
      redisKeys.add(dlq.key).add(work).add(`${work}:notify`);
      assert.equal(dlq.key, layout === 'laravel' ? `queues:${queue}.dlq` : `${queue}.dlq`);
      const bodies = [1, 2, 3].map((orderId) => deadLettered(outgoing(queue, { orderId }).text, queue, 'gateway down'));
      await redis.rpush(dlq.key, ...bodies);

      const broker = await openBroker(REDIS_URL, { timeoutMs: 2000 });
      try {
        const moves = [move(bodies[0]!, layout), move(bodies[2]!, layout)];
        const receipt = await broker.redrive(dlq.key, moves);
        assert.equal(receipt.moved, 2);
        assert.equal(receipt.missing, 0);
        assert.deepEqual(await redis.lrange(work, 0, -1), moves.map((m) => m.message.text));
        assert.deepEqual(await redis.lrange(dlq.key, 0, -1), [bodies[1]]);
        if (layout === 'laravel') assert.equal(await redis.llen(`${work}:notify`), 2, 'one notify marker per message');
        // The moved message reads as the contract says a redriven message does.
        const back = JSON.parse((await redis.lindex(work, 0))!);
        assert.equal(back.attempts, 0);
        assert.equal(back.dead_letter, undefined);
        assert.equal(back.meta.id, JSON.parse(bodies[0]!).meta.id);

        // A second run finds nothing to move for the same bytes, and publishes nothing.
        const again = await broker.redrive(dlq.key, [moves[0]!]);
        assert.deepEqual([again.moved, again.missing], [0, 1]);
        assert.equal(await redis.llen(work), 2);
      } finally {
        await broker.close();
      }
    });
  });
}

describe('redis (laravel layout): a redrive where one of the target\'s keys is not a list', () => {
  for (const wrong of ['notify', 'queue'] as const) {
    test(`the ${wrong} key holds a string: nothing moves, and the error names that key`, async () => {
      const queue = uniqueQueue();
      const dlq = deadLetterLocation(queue, 'redis', 'laravel');
      const body = deadLettered(outgoing(queue).text, queue, 'gateway down');
      const redriven = move(body, 'laravel');
      const { listKey, notifyKey } = redriven.message.redis;
      redisKeys.add(dlq.key).add(listKey).add(notifyKey!);
      const key = wrong === 'notify' ? notifyKey! : listKey;
      await redis.set(key, 'not a list');
      await redis.rpush(dlq.key, body);
      const broker = await openBroker(REDIS_URL, { timeoutMs: 2000 });
      try {
        await assert.rejects(broker.redrive(dlq.key, [redriven]), (error: Error & { kind?: string }) => {
          assert.equal(error.kind, 'rejected', error.message);
          assert.ok(error.message.includes(`the key ${key} exists but is not a list`), error.message);
          const other = wrong === 'notify' ? listKey : notifyKey!;
          assert.ok(!error.message.includes(`the key ${other} `), error.message);
          return true;
        });
      } finally {
        await broker.close();
      }
      assert.deepEqual(await redis.lrange(dlq.key, 0, -1), [body]);
      assert.equal(await redis.get(key), 'not a list');
    });
  }
});

test('redis: a DLQ key that holds something other than a list when the move runs is the key named, not the target', async () => {
  const queue = uniqueQueue();
  const dlq = deadLetterLocation(queue, 'redis', 'babelqueue');
  const redriven = move(deadLettered(outgoing(queue).text, queue, 'gateway down'), 'babelqueue');
  const { listKey } = redriven.message.redis;
  redisKeys.add(dlq.key).add(listKey);
  // Read as a list, then replaced before the move (by whoever else writes to that key).
  await redis.set(dlq.key, 'not a list');
  const broker = await openBroker(REDIS_URL, { timeoutMs: 2000 });
  try {
    await assert.rejects(broker.redrive(dlq.key, [redriven]), (error: Error & { kind?: string }) => {
      assert.equal(error.kind, 'rejected', error.message);
      assert.ok(error.message.includes(`the key ${dlq.key} exists but is not a list`), error.message);
      assert.ok(!error.message.includes(`the key ${listKey} `), error.message);
      return true;
    });
  } finally {
    await broker.close();
  }
  assert.equal(await redis.exists(listKey), 0, 'nothing was pushed');
});

describe('rabbitmq: redrive', () => {
  test('publishes with a confirm, then acks; the message not picked stays in the DLQ', async () => {
    const queue = uniqueQueue();
    const dlq = deadLetterLocation(queue, 'amqp', 'babelqueue');
    assert.equal(dlq.key, `${queue}.dlq`);
    for (const name of [queue, dlq.key]) {
      amqpQueues.add(name);
      await brokers.channel.assertQueue(name, { durable: true });
    }
    const bodies = [1, 2].map((orderId) => deadLettered(outgoing(queue, { orderId }).text, queue, 'gateway down'));
    await putOnQueue(brokers.channel, dlq.key, bodies);

    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    let expected: RedriveMove;
    try {
      expected = move(bodies[1]!, 'babelqueue');
      const receipt = await broker.redrive(dlq.key, [expected]);
      assert.deepEqual([receipt.moved, receipt.missing], [1, 0]);
    } finally {
      await broker.close();
    }
    const onQueue = await brokers.channel.get(queue, { noAck: true });
    assert.ok(onQueue, 'the message is on the work queue');
    assert.equal(onQueue.content.toString('utf8'), expected.message.text);
    assert.equal(onQueue.properties.messageId, JSON.parse(bodies[1]!).meta.id);
    assert.equal(onQueue.properties.headers?.['x-attempts'], 0);
    assert.equal(await brokers.channel.get(queue, { noAck: true }), false, 'exactly one copy');
    const left = await brokers.channel.get(dlq.key, { noAck: true });
    assert.ok(left);
    assert.equal(left.content.toString('utf8'), bodies[0]);
    assert.equal(await brokers.channel.get(dlq.key, { noAck: true }), false);
  });

  test('a missing target queue stops the redrive before anything moves', async () => {
    const queue = uniqueQueue();
    const dlq = `${queue}.dlq`;
    amqpQueues.add(dlq);
    await brokers.channel.assertQueue(dlq, { durable: true });
    const body = deadLettered(outgoing(queue).text, queue, 'boom');
    brokers.channel.sendToQueue(dlq, Buffer.from(body));
    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    try {
      await assert.rejects(broker.redrive(dlq, [move(body, 'babelqueue')]), (error: Error & { kind?: string }) => error.kind === 'missing-queue' && error.message.includes(queue));
    } finally {
      await broker.close();
    }
    assert.equal((await brokers.channel.checkQueue(dlq)).messageCount, 1);
  });
});

describe('a redrive of 1,000 dead letters', () => {
  const bodiesOf = (queue: string) => Array.from({ length: 1000 }, (_, orderId) => deadLettered(outgoing(queue, { orderId }).text, queue, 'gateway down'));

  test('Redis: all moved, in order, none left', async (t) => {
    const queue = uniqueQueue();
    redisKeys.add(queue).add(`${queue}.dlq`);
    const bodies = bodiesOf(queue);
    await redis.rpush(`${queue}.dlq`, ...bodies);
    const broker = await openBroker(REDIS_URL, { timeoutMs: 5000 });
    try {
      const moves = bodies.map((body) => move(body, 'babelqueue'));
      const receipt = await broker.redrive(`${queue}.dlq`, moves);
      t.diagnostic(`1,000 moved in ${receipt.durationMs} ms`);
      assert.equal(receipt.moved, 1000);
      assert.deepEqual(await redis.lrange(queue, 0, -1), moves.map((m) => m.message.text));
      assert.equal(await redis.llen(`${queue}.dlq`), 0);
    } finally {
      await broker.close();
    }
  });

  test('Redis: the newest dead letters of a long DLQ are found from its tail, not through every older one first', async (t) => {
    const redriveAll = async (older: number): Promise<number> => {
      const queue = uniqueQueue();
      redisKeys.add(queue).add(`${queue}.dlq`);
      for (let at = 0; at < older; at += 10_000) await redis.rpush(`${queue}.dlq`, ...Array.from({ length: Math.min(10_000, older - at) }, (_, n) => `older ${at + n}`));
      const bodies = bodiesOf(queue).slice(0, 300);
      await redis.rpush(`${queue}.dlq`, ...bodies);
      const broker = await openBroker(REDIS_URL, { timeoutMs: 5000 });
      try {
        const receipt = await broker.redrive(`${queue}.dlq`, bodies.map((body) => move(body, 'babelqueue')));
        assert.equal(receipt.moved, 300);
        assert.equal(await redis.llen(`${queue}.dlq`), older);
        if (older > 0) assert.equal(await redis.lindex(`${queue}.dlq`, -1), `older ${older - 1}`);
        return receipt.durationMs;
      } finally {
        await broker.close();
      }
    };
    const alone = await redriveAll(0);
    const behind = await redriveAll(300_000);
    t.diagnostic(`300 moved in ${alone} ms from a DLQ of 300, in ${behind} ms from a DLQ of 300,300`);
    // A search from the head costs each move a pass over the 300,000 older ones (seconds in all).
    assert.ok(behind < alone * 3 + 300, `${behind} ms behind 300,000 older dead letters, ${alone} ms without them`);
  });

  test('RabbitMQ: all moved with a window of confirms, each exactly once, none left', async (t) => {
    const queue = uniqueQueue();
    for (const name of [queue, `${queue}.dlq`]) {
      amqpQueues.add(name);
      await brokers.channel.assertQueue(name, { durable: true });
    }
    const bodies = bodiesOf(queue);
    await putOnQueue(brokers.channel, `${queue}.dlq`, bodies);
    const broker = await openBroker(AMQP_URL, { timeoutMs: 5000 });
    let moves: RedriveMove[];
    try {
      moves = bodies.map((body) => move(body, 'babelqueue'));
      const receipt = await broker.redrive(`${queue}.dlq`, moves);
      t.diagnostic(`1,000 moved in ${receipt.durationMs} ms`);
      assert.equal(receipt.moved, 1000);
    } finally {
      await broker.close();
    }
    const got = new Set<string>();
    for (;;) {
      const message = await brokers.channel.get(queue, { noAck: true });
      if (message === false) break;
      got.add(message.content.toString('utf8'));
    }
    assert.equal(got.size, 1000);
    for (const m of moves) assert.ok(got.has(m.message.text));
    assert.equal((await brokers.channel.checkQueue(`${queue}.dlq`)).messageCount, 0);
  });
});

describe('rabbitmq: a redrive of a message that already left the DLQ', () => {
  // Five dead letters the moves do not match, and the message chosen is not among them.
  async function dlqOfOthers(): Promise<{ queue: string; dlq: string; others: string[]; gone: RedriveMove }> {
    const queue = uniqueQueue();
    const dlq = `${queue}.dlq`;
    for (const name of [queue, dlq]) {
      amqpQueues.add(name);
      await brokers.channel.assertQueue(name, { durable: true });
    }
    const others = [1, 2, 3, 4, 5].map((orderId) => deadLettered(outgoing(queue, { orderId }).text, queue, 'gateway down'));
    await putOnQueue(brokers.channel, dlq, others);
    return { queue, dlq, others, gone: move(deadLettered(outgoing(queue, { orderId: 99 }).text, queue, 'gateway down'), 'babelqueue') };
  }

  async function leftInDlq(dlq: string): Promise<string[]> {
    const left: string[] = [];
    for (;;) {
      const got = await brokers.channel.get(dlq, { noAck: true });
      if (got === false) return left;
      left.push(got.content.toString('utf8'));
    }
  }

  test('the whole DLQ searched: gone, and every message read is back in the DLQ', async () => {
    const { queue, dlq, others, gone } = await dlqOfOthers();
    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    try {
      const receipt = await broker.redrive(dlq, [gone]);
      assert.deepEqual([receipt.moved, receipt.missing, receipt.notSearched], [0, 1, undefined]);
    } finally {
      await broker.close();
    }
    assert.deepEqual((await leftInDlq(dlq)).sort(), [...others].sort());
    assert.equal((await brokers.channel.checkQueue(queue)).messageCount, 0);
  });

  test('the message bound stops the search: said as not searched beyond the first n messages, not as gone', async () => {
    const { queue, dlq, others, gone } = await dlqOfOthers();
    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    try {
      const receipt = await broker.redrive(dlq, [gone], { maxMessages: 3 });
      assert.deepEqual([receipt.moved, receipt.missing], [0, 0]);
      assert.deepEqual(receipt.notSearched, { count: 1, messages: 3, passedOver: 3, bytes: Buffer.byteLength(others.slice(0, 3).join('')), bound: 'messages', maxMessages: 3, maxBytes: 64 * 1024 * 1024 });
      assert.equal(notSearchedText(receipt.notSearched!, dlq), `1 not found in the first 3 message(s) of ${dlq}, where the search stops (it gets at most 3 messages): the DLQ was not searched beyond them, so that one may still be in it; nothing was published for it`);
    } finally {
      await broker.close();
    }
    assert.deepEqual((await leftInDlq(dlq)).sort(), [...others].sort(), 'the messages searched were released');
    assert.equal((await brokers.channel.checkQueue(queue)).messageCount, 0);
  });

  test('the message bound reached at the DLQ\'s last message: the whole DLQ was searched, so gone, not "not searched beyond"', async () => {
    const { queue, dlq, others, gone } = await dlqOfOthers();
    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    try {
      // The DLQ holds exactly as many messages as the search gets at most.
      const receipt = await broker.redrive(dlq, [gone], { maxMessages: others.length });
      assert.deepEqual([receipt.moved, receipt.missing, receipt.notSearched], [0, 1, undefined]);
    } finally {
      await broker.close();
    }
    assert.deepEqual((await leftInDlq(dlq)).sort(), [...others].sort(), 'the messages searched were released');
    assert.equal((await brokers.channel.checkQueue(queue)).messageCount, 0);
  });

  test('the byte bound passed by the DLQ\'s last message: the whole DLQ was searched, so gone, not "not searched beyond"', async () => {
    const { dlq, others, gone } = await dlqOfOthers();
    const size = Buffer.byteLength(others[0]!);
    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    try {
      // Room for all the others but the last, which is got, compared, and goes past the bound.
      const receipt = await broker.redrive(dlq, [gone], { maxBytes: (others.length - 1) * size + 2 });
      assert.deepEqual([receipt.moved, receipt.missing, receipt.notSearched], [0, 1, undefined]);
    } finally {
      await broker.close();
    }
    assert.deepEqual((await leftInDlq(dlq)).sort(), [...others].sort(), 'the messages searched were released');
  });

  test('the byte bound stops the search: said as not searched beyond the bytes held, not as gone', async () => {
    const { dlq, others, gone } = await dlqOfOthers();
    const size = Buffer.byteLength(others[0]!);
    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    try {
      // Room for two of the others: the third is got, goes past the bound, and stops the search.
      const receipt = await broker.redrive(dlq, [gone], { maxBytes: 2 * size + 2 });
      assert.deepEqual([receipt.moved, receipt.missing], [0, 0]);
      assert.equal(receipt.notSearched?.bound, 'bytes');
      assert.equal(receipt.notSearched?.count, 1);
      assert.equal(receipt.notSearched?.messages, 3);
      assert.equal(receipt.notSearched?.bytes, 3 * size);
      assert.match(notSearchedText(receipt.notSearched!, dlq), new RegExp(`^1 not found in the first 3 message\\(s\\) of ${dlq}, where the search stops \\(the 3 it passed over came to ${3 * size} bytes, past the ${2 * size + 2} bytes of messages it holds at most\\)`));
    } finally {
      await broker.close();
    }
    assert.deepEqual((await leftInDlq(dlq)).sort(), [...others].sort(), 'the messages searched were released');
  });

  test('the byte bound with a move found on the way: the bytes said are those passed over, not those of every message got', async () => {
    const { queue, dlq, others, gone } = await dlqOfOthers();
    const size = Buffer.byteLength(others[0]!);
    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    try {
      // others[0] is moved; others[1..3] are passed over, and the third of them goes past the bound.
      const receipt = await broker.redrive(dlq, [move(others[0]!, 'babelqueue'), gone], { maxBytes: 2 * size + 2 });
      assert.deepEqual([receipt.moved, receipt.missing], [1, 0]);
      assert.deepEqual(receipt.notSearched, { count: 1, messages: 4, passedOver: 3, bytes: 3 * size, bound: 'bytes', maxMessages: 10_000, maxBytes: 2 * size + 2 });
      assert.equal(
        notSearchedText(receipt.notSearched!, dlq),
        `1 not found in the first 4 message(s) of ${dlq}, where the search stops (the 3 it passed over came to ${3 * size} bytes, past the ${2 * size + 2} bytes of messages it holds at most): the DLQ was not searched beyond them, so that one may still be in it; nothing was published for it`,
      );
    } finally {
      await broker.close();
    }
    assert.equal((await brokers.channel.checkQueue(queue)).messageCount, 1);
    assert.deepEqual((await leftInDlq(dlq)).sort(), others.slice(1).sort());
  });

  test('each message got is looked up among the moves once, not compared with every move pending: 1,000 moves in the reverse of the DLQ\'s order', async () => {
    const queue = uniqueQueue();
    const dlq = `${queue}.dlq`;
    for (const name of [queue, dlq]) {
      amqpQueues.add(name);
      await brokers.channel.assertQueue(name, { durable: true });
    }
    // Bodies of one length, so that no comparison stops at the length.
    const bodies = Array.from({ length: 1000 }, (_, i) => deadLettered(outgoing(queue, { orderId: 100_000 + i }).text, queue, 'gateway down'));
    assert.equal(new Set(bodies.map((body) => Buffer.byteLength(body))).size, 1);
    await putOnQueue(brokers.channel, dlq, bodies);
    const moves = bodies.map((body) => move(body, 'babelqueue')).reverse();
    const broker = await openBroker(AMQP_URL, { timeoutMs: 10_000 });
    const compare = Buffer.compare;
    let comparisons = 0;
    Buffer.compare = (a: Uint8Array, b: Uint8Array) => {
      comparisons++;
      return compare(a, b);
    };
    try {
      const receipt = await broker.redrive(dlq, moves);
      assert.deepEqual([receipt.moved, receipt.missing, receipt.notSearched], [1000, 0, undefined]);
    } finally {
      Buffer.compare = compare;
      await broker.close();
    }
    // Found by a lookup of its bytes: at most a comparison or two per message, not one per move pending (half a million).
    assert.ok(comparisons <= 2 * moves.length, `${comparisons} byte comparisons for ${moves.length} moves`);
    assert.equal((await brokers.channel.checkQueue(queue)).messageCount, 1000);
    assert.equal((await brokers.channel.checkQueue(dlq)).messageCount, 0);
  });

  test('a message found within the bound is still moved', async () => {
    const { queue, dlq, others } = await dlqOfOthers();
    const broker = await openBroker(AMQP_URL, { timeoutMs: 2000 });
    try {
      const receipt = await broker.redrive(dlq, [move(others[1]!, 'babelqueue')], { maxMessages: 3 });
      assert.deepEqual([receipt.moved, receipt.missing, receipt.notSearched], [1, 0, undefined]);
    } finally {
      await broker.close();
    }
    assert.equal((await brokers.channel.checkQueue(queue)).messageCount, 1);
    assert.equal((await leftInDlq(dlq)).length, 4);
  });
});
