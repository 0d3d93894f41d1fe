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

/**
 * Every character that moves the cursor, rings, retitles or reorders a line: ESC, BEL, a lone
 * carriage return, the C1 CSI (U+009B, an escape sequence's start on terminals that read C1) and
 * the bidirectional overrides and isolates. Whatever of these a publisher wrote must not reach
 * the terminal raw.
 */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const BIDI = '\u202e\u2066';
const CSI = '\u009b';
const BEL = '\u0007';

function assertNoRaw(what: string, text: string): void {
  const found = RAW.exec(text);
  assert.ok(found === null, `${what} holds a raw U+${found?.[0].charCodeAt(0).toString(16).padStart(4, '0')}: ${JSON.stringify(text.slice(Math.max(0, (found?.index ?? 0) - 80), (found?.index ?? 0) + 80))}`);
}

function envelope(queue: string, metaId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    job: 'urn:babel:orders:created',
    trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b',
    data: { order_id: 1, note: `note${ESC}[2J${CSI}31m${BEL}${BIDI}\rover` },
    meta: { id: metaId, queue, lang: 'node', schema_version: 1, created_at: 1749132727000 },
    attempts: 1,
    ...extra,
  };
}

test('dlq redrive --dry-run stopped at a target: the moves before the stop and the stop itself are printed escaped', async () => {
  const queue = uniqueQueue();
  const moved = `${queue}-moved${ESC}[2J${CSI}1m${BIDI}`;
  const blocked = `${queue}-blocked${ESC}]0;owned${BEL}`;
  for (const key of [`${queue}.dlq`, moved, blocked]) brokers.redisKeys.add(key);
  await brokers.redis.set(blocked, 'not a list');
  const deadLetter = (originalQueue: string, metaId: string) => JSON.stringify(envelope(queue, metaId, {
    dead_letter: { reason: 'failed', error: 'boom', exception: 'Error', failed_at: 1749132728000, original_queue: originalQueue, attempts: 1, lang: 'node' },
  }));
  const firstId = `first${ESC}[31m${CSI}2J${BIDI}${BEL}\nforged: first`;
  const secondId = `second${ESC}[33m${CSI}2J${BIDI}\nforged: second`;
  await brokers.redis.rpush(`${queue}.dlq`, deadLetter(moved, firstId), deadLetter(blocked, secondId));

  const run = babelq(['dlq', 'redrive', '--queue', queue, '--all', '--dry-run'], REPO_ROOT);
  assert.equal(run.status, 2, run.stderr);
  assertNoRaw('stdout', run.stdout);
  assertNoRaw('stderr', run.stderr);
  for (const [what, text] of [['stdout', run.stdout], ['stderr', run.stderr]] as const) {
    assert.ok(!text.split('\n').some((line) => line.startsWith('forged')), `${what} has a line the meta.id began: ${text}`);
  }
  assert.match(run.stdout, /^meta\.id first\\u001b\[31m\\u009b2J\\u202e\\u2066\\u0007\\nforged: first → babelq-test-[0-9a-f]+-moved\\u001b\[2J/m);
  assert.match(run.stdout, /note\\u001b\[2J\\u009b31m\\u0007\\u202e\\u2066\\rover/);
  assert.match(run.stderr, /then stop at meta\.id second\\u001b\[33m\\u009b2J\\u202e\\u2066\\nforged: second: .*the key babelq-test-[0-9a-f]+-blocked\\u001b\]0;owned\\u0007 exists but is not a list/);
  assert.equal(await brokers.redis.llen(`${queue}.dlq`), 2, 'a dry run moves nothing');
});

test('peek and dlq list: a meta.id, URN, reason or error read from the queue stays on its line, escaped and cut', async () => {
  const queue = uniqueQueue();
  brokers.redisKeys.add(`${queue}.dlq`);
  const error = `boom${CSI}2J${BIDI}\nforged: error ${'e'.repeat(5000)}`;
  const body = JSON.stringify(envelope(queue, `id${BIDI}\nforged: id`, {
    job: `urn:babel:orders:created${CSI}2J\nforged: urn ${'u'.repeat(5000)}`,
    dead_letter: { reason: `failed${BIDI}\nforged: reason`, error, exception: `Error${BEL}\nforged: exception`, failed_at: 1749132728000, original_queue: `${queue}${BIDI}\nforged: queue`, attempts: 1, lang: 'node' },
  }));
  await brokers.redis.rpush(`${queue}.dlq`, body);
  for (const args of [['peek', '--dlq', '--queue', queue], ['dlq', 'list', '--queue', queue]]) {
    const run = babelq(args, REPO_ROOT);
    assert.equal(run.status, 0, run.stderr);
    assertNoRaw(args.join(' '), run.stdout);
    const lines = run.stdout.split('\n');
    assert.ok(!lines.some((line) => line.trimStart().startsWith('forged')), `${args.join(' ')} has a line a publisher began:\n${run.stdout}`);
    const row = lines.find((line) => line.includes('meta.id '))!;
    assert.match(row, /urn:babel:orders:created\\u009b2J\\nforged: urn u+…u+ .*meta\.id id\\u202e\\u2066\\nforged: id /);
    assert.ok(row.length < 1000, `${args.join(' ')}: the row is ${row.length} characters`);
    for (const line of lines.filter((candidate) => !candidate.startsWith('  {'))) assert.ok(line.length < 1500, `${args.join(' ')}: a line of ${line.length} characters: ${line.slice(0, 200)}`);
  }
  const listed = babelq(['dlq', 'list', '--queue', queue], REPO_ROOT).stdout;
  assert.match(listed, /^1 × failed\\u202e\\u2066\\nforged: reason: boom\\u009b2J\\u202e\\u2066\\nforged: error e+…$/m);
  assert.match(listed, /^ {4}exception: Error\\u0007\\nforged: exception$/m);

  // JSON keeps every value exactly as read: JSON's own escapes, no second one.
  const json = JSON.parse(babelq(['dlq', 'list', '--queue', queue, '--format', 'json'], REPO_ROOT).stdout) as { groups: { reason: string; error: string; messages: { metaId: string; urn: string; text: string }[] }[] };
  assert.equal(json.groups[0]!.error, error);
  assert.equal(json.groups[0]!.reason, `failed${BIDI}\nforged: reason`);
  assert.equal(json.groups[0]!.messages[0]!.metaId, `id${BIDI}\nforged: id`);
  assert.equal(json.groups[0]!.messages[0]!.text, body);
  const peeked = JSON.parse(babelq(['peek', '--dlq', '--queue', queue, '--format', 'json'], REPO_ROOT).stdout) as { metaId: string; text: string }[];
  assert.equal(peeked[0]!.metaId, `id${BIDI}\nforged: id`);
  assert.equal(peeked[0]!.text, body);
});

test('a redrive stopped by Redis names the meta.id and the keys on one escaped line', async () => {
  const queue = uniqueQueue();
  const blocked = `${queue}-blocked${CSI}2J${BIDI}\nforged: key`;
  for (const key of [`${queue}.dlq`, blocked]) brokers.redisKeys.add(key);
  const metaId = `stuck${ESC}[2J${CSI}1m${BIDI}\nforged: id`;
  await brokers.redis.rpush(`${queue}.dlq`, JSON.stringify(envelope(queue, metaId, {
    dead_letter: { reason: 'failed', error: 'boom', exception: 'Error', failed_at: 1749132728000, original_queue: blocked, attempts: 1, lang: 'node' },
  })));
  // Made a list when the redrive reads the DLQ, a hash when it moves: the stop comes from the move itself.
  await brokers.redis.hset(blocked, 'field', 'value');
  const run = babelq(['dlq', 'redrive', '--queue', queue, '--all', '--dry-run'], REPO_ROOT);
  assert.equal(run.status, 1, run.stderr);
  assertNoRaw('stderr', run.stderr);
  assert.ok(!run.stderr.split('\n').some((line) => line.startsWith('forged')), run.stderr);
  assert.match(run.stderr, /the key babelq-test-[0-9a-f]+-blocked\\u009b2J\\u202e\\u2066\\nforged: key exists but is not a list/);
  const real = babelq(['dlq', 'redrive', '--queue', queue, '--all'], REPO_ROOT);
  assert.equal(real.status, 1, real.stderr);
  assertNoRaw('stderr', real.stderr);
  assert.ok(!real.stderr.split('\n').some((line) => line.startsWith('forged')), real.stderr);
});

test('RabbitMQ: peek and a redrive name a queue that does not exist escaped, on one line', async () => {
  const queue = uniqueQueue();
  const missing = `${queue}-gone${ESC}[2J${CSI}1m${BIDI}\nforged: queue`;
  brokers.amqpQueues.add(`${queue}.dlq`);
  const broker = ['--broker', 'amqp://guest:guest@127.0.0.1:5672'];
  const peeked = babelq(['peek', '--queue', missing, ...broker], REPO_ROOT);
  assert.equal(peeked.status, 1, peeked.stderr);
  assertNoRaw('peek stderr', peeked.stderr);
  assert.ok(!peeked.stderr.split('\n').some((line) => line.startsWith('forged')), peeked.stderr);
  assert.match(peeked.stderr, /The queue babelq-test-[0-9a-f]+-gone\\u001b\[2J\\u009b1m\\u202e\\u2066\\nforged: queue does not exist/);

  await brokers.channel.assertQueue(`${queue}.dlq`, { durable: true });
  const metaId = `id${ESC}[2J${CSI}1m${BIDI}\nforged: id`;
  await brokers.channel.sendToQueue(`${queue}.dlq`, Buffer.from(JSON.stringify(envelope(queue, metaId, {
    dead_letter: { reason: 'failed', error: 'boom', exception: 'Error', failed_at: 1749132728000, original_queue: missing, attempts: 1, lang: 'node' },
  }))), { persistent: true });
  await brokers.channel.waitForConfirms();
  for (const dryRun of [true, false]) {
    const run = babelq(['dlq', 'redrive', '--queue', queue, ...broker, '--all', ...(dryRun ? ['--dry-run'] : [])], REPO_ROOT);
    assert.equal(run.status, 1, run.stderr);
    assertNoRaw('redrive stderr', run.stderr);
    assert.ok(!run.stderr.split('\n').some((line) => line.startsWith('forged')), run.stderr);
    assert.match(run.stderr, /The queue babelq-test-[0-9a-f]+-gone\\u001b\[2J\\u009b1m\\u202e\\u2066\\nforged: queue does not exist/);
  }
});
