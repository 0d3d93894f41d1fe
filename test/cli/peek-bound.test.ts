/**
 * `babelq peek` and `dlq list` read no more than 64 MiB of messages at once, against the real
 * Redis: a list whose older element is larger than that lists the newer ones and says why it
 * stopped, instead of reading the large one into memory with the rest.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outgoing, uniqueQueue, useRealBrokers } from '../broker/helpers';
import { babelq, REPO_ROOT } from './helpers';

const brokers = useRealBrokers();

test('peek: the newest messages up to 64 MiB, then a note naming the size of the next one', async () => {
  const queue = uniqueQueue();
  brokers.redisKeys.add(queue);
  const large = Buffer.alloc(65 * 1024 * 1024, 0x20);
  const small = outgoing(queue).text;
  await brokers.redis.rpush(queue, large, small);

  const text = babelq(['peek', '--queue', queue, '--count', '5'], REPO_ROOT);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`^1 message on redis://127\\.0\\.0\\.1:6379 list ${queue}, newest first\\n`));
  assert.match(text.stdout, new RegExp(`read 1 message\\(s\\) of redis://127\\.0\\.0\\.1:6379 list ${queue} and no more: the next one is ${large.length} bytes, and one read takes at most ${64 * 1024 * 1024} bytes \\(64 MiB\\)`));
  const json = babelq(['peek', '--queue', queue, '--count', '5', '--format', 'json'], REPO_ROOT);
  assert.equal(json.status, 0, json.stderr);
  assert.equal(JSON.parse(json.stdout).length, 1);
  assert.match(json.stderr, /and no more: the next one is/);
  assert.equal(await brokers.redis.llen(queue), 2, 'peek is non-destructive');
});
