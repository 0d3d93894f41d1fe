/**
 * The address a connection goes to (broker/connect-address.ts): a host the guards took for this
 * machine by its name must resolve to a loopback address, or nothing is sent; the socket connects
 * to the address resolved once. A resolver that lies is a fault no real server produces, so it is
 * stood in for; the real Redis and RabbitMQ are reached through `localhost.` by the system's.
 */
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import { openBroker } from '../../broker';
import { openAmqp } from '../../broker/amqp';
import { openRedis } from '../../broker/redis';
import { Proxy } from './proxy';
import { connectAddresses, type Lookup } from '../../broker/connect-address';
import { BrokerError } from '../../broker/errors';
import { parseTarget } from '../../broker/target';

const answering = (addresses: string | readonly string[], asked: string[] = []): Lookup => async (host) => {
  asked.push(host);
  return (typeof addresses === 'string' ? [addresses] : addresses).map((address) => ({ address }));
};

describe('connectAddresses', () => {
  test('localhost that resolves elsewhere: refused before any byte is sent, with the address it resolved to', async () => {
    for (const url of ['redis://localhost:6379', 'redis://localhost.:6379', 'amqp://LOCALHOST.:5672']) {
      await assert.rejects(connectAddresses(parseTarget(url), 1000, answering('93.184.216.34')), (error: unknown) => error instanceof BrokerError && error.kind === 'remote-host' && /resolves to 93\.184\.216\.34, which is not a loopback address\. Nothing was sent/.test(error.message));
    }
  });

  test('localhost that resolves to a scoped IPv6 address: ::1 on an interface is loopback, a link-local address is refused in words', async () => {
    assert.deepEqual(await connectAddresses(parseTarget('redis://localhost:6379'), 1000, answering('::1%lo')), ['::1%lo']);
    // macOS hosts files have listed `fe80::1%lo0 localhost`: a link-local address, not loopback.
    await assert.rejects(connectAddresses(parseTarget('redis://localhost:6379'), 1000, answering('fe80::1%lo0')), (error: unknown) => error instanceof BrokerError && error.kind === 'remote-host' && /resolves to fe80::1%lo0, which is not a loopback address\. Nothing was sent/.test(error.message));
  });

  test('every loopback address the name resolves to is kept, in the resolver\'s order, and no other', async () => {
    assert.deepEqual(await connectAddresses(parseTarget('amqp://localhost:5672'), 1000, answering(['::1', '127.0.0.1'])), ['::1', '127.0.0.1']);
    assert.deepEqual(await connectAddresses(parseTarget('redis://localhost:6379'), 1000, answering(['93.184.216.34', '127.0.0.1'])), ['127.0.0.1']);
    assert.deepEqual(await connectAddresses(parseTarget('redis://localhost:6379'), 1000, answering(['fe80::1%lo0', '::1', '127.0.0.1'])), ['::1', '127.0.0.1']);
    await assert.rejects(connectAddresses(parseTarget('redis://localhost:6379'), 1000, answering(['10.0.0.1', '93.184.216.34'])), (error: unknown) => error instanceof BrokerError && error.kind === 'remote-host' && /resolves to 10\.0\.0\.1, 93\.184\.216\.34, none of them a loopback address\. Nothing was sent/.test(error.message));
    await assert.rejects(connectAddresses(parseTarget('redis://localhost:6379'), 1000, answering([])), (error: unknown) => error instanceof BrokerError && error.kind === 'unreachable' && /resolves to no address\. Check the host in the URL\. Nothing was sent\./.test(error.message));
  });

  test('a trailing dot is normalised before the lookup; a loopback answer is the address connected to', async () => {
    const asked: string[] = [];
    assert.deepEqual(await connectAddresses(parseTarget('redis://localhost.:6379'), 1000, answering('::1', asked)), ['::1']);
    assert.deepEqual(asked, ['localhost']);
  });

  test('an IP literal is not looked up, trailing dot or not', async () => {
    const asked: string[] = [];
    assert.deepEqual(await connectAddresses(parseTarget('redis://127.0.0.1.:6379'), 1000, answering('10.0.0.1', asked)), ['127.0.0.1']);
    assert.deepEqual(await connectAddresses(parseTarget('redis://[::1]:6379'), 1000, answering('10.0.0.1', asked)), ['::1']);
    assert.deepEqual(asked, []);
  });

  test('a host confirmed as another machine is left to the client library to resolve (every address it has)', async () => {
    const asked: string[] = [];
    assert.equal(await connectAddresses(parseTarget('redis://cache.example:6379'), 1000, answering('10.1.2.3', asked)), undefined);
    assert.deepEqual(asked, []);
  });

  test('localhost that does not resolve, or not in time: a true error that says nothing was sent', async () => {
    const failing: Lookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND cache.invalid'), { code: 'ENOTFOUND' });
    };
    await assert.rejects(connectAddresses(parseTarget('redis://localhost:6379'), 1000, failing), (error: unknown) => error instanceof BrokerError && error.kind === 'unreachable' && /does not resolve \(ENOTFOUND\)\. Check the host in the URL\. Nothing was sent\./.test(error.message));
    const started = Date.now();
    await assert.rejects(connectAddresses(parseTarget('redis://localhost.:6379'), 200, () => new Promise(() => undefined)), (error: unknown) => error instanceof BrokerError && error.kind === 'timeout');
    assert.ok(Date.now() - started < 1000);
  });
});

describe('the real brokers through localhost. (the system resolver)', () => {
  test('Redis and RabbitMQ answer on localhost. as on 127.0.0.1', async () => {
    const redis = await openBroker('redis://localhost.:6379', { timeoutMs: 3000 });
    try {
      assert.deepEqual(await redis.peek(`babelq-test-connect-address-${process.pid}`, 1), []);
    } finally {
      await redis.close();
    }
    const amqp = await openBroker('amqp://guest:guest@localhost.:5672', { timeoutMs: 3000 });
    await amqp.close();
  });
});

describe('the pinned address is the only one reached', () => {
  // A TLS handshake that never completes is told from a dead host by opening a plain TCP
  // connection: that probe goes to the pinned address too. The name here resolves nowhere, so a
  // probe that looked it up again would not reach the silent server (and would be a second
  // lookup the pinning promises there is not).
  const cases = [
    { name: 'rediss', open: (port: number) => openRedis(parseTarget(`rediss://babelq-pinned.invalid:${port}`), { address: '127.0.0.1', timeoutMs: 500 }) },
    { name: 'amqps', open: (port: number) => openAmqp(parseTarget(`amqps://babelq-pinned.invalid:${port}`), { address: '127.0.0.1', timeoutMs: 500 }) },
  ];
  for (const { name, open } of cases) {
    test(`${name}: a server that accepts and never completes TLS is probed at the pinned address → tls`, async () => {
      const sockets: Socket[] = [];
      const silent = createServer((socket) => {
        sockets.push(socket);
        socket.on('error', () => undefined);
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as { port: number };
      try {
        await assert.rejects(open(port), (error: unknown) => error instanceof BrokerError && error.kind === 'tls' && /accepted the connection but did not complete a TLS handshake within 500 ms/.test(error.message));
        assert.equal(sockets.length, 2, 'the TLS attempt and the probe both reached the pinned address');
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    });
  }
});

describe('a broker listening on one of the addresses localhost resolves to', () => {
  // Hosts files commonly give localhost ::1 before 127.0.0.1, and a broker (a container's port
  // published on 127.0.0.1) may listen on one of them only. The proxies listen on 127.0.0.1 only;
  // the resolver answers ::1 first, as such a hosts file does.
  const brokers = [
    { name: 'Redis', upstream: 6379, url: (port: number) => `redis://localhost:${port}` },
    { name: 'RabbitMQ', upstream: 5672, url: (port: number) => `amqp://guest:guest@localhost:${port}` },
  ];
  for (const { name, upstream, url } of brokers) {
    test(`${name}: ::1 refuses, so 127.0.0.1 is connected to`, async () => {
      const proxy = await Proxy.start(upstream, 'cut-before', () => false);
      try {
        const broker = await openBroker(url(proxy.port), { timeoutMs: 3000, lookup: answering(['::1', '127.0.0.1']) });
        await broker.close();
      } finally {
        await proxy.close();
      }
    });
  }

  test('every address refusing is one refusal, in the words of the last', async () => {
    const proxy = await Proxy.start(6379, 'cut-before', () => false);
    const port = proxy.port;
    await proxy.close();
    await assert.rejects(openBroker(`redis://localhost:${port}`, { timeoutMs: 3000, lookup: answering(['::1', '127.0.0.1']) }), (error: unknown) => error instanceof BrokerError && error.kind === 'refused' && error.message === `Connection refused by redis://localhost:${port}: is Redis running there?`);
  });
});
