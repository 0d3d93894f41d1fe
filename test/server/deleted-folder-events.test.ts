/**
 * A folder deleted (or renamed away) told by one file event for the folder itself, as VS Code's
 * watcher tells it (it leaves out the events of what the folder held): over real JSON-RPC against
 * dist/server.js, the fixtures, registry.json and schema files below it leave the workspace's
 * problems, pulled (VS Code) and pushed (eglot 1.9), as they do when each file's own event comes;
 * the server registers a watcher of deletions whose pattern matches a folder's path.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { EGLOT_1_9 } from '../support/editor-capabilities';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const ROOT = resolve(__dirname, '..', '..');
const BROKEN = readFileSync(join(ROOT, 'examples/bad/contract.babel.json'), 'utf8');
/** A registry whose entry names a schema file that is not there: a registry-error in registry.json. */
const REGISTRY_MISSING_SCHEMA = JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/missing.json', owner: 'orders', status: 'active' }] }, null, 2);
const DELETED = 3;
/** WatchKind.Delete. */
const DELETE_KIND = 4;

/** A Git work tree with a broken fixture at its top, and a folder `team/` holding a broken registry and two broken fixtures. */
function project(prefix: string) {
  const folder = scratchFolder(prefix);
  folder.write('.git/HEAD', 'ref: refs/heads/main\n');
  folder.write('top.babel.json', BROKEN);
  folder.write('team/registry.json', REGISTRY_MISSING_SCHEMA);
  folder.write('team/a.babel.json', BROKEN);
  folder.write('team/deep/b.babel.json', BROKEN);
  return folder;
}

const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('a deleted folder told by its own file event', () => {
  test('pulled: the fixtures and the registry.json it held leave the workspace\'s problems', async () => {
    const { uriOf, at } = project('babelq-deleted-folder-pull-');
    const client = new TestLspClient({ workspaceFolders: [uriOf('')], watchesFiles: true });
    const listed = async () => {
      const report = await client.request('workspace/diagnostic', { previousResultIds: [] });
      return Object.fromEntries(report.items.filter((item: any) => item.items.length > 0).map((item: any) => [item.uri, item.items.length]));
    };
    try {
      await client.initialize();
      // VS Code reports a deleted folder only to a watcher whose pattern matches the folder's path.
      const before = await listed();
      const watchers = client.registrations.filter((registration) => registration.method === 'workspace/didChangeWatchedFiles').flatMap((registration) => registration.registerOptions.watchers);
      assert.ok(watchers.some((watcher) => watcher.globPattern === '**/*' && ((watcher.kind ?? 7) & DELETE_KIND) !== 0), JSON.stringify(watchers));
      for (const path of ['top.babel.json', 'team/registry.json', 'team/a.babel.json', 'team/deep/b.babel.json']) assert.ok(before[uriOf(path)] > 0, `${path} in ${JSON.stringify(before)}`);
      rmSync(at('team'), { recursive: true });
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('team'), type: DELETED }] });
      await wait(600);
      assert.deepEqual(Object.keys(await listed()), [uriOf('top.babel.json')]);
      assert.deepEqual(client.logs.filter((line) => /does not exist/.test(line)), []);
    } finally {
      client.kill();
    }
  });

  test('pushed (eglot 1.9): the fixtures and the registry.json it held get empty lists', async () => {
    const { uriOf, at } = project('babelq-deleted-folder-push-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
    const last = (path: string) => client.published.filter((p) => p.uri === uriOf(path)).at(-1)?.diagnostics.length;
    const gone = ['team/registry.json', 'team/a.babel.json', 'team/deep/b.babel.json'];
    try {
      await client.initialize();
      await client.waitForPublished(() => [...gone, 'top.babel.json'].every((path) => (last(path) ?? 0) > 0));
      rmSync(at('team'), { recursive: true });
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('team'), type: DELETED }] });
      await client.waitForPublished(() => gone.every((path) => last(path) === 0)).catch(() => undefined);
      assert.deepEqual(gone.map(last), [0, 0, 0]);
      assert.ok((last('top.babel.json') ?? 0) > 0);
    } finally {
      client.kill();
    }
  });
});
