/**
 * What `babelq preview` and `send` publish, and to where, through the built CLI against the real
 * Redis: bytes that some SDK consumer rejects need --yes and the refusal names them; `--queue`
 * is written into the body's meta.queue; a file that is not UTF-8 is refused as lint refuses it,
 * never sent with replaced bytes; the Java column writes JDK 17's digits. Unique queues, cleaned up.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Redis from 'ioredis';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist/cli.js');

function babelq(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 30_000 });
  return { status: result.status, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

function envelope(data: string, lang: string, queue = 'orders'): string {
  return `{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":${data},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"${queue}","lang":"${lang}","schema_version":1,"created_at":1749132727000},"attempts":0}`;
}

describe('babelq send: what lint accepts, to where it says', () => {
  let redis: Redis;
  let dir: string;
  const queues: string[] = [];
  const uniqueQueue = () => {
    const queue = `babelq-accept-${randomUUID().slice(0, 8)}`;
    queues.push(queue);
    return queue;
  };
  const file = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'babelq-accept-'));
    redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
  });

  after(async () => {
    for (const queue of queues) await redis.del(queue);
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  test("PHP's empty data: the send asks first, names the consumers that reject [] and why, and sends with --yes", async () => {
    const queue = uniqueQueue();
    const path = file('php-empty.babel.json', envelope('{}', 'php'));
    const refused = babelq(['send', path, '--queue', queue]);
    assert.equal(refused.status, 1, refused.stderr);
    // Each with what its runtime does with the message (facts part 2, §5): Python runs the handler with {}, Node dead-letters the raw body, Go loses it.
    assert.match(
      refused.stderr,
      /Some SDK consumers reject these bytes: Python \(data must be an object \(a dict\); its BabelQueue runtime never calls accepts\(\) and runs the URN's handler all the same, with data \{\}\), Node \(data must be an object; its Redis and RabbitMQ consumers move the raw body, without a dead_letter block, to <queue>\.dlq [^\n]*\), Go \(json\.Unmarshal fails: data is an array, not an object; Go's App [^\n]*the original bytes are lost\), Java \(data must be an object \(it decodes to null\)\)\. Send anyway\? Pass --yes/,
    );
    assert.equal(await redis.llen(queue), 0, 'nothing was published');

    const sent = babelq(['send', path, '--queue', queue, '--yes']);
    assert.equal(sent.status, 0, sent.stderr);
    const [stored] = await redis.lrange(queue, 0, -1);
    assert.match(stored, /"data":\[\]/);

    // The preview shows each consumer's verdict on the published bytes.
    const preview = babelq(['preview', path, '--sdk', 'all']);
    assert.match(preview.stdout, /── Consumers[^\n]*\nPHP    accepts\nPython REJECTS: data must be an object \(a dict\); its BabelQueue runtime [^\n]+with data \{\}\nNode   REJECTS: data must be an object; its Redis and RabbitMQ consumers [^\n]+\nGo     REJECTS: [^\n]+the original bytes are lost\nJava   REJECTS: [^\n]+\n\.NET   not measured\n/);
  });

  test('the same data sent with the Node encoder needs no --yes: every measured consumer accepts {}', async () => {
    const queue = uniqueQueue();
    const sent = babelq(['send', file('node-empty.babel.json', envelope('{}', 'node')), '--queue', queue]);
    assert.equal(sent.status, 0, sent.stderr);
    assert.equal(await redis.llen(queue), 1);
  });

  test('--queue is the target and the body\'s meta.queue, in the preview and on the wire', async () => {
    const queue = uniqueQueue();
    const path = file('queue.babel.json', envelope('{"order_id":1}', 'node', 'orders'));
    const preview = babelq(['preview', path, '--no-fresh-ids', '--queue', queue]);
    assert.equal(preview.status, 0, preview.stderr);
    assert.equal(JSON.parse(preview.stdout).meta.queue, queue);
    const all = babelq(['preview', path, '--sdk', 'all', '--queue', queue]);
    assert.match(all.stdout, new RegExp(`Queue: ${queue} \\(chosen for this send, and written as meta.queue in the body\\)\\nRedis \\(babelqueue layout\\): RPUSH ${queue} <body>`));

    const sent = babelq(['send', path, '--no-fresh-ids', '--queue', queue]);
    assert.equal(sent.status, 0, sent.stderr);
    assert.deepEqual(await redis.lrange(queue, 0, -1), [preview.stdout]);
    // The send says that the body's meta.queue was rewritten, and from what.
    assert.match(sent.stdout, new RegExp(`list ${queue}; meta\\.queue in the body is "${queue}" \\(it was "orders"\\)\\n$`));
    assert.match(babelq(['send', '--help']).stdout, /--queue <name> +publish to this queue, and write it as meta.queue in the body/);
    assert.equal(babelq(['send', path, '--queue', '  ']).status, 2, 'a blank --queue is a usage error');
  });

  test('a file that is not UTF-8 is refused as lint refuses it, even with --yes, and nothing is sent', async () => {
    const queue = uniqueQueue();
    const text = envelope('{"note":"caf_"}', 'node');
    const bytes = Buffer.from(text, 'latin1');
    const at = text.indexOf('caf_') + 3;
    bytes[at] = 0xe9; // Latin-1 é: not UTF-8
    const path = file('latin1.babel.json', bytes);
    const lint = babelq(['lint', path]);
    assert.match(lint.stdout, new RegExp(`not valid UTF-8 \\(an invalid sequence starts with byte 0xE9 at byte offset ${at}, line 1\\)`));
    for (const args of [['preview', path], ['preview', path, '--sdk', 'all'], ['send', path, '--queue', queue, '--yes']]) {
      const result = babelq(args);
      // Content the tool refuses is exit 1, as a syntax error or a byte-order mark is; 2 is for usage and unreadable files.
      assert.equal(result.status, 1, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, new RegExp(`not valid UTF-8 \\(an invalid sequence starts with byte 0xE9 at byte offset ${at}, line 1\\).*Nothing was previewed or sent`));
      assert.equal(result.stdout, '');
    }
    // A usage error is still said first, and is 2.
    assert.equal(babelq(['preview', path, '--sdk', 'cobol']).status, 2);
    assert.equal(babelq(['send', path, '--queue', queue, '--layout', 'sideways']).status, 2);
    assert.equal(await redis.llen(queue), 0);
  });

  test('every refusal of a file\'s content exits 1, in preview and send alike: not UTF-8, a byte-order mark, a syntax error, no URN', async () => {
    const queue = uniqueQueue();
    const good = envelope('{"order_id":1}', 'node');
    const files = {
      'not UTF-8': file('refused-latin1.babel.json', Buffer.concat([Buffer.from(good.slice(0, -1)), Buffer.from([0x2c, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d])])),
      'a byte-order mark': file('refused-bom.babel.json', `\ufeff${good}`),
      'a syntax error': file('refused-syntax.babel.json', good.slice(0, -1)),
      'no URN': file('refused-no-urn.babel.json', good.replace('"job":"urn:babel:orders:created",', '')),
    };
    for (const [what, path] of Object.entries(files)) {
      for (const args of [['preview', path], ['preview', path, '--sdk', 'all'], ['send', path, '--queue', queue, '--yes']]) {
        const result = babelq(args);
        assert.equal(result.status, 1, `${what}, ${args.join(' ')}: ${result.stdout}${result.stderr}`);
      }
    }
    assert.equal(await redis.llen(queue), 0);
    assert.match(babelq(['preview', '--help']).stdout, /\nExit status: 0 printed, 1 refused \(bytes that are not UTF-8, a byte-order mark, a syntax error,/);
    assert.match(babelq(['send', '--help']).stdout, /\nExit status: 0 sent, 1 refused \(content that cannot be sent: bytes that are not UTF-8, a\nbyte-order mark, a syntax error, no URN;/);
  });

  test('a device, a named pipe or a file above the limit is refused unread, as lint refuses it, and nothing is sent', { skip: process.platform === 'win32' && 'needs /dev/zero and mkfifo' }, async () => {
    const queue = uniqueQueue();
    const fifo = join(dir, 'pipe.babel.json');
    spawnSync('mkfifo', [fifo]);
    // Above the 64 MB an envelope may have; sparse, so the test writes nothing of it.
    const large = file('large.babel.json', '');
    truncateSync(large, 65 * 1024 * 1024);
    const cases: [string, RegExp][] = [
      ['/dev/zero', /cannot read '\/dev\/zero': is a device, not a regular file; it was not read/],
      [fifo, /is a named pipe, not a regular file; it was not read/],
      [large, /is 65\.0 MiB, above the 64\.0 MiB this tool reads; it was not read/],
    ];
    for (const [path, message] of cases) {
      for (const args of [['preview', path], ['send', path, '--queue', queue, '--yes']]) {
        // Before, preview read /dev/zero until memory ran out and waited on the pipe for ever: the timeout says which.
        const result = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 10_000 });
        assert.equal(result.error, undefined, `${args.join(' ')} did not end within 10 s`);
        assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr.toString(), message);
        assert.equal(result.stdout.length, 0);
      }
    }
    assert.equal(await redis.llen(queue), 0);
  });

  test('preview --sdk java writes 1e23 as JDK 17 does, and says what JDK 19+ writes', () => {
    const preview = babelq(['preview', file('java.babel.json', envelope('{"x":1e23}', 'java')), '--sdk', 'java']);
    assert.equal(preview.status, 0, preview.stderr);
    assert.match(preview.stdout, /"data":\{"x":9\.999999999999999E22\}/);
    assert.match(preview.stderr, /JDK 19\+ writes 1\.0E23/);
  });
});
