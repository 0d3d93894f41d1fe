/**
 * `babelq lsp` and the bins as the package ships them: the CLI bundle starts the server bundle
 * beside it over stdio, the language-server bin defaults to stdio, usage errors say what to write,
 * and a bin without dist/ says to build instead of printing a stack.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
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
