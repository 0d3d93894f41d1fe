/**
 * A fixture reached through a symbolic link, in the workspace's report of a client that watches
 * files: when the file it leads to changes, the event names that file, not the link (and none
 * comes for a file not named *.babel.json, which the server does not watch), yet the link's
 * findings follow it, as `babelq lint` lints it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';

const ROOT = resolve(__dirname, '..', '..');
const ORDER = readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8');
const BROKEN = readFileSync(join(ROOT, 'examples/bad/contract.babel.json'), 'utf8');

test('a link follows its target: the link\'s findings are brought up to date with the file it leads to', { skip: process.platform === 'win32' && 'needs symbolic links' }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-linked-changed-'));
  mkdirSync(join(root, 'v3'));
  mkdirSync(join(root, 'fixtures'));
  writeFileSync(join(root, 'v3', 'order.babel.json'), ORDER);
  symlinkSync(join('..', 'v3', 'order.babel.json'), join(root, 'fixtures', 'current.babel.json'));
  writeFileSync(join(root, 'v3', 'plain.json'), ORDER);
  symlinkSync(join('..', 'v3', 'plain.json'), join(root, 'fixtures', 'plain.babel.json'));
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], watchesFiles: true });
  try {
    await client.initialize();
    const codes = async (path: string) => {
      const { items } = await client.request<{ items: { uri: string; items?: { code?: string }[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
      const item = items.find((candidate) => candidate.uri === pathToFileURL(join(root, path)).href);
      assert.ok(item, `the report lists ${path}`);
      return (item.items ?? []).map((diagnostic) => diagnostic.code).sort();
    };
    assert.deepEqual(await codes('fixtures/current.babel.json'), []);
    assert.deepEqual(await codes('fixtures/plain.babel.json'), []);
    writeFileSync(join(root, 'v3', 'order.babel.json'), BROKEN);
    writeFileSync(join(root, 'v3', 'plain.json'), BROKEN);
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(root, 'v3', 'order.babel.json')).href, type: 2 }] });
    const target = await codes('v3/order.babel.json');
    assert.ok(target.includes('invalid-urn'), JSON.stringify(target));
    assert.deepEqual(await codes('fixtures/current.babel.json'), target, 'the link shows what its target holds now');
    assert.deepEqual(await codes('fixtures/plain.babel.json'), target, 'with no event at all');
  } finally {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  }
});
