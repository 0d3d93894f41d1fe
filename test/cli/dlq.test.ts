/**
 * `babelq dlq list | redrive` and `babelq peek --dlq` through the built CLI against the real Redis
 * (both layouts) and RabbitMQ: dead letters written as the Node consumer writes them are listed
 * by reason and error, redriven back to original_queue, and read there by a plain client with the
 * bytes the dry run printed; a consumer written from the contract accepts them.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { deadLettered, outgoing, putOnQueue, uniqueQueue, untilQueueHolds, URN, useRealBrokers } from '../broker/helpers';
import { contractRejection } from '../support/contract-consumer';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist/cli.js');

function babelq(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, env: process.env, timeout: 30_000, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** As babelq, without blocking this process's event loop (a test's own listener must answer meanwhile). */
function babelqAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

/** The body a dry run prints for meta.id `id` (the line after its header). */
function dryRunBody(stdout: string, id: string): string {
  const lines = stdout.split('\n');
  const at = lines.findIndex((line) => line.startsWith(`meta.id ${id} → `));
  assert.ok(at >= 0, `no dry-run entry for ${id}:\n${stdout}`);
  return lines[at + 1]!;
}

const brokers = useRealBrokers();
const { redis, redisKeys: keys, amqpQueues: queues } = brokers;

for (const layout of ['babelqueue', 'laravel'] as const) {
  describe(`babelq dlq on Redis (${layout} layout)`, () => {
    const work = (queue: string) => (layout === 'laravel' ? `queues:${queue}` : queue);
    const dlqKey = (queue: string) => `${work(queue)}.dlq`;

    test('list groups by reason and error; redrive --id moves exactly that one, with the dry run\'s bytes', async () => {
      const queue = uniqueQueue();
      keys.add(work(queue)).add(dlqKey(queue)).add(`${work(queue)}:notify`);
      const down = [1, 2].map((orderId) => deadLettered(outgoing(queue, { orderId }).text, queue, 'gateway down', 1749132730000 + orderId));
      const other = deadLettered(outgoing(queue, { orderId: 3 }).text, queue, 'card declined', 1749132730003);
      await redis.rpush(dlqKey(queue), ...down, other);

      const listed = babelq(['dlq', 'list', '--queue', queue, '--layout', layout, '--format', 'json']);
      assert.equal(listed.status, 0, listed.stderr);
      const document = JSON.parse(listed.stdout);
      assert.equal(document.dlq, dlqKey(queue));
      assert.deepEqual(document.groups.map((g: { reason: string; error: string; count: number }) => [g.reason, g.error, g.count]), [['failed', 'gateway down', 2], ['failed', 'card declined', 1]]);
      // Newest first inside a group (by failed_at).
      assert.deepEqual(document.groups[0].messages.map((m: { metaId: string }) => m.metaId), [JSON.parse(down[1]!).meta.id, JSON.parse(down[0]!).meta.id]);
      assert.equal(document.groups[0].messages[0].deadLetter.originalQueue, queue);

      const text = babelq(['dlq', 'list', '--queue', queue, '--layout', layout]).stdout;
      assert.match(text, /^3 dead letters on .*, 2 groups/);
      assert.match(text, /2 × failed: gateway down/);
      assert.match(text, /failed at: 2025-06-05T14:12:10\.001Z/);
      assert.match(text, new RegExp(`original queue: "${queue}"`));

      const id = JSON.parse(down[0]!).meta.id as string;
      const dry = babelq(['dlq', 'redrive', '--queue', queue, '--layout', layout, '--id', id, '--dry-run']);
      assert.equal(dry.status, 0, dry.stderr);
      const expected = dryRunBody(dry.stdout, id);
      assert.equal(await redis.llen(dlqKey(queue)), 3, 'a dry run moves nothing');

      const moved = babelq(['dlq', 'redrive', '--queue', queue, '--layout', layout, '--id', id]);
      assert.equal(moved.status, 0, moved.stderr);
      assert.match(moved.stdout, /^Redrove 1 message\(s\)/);
      assert.deepEqual(await redis.lrange(work(queue), 0, -1), [expected]);
      assert.equal(contractRejection(expected), undefined);
      const back = JSON.parse(expected);
      assert.equal(back.attempts, 0);
      assert.equal(back.dead_letter, undefined);
      assert.equal(back.meta.id, id);
      assert.equal(back.trace_id, JSON.parse(down[0]!).trace_id);
      assert.deepEqual(await redis.lrange(dlqKey(queue), 0, -1), [down[1], other]);
      if (layout === 'laravel') assert.equal(await redis.llen(`${work(queue)}:notify`), 1);

      const peek = babelq(['peek', '--queue', queue, '--layout', layout, '--dlq', '--filter', 'declined', '--format', 'json']);
      assert.equal(peek.status, 0, peek.stderr);
      assert.deepEqual(JSON.parse(peek.stdout).map((m: { metaId: string }) => m.metaId), [JSON.parse(other).meta.id]);
    });

    test('redrive --reason moves the matching group; an unknown --id is said and nothing moves', async () => {
      const queue = uniqueQueue();
      keys.add(work(queue)).add(dlqKey(queue)).add(`${work(queue)}:notify`);
      const down = deadLettered(outgoing(queue, { orderId: 1 }).text, queue, 'gateway down');
      const other = deadLettered(outgoing(queue, { orderId: 2 }).text, queue, 'card declined');
      await redis.rpush(dlqKey(queue), down, other);

      const none = babelq(['dlq', 'redrive', '--queue', queue, '--layout', layout, '--id', '00000000-0000-4000-8000-000000000000']);
      assert.equal(none.status, 1);
      assert.match(none.stderr, /not found: meta\.id 00000000-0000-4000-8000-000000000000 is not among the 2 dead letter\(s\) read from /);
      assert.doesNotMatch(none.stderr, /left in the DLQ/, 'a message that was not found is not said to be left anywhere');
      assert.match(none.stderr, /nothing to redrive/);
      const limited = babelq(['dlq', 'redrive', '--queue', queue, '--layout', layout, '--limit', '2', '--id', '00000000-0000-4000-8000-000000000000']);
      assert.match(limited.stderr, /--limit 2: the DLQ may hold more/);

      const moved = babelq(['dlq', 'redrive', '--queue', queue, '--layout', layout, '--reason', 'GATEWAY']);
      assert.equal(moved.status, 0, moved.stderr);
      assert.equal(await redis.llen(work(queue)), 1);
      assert.deepEqual(await redis.lrange(dlqKey(queue), 0, -1), [other]);
    });
  });
}

describe('babelq dlq on RabbitMQ', () => {
  test('redrive --all publishes each to its original queue and empties the DLQ', async () => {
    const queue = uniqueQueue();
    for (const name of [queue, `${queue}.dlq`]) {
      queues.add(name);
      await brokers.channel.assertQueue(name, { durable: true });
    }
    const bodies = [1, 2].map((orderId) => deadLettered(outgoing(queue, { orderId }).text, queue, 'gateway down'));
    await putOnQueue(brokers.channel, `${queue}.dlq`, bodies);
    const broker = ['--broker', 'amqp://guest:guest@127.0.0.1:5672'];

    const listed = babelq(['dlq', 'list', '--queue', queue, ...broker, '--format', 'json']);
    assert.equal(listed.status, 0, listed.stderr);
    assert.equal(JSON.parse(listed.stdout).count, 2);
    const dry = babelq(['dlq', 'redrive', '--queue', queue, ...broker, '--all', '--dry-run']);
    const expected = bodies.map((body) => dryRunBody(dry.stdout, JSON.parse(body).meta.id));

    const moved = babelq(['dlq', 'redrive', '--queue', queue, ...broker, '--all']);
    assert.equal(moved.status, 0, moved.stderr);
    assert.doesNotMatch(moved.stdout + moved.stderr, /guest:guest/);
    const got: string[] = [];
    for (;;) {
      const message = await brokers.channel.get(queue, { noAck: true });
      if (message === false) break;
      got.push(message.content.toString('utf8'));
      assert.equal(message.properties.type, 'urn:babel:orders:created');
    }
    assert.deepEqual(got.sort(), [...expected].sort());
    for (const body of got) assert.equal(contractRejection(body), undefined);
    assert.equal((await brokers.channel.checkQueue(`${queue}.dlq`)).messageCount, 0);
  });
});

describe('babelq dlq redrive --dry-run says where the redrive would stop because of its targets', () => {
  test('RabbitMQ: a target queue that does not exist stops the dry run as it stops the redrive (exit 1, nothing moved)', async () => {
    const queue = uniqueQueue();
    queues.add(`${queue}.dlq`);
    await brokers.channel.assertQueue(`${queue}.dlq`, { durable: true });
    await putOnQueue(brokers.channel, `${queue}.dlq`, [deadLettered(outgoing(queue).text, queue, 'gateway down')]);
    const broker = ['--broker', 'amqp://guest:guest@127.0.0.1:5672'];

    const dry = babelq(['dlq', 'redrive', '--queue', queue, ...broker, '--all', '--dry-run']);
    const real = babelq(['dlq', 'redrive', '--queue', queue, ...broker, '--all']);
    assert.equal(real.status, 1, real.stderr);
    assert.match(real.stderr, new RegExp(`The queue ${queue} does not exist`));
    assert.equal(dry.status, real.status, `the dry run said:\n${dry.stdout}${dry.stderr}`);
    assert.match(dry.stderr, new RegExp(`Dry run: the redrive would stop before moving anything: The queue ${queue} does not exist`));
    assert.doesNotMatch(dry.stdout, /would be redriven/);
    await untilQueueHolds(brokers.channel, `${queue}.dlq`, 1);
  });

  test('Redis: a target key that is not a list: the moves before it, then the stop (exit 2), as the redrive does', async () => {
    const queue = uniqueQueue();
    const other = uniqueQueue();
    keys.add(`${queue}.dlq`).add(queue).add(other);
    await redis.hset(queue, 'field', 'value');
    const first = deadLettered(outgoing(other, { orderId: 1 }).text, other, 'gateway down');
    const second = deadLettered(outgoing(queue, { orderId: 2 }).text, queue, 'gateway down');
    await redis.rpush(`${queue}.dlq`, first, second);
    const [firstId, secondId] = [first, second].map((body) => JSON.parse(body).meta.id as string);

    const dry = babelq(['dlq', 'redrive', '--queue', queue, '--all', '--dry-run']);
    assert.equal(await redis.llen(`${queue}.dlq`), 2, 'a dry run moves nothing');
    const real = babelq(['dlq', 'redrive', '--queue', queue, '--all']);
    assert.equal(real.status, 2, real.stderr);
    assert.match(real.stderr, /Redrive stopped after 1 of 2/);
    assert.deepEqual(await redis.lrange(`${queue}.dlq`, 0, -1), [second]);
    assert.equal(dry.status, real.status, `the dry run said:\n${dry.stdout}${dry.stderr}`);
    assert.ok(dry.stdout.includes(`meta.id ${firstId} → ${other}`), dry.stdout);
    assert.ok(!dry.stdout.includes(`meta.id ${secondId} →`), dry.stdout);
    assert.match(dry.stderr, new RegExp(`would move the 1 message\\(s\\) above, then stop at meta.id ${secondId}: .*the key ${queue} exists but is not a list`));
  });

  test('Redis: a target key 3,000 characters long that is not a list is named by its start and end, in the dry run and in the redrive', async () => {
    const dlq = uniqueQueue();
    const target = `${uniqueQueue()}-${'k'.repeat(3000)}`;
    keys.add(`${dlq}.dlq`).add(target);
    await redis.hset(target, 'field', 'value');
    await redis.rpush(`${dlq}.dlq`, deadLettered(outgoing(target).text, target, 'gateway down'));
    for (const dryRun of [true, false]) {
      const run = babelq(['dlq', 'redrive', '--queue', dlq, '--all', ...(dryRun ? ['--dry-run'] : [])]);
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, /the key babelq-test-[0-9a-f]+-k+…k+ exists but is not a list/);
      assert.ok(run.stderr.length < 1000, `stderr is ${run.stderr.length} characters`);
    }
    assert.equal(await redis.llen(`${dlq}.dlq`), 1, 'nothing moved');
  });

  test('Redis: dlq list and peek --dlq quote a meta.id of 5,000 characters by its start and end in the message\'s line', async () => {
    const dlq = uniqueQueue();
    keys.add(`${dlq}.dlq`);
    const text = outgoing(dlq).text;
    const longId = JSON.stringify({ ...JSON.parse(text), meta: { ...JSON.parse(text).meta, id: `${randomUUID()}${'i'.repeat(5000)}` } });
    await redis.rpush(`${dlq}.dlq`, deadLettered(longId, dlq, 'gateway down'));
    for (const args of [['dlq', 'list', '--queue', dlq], ['peek', '--dlq', '--queue', dlq]]) {
      const run = babelq(args);
      assert.equal(run.status, 0, run.stderr);
      const line = run.stdout.split('\n').find((candidate) => candidate.includes('meta.id '));
      assert.ok(line !== undefined, run.stdout.slice(0, 500));
      assert.match(line, /meta\.id [0-9a-f-]{36}i+…i+ /);
      assert.ok(line.length < 400, `${args.join(' ')}: the line is ${line.length} characters`);
    }
  });

  test('Redis: a dead letter whose meta.id is 5,000 characters, stopped at a target that is not a list, is named by its start and end in the dry run', async () => {
    const dlq = uniqueQueue();
    const blocked = `${dlq}-string`;
    keys.add(`${dlq}.dlq`).add(dlq).add(blocked);
    await redis.set(blocked, 'not a list');
    const longId = (text: string) => JSON.stringify({ ...JSON.parse(text), meta: { ...JSON.parse(text).meta, id: `${randomUUID()}${'i'.repeat(5000)}` } });
    const first = deadLettered(longId(outgoing(dlq).text), dlq, 'gateway down');
    const second = deadLettered(longId(outgoing(blocked).text), blocked, 'gateway down');
    await redis.rpush(`${dlq}.dlq`, first, second);
    const run = babelq(['dlq', 'redrive', '--queue', dlq, '--all', '--dry-run', '--yes']);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /then stop at meta\.id [0-9a-f-]{36}i+…i+: /);
    assert.ok(run.stderr.length < 1000, `stderr is ${run.stderr.length} characters`);
    const header = run.stdout.split('\n').find((line) => line.startsWith('meta.id '));
    assert.ok(header !== undefined && header.length < 400, `header is ${header?.length} characters`);
    assert.match(header, /^meta\.id [0-9a-f-]{36}i+…i+ → /);
    assert.equal(await redis.llen(`${dlq}.dlq`), 2, 'nothing moved');
  });
});

/** Dead letters for `queue`: one clean, one with a UTF-8 BOM in front, one with a raw 0xFF in a string. */
function unreadableDeadLetters(queue: string): { good: Buffer; bom: Buffer; invalid: Buffer; ids: { good: string; bom: string; invalid: string } } {
  const [good, bom, invalid] = [1, 2, 3].map((orderId) => deadLettered(outgoing(queue, { orderId }).text, queue, 'gateway down'));
  const invalidBytes = Buffer.from(invalid!.replace('naïve', 'na\u0000ve'));
  invalidBytes[invalidBytes.indexOf(0)] = 0xff;
  const id = (text: string) => JSON.parse(text).meta.id as string;
  return {
    good: Buffer.from(good!),
    bom: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(bom!)]),
    invalid: invalidBytes,
    ids: { good: id(good!), bom: id(bom!), invalid: id(invalid!) },
  };
}

/** Asserts the two unreadable dead letters were left in place with their own reasons. */
function assertLeftWithReasons(result: { stdout: string; stderr: string }, ids: { bom: string; invalid: string }): void {
  assert.match(result.stderr, new RegExp(`left in the DLQ: meta\\.id ${ids.bom}: its body starts with a UTF-8 byte-order mark`));
  assert.match(result.stderr, new RegExp(`left in the DLQ: meta\\.id ${ids.invalid}: its body is not UTF-8 \\(an invalid sequence starts with byte 0xFF at byte offset \\d+`));
  assert.doesNotMatch(result.stdout + result.stderr, /already left the DLQ/);
}

describe('babelq dlq redrive that stops part-way', () => {
  test('Redis refuses the second move (its target is not a list): exit 2, one moved, the rest known to be in the DLQ', async () => {
    const queue = uniqueQueue();
    const blocked = `${queue}-string`;
    keys.add(queue).add(blocked).add(`${queue}.dlq`);
    await redis.set(blocked, 'not a list');
    const bodies = [queue, blocked, queue].map((target, index) => deadLettered(outgoing(target, { orderId: index + 1 }).text, target, 'gateway down', 1749132730000 + index));
    await redis.rpush(`${queue}.dlq`, ...bodies);
    const second = JSON.parse(bodies[1]!).meta.id as string;

    const result = babelq(['dlq', 'redrive', '--queue', queue, '--all']);
    assert.equal(result.status, 2, 'part-way through a redrive is exit 2, as --help says');
    assert.match(result.stderr, /Redrive stopped after 1 of 3 message\(s\)/);
    assert.match(result.stderr, new RegExp(`refused the move of meta\\.id ${second} and nothing was changed, so it is still in ${queue}\\.dlq; the 1 after it was not touched`));
    assert.doesNotMatch(result.stderr, /either still in/);
    assert.equal(await redis.llen(queue), 1);
    assert.deepEqual(await redis.lrange(`${queue}.dlq`, 0, -1), bodies.slice(1));
    assert.equal(await redis.get(blocked), 'not a list');

    // Refused before anything moved: the broker said no (exit 1), not part-way.
    const first = babelq(['dlq', 'redrive', '--queue', queue, '--id', second]);
    assert.equal(first.status, 1, first.stderr);
    assert.match(first.stderr, /Redrive stopped after 0 of 1 message\(s\)/);
  });
});

describe('babelq dlq list of a dead letter with repeated keys', () => {
  test('each field is its last copy, as JSON.parse, json.loads, json_decode and Java read it', async () => {
    const queue = uniqueQueue();
    keys.add(`${queue}.dlq`);
    const body = deadLettered(outgoing(queue, { orderId: 1 }).text, queue, 'gateway down');
    const id = JSON.parse(body).meta.id as string;
    // A first copy of every field the list shows, each overridden by the copy after it.
    const repeated = body
      .replace('"job":', '"job":"urn:babel:stale:first","job":')
      .replace('"meta":{', '"meta":{"id":"stale-first-id","created_at":1,')
      .replace('"attempts":2,', '"attempts":9,"attempts":2,')
      .replace('"dead_letter":{', '"dead_letter":{"reason":"poison","error":"stale first error","failed_at":1,"original_queue":"stale-first-queue","lang":"go",');
    assert.deepEqual(JSON.parse(repeated), JSON.parse(body), 'JSON.parse reads the body the list should show');
    await redis.rpush(`${queue}.dlq`, repeated);

    const listed = babelq(['dlq', 'list', '--queue', queue, '--format', 'json']);
    assert.equal(listed.status, 0, listed.stderr);
    const [group] = JSON.parse(listed.stdout).groups;
    assert.deepEqual([group.reason, group.error, group.count], ['failed', 'gateway down', 1]);
    const [message] = group.messages;
    assert.deepEqual([message.urn, message.metaId, message.createdAt, message.attempts], ['urn:babel:orders:created', id, 1749132727000, 2]);
    assert.deepEqual(message.deadLetter, { reason: 'failed', error: 'gateway down', exception: 'Error', failedAt: 1749132730000, originalQueue: queue, attempts: 2, lang: 'node' });

    const text = babelq(['dlq', 'list', '--queue', queue]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /1 × failed: gateway down/);
    assert.match(text.stdout, new RegExp(`original queue: "${queue}"`));
    assert.match(text.stdout, /dead-lettered by: node/);
    assert.doesNotMatch(text.stdout, /stale/);
  });
});

describe('babelq dlq list of a dead letter whose job is null beside the urn alias', () => {
  test('the row shows the URN the decoders read, marked as the alias (text and JSON); the redrive moves it', async () => {
    const queue = uniqueQueue();
    keys.add(queue).add(`${queue}.dlq`).add(`${queue}:notify`);
    const body = deadLettered(outgoing(queue, { orderId: 1 }).text, queue, 'gateway down').replace('"job":"urn:babel:orders:created"', '"job":null,"urn":"urn:babel:orders:created"');
    const empty = deadLettered(outgoing(queue, { orderId: 2 }).text, queue, 'card declined').replace('"job":"urn:babel:orders:created"', '"job":"","urn":"urn:babel:orders:created"');
    assert.equal(JSON.parse(body).job, null);
    assert.equal(JSON.parse(empty).job, '');
    await redis.rpush(`${queue}.dlq`, body, empty);

    const text = babelq(['dlq', 'list', '--queue', queue]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^  urn:babel:orders:created \\(urn alias\\)  meta\\.id ${JSON.parse(body).meta.id}`, 'm'));
    assert.match(text.stdout, new RegExp(`^  urn:babel:orders:created \\(urn alias; not PHP\\)  meta\\.id ${JSON.parse(empty).meta.id}`, 'm'));
    assert.doesNotMatch(text.stdout, /no URN/);
    const listed = babelq(['dlq', 'list', '--queue', queue, '--format', 'json']);
    assert.equal(listed.status, 0, listed.stderr);
    const messages = JSON.parse(listed.stdout).groups.flatMap((group: { messages: unknown[] }) => group.messages);
    assert.deepEqual(
      messages.map((m: { urn: string; urnAlias?: unknown }) => [m.urn, m.urnAlias]),
      // Groups of one each, by error: card declined, then gateway down.
      [['urn:babel:orders:created', { notReadBy: ['php'] }], ['urn:babel:orders:created', { notReadBy: [] }]],
    );

    const moved = babelq(['dlq', 'redrive', '--queue', queue, '--id', JSON.parse(body).meta.id, '--sdk', 'node']);
    assert.equal(moved.status, 0, moved.stderr);
    assert.equal(JSON.parse((await redis.lrange(queue, 0, -1))[0]!).job, 'urn:babel:orders:created');
  });
});

describe('babelq dlq redrive of a dead letter whose job is repeated or blank', () => {
  test('the URN is the last copy of job for every SDK, and the alias where the chosen SDK falls back to it', async () => {
    const queue = uniqueQueue();
    keys.add(`${queue}.dlq`);
    const body = deadLettered(outgoing(queue, { orderId: 1 }).text, queue, 'gateway down');
    const repeated = body.replace('"job":', '"job":null,"job":');
    const blank = body.replace('"job":"urn:babel:orders:created",', '"job":"  ","urn":"urn:babel:orders:created",');
    assert.notEqual(blank, body);
    const [repeatedId, blankId] = [randomUUID(), randomUUID()];
    const withId = (text: string, id: string) => text.replace(/"meta":\{"id":"[^"]+"/, `"meta":{"id":"${id}"`);
    await redis.rpush(`${queue}.dlq`, withId(repeated, repeatedId), withId(blank, blankId));

    for (const sdk of ['node', 'go', 'python', 'php', 'java']) {
      const dry = babelq(['dlq', 'redrive', '--queue', queue, '--id', repeatedId, '--sdk', sdk, '--dry-run']);
      assert.equal(dry.status, 0, `${sdk}: ${dry.stderr}`);
      assert.equal(JSON.parse(dryRunBody(dry.stdout, repeatedId)).job, 'urn:babel:orders:created', sdk);
    }
    // Java's decode reads the alias for a blank job, and its redrive writes that as job.
    const java = babelq(['dlq', 'redrive', '--queue', queue, '--id', blankId, '--sdk', 'java', '--dry-run']);
    assert.equal(java.status, 0, java.stderr);
    const redriven = JSON.parse(dryRunBody(java.stdout, blankId));
    assert.equal(redriven.job, 'urn:babel:orders:created');
    assert.equal(redriven.urn, undefined);
    assert.equal(await redis.llen(`${queue}.dlq`), 2, 'a dry run moves nothing');
  });
});

describe('babelq dlq redrive of a dead letter whose original_queue is only white space', () => {
  test('the chosen SDK decides the target, and the note says so before anything moves', async () => {
    const queue = uniqueQueue();
    keys.add(`${queue}.dlq`);
    const body = deadLettered(outgoing(queue, { orderId: 1 }).text, queue, 'gateway down').replace(`"original_queue":"${queue}"`, '"original_queue":"  "');
    await redis.rpush(`${queue}.dlq`, body);
    const id = JSON.parse(body).meta.id as string;

    const node = babelq(['dlq', 'redrive', '--queue', queue, '--all', '--sdk', 'node', '--dry-run']);
    assert.equal(node.status, 0, node.stderr);
    assert.match(node.stdout, new RegExp(`^meta\\.id ${id} →    \\(node redrive`, 'm'));
    assert.match(node.stderr, new RegExp(`babelq: note: meta\\.id ${id}: dead_letter\\.original_queue is "  ", only white space: the Node redrive sends to the queue of that name, not to meta\\.queue "${queue}"`));

    const java = babelq(['dlq', 'redrive', '--queue', queue, '--all', '--sdk', 'java', '--dry-run']);
    assert.equal(java.status, 0, java.stderr);
    assert.match(java.stdout, new RegExp(`^meta\\.id ${id} → ${queue} \\(java redrive`, 'm'));
    assert.match(java.stderr, /the Java redrive takes it for no queue and sends to meta\.queue/);
    assert.deepEqual(await redis.lrange(`${queue}.dlq`, 0, -1), [body], 'a dry run moves nothing');
  });
});

describe('babelq dlq redrive of a dead letter whose queue name is 100,000 spaces', () => {
  test('the notes quote the name cut, on one line, as white space with its length', async () => {
    const queue = uniqueQueue();
    keys.add(`${queue}.dlq`);
    const spaces = ' '.repeat(100_000);
    const body = deadLettered(outgoing(queue, { orderId: 1 }).text, queue, 'gateway down').replace(`"original_queue":"${queue}"`, `"original_queue":"${spaces}"`);
    // No original_queue, and meta.queue of the same white space: every SDK sends to the queue of that name.
    const metaOnly = deadLettered(outgoing(queue, { orderId: 2 }).text, queue, 'gateway down').replace(`"original_queue":"${queue}",`, '').replace(`"queue":"${queue}"`, `"queue":"${spaces}"`);
    assert.ok(body.includes(spaces) && metaOnly.includes(spaces) && !metaOnly.includes('original_queue'));
    await redis.rpush(`${queue}.dlq`, body, metaOnly);
    const [id, metaId] = [body, metaOnly].map((text) => JSON.parse(text).meta.id as string);
    // The quoted name: its first spaces and "…" inside the quotes, then how long it is.
    const cut = ' {20,80}…" \\(100,000 characters\\)';

    for (const sdk of ['node', 'java']) {
      const run = babelq(['dlq', 'redrive', '--queue', queue, '--all', '--sdk', sdk, '--dry-run']);
      assert.equal(run.status, 0, run.stderr.slice(0, 2000));
      const notes = run.stderr.split('\n').filter((line) => line.startsWith('babelq: note: meta.id'));
      assert.equal(notes.length, 2, run.stderr.slice(0, 2000));
      for (const note of notes) assert.ok(note.length < 1000, `${sdk}: a note of ${note.length} characters`);
      assert.ok(run.stderr.length < 4000, `${sdk}: stderr of ${run.stderr.length} characters`);
      assert.match(notes[0]!, new RegExp(`^babelq: note: meta\\.id ${id}: dead_letter\\.original_queue is "${cut}, only white space`), sdk);
      assert.match(notes[1]!, new RegExp(`^babelq: note: meta\\.id ${metaId}: meta\\.queue is "${cut}, only white space`), sdk);
    }
    const java = babelq(['dlq', 'redrive', '--queue', queue, '--all', '--sdk', 'java', '--dry-run']);
    assert.match(java.stderr, new RegExp(`the Node, Go, Python and PHP redrives would send to the queue named "${cut}\\.`));
    assert.deepEqual(await redis.lrange(`${queue}.dlq`, 0, -1), [body, metaOnly], 'a dry run moves nothing');
  });
});

describe('babelq dlq redrive --sdk go of a dead letter Go cannot decode', () => {
  test('it stays in the DLQ, byte for byte, with the decode error; the Node redrive moves it', async () => {
    const queue = uniqueQueue();
    keys.add(queue).add(`${queue}.dlq`).add(`${queue}:notify`);
    const good = deadLettered(outgoing(queue, { orderId: 1 }).text, queue, 'gateway down');
    // dead_letter.attempts as a string: json.Unmarshal fails on it, so Go's Decode does.
    const odd = deadLettered(outgoing(queue, { orderId: 2 }).text, queue, 'gateway down').replace('"attempts":2,"lang"', '"attempts":"2","lang"');
    assert.match(odd, /"attempts":"2","lang"/);
    await redis.rpush(`${queue}.dlq`, good, odd);
    const oddId = JSON.parse(odd).meta.id as string;

    const go = babelq(['dlq', 'redrive', '--queue', queue, '--all', '--sdk', 'go']);
    assert.equal(go.status, 0, go.stderr);
    assert.match(go.stdout, /^Redrove 1 message\(s\)/);
    assert.match(go.stderr, new RegExp(`left in the DLQ: meta\\.id ${oddId}: Go's Decode fails on it \\(json\\.Unmarshal fails: dead_letter\\.attempts is a string: not an integer\\), so the Go redrive puts the message back on the DLQ as it is`));
    assert.deepEqual(await redis.lrange(`${queue}.dlq`, 0, -1), [odd]);
    assert.equal(JSON.parse((await redis.lrange(queue, 0, -1))[0]!).meta.id, JSON.parse(good).meta.id);

    const node = babelq(['dlq', 'redrive', '--queue', queue, '--all', '--sdk', 'node']);
    assert.equal(node.status, 0, node.stderr);
    assert.equal(await redis.llen(`${queue}.dlq`), 0);
    assert.equal(await redis.llen(queue), 2);
  });
});

describe("babelq dlq redrive --sdk php | python of a dead letter that SDK's decoder fails on", () => {
  // An unpaired surrogate in dead_letter.exception: json_decode fails on the whole body (PHP's decode()
  // returns []). attempts of 4,400 digits: json.loads raises ValueError (Python's decode() returns {}).
  // Each is in what the redrive would reset, yet the SDK's redrive never gets that far.
  const bodies = (queue: string) => {
    const surrogate = deadLettered(outgoing(queue, { orderId: 1 }).text, queue, 'gateway down').replace('"exception":"Error"', '"exception":"\\ud800"');
    const huge = deadLettered(outgoing(queue, { orderId: 2 }).text, queue, 'gateway down').replace(/"attempts":2,"dead_letter"/, `"attempts":${'9'.repeat(4400)},"dead_letter"`);
    assert.match(surrogate, /"exception":"\\ud800"/);
    assert.match(huge, /"attempts":9{4400},/);
    return { surrogate, huge, ids: { surrogate: JSON.parse(surrogate.replace('\\ud800', 'x')).meta.id as string, huge: JSON.parse(huge).meta.id as string } };
  };

  test('Redis: each stays in the DLQ, byte for byte, with the reason, under the SDK whose decoder fails; the other SDK moves it', async () => {
    const queue = uniqueQueue();
    keys.add(queue).add(`${queue}.dlq`).add(`${queue}:notify`);
    const { surrogate, huge, ids } = bodies(queue);
    await redis.rpush(`${queue}.dlq`, surrogate, huge);

    const php = babelq(['dlq', 'redrive', '--queue', queue, '--id', ids.surrogate, '--sdk', 'php']);
    assert.equal(php.status, 1, php.stderr);
    assert.match(php.stderr, new RegExp(`left in the DLQ: meta\\.id ${ids.surrogate}: PHP's decode\\(\\) fails on it \\(json_decode refuses an unpaired surrogate escape \\(JSON_ERROR_UTF16\\)\\), so the PHP redrive puts the message back on the DLQ as it is`));
    assert.match(php.stderr, /nothing to redrive/);
    const python = babelq(['dlq', 'redrive', '--queue', queue, '--id', ids.huge, '--sdk', 'python']);
    assert.equal(python.status, 1, python.stderr);
    assert.match(python.stderr, new RegExp(`left in the DLQ: meta\\.id ${ids.huge}: Python's decode\\(\\) fails on it \\(json\\.loads refuses an integer of more than 4300 digits \\(ValueError\\)\\), so the Python redrive puts the message back on the DLQ as it is`));
    assert.deepEqual(await redis.lrange(`${queue}.dlq`, 0, -1), [surrogate, huge]);
    assert.equal(await redis.llen(queue), 0);

    // Python reads the surrogate and PHP the long integer (as a float): each moves the other's.
    const swapped = [babelq(['dlq', 'redrive', '--queue', queue, '--id', ids.surrogate, '--sdk', 'python']), babelq(['dlq', 'redrive', '--queue', queue, '--id', ids.huge, '--sdk', 'php'])];
    for (const result of swapped) assert.equal(result.status, 0, result.stderr);
    assert.equal(await redis.llen(`${queue}.dlq`), 0);
    assert.equal(await redis.llen(queue), 2);
  });

  test('RabbitMQ: the PHP redrive leaves the one its decoder fails on, byte for byte, with the reason, and moves the other', async () => {
    const queue = uniqueQueue();
    for (const name of [queue, `${queue}.dlq`]) {
      queues.add(name);
      await brokers.channel.assertQueue(name, { durable: true });
    }
    const { surrogate, huge, ids } = bodies(queue);
    await putOnQueue(brokers.channel, `${queue}.dlq`, [surrogate, huge]);
    const broker = ['--broker', 'amqp://guest:guest@127.0.0.1:5672'];

    const php = babelq(['dlq', 'redrive', '--queue', queue, ...broker, '--all', '--sdk', 'php']);
    assert.equal(php.status, 0, php.stderr);
    assert.match(php.stdout, /^Redrove 1 message\(s\)/);
    assert.match(php.stderr, new RegExp(`left in the DLQ: meta\\.id ${ids.surrogate}: PHP's decode\\(\\) fails on it`));
    const left: string[] = [];
    for (;;) {
      const message = await brokers.channel.get(`${queue}.dlq`, { noAck: true });
      if (message === false) break;
      left.push(message.content.toString('utf8'));
    }
    assert.deepEqual(left, [surrogate]);
    const moved = await brokers.channel.get(queue, { noAck: true });
    assert.ok(moved && moved.content.toString('utf8').includes(`"id":"${ids.huge}"`));
  });
});

describe('babelq dlq redrive of bodies with a BOM or bytes that are not UTF-8', () => {
  test('Redis: they stay in the DLQ, byte for byte, each with its reason; the clean one moves', async () => {
    const queue = uniqueQueue();
    keys.add(queue).add(`${queue}.dlq`);
    const { good, bom, invalid, ids } = unreadableDeadLetters(queue);
    await redis.rpush(`${queue}.dlq`, good, bom, invalid);

    const alone = babelq(['dlq', 'redrive', '--queue', queue, '--id', ids.bom, '--id', ids.invalid]);
    assert.equal(alone.status, 1, alone.stderr);
    assertLeftWithReasons(alone, ids);
    assert.match(alone.stderr, /nothing to redrive/);

    const all = babelq(['dlq', 'redrive', '--queue', queue, '--all']);
    assert.equal(all.status, 0, all.stderr);
    assert.match(all.stdout, /^Redrove 1 message\(s\)/);
    assertLeftWithReasons(all, ids);
    assert.deepEqual(await redis.lrangeBuffer(`${queue}.dlq`, 0, -1), [bom, invalid]);
    assert.equal(JSON.parse((await redis.lrange(queue, 0, -1))[0]!).meta.id, ids.good);
  });

  test('RabbitMQ: they stay in the DLQ, byte for byte, each with its reason; the clean one moves', async () => {
    const queue = uniqueQueue();
    for (const name of [queue, `${queue}.dlq`]) {
      queues.add(name);
      await brokers.channel.assertQueue(name, { durable: true });
    }
    const { good, bom, invalid, ids } = unreadableDeadLetters(queue);
    await putOnQueue(brokers.channel, `${queue}.dlq`, [good, bom, invalid]);
    const broker = ['--broker', 'amqp://guest:guest@127.0.0.1:5672'];

    const all = babelq(['dlq', 'redrive', '--queue', queue, ...broker, '--all']);
    assert.equal(all.status, 0, all.stderr);
    assert.match(all.stdout, /^Redrove 1 message\(s\)/);
    assertLeftWithReasons(all, ids);
    const left: Buffer[] = [];
    for (;;) {
      const message = await brokers.channel.get(`${queue}.dlq`, { noAck: true });
      if (message === false) break;
      left.push(message.content);
    }
    assert.deepEqual(left.sort(Buffer.compare), [bom, invalid].sort(Buffer.compare));
    const moved = await brokers.channel.get(queue, { noAck: true });
    assert.ok(moved && JSON.parse(moved.content.toString('utf8')).meta.id === ids.good);
  });
});

describe('babelq dlq usage', () => {
  test('a redrive needs exactly one of --id, --all, --reason', () => {
    const result = babelq(['dlq', 'redrive', '--queue', 'orders', '--all', '--reason', 'x']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /exactly one of them/);
  });

  test('an empty --reason or --id is refused, not taken for --all, and nothing moves', async () => {
    const queue = uniqueQueue();
    keys.add(queue).add(`${queue}.dlq`);
    await redis.rpush(`${queue}.dlq`, deadLettered(outgoing(queue).text, queue, 'gateway down'));
    for (const [selector, words] of [[['--reason', ''], /--reason needs text/], [['--reason', '  '], /--reason needs text/], [['--id', ''], /--id needs a meta\.id/], [['--id', 'x', '--id', ''], /--id needs a meta\.id/]] as const) {
      for (const dry of [[], ['--dry-run']]) {
        const result = babelq(['dlq', 'redrive', '--queue', queue, ...selector, ...dry]);
        assert.equal(result.status, 2, `${selector.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, words);
        assert.equal(result.stdout, '');
      }
    }
    assert.equal(await redis.llen(`${queue}.dlq`), 1);
    assert.equal(await redis.llen(queue), 0);
  });

  test('a redrive (a dry run too) refuses --format json, which it would not honour, before reading or moving anything', async () => {
    const queue = uniqueQueue();
    keys.add(queue).add(`${queue}.dlq`);
    await redis.rpush(`${queue}.dlq`, deadLettered(outgoing(queue).text, queue, 'gateway down'));
    for (const dry of [[], ['--dry-run']]) {
      const result = babelq(['dlq', 'redrive', '--queue', queue, '--all', '--format', 'json', ...dry]);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /--format json is for dlq list; dlq redrive prints text \(its lines say what moved and what did not/);
      assert.equal(result.stdout, '');
    }
    assert.equal(await redis.llen(`${queue}.dlq`), 1);
    assert.equal(await redis.llen(queue), 0);
  });

  test('list refuses what only a redrive reads (--id, --all, --reason, --sdk, --dry-run), before any connection, rather than list every dead letter as if it had filtered', () => {
    for (const [option, filter] of [[['--id', 'x'], true], [['--all'], false], [['--reason', 'timeout'], true], [['--sdk', 'go'], false], [['--dry-run'], false]] as const) {
      // An address nothing listens on: an answer other than the refusal would be a connection error.
      const result = babelq(['dlq', 'list', '--queue', 'orders', '--broker', 'redis://127.0.0.1:1', '--timeout', '200', ...option]);
      assert.equal(result.status, 2, `${option.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, new RegExp(`${option[0]} is for dlq redrive; dlq list lists every dead letter`));
      if (filter) assert.match(result.stderr, /babelq peek --queue <name> --dlq --filter <text>/);
      assert.equal(result.stdout, '');
    }
  });

  test('an unknown --sdk names the SDKs that ship a redrive', () => {
    const result = babelq(['dlq', 'redrive', '--queue', 'orders', '--all', '--sdk', 'dotnet']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /auto, node, go, python, php, java/);
  });

  test('redrive (a dry run too) asks before a host that is not loopback, before any connection: the password is never sent', async () => {
    // A listener on this machine's own non-loopback address records whether anything connected
    // or arrived (a Redis client would send AUTH with the password first).
    const address = Object.values(networkInterfaces()).flat().find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
    assert.ok(address, 'this machine needs a non-loopback IPv4 address for this test');
    let connections = 0;
    let received = '';
    const listener = createServer((socket) => {
      connections += 1;
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => {});
    });
    await new Promise<void>((done) => listener.listen(0, address, done));
    const port = (listener.address() as AddressInfo).port;
    try {
      for (const extra of [['--dry-run'], []]) {
        const result = await babelqAsync(['dlq', 'redrive', '--all', ...extra, '--queue', uniqueQueue(), '--broker', `redis://:secretpw@${address}:${port}`, '--timeout', '1500']);
        assert.equal(result.status, 1, result.stderr);
        assert.match(result.stderr, new RegExp(`${address.replace(/\./g, '\\.')} is not this machine\\. Pass --yes to log in to it and redrive its dead letters`));
        assert.equal(result.stdout, '');
      }
      // A usage error comes before the question: it is not hidden behind a --yes that would not help.
      for (const selector of [['--reason', ''], [], ['--all', '--sdk', 'dotnet']]) {
        const result = await babelqAsync(['dlq', 'redrive', ...selector, '--queue', uniqueQueue(), '--broker', `redis://:secretpw@${address}:${port}`, '--timeout', '1500']);
        assert.equal(result.status, 2, `${selector.join(' ')}: ${result.stderr}`);
        assert.doesNotMatch(result.stderr, /Pass --yes/);
      }
      assert.equal(connections, 0, 'nothing connected before the question was answered');
      assert.equal(received, '');
    } finally {
      listener.close();
    }
  });
});

describe('babelq dlq on a DLQ the broker refuses to read', () => {
  test('a Redis DLQ key that is not a list, a RabbitMQ DLQ that does not exist: exit 1 (refused before anything moved), as --help says', () => {
    const queue = uniqueQueue();
    keys.add(`${queue}.dlq`);
    return redis.set(`${queue}.dlq`, 'not a list').then(() => {
      for (const action of [['list'], ['redrive', '--all'], ['redrive', '--all', '--dry-run']]) {
        const result = babelq(['dlq', ...action, '--queue', queue]);
        assert.equal(result.status, 1, `dlq ${action.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, /exists but is not a list/);
      }
      const missing = uniqueQueue();
      for (const action of [['list'], ['redrive', '--all']]) {
        const result = babelq(['dlq', ...action, '--queue', missing, '--broker', 'amqp://guest:guest@127.0.0.1:5672']);
        assert.equal(result.status, 1, `dlq ${action.join(' ')} on RabbitMQ: ${result.stderr}`);
        assert.match(result.stderr, new RegExp(`${missing}\\.dlq does not exist`));
      }
    });
  });
});

describe("babelq dlq and peek on a dead letter whose data fails its URN's schema", () => {
  test("the registry of the current folder applies, as to send: the list and peek count the error, the redrive asks first (exit 1, nothing moved), and --yes moves it", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'babelq-dlq-registry-'));
    try {
      // The schema asks for a field the helpers' message lacks: payload-schema, an error, on data.
      writeFileSync(join(folder, 'registry.json'), JSON.stringify({ schemas: [{ urn: URN, schema: 'schema.json', owner: 'orders', status: 'active' }] }));
      writeFileSync(join(folder, 'schema.json'), JSON.stringify({ type: 'object', required: ['paid_at'] }));
      // A folder of its own Git work tree: no babelq.json above it applies.
      mkdirSync(join(folder, 'no-registry', '.git'), { recursive: true });
      const queue = uniqueQueue();
      keys.add(queue).add(`${queue}.dlq`);
      await redis.rpush(`${queue}.dlq`, deadLettered(outgoing(queue).text, queue, 'gateway down'));
      const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: folder, env: process.env, timeout: 30_000, encoding: 'utf8' });

      // The list, peek and the redrive judge the message alike: what the list shows is what the redrive asks about.
      const listed = run(['dlq', 'list', '--queue', queue, '--format', 'json']);
      assert.equal(listed.status, 0, listed.stderr);
      const row = JSON.parse(listed.stdout).groups[0].messages[0];
      assert.deepEqual(row.diagnostics.filter((d: { severity: string }) => d.severity === 'error').map((d: { code: string }) => d.code), ['payload-schema']);
      const peeked = run(['peek', '--queue', queue, '--dlq']);
      assert.equal(peeked.status, 0, peeked.stderr);
      assert.match(peeked.stdout, /1 error/);
      assert.match(peeked.stdout, /payload-schema/);
      // In a folder without a registry, the same message has no error.
      const elsewhere = spawnSync(process.execPath, [CLI, 'dlq', 'list', '--queue', queue, '--format', 'json'], { cwd: join(folder, 'no-registry'), env: process.env, timeout: 30_000, encoding: 'utf8' });
      assert.equal(elsewhere.status, 0, elsewhere.stderr);
      assert.deepEqual(JSON.parse(elsewhere.stdout).groups[0].messages[0].diagnostics.filter((d: { severity: string }) => d.severity === 'error'), []);

      const asked = run(['dlq', 'redrive', '--queue', queue, '--all']);
      assert.equal(asked.status, 1, asked.stderr);
      assert.match(asked.stderr, /babelq: This envelope has 1 error \(payload-schema\)\. Redrive anyway\? Pass --yes to redrive\./);
      assert.equal(await redis.llen(`${queue}.dlq`), 1, 'nothing moved before the answer');
      assert.equal(await redis.llen(queue), 0);
      // A dry run says so beforehand, and moves nothing either.
      const dry = run(['dlq', 'redrive', '--queue', queue, '--all', '--dry-run']);
      assert.equal(dry.status, 0, dry.stderr);
      assert.match(dry.stderr, /babelq: note: without --yes, the redrive would ask first: This envelope has 1 error \(payload-schema\)\. Redrive anyway\?/);
      assert.equal(await redis.llen(`${queue}.dlq`), 1);

      await redis.rpush(`${queue}.dlq`, deadLettered(outgoing(queue).text, queue, 'gateway down'));
      const both = run(['dlq', 'redrive', '--queue', queue, '--all']);
      assert.equal(both.status, 1, both.stderr);
      assert.match(both.stderr, /babelq: The 2 envelopes to redrive have 2 errors \(payload-schema\)\. Redrive anyway\? Pass --yes to redrive\./);

      const moved = run(['dlq', 'redrive', '--queue', queue, '--all', '--yes']);
      assert.equal(moved.status, 0, moved.stderr);
      assert.equal(await redis.llen(`${queue}.dlq`), 0);
      assert.equal(await redis.llen(queue), 2);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('babelq dlq and peek in a folder whose registry.json lint would not use as it stands', () => {
  test('one without a "schemas" key (misspelt) is said on stderr, as lint says it, since the messages are judged without it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'babelq-dlq-not-registry-'));
    try {
      mkdirSync(join(folder, '.git'));
      writeFileSync(join(folder, 'registry.json'), JSON.stringify({ schema: [{ urn: URN, schema: 'schema.json' }] }));
      writeFileSync(join(folder, 'schema.json'), JSON.stringify({ type: 'object', required: ['paid_at'] }));
      const queue = uniqueQueue();
      keys.add(queue).add(`${queue}.dlq`);
      await redis.rpush(`${queue}.dlq`, deadLettered(outgoing(queue).text, queue, 'gateway down'));
      const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: folder, env: process.env, timeout: 30_000, encoding: 'utf8' });
      const note = /babelq: note: registry\.json was not read as a registry: .*so the messages were judged without a registry/;

      const peeked = run(['peek', '--queue', queue, '--dlq']);
      assert.equal(peeked.status, 0, peeked.stderr);
      assert.match(peeked.stderr, note);
      const peekedJson = run(['peek', '--queue', queue, '--dlq', '--format', 'json']);
      assert.equal(peekedJson.status, 0, peekedJson.stderr);
      assert.match(peekedJson.stderr, note);
      assert.equal(JSON.parse(peekedJson.stdout).length, 1, 'stdout stays one JSON document');
      const listed = run(['dlq', 'list', '--queue', queue]);
      assert.equal(listed.status, 0, listed.stderr);
      assert.match(listed.stderr, note);
      const dry = run(['dlq', 'redrive', '--queue', queue, '--all', '--dry-run']);
      assert.equal(dry.status, 0, dry.stderr);
      assert.match(dry.stderr, note);
      const moved = run(['dlq', 'redrive', '--queue', queue, '--all']);
      assert.equal(moved.status, 0, moved.stderr);
      assert.match(moved.stderr, note);
      assert.equal(await redis.llen(queue), 1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('one bqschema refuses as a whole (a duplicate URN) is said on stderr; its entries still judge the messages', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'babelq-dlq-refused-registry-'));
    try {
      mkdirSync(join(folder, '.git'));
      const entry = { urn: URN, schema: 'schema.json', owner: 'orders', status: 'active' };
      writeFileSync(join(folder, 'registry.json'), JSON.stringify({ schemas: [entry, entry] }));
      writeFileSync(join(folder, 'schema.json'), JSON.stringify({ type: 'object', required: ['paid_at'] }));
      const queue = uniqueQueue();
      keys.add(queue).add(`${queue}.dlq`);
      await redis.rpush(`${queue}.dlq`, deadLettered(outgoing(queue).text, queue, 'gateway down'));
      const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: folder, env: process.env, timeout: 30_000, encoding: 'utf8' });

      const peeked = run(['peek', '--queue', queue, '--dlq']);
      assert.equal(peeked.status, 0, peeked.stderr);
      assert.match(peeked.stderr, /babelq: note: registry\.json is refused as a whole, as bqschema's registry load refuses it/);
      assert.match(peeked.stdout, /payload-schema/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('babelq dlq redrive of dead letters that name many queues, or long names', () => {
  test('the summary names a few target queues, each cut, and counts the rest; an unknown --id and the DLQ are quoted cut', async () => {
    const dlq = `${uniqueQueue()}.dlq`;
    keys.add(dlq);
    // Twelve dead letters, each from a queue of its own; one name 3,000 characters long.
    const targets = Array.from({ length: 12 }, (_, i) => (i === 0 ? `${uniqueQueue()}-${'x'.repeat(3000)}` : uniqueQueue()));
    for (const target of targets) keys.add(target);
    await redis.rpush(dlq, ...targets.map((target, i) => deadLettered(outgoing(target, { orderId: i + 1 }).text, target, 'gateway down')));

    const longId = 'f'.repeat(5000);
    const none = babelq(['dlq', 'redrive', '--queue', dlq.slice(0, -'.dlq'.length), '--id', longId]);
    assert.equal(none.status, 1);
    assert.match(none.stderr, /not found: meta\.id f{20,}…/);
    assert.ok(none.stderr.length < 1500, `stderr is ${none.stderr.length} characters:\n${none.stderr.slice(0, 400)}`);

    const dry = babelq(['dlq', 'redrive', '--queue', dlq.slice(0, -'.dlq'.length), '--all', '--dry-run']);
    assert.equal(dry.status, 0, dry.stderr);
    const dryLast = dry.stdout.trimEnd().split('\n').at(-1)!;
    assert.match(dryLast, /^Dry run: 12 message\(s\) would be redriven from /);

    const moved = babelq(['dlq', 'redrive', '--queue', dlq.slice(0, -'.dlq'.length), '--all']);
    assert.equal(moved.status, 0, moved.stderr);
    const summary = moved.stdout.trimEnd();
    assert.equal(summary.split('\n').length, 1, summary);
    assert.match(summary, /^Redrove 12 message\(s\) from .* to .*x…, babelq-test-[0-9a-f]+, .* and 7 other queues in [\d.]+ ms\.$/);
    assert.ok(summary.length < 800, `the summary is ${summary.length} characters`);
    for (const target of targets) assert.equal(await redis.llen(target), 1, 'every dead letter went back to its own queue');
  });
});
