/**
 * registry.json's own problems reach the editor without the file being opened, over real
 * JSON-RPC against dist/server.js: in the workspace's report (`workspace/diagnostic`) for a client
 * that pulls, pushed for one that does not; cleared when the registry is mended; a registry that
 * never had a problem is not reported.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const { at, uriOf, write } = scratchFolder('babelq-registry-reports-');

const BROKEN = '{"schemas": [';
const MISSING_SCHEMA = '{\n  "schemas": [\n    { "urn": "urn:babel:orders:created", "schema": "schemas/missing.json", "owner": "orders", "status": "active" }\n  ]\n}\n';
const HEALTHY = JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/orders.json', owner: 'orders', status: 'active' }] }, null, 2);
// Three projects: a registry that is not JSON, one whose schema file is missing, one without a problem.
for (const [project, registry] of [['broken', BROKEN], ['missing', MISSING_SCHEMA], ['healthy', HEALTHY], ['elsewhere', BROKEN]]) {
  mkdirSync(at(`${project}/.git`), { recursive: true });
  write(`${project}/registry.json`, registry);
  write(`${project}/schemas/orders.json`, JSON.stringify({ type: 'object' }));
  write(`${project}/fixtures/order.babel.json`, GOOD_ENVELOPE);
}

type Item = { kind: 'full' | 'unchanged'; uri: string; resultId?: string; items?: { code: string; message: string; range: { start: { line: number } } }[] };
const workspaceReport = async (client: TestLspClient, previous: Item[] = []) =>
  (await client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: previous.filter((item) => item.resultId).map((item) => ({ uri: item.uri, value: item.resultId! })) })).items;

describe('registry.json\'s problems without opening it', () => {
  test('pull: the workspace report lists each registry.json with a problem, then clears it when mended', async () => {
    const client = new TestLspClient({ workspaceFolders: [uriOf('broken'), uriOf('missing'), uriOf('healthy')] });
    try {
      await client.initialize();
      const first = await workspaceReport(client);
      const broken = first.find((item) => item.uri === uriOf('broken/registry.json'));
      assert.ok(broken?.items?.some((d) => d.code === 'registry-error'), JSON.stringify(first.map((item) => [item.uri, item.items?.map((d) => d.code)])));
      const missing = first.find((item) => item.uri === uriOf('missing/registry.json'));
      const missingError = missing?.items?.find((d) => d.code === 'registry-error');
      assert.ok(missingError, JSON.stringify(missing));
      assert.equal(missingError.range.start.line, 2, 'on the entry\'s schema path');
      assert.match(missingError.message, /schema file cannot be read/);
      assert.ok(!first.some((item) => item.uri === uriOf('healthy/registry.json')), 'a registry without a problem is not listed');
      // The fixture says its registry cannot be used; the problem itself is on registry.json.
      const fixtureError = first.find((item) => item.uri === uriOf('broken/fixtures/order.babel.json'))?.items?.find((d) => d.code === 'registry-error');
      // Named from its workspace folder, as babelq lint names it from the current folder (the parity test holds the two equal).
      assert.match(fixtureError?.message ?? '', /^The registry registry\.json cannot be used: /, JSON.stringify(fixtureError));

      // Mended on disk: registry.json is reported empty, the fixture without its registry-error.
      write('broken/registry.json', HEALTHY);
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('broken/registry.json'), type: 2 }] });
      const mended = await workspaceReport(client, first);
      const registry = mended.find((item) => item.uri === uriOf('broken/registry.json'));
      assert.deepEqual([registry?.kind, registry?.items], ['full', []], JSON.stringify(registry));
      assert.deepEqual(mended.find((item) => item.uri === uriOf('broken/fixtures/order.babel.json'))?.items, []);
      // Asked again with what it holds: nothing new for the registry.
      const again = await Promise.race([workspaceReport(client, [...first, ...mended]), new Promise<Item[]>((done) => setTimeout(() => done([]), 500))]);
      assert.ok(!again.some((item) => item.uri === uriOf('broken/registry.json') && item.kind === 'full'), JSON.stringify(again));
    } finally {
      write('broken/registry.json', BROKEN);
      client.kill();
    }
  });

  test('push: a plain client gets registry.json\'s diagnostics after the fixture\'s, unopened; again after it was opened and closed', async () => {
    const client = new TestLspClient({ root: {}, pullDiagnostics: false, plainClient: true });
    try {
      await client.initialize();
      const registryUri = uriOf('broken/registry.json');
      await client.open(uriOf('broken/fixtures/order.babel.json'), GOOD_ENVELOPE);
      await client.waitForPublished((all) => all.some((p) => p.uri === registryUri && p.diagnostics.some((d) => d.code === 'registry-error')), 10_000);
      await client.open(uriOf('healthy/fixtures/order.babel.json'), GOOD_ENVELOPE);
      await client.waitForPublished((all) => all.some((p) => p.uri === uriOf('healthy/fixtures/order.babel.json')), 10_000);
      assert.ok(!client.published.some((p) => p.uri === uriOf('healthy/registry.json')), 'nothing pushed for a registry without a problem');
      // Opened: its own diagnostics; closed: cleared, then what the disk says is pushed again.
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: BROKEN } });
      await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: registryUri } });
      await client.waitForPublished((all) => {
        const mine = all.filter((p) => p.uri === registryUri);
        const cleared = mine.findIndex((p) => p.diagnostics.length === 0);
        return cleared >= 0 && mine.slice(cleared + 1).some((p) => p.diagnostics.some((d) => d.code === 'registry-error'));
      }, 10_000);
    } finally {
      client.kill();
    }
  });

  test('a registry refused unread (configured outside the workspace folder) is not read, and nothing is reported on it', async () => {
    // The healthy project's fixtures point at the broken registry of a project that is not a workspace folder.
    const client = new TestLspClient({ workspaceFolders: [uriOf('healthy')], settings: { registry: { path: '../elsewhere/registry.json' } } });
    try {
      await client.initialize();
      const report = await workspaceReport(client);
      const fixture = report.find((item) => item.uri === uriOf('healthy/fixtures/order.babel.json'));
      assert.ok(fixture?.items?.some((d) => d.code === 'registry-error' && /outside the workspace folder/.test(d.message)), JSON.stringify(fixture));
      assert.deepEqual(report.filter((item) => item.uri.endsWith('/registry.json')).map((item) => item.uri), [], 'no registry.json is reported');
    } finally {
      client.kill();
    }
  });

  test('push: a registry no open fixture uses any more is cleared', async () => {
    const client = new TestLspClient({ root: {}, pullDiagnostics: false, plainClient: true });
    try {
      await client.initialize();
      const registryUri = uriOf('broken/registry.json');
      const fixtureUri = uriOf('broken/fixtures/order.babel.json');
      await client.open(fixtureUri, GOOD_ENVELOPE);
      await client.waitForPublished((all) => all.some((p) => p.uri === registryUri && p.diagnostics.some((d) => d.code === 'registry-error')), 10_000);
      await client.close(fixtureUri);
      await client.waitForPublished((all) => {
        const mine = all.filter((p) => p.uri === registryUri);
        return mine.length > 1 && mine[mine.length - 1].diagnostics.length === 0;
      }, 10_000);
    } finally {
      client.kill();
    }
  });
});

// VS Code percent-encodes `(`, `)` and `+` in a path, which Node's file URLs (the server's
// spelling of a path) keep: registry.json open under the editor's spelling is that document's,
// not pushed a second time under the server's. An editor takes both spellings for the one file
// (Neovim and eglot decode a URI to its path), so the second sender's clearing, when the last
// fixture using the registry closed, wiped the open registry.json's findings.
describe('registry.json open under another spelling of its URI', () => {
  const project = 'team (a)+1';
  mkdirSync(at(`${project}/.git`), { recursive: true });
  write(`${project}/registry.json`, BROKEN);
  write(`${project}/schemas/orders.json`, JSON.stringify({ type: 'object' }));
  write(`${project}/fixtures/order.babel.json`, GOOD_ENVELOPE);
  const serverUri = (path: string) => uriOf(`${project}/${path}`);
  const editorUri = (path: string) => serverUri(path).replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/\+/g, '%2B');

  test('push, scope openFiles: its findings are the open document\'s, sent under the editor\'s URI alone, kept when its fixture closes, and follow an unsaved edit', { timeout: 30_000 }, async () => {
    // Scope openFiles: the open fixtures alone use the registry (the workspace's report does not list it).
    const client = new TestLspClient({ workspaceFolders: [editorUri('').replace(/\/$/, '')], pullDiagnostics: false, settings: { diagnostics: { scope: 'openFiles' } } });
    try {
      assert.notEqual(editorUri('registry.json'), serverUri('registry.json'));
      await client.initialize();
      // Its schema path broken in the editor, unsaved: the file on disk is not JSON at all.
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: editorUri('registry.json'), languageId: 'json', version: 1, text: MISSING_SCHEMA } });
      const fixtureUri = editorUri('fixtures/order.babel.json');
      await client.open(fixtureUri, GOOD_ENVELOPE);
      const codes = (uri: string) => client.published.filter((p) => p.uri === uri).at(-1)?.diagnostics.map((d) => d.code);
      // What an editor that takes both spellings for the file shows: the last sent under either.
      const shown = () => client.published.filter((p) => p.uri === editorUri('registry.json') || p.uri === serverUri('registry.json')).at(-1)?.diagnostics.map((d) => d.code);
      await client.waitForPublished((all) => all.some((p) => p.uri === fixtureUri) && all.some((p) => p.uri === editorUri('registry.json')), 10_000);
      // Time for a second sender to speak.
      await new Promise((done) => setTimeout(done, 500));
      assert.deepEqual(codes(fixtureUri), ['registry-error']);
      assert.deepEqual(shown(), ['registry-error']);
      // No fixture uses the registry now; registry.json still has its problem.
      await client.close(fixtureUri);
      await new Promise((done) => setTimeout(done, 500));
      assert.deepEqual(shown(), ['registry-error'], 'the open registry.json keeps its findings');
      // Mended in the editor, unsaved.
      await client.change(editorUri('registry.json'), HEALTHY, 2);
      await client.waitForPublished(() => codes(editorUri('registry.json'))?.length === 0, 10_000);
      assert.deepEqual(client.published.filter((p) => p.uri === serverUri('registry.json')), [], 'nothing sent for registry.json under the server\'s spelling');
    } finally {
      client.kill();
    }
  });
});

test('a registry.json saved as UTF-16 is reported as not UTF-8, as babelq lint says it, not passed over for having no "schemas" key', async () => {
  mkdirSync(at('utf16/.git'), { recursive: true });
  writeFileSync(at('utf16/registry.json'), Buffer.from(`\uFEFF${HEALTHY}`, 'utf16le'));
  write('utf16/fixtures/order.babel.json', GOOD_ENVELOPE);
  const client = new TestLspClient({ workspaceFolders: [uriOf('utf16')] });
  try {
    await client.initialize();
    const report = await workspaceReport(client);
    const registry = report.find((item) => item.uri === uriOf('utf16/registry.json'));
    assert.deepEqual(registry?.items?.map((d) => [d.code, d.message, d.range.start.line]), [['registry-error', 'The file is not valid UTF-8 (it starts with a UTF-16 byte-order mark); registry.json is read as UTF-8. Save it as UTF-8.', 0]], JSON.stringify(report.map((item) => [item.uri, item.items])));
  } finally {
    client.kill();
  }
});
