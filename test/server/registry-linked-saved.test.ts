/**
 * A registry.json or schema file reached through a symbolic link, in a client that watches files
 * (VS Code; eglot, which watches only what git lists): the registry reads it through the link,
 * from disk, unless the editor holds it by the link's path. So when the file the link leads to is
 * edited and saved, the save counts once: its file event, which names that file, not the link, is
 * matched with the look at the disk that took the change in; and a folder the client does not
 * watch is looked at on each save, whatever folder holds the link.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, type TestContext } from 'node:test';
import { TestLspClient } from '../support/lsp-client';

const ROOT = resolve(__dirname, '..', '..');
const ORDER = readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8');
const OBJECTS = '{ "type": "object" }\n';
const ARRAYS = '{ "type": "array" }\n';
const registryNaming = (urn: string) => `${JSON.stringify({ schemas: [{ urn, schema: 'schemas/order.json', owner: 'orders', status: 'active' }] }, null, 2)}\n`;

interface LinkedWorkspace {
  readonly root: string;
  readonly client: TestLspClient;
  /** The codes of pkg/order.babel.json in the workspace's report. */
  codes(): Promise<string[]>;
  /** Waits until the report's codes for pkg/order.babel.json pass `check` (10 s at most). */
  until(what: string, check: (codes: string[]) => boolean): Promise<void>;
  /** How many times a registry was loaded, as the server's log says. */
  loads(): number;
}

/**
 * A workspace laid out by `lay` (pkg/order.babel.json is written for it), made well before the
 * client registers its watchers, so the server leaves its folders to the client's events and looks
 * at none of their files at a save (server/file-watch-coverage.ts); the client started.
 */
async function linkedWorkspace(t: TestContext, prefix: string, lay: (root: string) => void): Promise<LinkedWorkspace> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(root, 'pkg'));
  lay(root);
  writeFileSync(join(root, 'pkg', 'order.babel.json'), ORDER);
  await pause(200);
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], watchesFiles: true });
  t.after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });
  await client.initialize();
  const fixtureUri = pathToFileURL(join(root, 'pkg', 'order.babel.json')).href;
  const codes = async () => {
    const { items } = await client.request<{ items: { uri: string; items?: { code?: string }[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
    const item = items.find((candidate) => candidate.uri === fixtureUri);
    assert.ok(item, 'the report lists pkg/order.babel.json');
    return (item.items ?? []).map((diagnostic) => String(diagnostic.code)).sort();
  };
  const until = async (what: string, check: (codes: string[]) => boolean) => {
    const started = Date.now();
    let last = await codes();
    while (!check(last)) {
      assert.ok(Date.now() - started < 10_000, `${what}: still ${JSON.stringify(last)} after 10 s`);
      await pause(50);
      last = await codes();
    }
  };
  const loads = () => client.logs.filter((line) => /^BabelQueue registry .* (loaded|cannot be used)/.test(line)).length;
  return { root, client, codes, until, loads };
}

const pause = (ms: number) => new Promise((resume) => setTimeout(resume, ms));
const changedOnDisk = (client: TestLspClient, path: string) => client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(path).href, type: 2 }] });

/** shared/registry.json naming urn:babel:orders:placed and shared/schemas/order.json; pkg/schemas links shared/schemas. */
function sharedSchemas(root: string): void {
  mkdirSync(join(root, 'shared', 'schemas'), { recursive: true });
  writeFileSync(join(root, 'shared', 'schemas', 'order.json'), OBJECTS);
  symlinkSync(join('..', 'shared', 'schemas'), join(root, 'pkg', 'schemas'));
}

test('a registry.json that is a link, whose target is open, edited and saved in the editor: its fixtures follow the save', async (t) => {
  const { root, client, codes, until } = await linkedWorkspace(t, 'babelq-linked-registry-saved-', (root) => {
    sharedSchemas(root);
    writeFileSync(join(root, 'shared', 'registry.json'), registryNaming('urn:babel:orders:placed'));
    symlinkSync(join('..', 'shared', 'registry.json'), join(root, 'pkg', 'registry.json'));
  });
  assert.ok((await codes()).includes('unknown-urn'), 'urn:babel:orders:created is not registered yet');
  // The file the link leads to is opened, edited, saved: the disk holds the edit, and the
  // editor's watcher names the file it changed (it follows no link).
  const target = join(root, 'shared', 'registry.json');
  const targetUri = pathToFileURL(target).href;
  await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: targetUri, languageId: 'json', version: 1, text: registryNaming('urn:babel:orders:placed') } });
  await client.change(targetUri, registryNaming('urn:babel:orders:created'), 2);
  // Read through the link from disk: the unsaved edit is not what the link leads to yet.
  assert.ok((await codes()).includes('unknown-urn'), 'checked against the registry on disk before the save');
  writeFileSync(target, registryNaming('urn:babel:orders:created'));
  await client.save(targetUri);
  await changedOnDisk(client, target);
  await until('checked against the saved registry', (codes) => codes.length === 0);
});

test('a schema reached through a linked folder, whose target is open and saved: the save is read once, not again for its file event', async (t) => {
  const { root, client, until, loads } = await linkedWorkspace(t, 'babelq-linked-schema-saved-', (root) => {
    sharedSchemas(root);
    writeFileSync(join(root, 'pkg', 'registry.json'), registryNaming('urn:babel:orders:created'));
  });
  await until('a valid fixture', (codes) => codes.length === 0);
  const target = join(root, 'shared', 'schemas', 'order.json');
  const targetUri = pathToFileURL(target).href;
  await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: targetUri, languageId: 'json', version: 1, text: OBJECTS } });
  // The open's look at the disk is over before the user types.
  await pause(300);
  await client.change(targetUri, ARRAYS, 2);
  writeFileSync(target, ARRAYS);
  await client.save(targetUri);
  // The save's look at the disk finds the schema changed through the link, and the registry is loaded again.
  await until('checked against the saved schema', (codes) => codes.length > 0);
  const loadsAfterTheSave = loads();
  // The editor's watcher names the file it changed, after the save.
  await changedOnDisk(client, target);
  await pause(500);
  await until('still checked against the saved schema', (codes) => codes.length > 0);
  assert.equal(loads(), loadsAfterTheSave, 'the registry is not loaded again for a change already read');
});

test('a schema opened by its path through a linked folder, edited and saved: the registry reads the editor\'s text, and the save\'s file event for the file the link leads to loads nothing again', async (t) => {
  const { root, client, codes, until, loads } = await linkedWorkspace(t, 'babelq-linked-schema-held-', (root) => {
    sharedSchemas(root);
    writeFileSync(join(root, 'pkg', 'registry.json'), registryNaming('urn:babel:orders:created'));
  });
  await until('a valid fixture', (codes) => codes.length === 0);
  const target = join(root, 'shared', 'schemas', 'order.json');
  const linkUri = pathToFileURL(join(root, 'pkg', 'schemas', 'order.json')).href;
  await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: linkUri, languageId: 'json', version: 1, text: OBJECTS } });
  await pause(300);
  await client.change(linkUri, ARRAYS, 2);
  assert.ok((await codes()).length > 0, 'checked against the edited schema');
  writeFileSync(target, ARRAYS);
  await client.save(linkUri);
  await pause(500);
  await until('checked against the saved schema', (codes) => codes.length > 0);
  const loadsAfterTheSave = loads();
  // The editor's watcher names the file it changed, which the link leads to.
  await changedOnDisk(client, target);
  await pause(500);
  await until('still checked against the saved schema', (codes) => codes.length > 0);
  assert.equal(loads(), loadsAfterTheSave, 'the registry read the saved text from the editor already');
});

test('a registry.json that is a link into a git-ignored folder, in a client that watches only what git lists (eglot): a rewrite of the file it leads to is found at the next save', async (t) => {
  const { root, client, codes, until } = await linkedWorkspace(t, 'babelq-linked-registry-ignored-', (root) => {
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.gitignore'), 'generated/\n');
    mkdirSync(join(root, 'generated', 'schemas'), { recursive: true });
    writeFileSync(join(root, 'generated', 'schemas', 'order.json'), OBJECTS);
    writeFileSync(join(root, 'generated', 'registry.json'), registryNaming('urn:babel:orders:placed'));
    // pkg/ holds a file git lists: its watcher is registered, and a change of the link's own entry would be heard there.
    symlinkSync(join('..', 'generated', 'registry.json'), join(root, 'pkg', 'registry.json'));
    symlinkSync(join('..', 'generated', 'schemas'), join(root, 'pkg', 'schemas'));
  });
  assert.ok((await codes()).includes('unknown-urn'), 'urn:babel:orders:created is not registered yet');
  const fixtureUri = pathToFileURL(join(root, 'pkg', 'order.babel.json')).href;
  await client.open(fixtureUri, ORDER);
  await pause(300);
  // A build rewrites the ignored folder; the client watches no folder git ignores, so no event comes.
  writeFileSync(join(root, 'generated', 'registry.json'), registryNaming('urn:babel:orders:created'));
  await client.save(fixtureUri);
  await until('checked against the rewritten registry', (codes) => !codes.includes('unknown-urn'));
});
