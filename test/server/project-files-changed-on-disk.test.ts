/**
 * registry.json, the schema files it names, babelq.json and the suppressions file changed on disk
 * by another program (a checkout, another editor) while the editor sends no file events (Neovim
 * 0.7): over real JSON-RPC against dist/server.js, the next save of any document (or the next
 * document opened) has the server look at their sizes and times, read again the ones that changed
 * and report the fixtures they affect, unopened and open, as a file event would; a look that finds
 * nothing changed reads nothing again. A client that sends file events (VS Code) is left to them:
 * a change it reports is read once, not again at the save that follows.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { EGLOT_1_9, NEOVIM_0_7 } from '../support/editor-capabilities';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const ROOT = resolve(__dirname, '..', '..');
const BROKEN = readFileSync(join(ROOT, 'examples/bad/contract.babel.json'), 'utf8');
const entry = (urn: string, schema = 'schemas/orders.json') => ({ urn, schema, owner: 'orders', status: 'active' });
const registry = (...entries: object[]) => JSON.stringify({ schemas: entries }, null, 2);
const SHIPPED = GOOD_ENVELOPE.replace('urn:babel:orders:created', 'urn:babel:orders:shipped');
const CHANGED = 2;

/** A Git work tree with a registry that knows orders:created only, and fixtures nobody opened. */
function project(prefix: string) {
  const folder = scratchFolder(prefix);
  folder.write('.git/HEAD', 'ref: refs/heads/main\n');
  folder.write('registry.json', registry(entry('urn:babel:orders:created')));
  folder.write('schemas/orders.json', { type: 'object' });
  folder.write('fixtures/clean.babel.json', GOOD_ENVELOPE);
  folder.write('fixtures/shipped.babel.json', SHIPPED);
  folder.write('fixtures/broken.babel.json', BROKEN);
  folder.write('fixtures/open.babel.json', GOOD_ENVELOPE);
  return folder;
}

const codesOf = (diagnostics: readonly { code?: unknown }[]) => diagnostics.map((d) => String(d.code));
const lastCodes = (client: TestLspClient, uri: string) => codesOf(client.published.filter((p) => p.uri === uri).at(-1)?.diagnostics ?? []);
/** Waits until the last publication for `uri` satisfies `holds` (its codes). */
const lastHolds = (client: TestLspClient, uri: string, holds: (codes: string[]) => boolean, timeoutMs = 10_000) =>
  client.waitForPublished((all) => {
    const last = all.filter((p) => p.uri === uri).at(-1);
    return last !== undefined && holds(codesOf(last.diagnostics));
  }, timeoutMs);
/** How many times the server logged a registry as loaded or unusable (each is one read of registry.json and its schema files). */
const loads = (client: TestLspClient) => client.logs.filter((line) => /^BabelQueue registry .* (loaded|cannot be used)/.test(line)).length;
/** How many forbidden keys a fixture's findings name. */
const forbidden = (codes: readonly string[]) => codes.filter((code) => code === 'forbidden-key').length;
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('project files changed on disk, for a client that sends no file events (Neovim 0.7)', () => {
  test('registry.json changed on disk: the next save of another document reads it again, and the unopened and open fixtures get their new findings', async () => {
    const { uriOf, write } = project('babelq-disk-registry-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    const shipped = uriOf('fixtures/shipped.babel.json');
    const open = uriOf('fixtures/open.babel.json');
    try {
      await client.initialize();
      await lastHolds(client, shipped, (codes) => codes.includes('unknown-urn'));
      await client.open(open, SHIPPED);
      await lastHolds(client, open, (codes) => codes.includes('unknown-urn'));
      const loadsBefore = loads(client);
      // A checkout brings a registry that knows the URN; no file event comes.
      write('registry.json', registry(entry('urn:babel:orders:created'), entry('urn:babel:orders:shipped')));
      await client.open(uriOf('fixtures/clean.babel.json'), GOOD_ENVELOPE);
      await client.save(uriOf('fixtures/clean.babel.json'));
      await lastHolds(client, shipped, (codes) => codes.length === 0);
      await lastHolds(client, open, (codes) => !codes.includes('unknown-urn'));
      // The reload pushes both open fixtures again, each on its own: wait for the last of them.
      await client.waitForQuiet();
      assert.equal(loads(client), loadsBefore + 1, 'read once');
      // Nothing changed since: a save reads nothing again and sends nothing.
      const sent = client.published.length;
      await client.save(uriOf('fixtures/clean.babel.json'));
      await pause(600);
      assert.equal(loads(client), loadsBefore + 1, 'not read again');
      assert.deepEqual(client.published.slice(sent), []);
    } finally {
      client.kill();
    }
  });

  test('a schema file changed on disk: its fixtures are checked against it after the next save', async () => {
    const { uriOf, write } = project('babelq-disk-schema-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    const clean = uriOf('fixtures/clean.babel.json');
    try {
      await client.initialize();
      await lastHolds(client, uriOf('fixtures/broken.babel.json'), (codes) => codes.length > 0);
      write('schemas/orders.json', { type: 'object', required: ['customer_id'] });
      await client.open(uriOf('fixtures/open.babel.json'), GOOD_ENVELOPE);
      await client.save(uriOf('fixtures/open.babel.json'));
      await lastHolds(client, clean, (codes) => codes.includes('payload-schema'));
      await lastHolds(client, uriOf('fixtures/open.babel.json'), (codes) => codes.includes('payload-schema'));
    } finally {
      client.kill();
    }
  });

  test('registry.json broken and mended on disk: its own findings are pushed, then emptied', async () => {
    const { uriOf, write } = project('babelq-disk-registry-file-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    const registryUri = uriOf('registry.json');
    const open = uriOf('fixtures/open.babel.json');
    try {
      await client.initialize();
      await client.open(open, GOOD_ENVELOPE);
      await lastHolds(client, uriOf('fixtures/broken.babel.json'), (codes) => codes.length > 0);
      write('registry.json', registry(entry('urn:babel:orders:created', 'schemas/missing.json')));
      await client.save(open);
      await lastHolds(client, registryUri, (codes) => codes.includes('registry-error'));
      write('registry.json', registry(entry('urn:babel:orders:created')));
      await client.save(open);
      await lastHolds(client, registryUri, (codes) => codes.length === 0);
    } finally {
      client.kill();
    }
  });

  test('a registry.json that appears on disk below the folder is found by the fixtures beside it after the next save', async () => {
    const { uriOf, write } = project('babelq-disk-registry-new-');
    write('team/invoice.babel.json', GOOD_ENVELOPE.replace('urn:babel:orders:created', 'urn:babel:team:invoiced'));
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    const invoice = uriOf('team/invoice.babel.json');
    try {
      await client.initialize();
      await lastHolds(client, invoice, (codes) => codes.includes('unknown-urn'));
      write('team/schemas/orders.json', { type: 'object' });
      write('team/registry.json', registry(entry('urn:babel:team:invoiced')));
      await client.open(uriOf('fixtures/open.babel.json'), GOOD_ENVELOPE);
      await client.save(uriOf('fixtures/open.babel.json'));
      await lastHolds(client, invoice, (codes) => codes.length === 0);
    } finally {
      client.kill();
    }
  });

  test('babelq.json and the suppressions file created and changed on disk: the next save applies them and reports them', async () => {
    const { uriOf, write, at } = project('babelq-disk-config-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    const broken = uriOf('fixtures/broken.babel.json');
    const open = uriOf('fixtures/open.babel.json');
    try {
      await client.initialize();
      await client.open(open, GOOD_ENVELOPE);
      await lastHolds(client, broken, (codes) => forbidden(codes) === 5);
      // A suppressions file (no babelq.json beside it) hides the forbidden "timestamp".
      write('babelq-suppressions.json', { suppressions: [{ file: 'fixtures/broken.babel.json', code: 'forbidden-key', pointer: '/timestamp', reason: 'legacy producer' }] });
      await client.save(open);
      await lastHolds(client, broken, (codes) => forbidden(codes) === 4);
      // babelq.json created with a misspelt key: reported; changed to ignore the broken fixture: it is cleared.
      write('babelq.json', '{ "severty": {} }\n');
      await client.save(open);
      await lastHolds(client, uriOf('babelq.json'), (codes) => codes.includes('config-error'));
      write('babelq.json', '{ "ignore": ["fixtures/broken.babel.json"] }\n');
      await client.save(open);
      await lastHolds(client, broken, (codes) => codes.length === 0);
      await lastHolds(client, uriOf('babelq.json'), (codes) => codes.length === 0);
      // Deleted: the fixture is the workspace's again, with every finding.
      rmSync(at('babelq.json'));
      rmSync(at('babelq-suppressions.json'));
      await client.save(open);
      await lastHolds(client, broken, (codes) => forbidden(codes) === 5);
    } finally {
      client.kill();
    }
  });

  test('a babelq.json or registry.json opened as a new buffer (no file yet) and written by the save: the fixtures find it after that save', async () => {
    const { uriOf, write } = project('babelq-disk-new-buffer-');
    write('team/invoice.babel.json', GOOD_ENVELOPE.replace('urn:babel:orders:created', 'urn:babel:team:invoiced'));
    write('team/schemas/orders.json', { type: 'object' });
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    const broken = uriOf('fixtures/broken.babel.json');
    const invoice = uriOf('team/invoice.babel.json');
    const openJson = (uri: string, text: string) => client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
    try {
      await client.initialize();
      await lastHolds(client, broken, (codes) => forbidden(codes) === 5);
      await lastHolds(client, invoice, (codes) => codes.includes('unknown-urn'));
      // `:e babelq.json` where there is none, typed, then `:w`: the file is on disk from that save on.
      const config = '{ "ignore": ["fixtures/broken.babel.json"] }\n';
      await openJson(uriOf('babelq.json'), config);
      await pause(300);
      write('babelq.json', config);
      await client.save(uriOf('babelq.json'));
      await lastHolds(client, broken, (codes) => codes.length === 0);
      // The same for a registry.json below the folder.
      const teamRegistry = registry(entry('urn:babel:team:invoiced'));
      await openJson(uriOf('team/registry.json'), teamRegistry);
      await pause(300);
      write('team/registry.json', teamRegistry);
      await client.save(uriOf('team/registry.json'));
      await lastHolds(client, invoice, (codes) => codes.length === 0);
    } finally {
      client.kill();
    }
  });

  test('a document opened after registry.json changed on disk is checked against the registry as it is now', async () => {
    const { uriOf, write } = project('babelq-disk-open-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    const open = uriOf('fixtures/open.babel.json');
    try {
      await client.initialize();
      await lastHolds(client, uriOf('fixtures/shipped.babel.json'), (codes) => codes.includes('unknown-urn'));
      write('registry.json', registry(entry('urn:babel:orders:created'), entry('urn:babel:orders:shipped')));
      await client.open(open, SHIPPED);
      // Its first push may come before the open's look at the disk has read the registry again: the one after it is awaited.
      await lastHolds(client, open, (codes) => codes.length === 0);
      await client.waitForQuiet();
      assert.deepEqual(lastCodes(client, open), []);
      await lastHolds(client, uriOf('fixtures/shipped.babel.json'), (codes) => codes.length === 0);
    } finally {
      client.kill();
    }
  });
});

describe('project files changed on disk, for a client that sends file events (VS Code)', () => {
  test('a registry.json change it reports is read once: the save that follows reads nothing again', async () => {
    const { uriOf, write } = project('babelq-disk-events-');
    const client = new TestLspClient({ workspaceFolders: [uriOf('')], watchesFiles: true });
    const open = uriOf('fixtures/open.babel.json');
    try {
      await client.initialize();
      await client.open(open, SHIPPED);
      const pulled = await client.pullDiagnostics(open);
      assert.ok(codesOf(pulled.items).includes('unknown-urn'));
      const loadsBefore = loads(client);
      write('registry.json', registry(entry('urn:babel:orders:created'), entry('urn:babel:orders:shipped')));
      // A save before the file event comes, and diagnostics asked for between them: the save looks at
      // no file on disk (a look would read registry.json here, and its event again below).
      await client.save(open);
      await pause(300);
      await client.pullDiagnostics(open);
      assert.equal(loads(client), loadsBefore, 'not read at the save');
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('registry.json'), type: CHANGED }] });
      await pause(300);
      assert.deepEqual(codesOf((await client.pullDiagnostics(open)).items), []);
      await client.save(open);
      await pause(300);
      assert.equal(loads(client), loadsBefore + 1, 'registry.json read once, on its file event');
    } finally {
      client.kill();
    }
  });

  test('an open registry.json or babelq.json saved: the file event of the save reads nothing again (the edits were heard); a byte-order mark the save added is', async () => {
    const { uriOf, write } = project('babelq-disk-saved-open-');
    const client = new TestLspClient({ workspaceFolders: [uriOf('')], watchesFiles: true });
    const open = uriOf('fixtures/open.babel.json');
    const registryUri = uriOf('registry.json');
    const configUri = uriOf('babelq.json');
    const saved = (uri: string) => client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: CHANGED }] });
    try {
      await client.initialize();
      await client.open(open, SHIPPED);
      assert.ok(codesOf((await client.pullDiagnostics(open)).items).includes('unknown-urn'));
      // registry.json opened and edited: read from the editor once.
      const text = registry(entry('urn:babel:orders:created'), entry('urn:babel:orders:shipped'));
      const refreshesBeforeEdit = client.refreshes;
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: registry(entry('urn:babel:orders:created')) } });
      await client.change(registryUri, text, 2);
      // The edit's refresh goes out from a timer: counted from when it (and any other) has come.
      await client.waitForRefreshes(refreshesBeforeEdit);
      assert.deepEqual(codesOf((await client.pullDiagnostics(open)).items), []);
      const loadsAtEdit = loads(client);
      const refreshesAtEdit = client.refreshes;
      // Saved: the file now holds what the editor held.
      write('registry.json', text);
      await client.save(registryUri);
      await saved(registryUri);
      await pause(300);
      assert.deepEqual(codesOf((await client.pullDiagnostics(open)).items), []);
      assert.equal(loads(client), loadsAtEdit, 'not read again for the save');
      assert.equal(client.refreshes, refreshesAtEdit, 'no refresh for the save');
      // babelq.json likewise: its edit turns a code off, its save changes nothing more.
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: configUri, languageId: 'json', version: 1, text: '{}\n' } });
      await client.change(configUri, '{ "severity": { "unknown-urn": "off" } }\n', 2);
      // The config edit refreshes the diagnostics, from a timer: counted from when its refreshes have come.
      await client.waitForRefreshes(refreshesAtEdit);
      const refreshesAtConfigEdit = client.refreshes;
      write('babelq.json', '{ "severity": { "unknown-urn": "off" } }\n');
      await client.save(configUri);
      await saved(configUri);
      await pause(300);
      assert.equal(client.refreshes, refreshesAtConfigEdit, 'no refresh for the config\'s save');
      // Written with a byte-order mark the editor hides (a checkout, "Save with Encoding" without the save's own look): read again, refused as bqschema refuses it.
      write('registry.json', `\ufeff${text}`);
      await saved(registryUri);
      await pause(300);
      assert.deepEqual(codesOf((await client.pullDiagnostics(open)).items), ['registry-error']);
      assert.equal(loads(client), loadsAtEdit + 1, 'read again for the mark');
    } finally {
      client.kill();
    }
  });
});

describe('project files changed on disk, for a client that declares file events but does not take the registration', () => {
  test('registration refused after the server stopped waiting for the answer: the log says once that the disk is looked at', async () => {
    const { uriOf } = project('babelq-disk-registration-late-');
    const client = new TestLspClient({ workspaceFolders: [uriOf('')], watchesFiles: true, watchRegistration: 'refused late' });
    try {
      await client.initialize();
      await pause(11_500);
      const said = client.logs.filter((line) => /file events/.test(line) && /each save and open/.test(line));
      assert.equal(said.length, 1, `said once: ${JSON.stringify(said)}`);
    } finally {
      client.kill();
    }
  });

  for (const answer of ['refused', 'unanswered'] as const) {
    test(`registration ${answer}: registry.json changed on disk is read again at the next save of another document, and the server's log says once why`, async () => {
      const { uriOf, write } = project(`babelq-disk-registration-${answer}-`);
      const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9, watchRegistration: answer });
      const shipped = uriOf('fixtures/shipped.babel.json');
      const open = uriOf('fixtures/open.babel.json');
      try {
        await client.initialize();
        await lastHolds(client, shipped, (codes) => codes.includes('unknown-urn'));
        await client.open(open, SHIPPED);
        await lastHolds(client, open, (codes) => codes.includes('unknown-urn'));
        write('registry.json', registry(entry('urn:babel:orders:created'), entry('urn:babel:orders:shipped')));
        await client.open(uriOf('fixtures/clean.babel.json'), GOOD_ENVELOPE);
        await client.save(uriOf('fixtures/clean.babel.json'));
        await lastHolds(client, shipped, (codes) => codes.length === 0);
        await lastHolds(client, open, (codes) => !codes.includes('unknown-urn'));
        if (answer === 'refused') {
          const said = client.logs.filter((line) => /file events/.test(line) && /each save and open/.test(line));
          assert.equal(said.length, 1, `said once: ${JSON.stringify(client.logs)}`);
        }
      } finally {
        client.kill();
      }
    });
  }
});

describe('project files changed on disk in a folder made after the client registered its watchers', () => {
  test('eglot 1.9 (file events only from the folders there when it registered): a schema file created in a new folder, named by registry.json, is read at the next save, and so is its next change', async () => {
    const { uriOf, write } = project('babelq-disk-new-folder-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
    const shipped = uriOf('fixtures/shipped.babel.json');
    const open = uriOf('fixtures/open.babel.json');
    const event = (path: string) => client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path), type: CHANGED }] });
    try {
      await client.initialize();
      await lastHolds(client, shipped, (codes) => codes.includes('unknown-urn'));
      await client.open(open, GOOD_ENVELOPE);
      // registry.json (in a watched folder: eglot reports it) names a schema in a folder not made yet.
      write('registry.json', registry(entry('urn:babel:orders:created'), entry('urn:babel:orders:shipped', 'contracts/shipped.json')));
      await event('registry.json');
      await lastHolds(client, uriOf('registry.json'), (codes) => codes.includes('registry-error'));
      // The folder and the schema are made; eglot watches no folder made after it registered: no event.
      write('contracts/shipped.json', { type: 'object', required: ['carrier'] });
      await client.save(open);
      await lastHolds(client, shipped, (codes) => codes.includes('payload-schema'));
      await lastHolds(client, uriOf('registry.json'), (codes) => codes.length === 0);
      // Changed again, still without an event: the next save reads it again.
      write('contracts/shipped.json', { type: 'object' });
      await client.save(open);
      await lastHolds(client, shipped, (codes) => codes.length === 0);
    } finally {
      client.kill();
    }
  });

  test('eglot 1.9 (file events only from the folders of the files it listed): a registry.json created in a folder that held only a folder is found by the fixtures below it at the next save', async () => {
    const { uriOf, write } = project('babelq-disk-only-folders-');
    write('nested/deeper/order.babel.json', GOOD_ENVELOPE);
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
    const nested = uriOf('nested/deeper/order.babel.json');
    const open = uriOf('fixtures/open.babel.json');
    try {
      await client.initialize();
      await lastHolds(client, uriOf('fixtures/shipped.babel.json'), (codes) => codes.includes('unknown-urn'));
      await client.open(open, GOOD_ENVELOPE);
      // nested/ held no file when eglot registered its watchers (only nested/deeper/): no event comes.
      write('nested/registry.json', registry());
      await client.save(open);
      await lastHolds(client, nested, (codes) => codes.includes('unknown-urn'));
    } finally {
      client.kill();
    }
  });

  test('VS Code (file events from every folder): a schema in a folder made later, changed on disk, is read once, whether the save or its event comes first', async () => {
    const { uriOf, write } = project('babelq-disk-new-folder-vscode-');
    const client = new TestLspClient({ workspaceFolders: [uriOf('')], watchesFiles: true });
    const open = uriOf('fixtures/open.babel.json');
    const event = (path: string) => client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path), type: CHANGED }] });
    const codes = async () => codesOf((await client.pullDiagnostics(open)).items);
    /** Pulls until the codes are `expected`: the look at the disk a save sets off runs beside the requests. */
    const codesBecome = async (expected: string[]) => {
      const started = Date.now();
      let last = await codes();
      while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() - started < 10_000) {
        await pause(50);
        last = await codes();
      }
      assert.deepEqual(last, expected);
    };
    try {
      await client.initialize();
      await client.open(open, SHIPPED);
      assert.ok((await codes()).includes('unknown-urn'));
      // registry.json names a schema in a folder not made yet; the folder and the schema follow.
      write('registry.json', registry(entry('urn:babel:orders:created'), entry('urn:babel:orders:shipped', 'contracts/shipped.json')));
      await event('registry.json');
      await pause(300);
      assert.ok(!(await codes()).includes('unknown-urn'));
      write('contracts/shipped.json', { type: 'object', required: ['carrier'] });
      await event('contracts/shipped.json');
      await pause(300);
      assert.deepEqual(await codes(), ['payload-schema']);
      const loadsBefore = loads(client);
      // The save comes before the schema's event: the look at the save reads it, the event nothing more.
      write('contracts/shipped.json', { type: 'object' });
      await client.save(open);
      await codesBecome([]);
      assert.equal(loads(client), loadsBefore + 1, 'read at the save');
      await event('contracts/shipped.json');
      await pause(300);
      assert.deepEqual(await codes(), []);
      assert.equal(loads(client), loadsBefore + 1, 'not read again for the event');
      // The event comes first: read for it, and the save that follows reads nothing again.
      write('contracts/shipped.json', { type: 'object', required: ['carrier'] });
      await event('contracts/shipped.json');
      await pause(300);
      assert.deepEqual(await codes(), ['payload-schema']);
      await client.save(open);
      await pause(300);
      assert.deepEqual(await codes(), ['payload-schema']);
      assert.equal(loads(client), loadsBefore + 2, 'read once for the event');
    } finally {
      client.kill();
    }
  });

  test('VS Code: a registry.json changed on disk and read by another fixture\'s search before its file event comes is still read again for that event', async () => {
    const { uriOf, write } = project('babelq-disk-event-after-search-');
    write('other/shipped.babel.json', SHIPPED);
    const client = new TestLspClient({ workspaceFolders: [uriOf('')], watchesFiles: true });
    const open = uriOf('fixtures/open.babel.json');
    const other = uriOf('other/shipped.babel.json');
    try {
      await client.initialize();
      await client.open(open, SHIPPED);
      assert.ok(codesOf((await client.pullDiagnostics(open)).items).includes('unknown-urn'));
      write('registry.json', registry(entry('urn:babel:orders:created'), entry('urn:babel:orders:shipped')));
      // A fixture in a folder no search started from yet: its search reads registry.json as it is now,
      // while the registry loaded before stays the one the first fixture uses until the event comes.
      await client.open(other, SHIPPED);
      await client.pullDiagnostics(other);
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('registry.json'), type: CHANGED }] });
      await pause(300);
      assert.deepEqual(codesOf((await client.pullDiagnostics(open)).items), []);
      assert.deepEqual(codesOf((await client.pullDiagnostics(other)).items), []);
    } finally {
      client.kill();
    }
  });

  test('eglot 1.9: a fixture in a folder made after the registration, changed on disk (no event comes), is read again at the next save', async () => {
    const { uriOf, write } = project('babelq-disk-new-folder-fixture-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
    const shipped = uriOf('fixtures/shipped.babel.json');
    const open = uriOf('fixtures/open.babel.json');
    const later = uriOf('later/made.babel.json');
    try {
      await client.initialize();
      await lastHolds(client, shipped, (codes) => codes.includes('unknown-urn'));
      await client.open(open, GOOD_ENVELOPE);
      await pause(100);
      // A folder made after eglot registered its watchers: the save's walk finds the fixture in it.
      write('later/made.babel.json', SHIPPED);
      await client.save(open);
      await lastHolds(client, later, (codes) => codes.includes('unknown-urn'));
      // Rewritten by another program: eglot hears nothing in that folder.
      write('later/made.babel.json', GOOD_ENVELOPE);
      await client.save(open);
      await lastHolds(client, later, (codes) => codes.length === 0);
    } finally {
      client.kill();
    }
  });
});

describe('a look at the disk at each open', () => {
  test('costs an open no more with thousands of documents open: the second 1,500 open about as fast as the first', async () => {
    const { uriOf, write } = project('babelq-disk-many-open-');
    const uris = Array.from({ length: 3000 }, (_, i) => uriOf(`many/${i % 30}/x${i}.babel.json`));
    for (const [i] of uris.entries()) write(`many/${i % 30}/x${i}.babel.json`, GOOD_ENVELOPE);
    const client = new TestLspClient({ workspaceFolders: [uriOf('')], watchesFiles: true });
    const openAll = async (some: readonly string[]) => {
      const started = performance.now();
      for (let i = 0; i < some.length; i += 200) {
        const batch = some.slice(i, i + 200);
        await Promise.all(batch.map((uri) => client.open(uri, GOOD_ENVELOPE)));
        await Promise.all(batch.map((uri) => client.pullDiagnostics(uri)));
      }
      return performance.now() - started;
    };
    try {
      await client.initialize();
      const first = await openAll(uris.slice(0, 1500));
      const second = await openAll(uris.slice(1500));
      // Each look going over every open document made the second half nearly twice as long as the first (now: shorter, warmed up).
      assert.ok(second < first * 1.4, `the first 1,500 opened in ${first.toFixed(0)} ms, the next in ${second.toFixed(0)} ms`);
    } finally {
      client.kill();
    }
  });
});
