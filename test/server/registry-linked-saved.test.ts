/**
 * A registry.json reached through a symbolic link, in a client that watches files (VS Code): the
 * registry reads it through the link, from disk, not from the editor that holds the file it leads
 * to. So when that file is edited and saved, the save's file event counts (for a file read from the
 * editor's text it would change nothing), and the fixtures below the link are checked against what
 * was saved.
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
const registryNaming = (urn: string) => `${JSON.stringify({ schemas: [{ urn, schema: 'schemas/order.json', owner: 'orders', status: 'active' }] }, null, 2)}\n`;

test('a registry.json that is a link, whose target is open, edited and saved in the editor: its fixtures follow the save', async () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-linked-registry-saved-'));
  mkdirSync(join(root, 'shared', 'schemas'), { recursive: true });
  mkdirSync(join(root, 'pkg'));
  writeFileSync(join(root, 'shared', 'schemas', 'order.json'), '{ "type": "object" }\n');
  const target = join(root, 'shared', 'registry.json');
  writeFileSync(target, registryNaming('urn:babel:orders:placed'));
  symlinkSync(join('..', 'shared', 'registry.json'), join(root, 'pkg', 'registry.json'));
  // The link's folder holds the schema the link's registry names, as its own folder would.
  symlinkSync(join('..', 'shared', 'schemas'), join(root, 'pkg', 'schemas'));
  writeFileSync(join(root, 'pkg', 'order.babel.json'), ORDER);
  // Made well before the editor registers its watchers, so the server leaves these folders to its
  // events and looks at none of their files at a save (server/file-watch-coverage.ts).
  await new Promise((resolve) => setTimeout(resolve, 200));
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], watchesFiles: true });
  try {
    await client.initialize();
    const codes = async () => {
      const { items } = await client.request<{ items: { uri: string; items?: { code?: string }[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
      const item = items.find((candidate) => candidate.uri === pathToFileURL(join(root, 'pkg', 'order.babel.json')).href);
      assert.ok(item, 'the report lists pkg/order.babel.json');
      return (item.items ?? []).map((diagnostic) => diagnostic.code).sort();
    };
    assert.ok((await codes()).includes('unknown-urn'), 'urn:babel:orders:created is not registered yet');

    // The file the link leads to is opened, edited, saved: the disk holds the edit, and the
    // editor's watcher names the file it changed (it follows no link).
    const targetUri = pathToFileURL(target).href;
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: targetUri, languageId: 'json', version: 1, text: registryNaming('urn:babel:orders:placed') } });
    await client.change(targetUri, registryNaming('urn:babel:orders:created'), 2);
    // Read through the link from disk: the unsaved edit is not what the link leads to yet.
    assert.ok((await codes()).includes('unknown-urn'), 'checked against the registry on disk before the save');
    writeFileSync(target, registryNaming('urn:babel:orders:created'));
    await client.save(targetUri);
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: targetUri, type: 2 }] });
    assert.deepEqual(await codes(), [], 'checked against the saved registry');
  } finally {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a schema reached through a linked folder, whose target is open and saved: the save is read once, not again for its file event', async () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-linked-schema-saved-'));
  mkdirSync(join(root, 'shared', 'schemas'), { recursive: true });
  mkdirSync(join(root, 'pkg'));
  const target = join(root, 'shared', 'schemas', 'order.json');
  writeFileSync(target, '{ "type": "object" }\n');
  writeFileSync(join(root, 'pkg', 'registry.json'), registryNaming('urn:babel:orders:created'));
  symlinkSync(join('..', 'shared', 'schemas'), join(root, 'pkg', 'schemas'));
  writeFileSync(join(root, 'pkg', 'order.babel.json'), ORDER);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], watchesFiles: true });
  const loads = () => client.logs.filter((line) => /^BabelQueue registry .* (loaded|cannot be used)/.test(line)).length;
  try {
    await client.initialize();
    const codes = async () => {
      const { items } = await client.request<{ items: { uri: string; items?: { code?: string }[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
      const item = items.find((candidate) => candidate.uri === pathToFileURL(join(root, 'pkg', 'order.babel.json')).href);
      assert.ok(item, 'the report lists pkg/order.babel.json');
      return (item.items ?? []).map((diagnostic) => diagnostic.code).sort();
    };
    assert.deepEqual(await codes(), []);
    const targetUri = pathToFileURL(target).href;
    const arrays = '{ "type": "array" }\n';
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: targetUri, languageId: 'json', version: 1, text: '{ "type": "object" }\n' } });
    // The open's look at the disk is over before the user types.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.change(targetUri, arrays, 2);
    writeFileSync(target, arrays);
    await client.save(targetUri);
    // The save's look at the disk finds the schema changed through the link, and the registry is loaded again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok((await codes()).length > 0, 'checked against the saved schema');
    const loadsAfterTheSave = loads();
    // The editor's watcher names the file it changed, after the save.
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: targetUri, type: 2 }] });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok((await codes()).length > 0);
    assert.equal(loads(), loadsAfterTheSave, 'the registry is not loaded again for a change already read');
  } finally {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a schema opened by its path through a linked folder, edited and saved: the registry reads the editor\'s text, and the save\'s file event for the file the link leads to loads nothing again', async () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-linked-schema-held-'));
  mkdirSync(join(root, 'shared', 'schemas'), { recursive: true });
  mkdirSync(join(root, 'pkg'));
  const target = join(root, 'shared', 'schemas', 'order.json');
  writeFileSync(target, '{ "type": "object" }\n');
  writeFileSync(join(root, 'pkg', 'registry.json'), registryNaming('urn:babel:orders:created'));
  symlinkSync(join('..', 'shared', 'schemas'), join(root, 'pkg', 'schemas'));
  writeFileSync(join(root, 'pkg', 'order.babel.json'), ORDER);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], watchesFiles: true });
  const loads = () => client.logs.filter((line) => /^BabelQueue registry .* (loaded|cannot be used)/.test(line)).length;
  try {
    await client.initialize();
    const codes = async () => {
      const { items } = await client.request<{ items: { uri: string; items?: { code?: string }[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
      const item = items.find((candidate) => candidate.uri === pathToFileURL(join(root, 'pkg', 'order.babel.json')).href);
      assert.ok(item, 'the report lists pkg/order.babel.json');
      return (item.items ?? []).map((diagnostic) => diagnostic.code).sort();
    };
    assert.deepEqual(await codes(), []);
    const linkUri = pathToFileURL(join(root, 'pkg', 'schemas', 'order.json')).href;
    const arrays = '{ "type": "array" }\n';
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: linkUri, languageId: 'json', version: 1, text: '{ "type": "object" }\n' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.change(linkUri, arrays, 2);
    assert.ok((await codes()).length > 0, 'checked against the edited schema');
    writeFileSync(target, arrays);
    await client.save(linkUri);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok((await codes()).length > 0);
    const loadsAfterTheSave = loads();
    // The editor's watcher names the file it changed, which the link leads to.
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(target).href, type: 2 }] });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok((await codes()).length > 0);
    assert.equal(loads(), loadsAfterTheSave, 'the registry read the saved text from the editor already');
  } finally {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a registry.json that is a link into a git-ignored folder, in a client that watches only what git lists (eglot): a rewrite of the file it leads to is found at the next save', async () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-linked-registry-ignored-'));
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.gitignore'), 'generated/\n');
  mkdirSync(join(root, 'generated', 'schemas'), { recursive: true });
  mkdirSync(join(root, 'pkg'));
  writeFileSync(join(root, 'generated', 'schemas', 'order.json'), '{ "type": "object" }\n');
  const target = join(root, 'generated', 'registry.json');
  writeFileSync(target, registryNaming('urn:babel:orders:placed'));
  symlinkSync(join('..', 'generated', 'registry.json'), join(root, 'pkg', 'registry.json'));
  symlinkSync(join('..', 'generated', 'schemas'), join(root, 'pkg', 'schemas'));
  const fixture = join(root, 'pkg', 'order.babel.json');
  writeFileSync(fixture, ORDER);
  // pkg/ holds a file git lists: its watcher is registered, and a change of the link's own entry would be heard there.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], watchesFiles: true });
  try {
    await client.initialize();
    const codes = async () => {
      const { items } = await client.request<{ items: { uri: string; items?: { code?: string }[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
      const item = items.find((candidate) => candidate.uri === pathToFileURL(fixture).href);
      assert.ok(item, 'the report lists pkg/order.babel.json');
      return (item.items ?? []).map((diagnostic) => diagnostic.code).sort();
    };
    assert.ok((await codes()).includes('unknown-urn'), 'urn:babel:orders:created is not registered yet');
    const fixtureUri = pathToFileURL(fixture).href;
    await client.open(fixtureUri, ORDER);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A build rewrites the ignored folder; the client watches no folder git ignores, so no event comes.
    writeFileSync(target, registryNaming('urn:babel:orders:created'));
    await client.save(fixtureUri);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok(!(await codes()).includes('unknown-urn'), 'checked against the rewritten registry');
  } finally {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  }
});
