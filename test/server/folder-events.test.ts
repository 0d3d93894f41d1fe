/**
 * A folder deleted, made or renamed told by one file event for the folder itself, as VS Code's
 * watcher tells it (it leaves out the events of what the folder held): over real JSON-RPC against
 * dist/server.js, the fixtures, registry.json and schema files below a deleted folder leave the
 * workspace's problems, pulled (VS Code) and pushed (eglot 1.9), as they do when each file's own
 * event comes, and those of a folder renamed are listed at its new place; the server registers a
 * watcher whose pattern matches a folder's path.
 */
import assert from 'node:assert/strict';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { EGLOT_1_9 } from '../support/editor-capabilities';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const ROOT = resolve(__dirname, '..', '..');
const BROKEN = readFileSync(join(ROOT, 'examples/bad/contract.babel.json'), 'utf8');
/** A registry whose entry names a schema file that is not there: a registry-error in registry.json. */
const REGISTRY_MISSING_SCHEMA = JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/missing.json', owner: 'orders', status: 'active' }] }, null, 2);
const CREATED = 1;
const DELETED = 3;
/** WatchKind.Create and WatchKind.Delete. */
const CREATE_KIND = 1;
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
      // VS Code reports a folder deleted or made only to a watcher whose pattern matches the folder's path.
      const before = await listed();
      const watchers = client.registrations.filter((registration) => registration.method === 'workspace/didChangeWatchedFiles').flatMap((registration) => registration.registerOptions.watchers);
      assert.ok(watchers.some((watcher) => watcher.globPattern === '**/*' && ((watcher.kind ?? 7) & (CREATE_KIND | DELETE_KIND)) === (CREATE_KIND | DELETE_KIND)), JSON.stringify(watchers));
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

  for (const pull of [true, false]) {
    test(`${pull ? 'pulled' : 'pushed (eglot 1.9)'}: a folder moved into the workspace, then renamed, has its fixtures listed at its place, with the registry.json it holds`, async () => {
      const { uriOf, at } = project(`babelq-moved-folder-${pull ? 'pull' : 'push'}-`);
      // A folder kept outside the workspace until it is moved in, with a fixture and a registry of its own.
      const elsewhere = scratchFolder('babelq-moved-folder-from-');
      elsewhere.write('crew/registry.json', REGISTRY_MISSING_SCHEMA);
      elsewhere.write('crew/c.babel.json', BROKEN);
      const client = pull ? new TestLspClient({ workspaceFolders: [uriOf('')], watchesFiles: true }) : new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
      /** The files listed with findings, each with its codes. */
      const listed = async (): Promise<Record<string, string>> => {
        if (pull) {
          const report = await client.request('workspace/diagnostic', { previousResultIds: [] });
          return Object.fromEntries(report.items.filter((item: any) => item.items.length > 0).map((item: any) => [item.uri, item.items.map((d: any) => d.code).sort().join(',')]));
        }
        await client.waitForQuiet(500);
        const last = new Map<string, string>();
        for (const published of client.published) last.set(published.uri, published.diagnostics.map((d: any) => String(d.code)).sort().join(','));
        return Object.fromEntries([...last].filter(([, codes]) => codes !== ''));
      };
      try {
        await client.initialize();
        if (!pull) await client.waitForPublished(() => client.published.some((published) => published.uri === uriOf('team/a.babel.json')));
        const before = await listed();
        assert.equal(before[uriOf('team/registry.json')], 'registry-error', JSON.stringify(before));
        renameSync(elsewhere.at('crew'), at('crew'));
        await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('crew'), type: CREATED }] });
        await wait(800);
        const moved = await listed();
        assert.equal(moved[uriOf('crew/c.babel.json')], before[uriOf('team/a.babel.json')], JSON.stringify(moved));
        assert.equal(moved[uriOf('crew/registry.json')], 'registry-error');
        renameSync(at('team'), at('squad'));
        await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('team'), type: DELETED }, { uri: uriOf('squad'), type: CREATED }] });
        await wait(800);
        const after = await listed();
        assert.deepEqual(Object.keys(after).sort(), [uriOf('crew/c.babel.json'), uriOf('crew/registry.json'), uriOf('squad/a.babel.json'), uriOf('squad/deep/b.babel.json'), uriOf('squad/registry.json'), uriOf('top.babel.json')].sort());
        assert.equal(after[uriOf('squad/a.babel.json')], before[uriOf('team/a.babel.json')]);
        // The registry.json that moved is the one its fixtures use, with its problem.
        assert.equal(after[uriOf('squad/registry.json')], 'registry-error');
      } finally {
        client.kill();
      }
    });
  }
});
