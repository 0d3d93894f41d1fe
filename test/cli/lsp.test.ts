/**
 * `babelq lsp` and the bins as the package ships them: the CLI bundle starts the server bundle
 * beside it over stdio, the language-server bin defaults to stdio and connects to an editor's
 * socket or pipe, usage errors and an editor that cannot be reached say what is wrong, and a bin
 * without dist/ says to build instead of printing a stack.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import { babelq } from './helpers';
import { TestLspClient } from '../support/lsp-client';

const ROOT = resolve(__dirname, '../..');

for (const [name, command] of [
  ['babelq lsp --stdio (dist/cli.js)', [join(ROOT, 'dist/cli.js'), 'lsp', '--stdio']],
  ['babelq lsp (stdio by default)', [join(ROOT, 'bin/babelq.js'), 'lsp']],
  ['babelq-language-server (stdio by default)', [join(ROOT, 'bin/babelq-language-server.js')]],
] as const) {
  test(`${name} answers initialize and diagnostics, and exits on exit`, async () => {
    const client = new TestLspClient({ command });
    const result = await client.initialize();
    assert.equal(result.serverInfo.name, 'babelqueue-language-server');
    assert.deepEqual(result.capabilities.executeCommandProvider, { commands: ['babelqueue.preview'] });
    const uri = 'file:///nowhere/a.babel.json';
    await client.open(uri, '{"job": "urn:babel:orders:created", "timestamp": 1}');
    const report = await client.pullDiagnostics(uri);
    assert.ok(report.items.some((item) => item.code === 'forbidden-key'));
    assert.equal(await client.shutdown(), 0);
    assert.equal(client.stderr.join(''), '');
  });
}

test('babelq lsp refuses other arguments and explains itself', () => {
  const bad = babelq(['lsp', '--socket=1'], ROOT);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /lsp takes --stdio or --node-ipc, not '--socket=1'\nRun 'babelq lsp --help'/);
  assert.match(babelq(['lsp', '--stdio', '--node-ipc'], ROOT).stderr, /one transport/);
  assert.match(babelq(['lsp', '--help'], ROOT).stdout, /^Usage: babelq lsp \[--stdio \| --node-ipc\]/);
  assert.match(babelq(['--help'], ROOT).stdout, /lsp \[--stdio\|--node-ipc\]\s+run the language server/);
});

test('babelq-language-server --help and --version answer and end instead of starting the server', () => {
  const bin = join(ROOT, 'bin/babelq-language-server.js');
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['--help', '-h']) {
    // Standard input left open: a server started instead would wait on it until the timeout.
    const run = spawnSync(process.execPath, [bin, flag], { encoding: 'utf8', timeout: 10_000, stdio: ['pipe', 'pipe', 'pipe'] });
    assert.equal(run.error, undefined, `${flag} did not end`);
    assert.equal(run.status, 0, flag);
    assert.match(run.stdout, /^Usage: babelq-language-server \[--stdio \| --node-ipc \| --socket=<port> \| --pipe=<name>\]\n/, flag);
  }
  for (const flag of ['--version', '-v']) {
    const run = spawnSync(process.execPath, [bin, flag], { encoding: 'utf8', timeout: 10_000, stdio: ['pipe', 'pipe', 'pipe'] });
    assert.equal(run.status, 0, flag);
    assert.equal(run.stdout, `${version}\n`, flag);
  }
});

test('--node-ipc without an IPC channel is a usage error, not a crash', () => {
  const run = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'lsp', '--node-ipc'], { encoding: 'utf8', timeout: 10_000 });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--node-ipc needs a parent process/);
});

test('a bin without dist/ says to run npm run build', () => {
  const clone = mkdtempSync(join(tmpdir(), 'babelq-bin-'));
  try {
    cpSync(join(ROOT, 'bin'), join(clone, 'bin'), { recursive: true });
    for (const bin of ['babelq.js', 'babelq-language-server.js']) {
      const run = spawnSync(process.execPath, [join(clone, 'bin', bin), 'lint', '.'], { encoding: 'utf8', timeout: 10_000 });
      assert.equal(run.status, 2, bin);
      assert.match(run.stderr, /dist\/(cli|server)\.js is missing: run `npm run build` in /, bin);
      assert.doesNotMatch(run.stderr, /at Module|Error:/, bin);
    }
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
});

const LANGUAGE_SERVER_BIN = join(ROOT, 'bin/babelq-language-server.js');

/**
 * An editor that listens (on a TCP port or a Unix socket path) for the server it starts with
 * `args(address)`: the server connects, answers initialize, and exits 0 after shutdown and exit.
 */
async function serveOver(listen: string | 0, args: (address: string | number) => string[]): Promise<void> {
  const editor = createServer();
  editor.listen(listen === 0 ? { port: 0, host: '127.0.0.1' } : { path: listen });
  await once(editor, 'listening');
  const address = listen === 0 ? (editor.address() as AddressInfo).port : listen;
  const server = spawn(process.execPath, [LANGUAGE_SERVER_BIN, ...args(address)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(server, 'exit') as Promise<[number | null]>;
  try {
    const [socket] = (await Promise.race([once(editor, 'connection'), exited.then(() => assert.fail(`the server exited without connecting: ${stderr}`))])) as [Socket];
    const connection = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
    connection.listen();
    const result = (await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} })) as { serverInfo: { name: string } };
    assert.equal(result.serverInfo.name, 'babelqueue-language-server');
    connection.sendNotification('initialized', {});
    await connection.sendRequest('shutdown');
    connection.sendNotification('exit');
    const [code] = await exited;
    assert.equal(code, 0, stderr);
    connection.dispose();
  } finally {
    server.kill();
    editor.close();
  }
}

test('babelq-language-server connects to the socket or pipe an editor listens on (one argument or two)', async () => {
  await serveOver(0, (port) => [`--socket=${port}`]);
  await serveOver(0, (port) => ['--socket', String(port), `--clientProcessId=${process.pid}`]);
  const folder = mkdtempSync(join(tmpdir(), 'babelq-pipe-'));
  try {
    await serveOver(join(folder, 'editor.sock'), (path) => [`--pipe=${path}`]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('babelq-language-server refuses a transport it cannot use with one sentence, and says when the editor cannot be reached', async () => {
  for (const [args, message] of [
    [['--socket=abc'], /^babelq-language-server: --socket needs the port the editor listens on, a number from 1 to 65535, not 'abc'\n$/],
    [['--socket='], /--socket needs the port/],
    [['--pipe='], /^babelq-language-server: --pipe needs the name of the editor's pipe\n$/],
    [['--bogus'], /^babelq-language-server: unknown option '--bogus': the server takes one of --stdio, --node-ipc, --socket=<port> or --pipe=<name>\n$/],
    [['--stdio', '--socket=5007'], /one transport at a time/],
  ] as const) {
    const run = spawnSync(process.execPath, [LANGUAGE_SERVER_BIN, ...args], { encoding: 'utf8', timeout: 10_000, stdio: ['pipe', 'pipe', 'pipe'] });
    assert.equal(run.status, 2, args.join(' '));
    assert.match(run.stderr, message, args.join(' '));
    assert.equal(run.stdout, '', args.join(' '));
  }
  // A port nobody listens on: taken from a listener closed again before the server starts.
  const probe = createServer().listen({ port: 0, host: '127.0.0.1' });
  await once(probe, 'listening');
  const port = (probe.address() as AddressInfo).port;
  await new Promise((done) => probe.close(done));
  const folder = mkdtempSync(join(tmpdir(), 'babelq-pipe-'));
  try {
    for (const [args, message] of [
      [[`--socket=${port}`], new RegExp(`^babelq-language-server: cannot connect to the editor's socket on 127\\.0\\.0\\.1:${port}: connect ECONNREFUSED`)],
      [[`--pipe=${join(folder, 'nobody.sock')}`], /^babelq-language-server: cannot connect to the editor's pipe .*nobody\.sock: connect ENOENT/],
    ] as const) {
      const run = spawnSync(process.execPath, [LANGUAGE_SERVER_BIN, ...args], { encoding: 'utf8', timeout: 10_000, stdio: ['pipe', 'pipe', 'pipe'] });
      assert.equal(run.status, 1, args.join(' '));
      assert.match(run.stderr, message, args.join(' '));
      assert.doesNotMatch(run.stderr, /at |Error:/, args.join(' '));
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
