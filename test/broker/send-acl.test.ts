/**
 * A Redis send in the Laravel layout (the body and its notify marker in one MULTI/EXEC) under a
 * user whose ACL refuses one of its commands, against the real local Redis: Redis answers a
 * refused MULTI with an error and then runs the pushes after it one by one, outside any
 * transaction. Each case makes its own ACL user (deleted afterwards) and checks both lists.
 * Also the same send where one of its two keys holds something other than a list.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openBroker } from '../../broker';
import { outgoing, uniqueQueue, uniqueSecret, useRealBrokers } from './helpers';

const brokers = useRealBrokers();
const { redis, redisKeys } = brokers;

/** An ACL user with `rules` (after `on`, its password and `resetkeys`). */
async function aclUser(rules: string[]): Promise<string> {
  const user = `babelq-test-${uniqueQueue().slice(-12)}`;
  const password = uniqueSecret();
  await redis.call('ACL', 'SETUSER', user, 'on', `>${password}`, 'resetkeys', ...rules);
  brokers.closers.push(async () => {
    await redis.call('ACL', 'DELUSER', user);
  });
  return `redis://${user}:${password}@127.0.0.1:6379`;
}

describe('redis: a Laravel-layout send refused part-way by the user\'s ACL', () => {
  for (const [what, rules] of [
    ['RPUSH on both keys but no MULTI or EXEC', (work: string) => [`~${work}*`, '-@all', '+auth', '+ping', '+rpush']],
    ['no MULTI, and no access to the notify list', (work: string) => [`~${work}`, '+@all', '-multi']],
    ['no access to the notify list', (work: string) => [`~${work}`, '+@all']],
    ['no EXEC', (work: string) => [`~${work}*`, '+@all', '-exec']],
  ] as const) {
    test(`${what}: nothing is pushed, and the error says which commands the user needs`, async () => {
      const queue = uniqueQueue();
      const message = outgoing(queue, { layout: 'laravel' });
      const { listKey, notifyKey } = message.redis;
      redisKeys.add(listKey).add(notifyKey!);
      const broker = await openBroker(await aclUser(rules(listKey)), { timeoutMs: 2000 });
      let error: (Error & { kind?: string }) | undefined;
      try {
        await broker.publish(message);
      } catch (caught) {
        error = caught as Error & { kind?: string };
      } finally {
        await broker.close();
      }
      assert.ok(error, 'the send succeeded for a user that may not run one of its commands');
      assert.deepEqual(await redis.lrange(listKey, 0, -1), [], 'the error says nothing was sent');
      assert.deepEqual(await redis.lrange(notifyKey!, 0, -1), []);
      assert.equal(error.kind, 'auth', error.message);
      assert.match(error.message, /does not allow this user every command a send in the Laravel layout needs \(MULTI, RPUSH .*, EXEC\), so nothing was pushed/);
    });
  }
});

test('a user refused PING is told so when the connection opens, not that it may not write', async () => {
  const url = await aclUser(['~nothing', '-@all', '+auth', '+lrange']);
  await assert.rejects(openBroker(url, { timeoutMs: 2000 }), (error: Error & { kind?: string }) => {
    assert.equal(error.kind, 'auth', error.message);
    assert.match(error.message, /does not allow this user a command babelq sends on connecting \(.*PING.*\).*'ping'/);
    assert.doesNotMatch(error.message, /write/);
    return true;
  });
});

describe('redis: a Laravel-layout send where one of its keys is not a list', () => {
  for (const wrong of ['notify', 'queue'] as const) {
    test(`the ${wrong} key holds a string: nothing is pushed onto the other, and the error names the key`, async () => {
      const message = outgoing(uniqueQueue(), { layout: 'laravel' });
      const { listKey, notifyKey } = message.redis;
      redisKeys.add(listKey).add(notifyKey!);
      const key = wrong === 'notify' ? notifyKey! : listKey;
      await redis.set(key, 'not a list');
      const broker = await openBroker('redis://127.0.0.1:6379', { timeoutMs: 2000 });
      try {
        await assert.rejects(broker.publish(message), (error: Error & { kind?: string }) => {
          assert.equal(error.kind, 'rejected', error.message);
          assert.match(error.message, new RegExp(`the key ${key} holds a string, not a list, so nothing was pushed`));
          return true;
        });
      } finally {
        await broker.close();
      }
      const other = wrong === 'notify' ? listKey : notifyKey!;
      assert.equal(await redis.exists(other), 0, `nothing was pushed onto ${other}`);
      assert.equal(await redis.get(key), 'not a list');
    });
  }
});

test('a user allowed LRANGE but not EVAL still peeks (without the byte bound, which needs the script)', async () => {
  const queue = uniqueQueue();
  redisKeys.add(queue);
  await redis.rpush(queue, 'one', 'two');
  const broker = await openBroker(await aclUser([`~${queue}`, '-@all', '+auth', '+ping', '+lrange']), { timeoutMs: 2000 });
  try {
    const peeked = await broker.peek(queue, 5);
    assert.deepEqual(peeked.map((m) => Buffer.from(m.body).toString()), ['one', 'two']);
  } finally {
    await broker.close();
  }
});
