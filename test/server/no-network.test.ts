/**
 * Nothing but a broker command opens a socket: the language server (diagnostics, hovers,
 * completion, the workspace's report, the byte preview, in a trusted workspace where git runs)
 * and `babelq lint`, `preview` and `gdpr` resolve no name and connect nowhere, even when the
 * registry, its schema files and babelq.json name http(s) URLs everywhere a URL could be followed
 * (`$schema`, `$id`, `$ref`, a schema path, markdown images in descriptions). A preload records
 * every call that would open a socket; `babelq peek` is watched the same way to show the watch
 * sees the broker clients' connections.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const CLI = resolve(__dirname, '../../dist/cli.js');
const PRELOAD = resolve(__dirname, '../support/network-calls.cjs');
const workspace = scratchFolder('babelq-no-network-');

workspace.write('babelq.json', { $schema: 'https://evil.example/babelq.schema.json', severity: {} });
workspace.write('registry.json', {
  $schema: 'https://evil.example/registry.schema.json',
  schemas: [
    { urn: 'urn:babel:net:a', schema: 'schemas/a.json', owner: 'net', status: 'active' },
    { urn: 'urn:babel:net:b', schema: 'https://evil.example/b.json', owner: 'net', status: 'active' },
    { urn: 'urn:babel:net:c', schema: '//evil.example/c.json', owner: 'net', status: 'active' },
  ],
});
workspace.write('schemas/a.json', {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://evil.example/a.json',
  type: 'object',
  required: ['p'],
  properties: {
    p: { type: 'string', description: '![pixel](https://evil.example/pixel.png) <img src="https://evil.example/i.png">' },
    q: { $ref: 'https://evil.example/defs.json#/q' },
    r: { $ref: 'http://evil.example/r.json' },
    s: { type: 'string', format: 'uri', $comment: 'https://evil.example/comment' },
  },
});
const ENVELOPE = (urn: string, data: string) =>
  `{\n  "job": "${urn}",\n  "data": ${data},\n  "meta": { "id": "0b5e8a52-3d3c-4d7a-9a55-0d7a1d3c6a11", "created_at": 1700000000000, "queue": "net", "lang": "node", "schema_version": 1 },\n  "trace_id": "1b5e8a52-3d3c-4d7a-9a55-0d7a1d3c6a11",\n  "attempts": 0\n}\n`;
const FIXTURE_A = ENVELOPE('urn:babel:net:a', '{ "p": "x", "q": 1, "s": "https://evil.example/s" }');
workspace.write('a.babel.json', FIXTURE_A);
workspace.write('b.babel.json', ENVELOPE('urn:babel:net:b', '{ "$schema": "https://evil.example/data.json" }'));

/** The environment of a watched process, and what it recorded. */
function watched(name: string): { env: NodeJS.ProcessEnv; calls: () => string[] } {
  const file = join(workspace.base, `${name}.network.log`);
  rmSync(file, { force: true });
  const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${PRELOAD}`.trim(), BABELQ_NETWORK_LOG: file };
  return {
    env,
    calls: () => {
      assert.ok(existsSync(file), `the watch was loaded into ${name}`);
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      assert.ok(lines.some((line) => line.startsWith('loaded ')), `the watch was loaded into ${name}: ${lines.join('; ')}`);
      return lines.filter((line) => !line.startsWith('loaded '));
    },
  };
}

function positionOf(text: string, needle: string, within = 0): { line: number; character: number } {
  const offset = text.indexOf(needle) + within;
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

describe('no socket outside the broker commands', () => {
  test('the language server: diagnostics, hover, completion, the workspace report and the preview', async () => {
    const watch = watched('server');
    const client = new TestLspClient({ workspaceFolders: [workspace.uriOf('')], initializationOptions: { workspaceTrusted: true }, env: watch.env });
    try {
      await client.initialize();
      const fixture = workspace.uriOf('a.babel.json');
      await client.open(fixture, FIXTURE_A);
      const diagnostics = await client.pullDiagnostics(fixture);
      // The registry was loaded and the refs were met: the schema is refused for its remote $ref, not fetched.
      assert.ok(diagnostics.items.some((item: { message: string }) => /evil\.example/.test(item.message)), JSON.stringify(diagnostics.items.map((item: { message: string }) => item.message)));
      await client.request('textDocument/hover', { textDocument: { uri: fixture }, position: positionOf(FIXTURE_A, '"p"', 1) });
      await client.request('textDocument/hover', { textDocument: { uri: fixture }, position: positionOf(FIXTURE_A, 'urn:babel:net:a', 3) });
      await client.request('textDocument/completion', { textDocument: { uri: fixture }, position: positionOf(FIXTURE_A, '"p": "x", ', 10) });
      for (const path of ['registry.json', 'schemas/a.json']) {
        const uri = workspace.uriOf(path);
        await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: readFileSync(workspace.at(path), 'utf8') } });
        await client.pullDiagnostics(uri);
      }
      await client.request('workspace/diagnostic', { previousResultIds: [] });
      const preview = await client.request<{ ok: boolean }>('babelqueue/preview', { textDocument: { uri: fixture }, sdk: 'all' });
      assert.equal(preview.ok, true);
    } finally {
      await client.shutdown();
    }
    assert.deepEqual(watch.calls(), []);
  });

  test('babelq lint (one thread and two), preview and gdpr', () => {
    const runs = [
      ['lint', '.', '--concurrency', 'off'],
      ['lint', '.', '--concurrency', '2'],
      ['preview', 'a.babel.json', '--sdk', 'all'],
      ['gdpr'],
    ];
    for (const args of runs) {
      const watch = watched(args.join('-'));
      const result = spawnSync(process.execPath, [CLI, ...args], { cwd: workspace.base, encoding: 'utf8', env: watch.env, timeout: 30_000 });
      // Findings (1) and a schema it cannot read (gdpr: 2) are answers; a crash or a hang is not.
      assert.ok(result.status !== null && !/internal error/.test(result.stderr), `babelq ${args.join(' ')} ran: ${result.status} ${result.stderr}`);
      assert.deepEqual(watch.calls(), [], `babelq ${args.join(' ')}`);
    }
  });

  test('the watch sees a broker command connect (babelq peek on the local Redis)', () => {
    const watch = watched('peek');
    const result = spawnSync(process.execPath, [CLI, 'peek', '--queue', `babelq-no-network-${process.pid}`, '--broker', 'redis://127.0.0.1:6379'], { encoding: 'utf8', env: watch.env, timeout: 30_000 });
    assert.equal(result.status, 0, result.stderr);
    assert.ok(watch.calls().some((line) => line.startsWith('net.Socket.connect')), 'the connection to Redis was recorded');
  });
});
