/**
 * A Redis redrive under a user whose ACL refuses one step of the move, against the real local
 * Redis: Redis checks a script's commands one by one and keeps what ran before a refused one, so a
 * move that took the message out of the DLQ first and was then refused the push would lose it.
 * Each case makes its own ACL user (deleted afterwards) and checks both lists byte for byte.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openBroker } from '../../broker';
import { deadLetterLocation, redriveMessage } from '../../core/message/dead-letter';
import type { RedisLayout, RedriveMove } from '../../core/message/types';
import { deadLettered, outgoing, uniqueQueue, uniqueSecret, useRealBrokers } from './helpers';

const brokers = useRealBrokers();
const { redis, redisKeys } = brokers;

function move(body: string, layout: RedisLayout): RedriveMove {
  const redriven = redriveMessage(body, { sdk: 'node', redisLayout: layout });
  assert.ok(redriven.ok, redriven.ok ? '' : redriven.error);
  return { original: new TextEncoder().encode(body), message: redriven.message };
}

interface Setup {
  readonly dlq: string;
  readonly work: string;
  readonly notify: string;
  readonly bodies: string[];
  readonly moves: RedriveMove[];
}

/** Three dead letters in a fresh DLQ; the moves pick the first and the third. */
async function deadLetters(layout: RedisLayout): Promise<Setup> {
  const queue = uniqueQueue();
  const dlq = deadLetterLocation(queue, 'redis', layout).key;
  const work = layout === 'laravel' ? `queues:${queue}` : queue;
  const notify = `${work}:notify`;
  redisKeys.add(dlq).add(work).add(notify);
  const bodies = [1, 2, 3].map((orderId) => deadLettered(outgoing(queue, { orderId }).text, queue, 'gateway down'));
  await redis.rpush(dlq, ...bodies);
  return { dlq, work, notify, bodies, moves: [move(bodies[0]!, layout), move(bodies[2]!, layout)] };
}

/**
 * An ACL user allowed the three keys and every command but `denied`; `selector` adds a Redis 7
 * selector (the user may run a command when its root rules or any selector allow it).
 */
async function aclUser(setup: Setup, denied: string[], selector?: string): Promise<string> {
  const user = `babelq-test-${uniqueQueue().slice(-12)}`;
  const password = uniqueSecret();
  const rules = ['on', `>${password}`, 'resetkeys', `~${setup.dlq}`, `~${setup.work}`, `~${setup.notify}`, '+@all', ...denied.map((command) => `-${command}`)];
  await redis.call('ACL', 'SETUSER', user, ...rules, ...(selector ? [selector] : []));
  brokers.closers.push(async () => {
    await redis.call('ACL', 'DELUSER', user);
  });
  return `redis://${user}:${password}@127.0.0.1:6379`;
}

async function redriveAs(url: string, setup: Setup): Promise<Error & { kind?: string; moved?: number }> {
  const broker = await openBroker(url, { timeoutMs: 2000 });
  try {
    await broker.redrive(setup.dlq, setup.moves);
  } catch (error) {
    return error as Error & { kind?: string; moved?: number };
  } finally {
    await broker.close();
  }
  assert.fail('the redrive succeeded for a user that may not run one of its steps');
}

describe('redis: a redrive refused part-way by the user\'s ACL', () => {
  for (const [layout, denied, selector, what] of [
    ['babelqueue', ['rpush'], undefined, 'no RPUSH'],
    ['laravel', ['rpush'], undefined, 'no RPUSH'],
    ['babelqueue', ['lrem'], undefined, 'no LREM: the push is taken back'],
    ['laravel', ['rpush'], 'WORK', 'RPUSH onto the queue but not onto its notify list: the body\'s push is taken back'],
  ] as const) {
    test(`${layout} layout, ${what}: nothing moves, the DLQ keeps every message in order, and the error says so`, async () => {
      const setup = await deadLetters(layout);
      // A selector that allows RPUSH on the work list alone.
      const url = await aclUser(setup, [...denied], selector === 'WORK' ? `(~${setup.work} +rpush)` : undefined);
      const error = await redriveAs(url, setup);
      assert.equal(error.kind, 'auth', error.message);
      assert.equal(error.moved, 0);
      assert.match(error.message, /does not allow this user every command a move onto .* needs/);
      assert.match(error.message, new RegExp(`nothing was changed, so it is still in ${setup.dlq}`));
      assert.deepEqual(await redis.lrange(setup.dlq, 0, -1), setup.bodies);
      assert.deepEqual(await redis.lrange(setup.work, 0, -1), []);
      assert.deepEqual(await redis.lrange(setup.notify, 0, -1), []);
    });
  }

  test('no LREM and no RPOP: the push cannot be taken back, and the error says the message is now in both lists', async () => {
    const setup = await deadLetters('babelqueue');
    const url = await aclUser(setup, ['lrem', 'rpop']);
    const error = await redriveAs(url, setup);
    assert.equal(error.kind, 'auth', error.message);
    assert.match(error.message, new RegExp(`it is now both on ${setup.work} and still in ${setup.dlq}`));
    assert.deepEqual(await redis.lrange(setup.dlq, 0, -1), setup.bodies);
    assert.deepEqual(await redis.lrange(setup.work, 0, -1), [setup.moves[0]!.message.text]);
  });

  test('no LPOS and no LLEN: nothing moves, and the error names LLEN among the commands a move needs', async () => {
    const setup = await deadLetters('babelqueue');
    const url = await aclUser(setup, ['lpos', 'llen']);
    const error = await redriveAs(url, setup);
    assert.equal(error.kind, 'auth', error.message);
    assert.match(error.message, /\bLLEN\b/);
    assert.deepEqual(await redis.lrange(setup.dlq, 0, -1), setup.bodies);
    assert.deepEqual(await redis.lrange(setup.work, 0, -1), []);
  });

  test('no LPOS: the move finds the message by reading the DLQ in pages, and moves it', async () => {
    const setup = await deadLetters('laravel');
    // More than one page (256) of other dead letters before the picked ones.
    const filler = Array.from({ length: 600 }, (_, index) => `{"filler":${index}}`);
    await redis.lpush(setup.dlq, ...filler);
    const url = await aclUser(setup, ['lpos']);
    const broker = await openBroker(url, { timeoutMs: 2000 });
    try {
      const receipt = await broker.redrive(setup.dlq, setup.moves);
      assert.deepEqual([receipt.moved, receipt.missing], [2, 0]);
      const again = await broker.redrive(setup.dlq, [setup.moves[0]!]);
      assert.deepEqual([again.moved, again.missing], [0, 1]);
    } finally {
      await broker.close();
    }
    assert.deepEqual(await redis.lrange(setup.work, 0, -1), setup.moves.map((m) => m.message.text));
    assert.equal(await redis.llen(setup.notify), 2);
    assert.deepEqual((await redis.lrange(setup.dlq, 0, -1)).slice(600), [setup.bodies[1]]);
    assert.equal(await redis.llen(setup.dlq), 601);
  });
});

describe('redis: a read by a user whose ACL refuses EVAL', () => {
  test('keeps the byte bound: the newest that fit, and the size of the next, which is not returned', async () => {
    const setup = await deadLetters('babelqueue');
    const sized = (name: string, bytes: number) => Buffer.concat([Buffer.from(name), Buffer.alloc(bytes - name.length, 0x61)]);
    const [older, middle, newest] = [sized('older', 300), sized('middle', 100), sized('newest', 100)];
    await redis.del(setup.dlq);
    await redis.rpush(setup.dlq, older, middle, newest);
    const url = await aclUser(setup, ['eval', 'evalsha']);
    const broker = await openBroker(url, { timeoutMs: 2000 });
    try {
      const bounded = await broker.peek(setup.dlq, 3, 250);
      assert.deepEqual(bounded.map((m) => Buffer.from(m.body)), [middle, newest]);
      assert.deepEqual(bounded.stopped, { maxBytes: 250, nextBytes: 300 });
      const none = await broker.peek(setup.dlq, 3, 99);
      assert.deepEqual([none.length, none.stopped], [0, { maxBytes: 99, nextBytes: 100 }]);
      const all = await broker.peek(setup.dlq, 3, 500);
      assert.deepEqual(all.map((m) => Buffer.from(m.body)), [older, middle, newest]);
      assert.equal(all.stopped, undefined);
      const two = await broker.peek(setup.dlq, 2, 500);
      assert.deepEqual(two.map((m) => Buffer.from(m.body)), [middle, newest]);
      assert.equal(two.stopped, undefined);
    } finally {
      await broker.close();
    }
  });
});
