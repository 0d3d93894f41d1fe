/**
 * `babelq peek` names a queue of more than 200 characters by its start and its end: two queues
 * whose long names differ only at the end (a work queue and its dead-letter queue, say) are told
 * apart on the line that names them. Against the real Redis, with unique keys.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outgoing, uniqueQueue, useRealBrokers } from '../broker/helpers';
import { babelq, REPO_ROOT } from './helpers';

const brokers = useRealBrokers();

test('peek: two queues of 250 characters and more that share their start are named differently, each with its end', async () => {
  const shared = `${uniqueQueue()}${'a'.repeat(250)}`;
  const headers: string[] = [];
  for (const tail of [':work', ':dlq']) {
    const queue = `${shared}${tail}`;
    brokers.redisKeys.add(queue);
    await brokers.redis.rpush(queue, outgoing(queue).text);
    const peeked = babelq(['peek', '--queue', queue, '--count', '1'], REPO_ROOT);
    assert.equal(peeked.status, 0, peeked.stderr);
    const header = peeked.stdout.split('\n')[0]!;
    assert.match(header, new RegExp(`^1 message on redis://127\\.0\\.0\\.1:6379 list ${shared.slice(0, 20)}[a-z0-9-]*…a+${tail}, newest first$`), header);
    headers.push(header);
  }
  assert.notEqual(headers[0], headers[1]);
});
