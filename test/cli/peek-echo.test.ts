/**
 * What `babelq peek` quotes back of what it was given, a queue name or a filter, is cut when long,
 * as an option's value is in a refusal: a 100 KB --queue made a 100 KB header line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outgoing, uniqueQueue, useRealBrokers } from '../broker/helpers';
import { babelq, REPO_ROOT } from './helpers';

const brokers = useRealBrokers();

test('peek names a long queue by its start and end, and a long filter by its start', async () => {
  const queue = `${uniqueQueue()}-${'q'.repeat(100_000)}`;
  brokers.redisKeys.add(queue);
  await brokers.redis.rpush(queue, outgoing('orders', { orderId: 1 }).text);
  const result = babelq(['peek', '--queue', queue, '--filter', `nothing-${'f'.repeat(100_000)}`], REPO_ROOT);
  assert.equal(result.status, 0, result.stderr.slice(0, 300));
  assert.match(result.stdout, /^0 messages on redis:\/\/127\.0\.0\.1:6379 list babelq-test-[0-9a-f-]+q+…q+, newest first \(0 of 1 match "nothing-f+…"\)\n/);
  assert.ok(result.stdout.length + result.stderr.length < 1000, `${result.stdout.length + result.stderr.length} characters`);
});
