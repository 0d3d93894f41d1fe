/**
 * A Redis that requires a password, met without one (NOAUTH), against a real throw-away
 * redis-server started with --requirepass on a free port and stopped after: the error says how to
 * give the password, in the ways babelq and the editor take one, and the way it names works;
 * the password appears in no output.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect as netConnect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openBroker } from '../../broker';
import { assertCliBuilt, babelq } from '../cli/helpers';
import { outgoing, uniqueQueue, uniqueSecret } from './helpers';

const password = uniqueSecret();
let server: ChildProcess | undefined;
let port = 0;
let folder = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: found } = probe.address() as { port: number };
      probe.close(() => resolve(found));
    });
  });
}

/** Resolves once something accepts connections on `port`; fails after 10 s. */
async function listening(at: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = netConnect({ host: '127.0.0.1', port: at });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    assert.ok(Date.now() - started < 10_000, `redis-server did not listen on port ${at} within 10 s`);
    await new Promise((resume) => setTimeout(resume, 50));
  }
}

before(async () => {
  assertCliBuilt();
  port = await freePort();
  folder = mkdtempSync(join(tmpdir(), 'babelq-noauth-'));
  server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--requirepass', password, '--save', '', '--appendonly', 'no', '--dir', folder], { stdio: 'ignore' });
  await listening(port);
});

after(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('redis: a server that requires a password, and none given (NOAUTH)', () => {
  test('the error says how to give one, and names no password', async () => {
    const url = `redis://127.0.0.1:${port}`;
    let caught: unknown;
    try {
      const broker = await openBroker(url, { timeoutMs: 5000 });
      await broker.close();
    } catch (error) {
      caught = error;
    }
    const error = caught as Error & { kind?: string };
    assert.ok(error instanceof Error, 'connecting without a password fails');
    assert.equal(error.kind, 'auth', error.message);
    assert.ok(error.message.includes(`${url} requires a password, and none was given`), error.message);
    assert.ok(error.message.includes('BABELQ_BROKER_PASSWORD'), error.message);
    assert.ok(error.message.includes(`after a colon before the host (:PASSWORD@127.0.0.1:${port})`), error.message);
    assert.ok(error.message.includes(`in VS Code's secret storage, when its broker URL (babelqueue.broker.url) names a user before the host (default@127.0.0.1:${port}`), error.message);
    assert.ok(!`${error.message}\n${error.stack}`.includes(password));
  });

  test('babelq peek: the hint on stderr, and the way it names works, with the password in no output', () => {
    const queue = uniqueQueue();
    const refused = babelq(['peek', '--queue', queue, '--broker', `redis://127.0.0.1:${port}`], folder);
    assert.equal(refused.status, 2, refused.stderr);
    assert.match(refused.stderr, /requires a password, and none was given/);
    assert.match(refused.stderr, /BABELQ_BROKER_PASSWORD/);
    const given = babelq(['peek', '--queue', queue, '--broker', `redis://127.0.0.1:${port}`], folder, { BABELQ_BROKER_PASSWORD: password });
    assert.equal(given.status, 0, given.stderr);
    for (const output of [refused.stdout, refused.stderr, given.stdout, given.stderr]) assert.ok(!output.includes(password));
  });

  test('with the password, a send is pushed', async () => {
    const queue = uniqueQueue();
    const broker = await openBroker(`redis://:${encodeURIComponent(password)}@127.0.0.1:${port}`, { timeoutMs: 5000 });
    try {
      const receipt = await broker.publish(outgoing(queue));
      assert.equal(receipt.length, 1);
    } finally {
      await broker.close();
    }
  });
});
