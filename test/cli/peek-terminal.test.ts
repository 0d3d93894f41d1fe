/**
 * What `babelq peek` and `babelq dlq` print for people comes from whoever published to the queue:
 * a control character in a body, a URN, a meta.id or a dead-letter error is shown as `\uXXXX`,
 * never written raw to the terminal; json keeps the text exact.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { uniqueQueue, useRealBrokers } from '../broker/helpers';
import { babelq, makeTree, removeTree, REPO_ROOT } from './helpers';

const brokers = useRealBrokers();

const ESC = '\u001b';

function hostile(queue: string): string {
  return JSON.stringify({
    job: `urn:babel:orders:created${ESC}]0;owned${ESC}\\`,
    trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b',
    data: { order_id: 1 },
    meta: { id: `id${ESC}[2J`, queue, lang: 'php', schema_version: 1, created_at: 1749132727000 },
    attempts: 0,
    dead_letter: { reason: 'failed', error: `boom${ESC}[31m\rforged line`, failed_at: 1749132728000, original_queue: queue, attempts: 1, lang: 'php' },
  });
}

describe('peek and dlq text output escape what a publisher wrote', () => {
  test('peek, dlq list and dlq redrive --dry-run: no raw control character; json keeps the text as read', async () => {
    const queue = uniqueQueue();
    brokers.redisKeys.add(queue);
    brokers.redisKeys.add(`${queue}.dlq`);
    const body = hostile(queue);
    await brokers.redis.rpush(queue, body, `raw${ESC}[31m not json\r`);
    await brokers.redis.rpush(`${queue}.dlq`, body);
    for (const args of [['peek', '--queue', queue], ['dlq', 'list', '--queue', queue], ['dlq', 'redrive', '--queue', queue, '--all', '--dry-run']]) {
      const result = babelq(args, REPO_ROOT);
      assert.equal(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
      assert.ok(!result.stdout.includes(ESC), `${args.join(' ')} wrote a raw ESC: ${JSON.stringify(result.stdout)}`);
      assert.ok(!/\r(?!\n)/.test(result.stdout), `${args.join(' ')} wrote a lone carriage return`);
      assert.match(result.stdout, /\\u001b/);
    }
    const json = babelq(['peek', '--queue', queue, '--format', 'json'], REPO_ROOT);
    assert.ok((JSON.parse(json.stdout) as { metaId: string }[]).some((row) => row.metaId === `id${ESC}[2J`));
  });
});

test('send names the queue and meta.id of the file escaped, as peek shows them', async () => {
  const queue = `${uniqueQueue()}${ESC}[2J`;
  brokers.redisKeys.add(queue);
  const dir = makeTree({ 'esc.babel.json': JSON.stringify({ job: 'urn:babel:orders:created', trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b', data: { order_id: 1 }, meta: { id: '8b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b', queue, lang: 'php', schema_version: 1, created_at: 1749132727000 }, attempts: 0 }) });
  try {
    const sent = babelq(['send', 'esc.babel.json', '--yes'], dir);
    assert.equal(sent.status, 0, sent.stderr);
    assert.ok(!sent.stdout.includes(ESC), JSON.stringify(sent.stdout));
    assert.match(sent.stdout, /list babelq-test-[0-9a-f]+\\u001b\[2J/);
    assert.equal(await brokers.redis.llen(queue), 1, 'sent to the queue as the file names it');
  } finally {
    removeTree(dir);
  }
});

test('dlq redrive names a queue and a meta.id read from the DLQ escaped, on stdout and stderr alike', async () => {
  const queue = uniqueQueue();
  const moved = `${queue}${ESC}[2J`;
  const notList = `${queue}${ESC}]0;owned${ESC}\\`;
  for (const key of [queue, `${queue}.dlq`, moved, notList]) brokers.redisKeys.add(key);
  await brokers.redis.set(notList, 'not a list');
  const deadLetter = (originalQueue: unknown, metaId: string) => JSON.stringify({
    job: 'urn:babel:orders:created',
    trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b',
    data: { order_id: 1 },
    meta: { id: metaId, queue, lang: 'node', schema_version: 1, created_at: 1749132727000 },
    attempts: 1,
    dead_letter: { reason: 'failed', error: 'boom', exception: 'Error', failed_at: 1749132728000, original_queue: originalQueue, attempts: 1, lang: 'node' },
  });
  const movedId = `moved${ESC}[31m`;
  const stuckId = `stuck${ESC}[33m`;
  const leftId = `left${ESC}[2J`;
  await brokers.redis.rpush(`${queue}.dlq`, deadLetter(moved, movedId), deadLetter(5, leftId), deadLetter(notList, stuckId));

  const moving = babelq(['dlq', 'redrive', '--queue', queue, '--id', movedId, '--id', leftId], REPO_ROOT);
  assert.equal(moving.status, 0, moving.stderr);
  assert.equal(await brokers.redis.llen(moved), 1, 'moved to the queue the dead letter names');
  const stopped = babelq(['dlq', 'redrive', '--queue', queue, '--id', stuckId], REPO_ROOT);
  assert.equal(stopped.status, 1, stopped.stderr);
  for (const [what, text] of [['stdout', moving.stdout], ['stderr', moving.stderr], ['stderr of the stopped redrive', stopped.stderr]] as const) {
    assert.ok(!text.includes(ESC), `${what} holds a raw ESC: ${JSON.stringify(text)}`);
  }
  assert.match(moving.stdout, /\\u001b\[2J/);
  assert.match(moving.stderr, /left\\u001b\[2J/);
  assert.match(stopped.stderr, /stuck\\u001b\[33m/);
});

test('send names the queue of the file escaped in an error too', async () => {
  const queue = `${uniqueQueue()}${ESC}[2J`;
  brokers.redisKeys.add(queue);
  await brokers.redis.set(queue, 'not a list');
  const dir = makeTree({ 'esc.babel.json': JSON.stringify({ job: 'urn:babel:orders:created', trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b', data: { order_id: 1 }, meta: { id: '8b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b', queue, lang: 'php', schema_version: 1, created_at: 1749132727000 }, attempts: 0 }) });
  try {
    const refused = babelq(['send', 'esc.babel.json', '--yes'], dir);
    assert.equal(refused.status, 1, refused.stderr);
    assert.ok(!refused.stderr.includes(ESC), JSON.stringify(refused.stderr));
    assert.match(refused.stderr, /the key babelq-test-[0-9a-f]+\\u001b\[2J exists but is not a list/);
  } finally {
    removeTree(dir);
  }
});
