/**
 * Preview and send through the built CLI against the machine's real Redis and RabbitMQ: every
 * example fixture is sent with the code the commands use, read back with a plain client, and the
 * body must equal what `babelq preview` printed, byte for byte; AMQP properties and headers must
 * equal the conformance projection. Unique queue names, cleaned up.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as amqplib from 'amqplib';
import Redis from 'ioredis';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist/cli.js');

/** As babelq, without blocking this process's event loop (a test's own listener must answer meanwhile). */
function babelqAsync(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 30_000 });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => done({ status, stderr }));
  });
}

function babelq(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: Buffer; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.toString() };
}

/** The valid example envelopes (the bad/ ones are refused without --yes, tested below). */
function goodFixtures(): string[] {
  const found: string[] = [];
  for (const folder of ['orders', 'billing', 'identity']) {
    for (const name of readdirSync(join(ROOT, 'examples', folder)).sort()) if (name.endsWith('.babel.json')) found.push(join('examples', folder, name));
  }
  return found;
}

const queues: string[] = [];
const uniqueQueue = () => {
  const queue = `babelq-send-${randomUUID().slice(0, 8)}`;
  queues.push(queue);
  return queue;
};

describe('babelq preview and send against the real brokers', () => {
  let redis: Redis;
  let amqp: amqplib.ChannelModel;
  let channel: amqplib.Channel;

  before(async () => {
    redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    amqp = await amqplib.connect('amqp://guest:guest@127.0.0.1:5672');
    channel = await amqp.createChannel();
  });

  after(async () => {
    for (const queue of queues) {
      await redis.del(queue, `queues:${queue}`, `queues:${queue}:notify`);
      await channel.deleteQueue(queue).catch(() => undefined);
    }
    await channel.close().catch(() => undefined);
    await amqp.close();
    redis.disconnect();
  });

  test('a meta.id of 5,000 characters, kept as written (--no-fresh-ids), is named by its start and end in the line that says what was sent', () => {
    const folder = mkdtempSync(join(tmpdir(), 'babelq-long-id-'));
    try {
      const original = JSON.parse(readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8'));
      original.meta.id = 'i'.repeat(5000);
      const path = join(folder, 'long-id.babel.json');
      writeFileSync(path, JSON.stringify(original));
      const queue = uniqueQueue();
      const sent = babelq(['send', path, '--no-fresh-ids', '--queue', queue, '--yes']);
      assert.equal(sent.status, 0, sent.stderr);
      assert.match(sent.stdout.toString(), /meta\.id i{20,}…i+\) to /);
      assert.ok(sent.stdout.length < 500, `stdout is ${sent.stdout.length} bytes`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('preview of one SDK prints only the body bytes', () => {
    const preview = babelq(['preview', 'examples/orders/order-created.babel.json', '--no-fresh-ids', '--sdk', 'node']);
    assert.equal(preview.status, 0, preview.stderr);
    const original = JSON.parse(readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8'));
    assert.equal(preview.stdout.toString(), JSON.stringify(original), 'Node re-emits JSON.stringify of the decoded envelope');
    assert.notEqual(preview.stdout.at(-1), 0x0a, 'no trailing newline');
  });

  for (const fixture of goodFixtures()) {
    test(`${fixture}: Redis (both layouts) and RabbitMQ receive exactly the previewed bytes`, async () => {
      const queue = uniqueQueue();
      const preview = babelq(['preview', fixture, '--no-fresh-ids', '--queue', queue]);
      assert.equal(preview.status, 0, preview.stderr);
      assert.ok(preview.stdout.length > 0);

      const plain = babelq(['send', fixture, '--no-fresh-ids', '--queue', queue]);
      assert.equal(plain.status, 0, plain.stderr);
      assert.match(plain.stdout.toString(), new RegExp(`Sent ${preview.stdout.length} bytes .* to redis://127.0.0.1:6379 list ${queue}`));
      assert.deepEqual(await redis.lrangeBuffer(queue, 0, -1), [preview.stdout]);

      const laravel = babelq(['send', fixture, '--no-fresh-ids', '--queue', queue, '--layout', 'laravel']);
      assert.equal(laravel.status, 0, laravel.stderr);
      assert.deepEqual(await redis.lrangeBuffer(`queues:${queue}`, 0, -1), [preview.stdout]);
      assert.equal(await redis.llen(`queues:${queue}:notify`), 1);

      const missing = babelq(['send', fixture, '--no-fresh-ids', '--queue', queue, '--broker', 'amqp://guest:guest@127.0.0.1:5672']);
      assert.equal(missing.status, 1, 'a missing queue is refused, not silently dropped');
      assert.match(missing.stderr, /--declare/);
      const rabbit = babelq(['send', fixture, '--no-fresh-ids', '--queue', queue, '--broker', 'amqp://guest@127.0.0.1:5672', '--declare'], { BABELQ_BROKER_PASSWORD: 'guest' });
      assert.equal(rabbit.status, 0, rabbit.stderr);
      const got = await channel.get(queue, { noAck: true });
      assert.ok(got, 'one message on the queue');
      assert.deepEqual(got.content, preview.stdout);
      const envelope = JSON.parse(preview.stdout.toString());
      assert.equal(got.properties.type, envelope.job);
      assert.equal(got.properties.correlationId, envelope.trace_id);
      assert.equal(got.properties.messageId, envelope.meta.id);
      assert.equal(got.properties.appId, 'babelqueue');
      assert.equal(got.properties.contentType, 'application/json');
      assert.equal(got.properties.deliveryMode, 2);
      assert.deepEqual(got.properties.headers, { 'x-schema-version': 1, 'x-source-lang': envelope.meta.lang, 'x-attempts': envelope.attempts });
    });
  }

  test('the conformance fixture gets exactly the conformance property projection', async (t) => {
    const dir = process.env.BABELQ_CONFORMANCE_DIR;
    if (!dir) {
      console.log('BABELQ_CONFORMANCE_DIR is not set: the RabbitMQ projection was not compared with the conformance manifest.');
      t.skip('BABELQ_CONFORMANCE_DIR is not set');
      return;
    }
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const projection = manifest.rabbitmq.property_projection;
    const queue = uniqueQueue();
    const sent = babelq(['send', join(dir, projection.envelope_file), '--no-fresh-ids', '--queue', queue, '--broker', 'amqp://guest:guest@127.0.0.1:5672', '--declare', '--sdk', 'php']);
    assert.equal(sent.status, 0, sent.stderr);
    const got = await channel.get(queue, { noAck: true });
    assert.ok(got);
    const { properties } = got;
    assert.deepEqual(
      { type: properties.type, correlation_id: properties.correlationId, message_id: properties.messageId, app_id: properties.appId, content_type: properties.contentType },
      projection.properties,
    );
    assert.deepEqual(properties.headers, projection.headers);
  });

  test('preview --sdk all compares the six encoders; --hex dumps the same bytes', () => {
    const all = babelq(['preview', 'examples/orders/order-created.babel.json', '--sdk', 'all', '--no-fresh-ids']);
    assert.equal(all.status, 0, all.stderr);
    const text = all.stdout.toString();
    for (const sdk of ['php', 'python', 'node', 'go', 'java', 'dotnet']) assert.match(text, new RegExp(`^${sdk}\\s+\\d+ bytes`, 'm'));
    assert.match(text, /── Hex/);
    const raw = babelq(['preview', 'examples/orders/order-created.babel.json', '--no-fresh-ids']).stdout;
    const hex = babelq(['preview', 'examples/orders/order-created.babel.json', '--no-fresh-ids', '--hex']).stdout.toString();
    const fromHex = Buffer.from(hex.split('\n').filter(Boolean).map((line) => line.slice(10, 57).replace(/ /g, '')).join(''), 'hex');
    assert.deepEqual(fromHex, raw);
  });

  test('peek reads back without removing and validates each message', async () => {
    const queue = uniqueQueue();
    assert.equal(babelq(['send', 'examples/orders/order-created.babel.json', '--queue', queue]).status, 0);
    await redis.rpush(queue, '{"job":"App\\\\Jobs\\\\X"}');
    const peek = babelq(['peek', '--queue', queue, '--format', 'json']);
    assert.equal(peek.status, 0, peek.stderr);
    const messages = JSON.parse(peek.stdout.toString());
    assert.equal(messages.length, 2);
    // Newest first: the raw push came last.
    assert.ok(messages[0].diagnostics.some((d: { code: string }) => d.code === 'invalid-urn'));
    assert.deepEqual(messages[1].diagnostics, []);
    assert.equal(messages[1].urn, 'urn:babel:orders:created');
    assert.match(messages[1].createdAtText, /^\d{4}-\d\d-\d\dT/);
    assert.equal(messages[1].attempts, 0);
    assert.equal(await redis.llen(queue), 2, 'peek removed nothing');
  });

  test('fresh ids: each send mints a new meta.id and keeps trace_id', async () => {
    const queue = uniqueQueue();
    for (let i = 0; i < 2; i++) assert.equal(babelq(['send', 'examples/orders/order-created.babel.json', '--queue', queue]).status, 0);
    const [first, second] = (await redis.lrange(queue, 0, -1)).map((text) => JSON.parse(text));
    const original = JSON.parse(readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8'));
    assert.notEqual(first.meta.id, second.meta.id);
    assert.notEqual(first.meta.id, original.meta.id);
    assert.equal(first.trace_id, original.trace_id);
  });

  test('guards: an envelope with errors needs --yes; a host that is not loopback needs --yes and is never contacted', async () => {
    const queue = uniqueQueue();
    const bad = babelq(['send', 'examples/bad/contract.babel.json', '--queue', queue, '--sdk', 'node']);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /This envelope has \d+ errors \([a-z-]+(, [a-z-]+)*\)\. Send anyway\? Pass --yes/);
    assert.equal(await redis.llen(queue), 0, 'nothing was published');
    // 192.0.2.1 is TEST-NET-1: the refusal must come before any connection is tried.
    const remote = babelq(['send', 'examples/orders/order-created.babel.json', '--queue', queue, '--broker', 'redis://192.0.2.1:6379', '--timeout', '200']);
    assert.equal(remote.status, 1);
    assert.match(remote.stderr, /192\.0\.2\.1 is not this machine.*--yes/);
  });

  test('peek and dlq list ask before a host that is not loopback, and never connect to it without --yes', async () => {
    // A listener on this machine's own non-loopback address: the guard must decide on the host
    // the user named, and the listener proves no connection was opened.
    const address = Object.values(networkInterfaces()).flat().find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
    assert.ok(address, 'this machine needs a non-loopback IPv4 address for this test');
    let connections = 0;
    const listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((done) => listener.listen(0, '0.0.0.0', done));
    const port = (listener.address() as AddressInfo).port;
    try {
      for (const args of [['peek'], ['dlq', 'list']]) {
        const result = await babelqAsync([...args, '--queue', uniqueQueue(), '--broker', `redis://${address}:${port}`, '--timeout', '500']);
        assert.equal(result.status, 1, result.stderr);
        assert.match(result.stderr, new RegExp(`${address.replace(/\./g, '\\.')} is not this machine\\. Pass --yes`));
      }
      assert.equal(connections, 0, 'nothing connected before the question was answered');
      const answered = await babelqAsync(['peek', '--queue', uniqueQueue(), '--broker', `redis://${address}:${port}`, '--timeout', '500', '--yes']);
      assert.equal(answered.status, 2, 'with --yes it connects (and this listener is no Redis)');
      assert.ok(connections >= 1);
    } finally {
      listener.close();
    }
  });

  test('preview and send without a file each name themselves in the example they give (exit 2)', () => {
    for (const command of ['preview', 'send']) {
      const result = babelq([command]);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, new RegExp(`name the envelope file, e\\.g\\. babelq ${command} examples/`));
    }
  });

  test('a broker URL that cannot be parsed is a usage error for every broker verb, not an internal error', () => {
    for (const args of [['peek', '--queue', 'q'], ['dlq', 'list', '--queue', 'q'], ['send', 'examples/orders/order-created.babel.json', '--queue', 'q']]) {
      for (const url of ['redis://:x@[bad', 'not a url', 'redis://127.0.0.1:99999']) {
        const result = babelq([...args, '--broker', url]);
        assert.equal(result.status, 2, `${args[0]} ${url}: ${result.stderr}`);
        assert.match(result.stderr, /cannot be used/);
        assert.doesNotMatch(result.stderr, /internal error|\n\s+at /);
        assert.match(result.stderr, /--help' for usage/);
      }
    }
    // A password typed with a raw '/', '?' or '#' is never quoted, not even its first part.
    for (const url of ['redis://:Qx7v/Zk9w@127.0.0.1:6379', 'amqp://guest:Qx7v#Zk9w@127.0.0.1:5672', 'amqp://guest:Qx7v?Zk9w@127.0.0.1:5672', 'amqp://guest:12/Zk9w@127.0.0.1:5672']) {
      const result = babelq(['peek', '--queue', 'q', '--broker', url, '--yes', '--timeout', '300']);
      assert.equal(result.status, 2, `${url}: ${result.stderr}`);
      assert.match(result.stderr, /cannot be used/);
      for (const half of ['Qx7v', 'Zk9w']) assert.ok(!result.stderr.includes(half) && !result.stdout.includes(half), `${url}: ${result.stderr}`);
    }
  });

  test('RabbitMQ: a queue name starting with "amq." is said to be reserved, not a permissions problem', async () => {
    const queue = `amq.babelq-send-${randomUUID().slice(0, 8)}`;
    const broker = ['--broker', 'amqp://guest:guest@127.0.0.1:5672'];
    const declared = babelq(['send', 'examples/orders/order-created.babel.json', '--queue', queue, ...broker, '--declare']);
    assert.equal(declared.status, 1, 'the broker said no');
    assert.match(declared.stderr, new RegExp(`refused to declare queue ${queue.replace(/\./g, '\\.')}: names starting with "amq\\." are reserved for the broker \\(ACCESS_REFUSED`));
    assert.doesNotMatch(declared.stderr, /permission/);
    const plain = babelq(['send', 'examples/orders/order-created.babel.json', '--queue', queue, ...broker]);
    assert.equal(plain.status, 1);
    assert.match(plain.stderr, /reserved for the broker: it cannot be declared/);
    assert.doesNotMatch(plain.stderr, /Pass --declare/);
    // On a channel of its own: the broker closes the channel a failed check ran on.
    const probe = await amqp.createChannel();
    probe.on('error', () => {});
    await assert.rejects(probe.checkQueue(queue), /NOT_FOUND/, 'no such queue was made');
  });

  test('--timeout above 2^31 - 1 ms (what Node\'s timers hold) is a usage error for every broker verb; the maximum itself works', async () => {
    const queue = uniqueQueue();
    for (const args of [['peek', '--queue', queue], ['dlq', 'list', '--queue', queue], ['dlq', 'redrive', '--queue', queue, '--all'], ['send', 'examples/orders/order-created.babel.json', '--queue', queue]]) {
      const result = babelq([...args, '--timeout', '3000000000']);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /--timeout is at most 2147483647 ms/);
      assert.doesNotMatch(result.stderr, /TimeoutOverflowWarning|did not answer/);
    }
    assert.equal(await redis.llen(queue), 0, 'nothing was sent');
    const longest = babelq(['peek', '--queue', queue, '--timeout', '2147483647']);
    assert.equal(longest.status, 0, longest.stderr);
    assert.doesNotMatch(longest.stderr, /TimeoutOverflowWarning/);
  });

  test('faults: a closed port and a wrong password give their error, publish nothing, and never print the password', async () => {
    const queue = uniqueQueue();
    // How long the process lives on after it reports the refusal, measured inside it (test/cli/exit-probe.cjs):
    // a busy machine's slow start of a process is no part of it.
    const scratch = mkdtempSync(join(tmpdir(), 'babelq-send-exit-'));
    const exitLog = join(scratch, 'exit.json');
    let refused: { status: number | null; stderr: string };
    let afterErrorMs: number | null;
    try {
      const run = spawnSync(process.execPath, ['--require', join(__dirname, 'exit-probe.cjs'), CLI, 'send', 'examples/orders/order-created.babel.json', '--queue', queue, '--broker', 'redis://127.0.0.1:1', '--timeout', '1000'], {
        cwd: ROOT,
        env: { ...process.env, BABELQ_TEST_EXIT_LOG: exitLog },
        timeout: 30_000,
      });
      refused = { status: run.status, stderr: run.stderr.toString() };
      ({ afterErrorMs } = JSON.parse(readFileSync(exitLog, 'utf8')) as { afterErrorMs: number | null });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /refused/i);
    // The process ends within its --timeout of the error: the client's 2 s wait for a socket that never opened is not waited out.
    assert.ok(afterErrorMs !== null && afterErrorMs < 1000, `babelq send lived ${afterErrorMs === null ? '?' : Math.round(afterErrorMs)} ms after its error with --timeout 1000`);
    const secret = `s3cret-${randomUUID()}`;
    const wrong = babelq(['send', 'examples/orders/order-created.babel.json', '--queue', queue, '--broker', `amqp://guest:${secret}@127.0.0.1:5672`, '--declare', '--timeout', '3000']);
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /auth|credentials|password/i);
    assert.equal(wrong.stderr.includes(secret) || wrong.stdout.toString().includes(secret), false, 'the password must never be printed');
    assert.equal(await redis.llen(queue), 0);
  });
});
