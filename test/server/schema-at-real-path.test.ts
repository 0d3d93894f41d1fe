/**
 * A schema file a registry reaches through a symbolic link, opened in the editor at its real path
 * (the file the link leads to), over real JSON-RPC against dist/server.js: it is the registry's
 * schema there too, with its keywords checked, its breaking changes against git HEAD and the
 * "Register as a new URN…" fix. The registry still reads it through the link, from disk: the
 * fixtures it breaks are counted once it is saved, not while it is typed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { TestLspClient } from '../support/lsp-client';
import { ORDERS_SCHEMA, ordersFixture, TIGHTENED_ORDERS_SCHEMA } from '../support/orders-schema';
import { scratchFolder, type ScratchFolder } from '../support/scratch-folder';

const URN = 'urn:babel:orders:created';
const registryNaming = (schema: string) => ({ schemas: [{ urn: URN, schema, owner: 'orders', status: 'active' }] });
/** A keyword no BabelQueue validator enforces: a finding on the schema itself, whatever the base. */
const WITH_FORMAT = ORDERS_SCHEMA.replace('"customer_id": { "type": "string" }', '"customer_id": { "type": "string", "format": "email" }');

/** pkg/ holds the registry and its fixtures; `link` makes pkg/schemas/order.json lead to the schema in common/. */
function workspace(prefix: string, realSchema: string, link: (folder: ScratchFolder) => void): ScratchFolder {
  const folder = scratchFolder(prefix);
  folder.write(realSchema, ORDERS_SCHEMA);
  folder.write('pkg/registry.json', registryNaming('schemas/order.json'));
  folder.write('pkg/fixtures/with-customer.babel.json', ordersFixture({ order_id: 1, customer_id: 'c-1' }));
  folder.write('pkg/fixtures/without-customer.babel.json', ordersFixture({ order_id: 2 }));
  link(folder);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: folder.base, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'orders:created');
  return folder;
}

/** A client of `folder`, which has loaded the registry for a fixture of it before the schema is opened. */
function clientOf(folder: ScratchFolder): TestLspClient {
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(folder.base).href], watchesFiles: true, initializationOptions: { workspaceTrusted: true } });
  before(async () => {
    await client.initialize();
    const fixtureUri = folder.uriOf('pkg/fixtures/without-customer.babel.json');
    await client.open(fixtureUri, ordersFixture({ order_id: 2 }));
    assert.deepEqual((await client.pullDiagnostics(fixtureUri)).items, [], 'the fixture is valid under the schema on disk');
  });
  after(() => client.kill());
  return client;
}

const openJson = (client: TestLspClient, uri: string, text: string) => client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
const codesOf = async (client: TestLspClient, uri: string) => (await client.pullDiagnostics(uri)).items.map((item) => String(item.code)).sort();

describe('a schema reached through a linked folder, opened at its real path', () => {
  const folder = workspace('babelq-schema-real-folder-', 'common/schemas/order.json', (folder) => symlinkSync('../common/schemas', folder.at('pkg/schemas')));
  const client = clientOf(folder);
  const realUri = folder.uriOf('common/schemas/order.json');

  test('its keywords are checked, as at the link\'s path', async () => {
    await openJson(client, realUri, WITH_FORMAT);
    assert.deepEqual(await codesOf(client, realUri), ['unenforced-keyword']);
  });

  test('a breaking change typed there is found; the fixtures it breaks are not counted until it is saved, since the registry reads the file from disk', async () => {
    await client.change(realUri, TIGHTENED_ORDERS_SCHEMA, 2);
    const items = (await client.pullDiagnostics(realUri)).items;
    assert.deepEqual(items.map((item) => item.code), ['breaking-change']);
    assert.match(items[0].message, /urn:babel:orders:created\.v2/, 'named after the entry whose schema it is');
    assert.doesNotMatch(items[0].message, /fixtures? of urn:babel:orders:created/, 'the schema the fixtures are checked against is the one saved');
    const fixtureUri = folder.uriOf('pkg/fixtures/without-customer.babel.json');
    assert.deepEqual((await client.pullDiagnostics(fixtureUri)).items, [], 'the open fixture follows the schema as saved');
  });

  test('once saved, the break counts the fixtures the saved schema rejects', async () => {
    writeFileSync(folder.at('common/schemas/order.json'), TIGHTENED_ORDERS_SCHEMA);
    await client.save(realUri);
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: realUri, type: 2 }] });
    const started = Date.now();
    let message = '';
    while (!/1 of the 2 fixtures of urn:babel:orders:created in this workspace fails/.test(message)) {
      assert.ok(Date.now() - started < 10_000, `still "${message}" after 10 s`);
      await new Promise((resume) => setTimeout(resume, 50));
      message = (await client.pullDiagnostics(realUri)).items[0]?.message ?? '';
    }
  });
});

describe('a schema file that is a link, opened at the file it leads to', () => {
  const folder = workspace('babelq-schema-real-file-', 'common/order.json', (folder) => {
    folder.write('pkg/schemas/.keep', '');
    symlinkSync('../../common/order.json', folder.at('pkg/schemas/order.json'));
  });
  const client = clientOf(folder);
  const realUri = folder.uriOf('common/order.json');

  test('"Register as a new URN…" is offered for its breaking change, registering the copy beside the registry', async () => {
    await openJson(client, realUri, TIGHTENED_ORDERS_SCHEMA);
    const diagnostics = (await client.pullDiagnostics(realUri)).items;
    assert.deepEqual(diagnostics.map((item) => item.code), ['breaking-change']);
    const actions: { title: string; edit?: { documentChanges: { kind?: string; uri?: string; textDocument?: { uri: string } }[] } }[] = await client.request('textDocument/codeAction', { textDocument: { uri: realUri }, range: diagnostics[0].range, context: { diagnostics, only: ['quickfix'] } });
    const register = actions.find((action) => /^Register as a new URN/.test(action.title));
    assert.ok(register, JSON.stringify(actions.map((action) => action.title)));
    const [create, , registryEdit] = register.edit!.documentChanges;
    assert.deepEqual([create.kind, create.uri], ['create', folder.uriOf('pkg/schemas/order.v2.json')]);
    assert.equal(registryEdit.textDocument?.uri, folder.uriOf('pkg/registry.json'));
  });
});

describe('a schema two registries read, one through a linked folder and one by its own path, edited there', () => {
  // pkg/registry.json reads it through pkg/schemas (a link to common/schemas), from disk;
  // common/registry.json reads it where it is, with the text typed.
  const folder = workspace('babelq-schema-two-readers-', 'common/schemas/order.json', (folder) => {
    symlinkSync('../common/schemas', folder.at('pkg/schemas'));
    folder.write('common/registry.json', registryNaming('schemas/order.json'));
    folder.write('common/fixtures/with-customer.babel.json', ordersFixture({ order_id: 3, customer_id: 'c-3' }));
    folder.write('common/fixtures/without-customer.babel.json', ordersFixture({ order_id: 4 }));
  });
  // The registry that reads through the link is loaded first (its fixture is opened first).
  const client = clientOf(folder);
  const realUri = folder.uriOf('common/schemas/order.json');

  test('the fixtures the text typed breaks are counted, whichever registry was loaded first', async () => {
    const commonFixture = folder.uriOf('common/fixtures/without-customer.babel.json');
    await client.open(commonFixture, ordersFixture({ order_id: 4 }));
    assert.deepEqual((await client.pullDiagnostics(commonFixture)).items, []);
    await openJson(client, realUri, ORDERS_SCHEMA);
    await client.change(realUri, TIGHTENED_ORDERS_SCHEMA, 2);
    const items = (await client.pullDiagnostics(realUri)).items;
    assert.deepEqual(items.map((item) => item.code), ['breaking-change']);
    // common's registry reads the text typed: its fixture without customer_id fails it; pkg's read the file as saved.
    assert.match(items[0].message, /1 of the 4 fixtures of urn:babel:orders:created in this workspace fails/);
  });
});
