/**
 * A breaking schema change caught while it is typed (server/schema-compat.ts), over real JSON-RPC
 * against dist/server.js, in a git repository built here: the schema file against its version at
 * HEAD, the break on the changed keyword with the count of the URN's fixtures it breaks, the
 * "Register as a new URN…" fix, and no git at all outside a repository or in an untrusted workspace.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { applyEdits } from '../../core/model/edits';
import { LineIndex } from '../../core/model/positions';
import { readRegistryIndex } from '../../core/registry/registry-file';
import { TestLspClient } from '../support/lsp-client';
import { ORDERS_SCHEMA, ordersFixture, TIGHTENED_ORDERS_SCHEMA } from '../support/orders-schema';

const URN = 'urn:babel:orders:created';
const REGISTRY = `{
  "schemas": [
    {
      "urn": "${URN}",
      "schema": "schemas/orders-created.json",
      "owner": "orders",
      "status": "active"
    }
  ]
}
`;

function repository(withGit: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'babelq-compat-lsp-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('registry.json', REGISTRY);
  write('schemas/orders-created.json', ORDERS_SCHEMA);
  write('fixtures/with-customer.babel.json', ordersFixture({ order_id: 1, customer_id: 'c-1' }));
  write('fixtures/without-customer.babel.json', ordersFixture({ order_id: 2 }));
  if (withGit) {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: root, stdio: 'ignore' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'orders:created');
  }
  return root;
}

const uriOf = (root: string, path: string) => pathToFileURL(join(root, path)).href;

async function openJson(client: TestLspClient, uri: string, text: string): Promise<void> {
  await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
}

describe('breaking-change while a schema is typed, against git HEAD', () => {
  const root = repository(true);
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], initializationOptions: { workspaceTrusted: true } });
  const schemaUri = uriOf(root, 'schemas/orders-created.json');

  before(() => client.initialize());
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });

  test('the schema as committed: no break', async () => {
    await openJson(client, schemaUri, ORDERS_SCHEMA);
    assert.deepEqual((await client.pullDiagnostics(schemaUri)).items, []);
  });

  test('a name added to required, unsaved: the break on it, with the fixtures it breaks counted', async () => {
    await client.change(schemaUri, TIGHTENED_ORDERS_SCHEMA, 2);
    const items = (await client.pullDiagnostics(schemaUri)).items;
    assert.deepEqual(items.map((item) => item.code), ['breaking-change']);
    const at = new LineIndex(TIGHTENED_ORDERS_SCHEMA).positionAt(TIGHTENED_ORDERS_SCHEMA.indexOf('"customer_id"]'));
    assert.deepEqual(items[0].range.start, at, 'on the new required name');
    assert.match(items[0].message, /property "customer_id" is now required/);
    assert.match(items[0].message, /urn:babel:orders:created\.v2/);
    assert.match(items[0].message, /1 of the 2 fixtures of urn:babel:orders:created in this workspace fails the schema as it is now/);
    // The file on disk is as committed: nothing was saved.
    assert.equal(readFileSync(join(root, 'schemas/orders-created.json'), 'utf8'), ORDERS_SCHEMA);
  });

  test('"Register as a new URN…" copies the new shape to a .v2 file, registers it, deprecates the old entry; then nothing breaks', async () => {
    const diagnostics = (await client.pullDiagnostics(schemaUri)).items;
    const actions: any[] = await client.request('textDocument/codeAction', { textDocument: { uri: schemaUri }, range: diagnostics[0].range, context: { diagnostics, only: ['quickfix'] } });
    const register = actions.find((action) => /^Register as a new URN/.test(action.title));
    assert.ok(register, JSON.stringify(actions.map((action) => action.title)));
    assert.match(register.title, /urn:babel:orders:created\.v2 with schemas\/orders-created\.v2\.json/);
    const [create, content, registryEdit] = register.edit.documentChanges;
    assert.deepEqual(create, { kind: 'create', uri: uriOf(root, 'schemas/orders-created.v2.json'), options: { overwrite: false, ignoreIfExists: false } });
    assert.equal(content.edits[0].newText, TIGHTENED_ORDERS_SCHEMA);
    assert.equal(registryEdit.textDocument.uri, uriOf(root, 'registry.json'));
    // Apply it as an editor would (and save).
    const lines = new LineIndex(REGISTRY);
    const registryText = applyEdits(REGISTRY, registryEdit.edits.map((edit: any) => ({ offset: lines.offsetAt(edit.range.start), end: lines.offsetAt(edit.range.end), newText: edit.newText })));
    const index = readRegistryIndex(registryText);
    assert.ok(index.ok);
    assert.deepEqual(index.entries.map((entry) => [entry.urn, entry.schemaRef, entry.status]), [
      [URN, 'schemas/orders-created.json', 'deprecated'],
      [`${URN}.v2`, 'schemas/orders-created.v2.json', 'active'],
    ]);
    writeFileSync(join(root, 'schemas/orders-created.v2.json'), TIGHTENED_ORDERS_SCHEMA);
    writeFileSync(join(root, 'registry.json'), registryText);
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(root, 'registry.json'), type: 2 }, { uri: uriOf(root, 'schemas/orders-created.v2.json'), type: 1 }] });
    // The old entry is deprecated: its schema may change (its successor carries the new shape).
    assert.deepEqual((await client.pullDiagnostics(schemaUri)).items, []);
    // The new schema is new since HEAD: no break; a fixture of the new URN that follows it lints clean.
    const v2 = uriOf(root, 'schemas/orders-created.v2.json');
    await openJson(client, v2, TIGHTENED_ORDERS_SCHEMA);
    assert.deepEqual((await client.pullDiagnostics(v2)).items, []);
    const next = uriOf(root, 'fixtures/next.babel.json');
    await client.open(next, ordersFixture({ order_id: 3, customer_id: 'c-3' }, `${URN}.v2`));
    assert.deepEqual((await client.pullDiagnostics(next)).items.map((item) => item.code), []);
  });
});

describe('no base to compare with', () => {
  test('outside a git repository: no break, and no error', async () => {
    const root = repository(false);
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
    try {
      await client.initialize();
      const schemaUri = uriOf(root, 'schemas/orders-created.json');
      await openJson(client, schemaUri, TIGHTENED_ORDERS_SCHEMA);
      assert.deepEqual((await client.pullDiagnostics(schemaUri)).items, []);
      assert.deepEqual(client.logs.filter((line) => /failed/.test(line)), []);
    } finally {
      client.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('an untrusted workspace runs no git until the user trusts it; babelq.json\'s "compatBase": "" turns it off', async () => {
    const root = repository(true);
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], initializationOptions: { workspaceTrusted: false } });
    try {
      await client.initialize();
      const schemaUri = uriOf(root, 'schemas/orders-created.json');
      await openJson(client, schemaUri, TIGHTENED_ORDERS_SCHEMA);
      assert.deepEqual((await client.pullDiagnostics(schemaUri)).items, []);
      await client.connection.sendNotification('babelqueue/workspaceTrusted');
      assert.deepEqual((await client.pullDiagnostics(schemaUri)).items.map((item) => item.code), ['breaking-change']);
      writeFileSync(join(root, 'babelq.json'), '{ "compatBase": "" }\n');
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(root, 'babelq.json'), type: 1 }] });
      assert.deepEqual((await client.pullDiagnostics(schemaUri)).items, []);
    } finally {
      client.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the editor and babelq compat --base agree', () => {
  test('every break of a saved edit: the same code, range and words in both (the editor adds the fixture count)', async () => {
    const root = repository(true);
    // Several kinds of break at once: a type changed, an enum added, a bound tightened, a name now required, closed.
    const edited = ORDERS_SCHEMA.replace('"order_id": { "type": "integer" }', '"order_id": { "type": "string" }')
      .replace('"customer_id": { "type": "string" }', '"customer_id": { "type": "string", "minLength": 3, "enum": ["c-1", "c-2"] }')
      .replace('"required": ["order_id"]', '"required": ["order_id", "customer_id"], "additionalProperties": false');
    writeFileSync(join(root, 'schemas/orders-created.json'), edited);
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], initializationOptions: { workspaceTrusted: true } });
    try {
      await client.initialize();
      const schemaUri = uriOf(root, 'schemas/orders-created.json');
      await openJson(client, schemaUri, edited);
      const editor = (await client.pullDiagnostics(schemaUri)).items.map((item) => ({ code: item.code, range: item.range, words: item.message.replace(/ \d+ of the \d+ fixtures? .*$/, '') }));
      const cli = babelqRun(['compat', '--base', 'HEAD', '--format', 'json'], root);
      assert.equal(cli.status, 1, cli.stderr);
      // Every file compared is listed, as lint lists every file it checked; one of them breaks.
      const reports = (JSON.parse(cli.stdout) as { file: string; diagnostics: { code: string; message: string; range: unknown }[] }[]).filter((report) => report.diagnostics.length > 0);
      assert.deepEqual(reports.map((report) => report.file), ['schemas/orders-created.json']);
      const fromCli = reports[0].diagnostics.map((diagnostic) => ({ code: diagnostic.code, range: diagnostic.range, words: diagnostic.message }));
      assert.ok(fromCli.length >= 4, JSON.stringify(fromCli));
      assert.deepEqual(editor, fromCli);
    } finally {
      client.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/** babelq as CI runs it, from the built bundle. */
function babelqRun(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(__dirname, '../../dist/cli.js'), ...args], { cwd, encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
