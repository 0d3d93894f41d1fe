/**
 * `babelq peek` and `babelq dlq list` judge a message's bytes as `babelq lint` judges a file's:
 * a leading UTF-8 BOM and a byte that is not UTF-8 are lint's json-syntax error, never "valid".
 * The bytes are pushed raw onto a real Redis list and a real RabbitMQ queue, and the verdicts are
 * compared with `babelq lint` of the same bytes in a file.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deadLettered, outgoing, putOnQueue, uniqueQueue, useRealBrokers } from '../broker/helpers';
import { babelq, lintJson, makeTree, removeTree, REPO_ROOT } from './helpers';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** An envelope's bytes with a BOM in front, and with a raw 0xFF in place of a character of its note. */
function badBodies(queue: string, dead: boolean): { bom: Buffer; invalid: Buffer } {
  const text = (orderId: number) => (dead ? deadLettered(outgoing(queue, { orderId }).text, queue, 'gateway down') : outgoing(queue, { orderId }).text);
  const bom = Buffer.concat([BOM, Buffer.from(text(1))]);
  const invalid = Buffer.from(text(2).replace('naïve', 'na\u0000ve'));
  invalid[invalid.indexOf(0)] = 0xff;
  return { bom, invalid };
}

/** What `babelq lint` says of `bytes` in a file: each finding's code, severity and message. */
function lintVerdict(bytes: Buffer): { code: string; severity: string; message: string }[] {
  const dir = makeTree({ 'message.babel.json': bytes });
  try {
    const { reports } = lintJson(['message.babel.json'], dir);
    return reports[0]!.diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message }));
  } finally {
    removeTree(dir);
  }
}

interface Row {
  metaId: string;
  urn: string;
  errors: number;
  diagnostics: { code: string; severity: string; message: string }[];
}

const brokers = useRealBrokers();

describe('peek and dlq list judge bytes as lint does', () => {
  test('Redis: a BOM and an invalid byte are json-syntax errors, with lint\'s words, in peek and dlq list', async () => {
    const queue = uniqueQueue();
    brokers.redisKeys.add(queue).add(`${queue}.dlq`);
    const work = badBodies(queue, false);
    const dead = badBodies(queue, true);
    // LPUSH of raw Buffers: the list holds exactly these bytes (newest first: invalid, then bom).
    await brokers.redis.lpush(queue, work.invalid, work.bom);
    await brokers.redis.lpush(`${queue}.dlq`, dead.invalid, dead.bom);

    for (const [args, bodies] of [[['peek', '--queue', queue], work], [['peek', '--queue', queue, '--dlq'], dead]] as const) {
      const peek = babelq([...args, '--format', 'json'], REPO_ROOT);
      assert.equal(peek.status, 0, peek.stderr);
      const rows = JSON.parse(peek.stdout) as Row[];
      assert.equal(rows.length, 2);
      for (const [row, bytes] of [[rows.find((r) => r.diagnostics.some((d) => /byte-order mark/.test(d.message)))!, bodies.bom], [rows.find((r) => r.diagnostics.some((d) => /not valid UTF-8/.test(d.message)))!, bodies.invalid]] as const) {
        assert.ok(row, peek.stdout);
        assert.deepEqual(row.diagnostics, lintVerdict(bytes));
        assert.equal(row.diagnostics[0]!.code, 'json-syntax');
        assert.equal(row.errors, 1);
        // Which message it is stays readable.
        assert.equal(row.urn, 'urn:babel:orders:created');
        assert.match(row.metaId, /^[0-9a-f-]{36}$/);
      }
      const text = babelq(args as unknown as string[], REPO_ROOT);
      assert.equal(text.status, 0, text.stderr);
      assert.doesNotMatch(text.stdout, /\svalid\n/);
      assert.equal(text.stdout.match(/ 1 error\n/g)?.length, 2, text.stdout);
    }

    const listed = babelq(['dlq', 'list', '--queue', queue], REPO_ROOT);
    assert.equal(listed.status, 0, listed.stderr);
    assert.equal(listed.stdout.match(/ 1 error\n/g)?.length, 2, listed.stdout);
    const json = babelq(['dlq', 'list', '--queue', queue, '--format', 'json'], REPO_ROOT);
    const messages = (JSON.parse(json.stdout) as { groups: { messages: Row[] }[] }).groups.flatMap((g) => g.messages);
    assert.deepEqual(messages.map((m) => m.diagnostics[0]?.code), ['json-syntax', 'json-syntax']);
    assert.equal(await brokers.redis.llen(`${queue}.dlq`), 2, 'nothing was removed');
  });

  test('RabbitMQ: the same bytes on a queue get the same verdicts', async () => {
    const queue = uniqueQueue();
    for (const name of [queue, `${queue}.dlq`]) {
      brokers.amqpQueues.add(name);
      await brokers.channel.assertQueue(name, { durable: true });
    }
    const dead = badBodies(queue, true);
    await putOnQueue(brokers.channel, `${queue}.dlq`, [dead.bom, dead.invalid]);
    const broker = ['--broker', 'amqp://guest:guest@127.0.0.1:5672'];
    const peek = babelq(['peek', '--queue', queue, '--dlq', ...broker, '--format', 'json'], REPO_ROOT);
    assert.equal(peek.status, 0, peek.stderr);
    const rows = JSON.parse(peek.stdout) as Row[];
    assert.deepEqual(
      rows.map((row) => row.diagnostics).sort((a, b) => a[0]!.message.localeCompare(b[0]!.message)),
      [lintVerdict(dead.invalid), lintVerdict(dead.bom)].sort((a, b) => a[0]!.message.localeCompare(b[0]!.message)),
    );
    const listed = babelq(['dlq', 'list', '--queue', queue, ...broker], REPO_ROOT);
    assert.equal(listed.status, 0, listed.stderr);
    assert.equal(listed.stdout.match(/ 1 error\n/g)?.length, 2, listed.stdout);
    assert.equal((await brokers.channel.checkQueue(`${queue}.dlq`)).messageCount, 2);
  });
});
