/**
 * Faults, each through the same open → publish path the send command uses: nothing listening,
 * a port that accepts and never answers, a wrong password, TLS against a plain server, the wrong
 * protocol on the port. Each must give its own kind, publish nothing, finish within the deadline,
 * and never show the password. Fake servers (loopback only) stand in where the real ones cannot
 * misbehave on demand.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import Redis from 'ioredis';
import { isBrokerError, openBroker, type BrokerErrorKind } from '../../broker';
import { socketFailure } from '../../broker/internal';
import { parseTarget, withPassword, type BrokerTarget } from '../../broker/target';
import { AMQP_URL, FakeServer, freePort, leakedIn, outgoing, uniqueQueue, uniqueSecret } from './helpers';

const TIMEOUT_MS = 500;
// The deadline plus room for a loaded CI machine; a fault must never take the default 5 s.
const LATEST_MS = TIMEOUT_MS + 1500;

let redis: Redis;
let amqpConnection: ChannelModel;
let amqpChannel: Channel;
const redisKeys = new Set<string>();
const amqpQueues = new Set<string>();
const fakes: FakeServer[] = [];

before(async () => {
  redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, retryStrategy: null, maxRetriesPerRequest: 0 });
  await redis.connect();
  amqpConnection = await connect(AMQP_URL);
  amqpChannel = await amqpConnection.createChannel();
});

after(async () => {
  if (redisKeys.size > 0) await redis.del(...redisKeys);
  for (const queue of amqpQueues) await amqpChannel.deleteQueue(queue);
  for (const fake of fakes) await fake.close();
  await redis.quit();
  await amqpConnection.close();
});

async function fake(onConnection?: Parameters<typeof FakeServer.start>[0]): Promise<FakeServer> {
  const server = await FakeServer.start(onConnection);
  fakes.push(server);
  return server;
}

/** Open, publish, close as the send command does; the error it ends with, and how long all of it took (close included). */
async function attempt(target: string | BrokerTarget, queue: string): Promise<{ error: unknown; ms: number }> {
  const start = performance.now();
  let broker;
  let error: unknown;
  try {
    broker = await openBroker(target, { timeoutMs: TIMEOUT_MS });
    await broker.publish(outgoing(queue));
  } catch (caught) {
    error = caught;
  } finally {
    await broker?.close();
  }
  return { error, ms: performance.now() - start };
}

/** The checks every fault shares: its kind, its speed, no secret in any rendering of it. */
function assertFault(t: TestContext, result: { error: unknown; ms: number }, kind: BrokerErrorKind | readonly BrokerErrorKind[], secret: string): void {
  const { error, ms } = result;
  assert.ok(isBrokerError(error), `expected a BrokerError, got ${String(error)}`);
  const kinds: readonly BrokerErrorKind[] = typeof kind === 'string' ? [kind] : kind;
  assert.ok(kinds.includes(error.kind), `kind ${error.kind} (${error.message}), expected ${kinds.join(' or ')}`);
  assert.ok(ms < LATEST_MS, `took ${Math.round(ms)} ms`);
  assert.deepEqual(leakedIn(error, secret), [], `the password leaked in: ${error.message}`);
  assert.doesNotMatch(error.message, /undefined|\[object /);
  t.diagnostic(`${error.kind} after ${Math.round(ms)} ms: ${error.message}`);
}

async function redisQueue(): Promise<string> {
  const queue = uniqueQueue();
  redisKeys.add(queue);
  return queue;
}

/** A real, declared queue, so a fault that wrongly let the publish through would show up in it. */
async function amqpQueue(): Promise<string> {
  const queue = uniqueQueue();
  amqpQueues.add(queue);
  await amqpChannel.assertQueue(queue, { durable: true });
  return queue;
}

async function assertRedisEmpty(queue: string): Promise<void> {
  assert.equal(await redis.llen(queue), 0, 'nothing was published');
}

async function assertAmqpEmpty(queue: string): Promise<void> {
  assert.equal((await amqpChannel.checkQueue(queue)).messageCount, 0, 'nothing was published');
}

describe('redis faults', () => {
  test('nothing listening on the port → refused', async (t) => {
    const secret = uniqueSecret();
    const queue = await redisQueue();
    const result = await attempt(`redis://:${secret}@127.0.0.1:${await freePort()}`, queue);
    assertFault(t, result, 'refused', secret);
    assert.match((result.error as Error).message, /^Connection refused by redis:\/\/127\.0\.0\.1:\d+: is Redis running there\?$/);
    await assertRedisEmpty(queue);
  });

  test('a port that accepts and never answers → timeout within the configured deadline', async (t) => {
    const secret = uniqueSecret();
    const queue = await redisQueue();
    const silent = await fake();
    const result = await attempt(`redis://:${secret}@127.0.0.1:${silent.port}`, queue);
    assertFault(t, result, 'timeout', secret);
    assert.ok(result.ms >= TIMEOUT_MS - 50, `gave up after ${Math.round(result.ms)} ms, before the deadline`);
    assert.match((result.error as Error).message, /within 500 ms/);
    await assertRedisEmpty(queue);
  });

  test('a server that answers PING but never the push → timeout that says the outcome is unknown', async (t) => {
    const queue = await redisQueue();
    const stall = await fake((socket) => socket.once('data', () => socket.write('+PONG\r\n')));
    const result = await attempt(`redis://127.0.0.1:${stall.port}`, queue);
    assertFault(t, result, 'timeout', 'unused-secret');
    assert.match((result.error as Error).message, /may or may not have been stored/);
    await assertRedisEmpty(queue);
  });

  test('a password against the passwordless local Redis → auth', async (t) => {
    const secret = uniqueSecret();
    const queue = await redisQueue();
    assertFault(t, await attempt(`redis://:${secret}@127.0.0.1:6379`, queue), 'auth', secret);
    // The editor's path: the password comes from secret storage, not the URL.
    assertFault(t, await attempt(withPassword(parseTarget('redis://127.0.0.1:6379'), secret), queue), 'auth', secret);
    await assertRedisEmpty(queue);
  });

  test('a wrong user and password → auth', async (t) => {
    const secret = uniqueSecret();
    const queue = await redisQueue();
    const result = await attempt(`redis://nobody:${secret}@127.0.0.1:6379`, queue);
    assertFault(t, result, 'auth', secret);
    assert.match((result.error as Error).message, /wrong user name or password/);
    await assertRedisEmpty(queue);
  });

  test('a user name for a Redis before 6 (AUTH takes a password only) → auth, saying to drop the user name', async (t) => {
    const secret = uniqueSecret();
    const queue = await redisQueue();
    // Redis 5 answers the two-argument AUTH (user, password) as a command it does not know so.
    const old = await fake((socket) => socket.on('data', (data: Buffer) => socket.write(/^\*3\r\n\$4\r\nAUTH\r\n/i.test(data.toString('latin1')) ? "-ERR wrong number of arguments for 'auth' command\r\n" : '+PONG\r\n')));
    const result = await attempt(`redis://alice:${secret}@127.0.0.1:${old.port}`, queue);
    assertFault(t, result, 'auth', secret);
    assert.match((result.error as Error).message, /no user names/);
    await assertRedisEmpty(queue);
  });

  test('no password for a Redis that requires one (NOAUTH) → auth, asking for one', async (t) => {
    const queue = await redisQueue();
    const guarded = await fake((socket) => socket.on('data', () => socket.write('-NOAUTH Authentication required.\r\n')));
    const result = await attempt(`redis://127.0.0.1:${guarded.port}`, queue);
    assertFault(t, result, 'auth', 'unused-secret');
    assert.match((result.error as Error).message, /requires a password/);
    await assertRedisEmpty(queue);
  });

  test('rediss:// against the plain local Redis → tls', async (t) => {
    const secret = uniqueSecret();
    const queue = await redisQueue();
    const result = await attempt(`rediss://:${secret}@127.0.0.1:6379`, queue);
    assertFault(t, result, 'tls', secret);
    assert.match((result.error as Error).message, /use redis:\/\//);
    await assertRedisEmpty(queue);
  });

  test('redis:// against the RabbitMQ port → wrong-protocol', async (t) => {
    const secret = uniqueSecret();
    const queue = await redisQueue();
    const result = await attempt(`redis://:${secret}@127.0.0.1:5672`, queue);
    assertFault(t, result, 'wrong-protocol', secret);
    assert.match((result.error as Error).message, /not in the Redis protocol/);
    await assertRedisEmpty(queue);
  });

  test('a server that hangs up at once → closed', async (t) => {
    const queue = await redisQueue();
    const rude = await fake((socket) => socket.destroy());
    assertFault(t, await attempt(`redis://127.0.0.1:${rude.port}`, queue), ['closed', 'refused'], 'unused-secret');
    await assertRedisEmpty(queue);
  });
});

describe('rabbitmq faults', () => {
  test('nothing listening on the port → refused', async (t) => {
    const secret = uniqueSecret();
    const queue = await amqpQueue();
    const result = await attempt(`amqp://guest:${secret}@127.0.0.1:${await freePort()}`, queue);
    assertFault(t, result, 'refused', secret);
    assert.match((result.error as Error).message, /^Connection refused by amqp:\/\/guest@127\.0\.0\.1:\d+: is RabbitMQ running there\?$/);
    await assertAmqpEmpty(queue);
  });

  test('a port that accepts and never speaks AMQP → timeout within the configured deadline', async (t) => {
    const secret = uniqueSecret();
    const queue = await amqpQueue();
    const silent = await fake();
    const result = await attempt(`amqp://guest:${secret}@127.0.0.1:${silent.port}`, queue);
    assertFault(t, result, 'timeout', secret);
    assert.ok(result.ms >= TIMEOUT_MS - 50, `gave up after ${Math.round(result.ms)} ms, before the deadline`);
    await assertAmqpEmpty(queue);
  });

  test('a server that keeps trickling bytes of a handshake it never completes → timeout, and the connection is closed', async (t) => {
    // Each byte restarts a socket's idle timeout, so only the deadline ends the attempt: the
    // connection must not stay open behind the error (it kept `babelq peek` from exiting).
    const secret = uniqueSecret();
    const queue = await amqpQueue();
    const trickle = await fake((socket) => {
      const timer = setInterval(() => socket.write(Buffer.from([1])), 100);
      socket.on('close', () => clearInterval(timer));
    });
    const result = await attempt(`amqp://guest:${secret}@127.0.0.1:${trickle.port}`, queue);
    assertFault(t, result, 'timeout', secret);
    const start = performance.now();
    while (trickle.sockets.size > 0 && performance.now() - start < 2000) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(trickle.sockets.size, 0, 'the connection is closed once the deadline has passed');
    await assertAmqpEmpty(queue);
  });

  test('amqp:// against the Redis port (accepts, never answers the AMQP header) → timeout', async (t) => {
    const secret = uniqueSecret();
    const queue = await amqpQueue();
    assertFault(t, await attempt(`amqp://guest:${secret}@127.0.0.1:6379`, queue), 'timeout', secret);
    await assertAmqpEmpty(queue);
  });

  test('guest with a wrong password → auth', async (t) => {
    const secret = uniqueSecret();
    const queue = await amqpQueue();
    const result = await attempt(`amqp://guest:${secret}@127.0.0.1:5672`, queue);
    assertFault(t, result, 'auth', secret);
    assert.match((result.error as Error).message, /wrong user name or password/);
    assertFault(t, await attempt(withPassword(parseTarget('amqp://guest@127.0.0.1:5672'), secret), queue), 'auth', secret);
    await assertAmqpEmpty(queue);
  });

  test('guest without a password → auth, saying no password was given', async (t) => {
    const queue = await amqpQueue();
    const result = await attempt('amqp://guest@127.0.0.1:5672', queue);
    assertFault(t, result, 'auth', 'no-secret-here');
    assert.match((result.error as Error).message, /^Login to amqp:\/\/guest@127\.0\.0\.1:5672 refused: no password was given for the user "guest"\.$/);
    await assertAmqpEmpty(queue);
  });

  test('amqps:// against the plain local RabbitMQ → tls', async (t) => {
    const secret = uniqueSecret();
    const queue = await amqpQueue();
    const result = await attempt(`amqps://guest:${secret}@127.0.0.1:5672`, queue);
    assertFault(t, result, 'tls', secret);
    assert.match((result.error as Error).message, /use amqp:\/\//);
    await assertAmqpEmpty(queue);
  });

  test('a server that answers with something else (HTTP) → wrong-protocol', async (t) => {
    const secret = uniqueSecret();
    const queue = await amqpQueue();
    const http = await fake((socket) => socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'));
    assertFault(t, await attempt(`amqp://guest:${secret}@127.0.0.1:${http.port}`, queue), 'wrong-protocol', secret);
    await assertAmqpEmpty(queue);
  });

  test('a virtual host that does not exist → rejected, naming the vhost', async (t) => {
    const secret = uniqueSecret();
    const queue = await amqpQueue();
    const result = await attempt(`amqp://guest:guest@127.0.0.1:5672/${secret}`, queue);
    // The vhost is not a secret, so this checks only the kind; the password case is above.
    assertFault(t, result, 'rejected', 'unused-secret');
    assert.match((result.error as Error).message, /virtual host/);
    await assertAmqpEmpty(queue);
  });
});

describe('faults that need no server', () => {
  test('an unusable URL → invalid-url without echoing its password', () => {
    const secret = uniqueSecret();
    for (const url of [`http://user:${secret}@127.0.0.1`, `redis://:${secret}@127.0.0.1:99999`, `redis://:${secret}@127.0.0.1/not-a-db`, `amqp://u:${secret}@[::1`]) {
      assert.throws(
        () => parseTarget(url),
        (error: unknown) => {
          assert.ok(isBrokerError(error));
          assert.equal(error.kind, 'invalid-url');
          assert.deepEqual(leakedIn(error, secret), [], error.message);
          return true;
        },
      );
    }
  });

  test('name resolution and routing failures → unreachable', () => {
    const target = withPassword(parseTarget('redis://queue.example.internal:6379'), 'pw-123456');
    for (const code of ['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']) {
      const error = socketFailure(Object.assign(new Error(`getaddrinfo ${code} pw-123456`), { code }), target, 'Redis', TIMEOUT_MS);
      assert.equal(error?.kind, 'unreachable', code);
      assert.ok(!error!.message.includes('pw-123456'));
      assert.match(error!.message, /redis:\/\/queue\.example\.internal:6379/);
    }
  });
});

describe('a Redis user name that may be a password (redis://NAME@host) quoted back by the server', () => {
  // Redis 7.2 and later name the user in a refusal ("NOPERM User <name> has no permissions …");
  // the local Redis (7.0) says "this user", so a fake server answers as 7.2 does.
  test('NOPERM naming the user: the error does not show the name', async () => {
    const secret = uniqueSecret();
    const fake = await FakeServer.start((socket) => {
      socket.on('data', (chunk: Buffer) => {
        const text = chunk.toString('latin1');
        if (/\r\nAUTH\r\n/i.test(text)) socket.write('+OK\r\n');
        else if (/\r\nPING\r\n/i.test(text)) socket.write(`-NOPERM User ${secret} has no permissions to run the 'ping' command\r\n`);
      });
    });
    fakes.push(fake);
    const target = withPassword(parseTarget(`redis://${secret}@127.0.0.1:${fake.port}`), uniqueSecret());
    await assert.rejects(openBroker(target, { timeoutMs: TIMEOUT_MS }), (error: unknown) => {
      assert.ok(isBrokerError(error), String(error));
      assert.equal(error.kind, 'auth', error.message);
      assert.match(error.message, /PING/);
      assert.deepEqual(leakedIn(error, secret), [], error.message);
      return true;
    });
  });
});

describe('a Redis that does not know AUTH (rename-command) and quotes its arguments back, cut short', () => {
  // Redis answers a command it does not know with its first 128 bytes of arguments ("ERR unknown
  // command 'AUTH', with args beginning with: 'user' 'passw"): a long password, or one after a long
  // user name, is quoted cut, where no search for the whole of it finds it.
  async function authUnknown(): Promise<FakeServer> {
    return fake((socket) => {
      socket.on('data', (chunk: Buffer) => {
        const words = chunk.toString('latin1').split('\r\n').filter((_, index) => index > 0 && index % 2 === 0);
        const [command, ...args] = words;
        let quotedArgs = '';
        for (const arg of args) {
          if (quotedArgs.length >= 128) break;
          quotedArgs += `'${arg.slice(0, 128 - quotedArgs.length)}' `;
        }
        socket.write(/^AUTH$/i.test(command ?? '') ? `-ERR unknown command '${command}', with args beginning with: ${quotedArgs}\r\n` : '+PONG\r\n');
      });
    });
  }

  const long = (seed: string) => `${seed}-${'x'.repeat(20)}${uniqueSecret()}${'y'.repeat(150)}`;
  const cases = [
    { what: 'a password of 200 characters', user: undefined, password: long('pw') },
    { what: 'a password after a user name of 120 characters', user: long('user').slice(0, 120), password: long('pw') },
  ];
  for (const { what, user, password } of cases) {
    test(`${what}: no part of it is quoted`, async (t) => {
      const server = await authUnknown();
      const target = withPassword(parseTarget(`redis://${user === undefined ? '' : `${user}@`}127.0.0.1:${server.port}`), password);
      const result = await attempt(target, await redisQueue());
      assertFault(t, result, 'rejected', password);
      const message = (result.error as Error).message;
      // The first 16 characters of either secret are in no rendering of the error.
      for (const secret of [password, user].filter((value): value is string => value !== undefined)) {
        assert.deepEqual(leakedIn(result.error, secret.slice(0, 16)), [], message);
      }
      assert.match(message, /unknown command 'AUTH'\.$/i, 'the server\'s reason, without what it quoted');
    });
  }
});

const fixtures = join(__dirname, '..', 'fixtures', 'tls');

/** A loopback TLS server with the test certificate that never says anything after the handshake (unless `onSecure` does). */
async function silentTlsServer(onSecure: (socket: Socket) => void = () => {}): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createTlsServer({ key: readFileSync(join(fixtures, 'key.pem')), cert: readFileSync(join(fixtures, 'cert.pem')) }, (socket) => {
    socket.on('error', () => {});
    onSecure(socket);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a TLS server whose certificate is not trusted here (self-signed)', () => {
  // No TLS is configured on the local Redis or RabbitMQ: a loopback TLS server with a test-only
  // self-signed certificate (test/fixtures/tls) stands in for one.
  for (const scheme of ['rediss', 'amqps'] as const) {
    test(`${scheme}:// → tls, saying the certificate is not trusted, not asking whether the server speaks TLS`, async (t) => {
      const { port, close } = await silentTlsServer();
      try {
        const secret = uniqueSecret();
        const result = await attempt(`${scheme}://user:${secret}@127.0.0.1:${port}`, uniqueQueue());
        assertFault(t, result, 'tls', secret);
        const { message } = result.error as Error;
        assert.match(message, /self-signed/);
        assert.match(message, /the server speaks TLS, but its certificate is not signed by a certificate authority trusted here/);
        assert.doesNotMatch(message, /does the server speak TLS|For a plain connection/);
      } finally {
        await close();
      }
    });
  }
});

describe('a TLS server that completes the handshake and then never answers', () => {
  // The client must trust the test certificate (NODE_EXTRA_CA_CERTS, read when Node starts), so
  // the built CLI runs in a child process against a loopback TLS server that stays silent.
  for (const scheme of ['rediss', 'amqps'] as const) {
    test(`${scheme}:// → timeout, not a TLS handshake that did not complete`, async () => {
      const { port, close } = await silentTlsServer();
      try {
        const secret = uniqueSecret();
        const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
        const result = await new Promise<{ status: number | null; stderr: string }>((done) => {
          const child = spawn(process.execPath, [cli, 'peek', '--queue', uniqueQueue(), '--broker', `${scheme}://user:${secret}@127.0.0.1:${port}`, '--timeout', String(TIMEOUT_MS)], {
            env: { ...process.env, NODE_EXTRA_CA_CERTS: join(fixtures, 'cert.pem') },
            timeout: 20_000,
          });
          let stderr = '';
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          child.on('close', (status) => done({ status, stderr }));
        });
        assert.equal(result.status, 2, result.stderr);
        assert.match(result.stderr, /completed the TLS handshake but did not (answer|complete the AMQP handshake) within 500 ms/);
        assert.doesNotMatch(result.stderr, /did not complete a TLS handshake|does the server speak TLS/);
        assert.ok(!result.stderr.includes(secret), result.stderr);
      } finally {
        await close();
      }
    });
  }
});

describe('a server that trickles a handshake it never completes: babelq says so at the deadline, and exits', () => {
  // Each byte restarts the socket's idle timeout: the connection stayed open behind the error, and
  // the process with it. The client must trust the test certificate (NODE_EXTRA_CA_CERTS), so the
  // built CLI runs in a child process.
  const trickle = (socket: Socket) => {
    const timer = setInterval(() => socket.write(Buffer.from([1])), 100);
    socket.on('close', () => clearInterval(timer));
  };
  for (const scheme of ['amqp', 'amqps'] as const) {
    test(`${scheme}://`, async () => {
      const server = scheme === 'amqp' ? await fake(trickle) : await silentTlsServer(trickle);
      try {
        const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
        const start = performance.now();
        const result = await new Promise<{ status: number | null; signal: NodeJS.Signals | null; stderr: string }>((done) => {
          const child = spawn(process.execPath, [cli, 'peek', '--queue', uniqueQueue(), '--broker', `${scheme}://guest:guest@127.0.0.1:${server.port}`, '--timeout', String(TIMEOUT_MS)], {
            env: { ...process.env, NODE_EXTRA_CA_CERTS: join(fixtures, 'cert.pem') },
            timeout: 20_000,
          });
          let stderr = '';
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          child.on('close', (status, signal) => done({ status, signal, stderr }));
        });
        const ms = performance.now() - start;
        assert.equal(result.signal, null, `babelq was still running after ${Math.round(ms)} ms: ${result.stderr}`);
        assert.equal(result.status, 2, result.stderr);
        assert.match(result.stderr, /did not complete the AMQP handshake within 500 ms/);
        assert.ok(ms < 10_000, `exited after ${Math.round(ms)} ms`);
      } finally {
        await server.close();
      }
    });
  }
});

describe('a plain connection to a port that expects TLS', () => {
  // The local servers have no TLS port; the loopback TLS server closes a plain connection as a
  // TLS-only listener does.
  for (const [scheme, secure] of [['redis', 'rediss'], ['amqp', 'amqps']] as const) {
    test(`${scheme}:// → tls, saying the port expects TLS (${secure}://)`, async (t) => {
      const { port, close } = await silentTlsServer();
      try {
        const secret = uniqueSecret();
        const result = await attempt(`${scheme}://user:${secret}@127.0.0.1:${port}`, uniqueQueue());
        assertFault(t, result, 'tls', secret);
        assert.match((result.error as Error).message, new RegExp(`expects TLS on port ${port} .*use ${secure}://`));
      } finally {
        await close();
      }
    });
  }
});
