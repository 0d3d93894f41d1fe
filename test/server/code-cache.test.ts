/**
 * The language server as the extension starts it keeps V8's code cache of its bundle in the folder
 * it is given (server/start.ts, client/server-process.ts): the first start writes it, a later one
 * uses it and leaves it as it is, and both answer the same. Without a folder nothing is written.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { serverEnvironment } from '../../client/server-process';
import { CODE_CACHE_DIR_VARIABLE } from '../../core/language/protocol';
import { buildIdOf, cacheFileName } from '../../workspace/code-cache';
import { TestLspClient } from '../support/lsp-client';

const ROOT = resolve(__dirname, '../..');
const folder = mkdtempSync(join(tmpdir(), 'babelq-server-cache-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const TINY = JSON.stringify({ job: 'urn:babel:orders:created', trace_id: '5d062cd5-5664-4f40-a41b-90f3630a5c30', data: {}, meta: {} });

/** Starts the built server with `env`, has one fixture's diagnostics, and shuts it down; returns their codes. */
async function oneSession(env: NodeJS.ProcessEnv): Promise<string[]> {
  const client = new TestLspClient({ env });
  let codes: string[];
  try {
    const initialized = await client.initialize();
    assert.equal(initialized.serverInfo?.name, 'babelqueue-language-server');
    const uri = `file://${join(folder, 'tiny.babel.json')}`;
    await client.open(uri, TINY);
    const report = await client.pullDiagnostics(uri);
    codes = report.items.map((item: { code: string }) => item.code).sort();
  } catch (error) {
    // The session's own failure is the one to report; the server is stopped all the same.
    await client.shutdown().catch(() => undefined);
    throw error;
  }
  // The cache is written at exit: the server must end cleanly for it.
  assert.equal(await client.shutdown(), 0);
  return codes;
}

test('the server writes its code cache into the folder it is given, then uses it and leaves it alone', async () => {
  const cacheFolder = join(folder, 'storage', 'code-cache');
  const env = serverEnvironment(process.env, cacheFolder);
  assert.equal(env[CODE_CACHE_DIR_VARIABLE], cacheFolder);

  const first = await oneSession(env);
  assert.ok(first.length > 0, 'the fixture has findings');
  const cacheName = cacheFileName('server-main', buildIdOf(readFileSync(join(ROOT, 'dist/server-main.js'), 'utf8'))!);
  const cacheFile = join(cacheFolder, cacheName);
  const made = readFileSync(cacheFile);
  assert.equal(made.toString('latin1', 0, 40), buildIdOf(readFileSync(join(ROOT, 'dist/server-main.js'), 'utf8')));
  const madeAt = statSync(cacheFile).mtimeMs;

  assert.deepEqual(await oneSession(env), first);
  assert.deepEqual(readFileSync(cacheFile), made);
  assert.equal(statSync(cacheFile).mtimeMs, madeAt);
  assert.deepEqual(readdirSync(cacheFolder), [cacheName]);
});

test('started without a folder (another editor, babelq lsp), the server writes no cache', async () => {
  const env = serverEnvironment({ ...process.env, [CODE_CACHE_DIR_VARIABLE]: undefined });
  assert.equal(env[CODE_CACHE_DIR_VARIABLE], undefined);
  const before = readdirSync(folder);
  assert.ok((await oneSession(env)).length > 0);
  assert.deepEqual(readdirSync(folder), before);
});

test('a relative folder is ignored: it would name one inside the project the editor runs the server in', async () => {
  const relative = `babelq-relative-cache-${process.pid}`;
  const env = serverEnvironment(process.env, relative);
  assert.ok((await oneSession(env)).length > 0);
  // The test's server runs in this process's working folder.
  assert.equal(existsSync(join(process.cwd(), relative)), false);
});
