/**
 * A registry of another name, over real JSON-RPC against dist/server.js: the file babelq.json names
 * as the registry (`{"registry": "config/sub.json"}`), or the setting babelqueue.registry.path,
 * opened in the editor is that registry, as a registry.json is: its own problems as diagnostics
 * (not an envelope's), links to its schemas, references from its URNs and to them, and the
 * dynamic registrations that let an editor ask for those. A JSON file nothing names stays plain.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import { describe, test } from 'node:test';
import { LineIndex } from '../../core/model/positions';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const { at, uriOf, write } = scratchFolder('babelq-named-registry-');

const REGISTRY = {
  schemas: [
    { urn: 'urn:babel:orders:created', schema: 'schemas/orders.json', owner: 'orders-team', status: 'active' },
    { urn: 'urn:babel:orders:placed', schema: 'schemas/orders.json', owner: 'orders-team', status: 'active' },
  ],
};
const SCHEMA = { type: 'object', required: ['order_id'], properties: { order_id: { type: 'integer' } } };
const envelope = (job: string) => GOOD_ENVELOPE.replace('"urn:babel:orders:created"', JSON.stringify(job));

// Named by babelq.json.
write('project/babelq.json', { registry: 'config/sub.json' });
write('project/config/sub.json', REGISTRY);
write('project/config/schemas/orders.json', SCHEMA);
// Registry-shaped, but named by nothing: plain JSON to the server.
write('project/config/other.json', REGISTRY);
write('project/fixtures/placed.babel.json', envelope('urn:babel:orders:placed'));
// Named by the editor's setting instead.
write('set/config/sub.json', REGISTRY);
write('set/config/schemas/orders.json', SCHEMA);
write('set/fixtures/placed.babel.json', envelope('urn:babel:orders:placed'));
// The same project's config folder reached through a link, as a checkout may hold one.
symlinkSync('config', at('project/cfg'));

const text = (path: string) => readFileSync(at(path), 'utf8');
const positionOf = (source: string, needle: string, delta = 0) => {
  const offset = source.indexOf(needle);
  assert.ok(offset >= 0, `${needle} is not in the text`);
  return new LineIndex(source).positionAt(offset + delta);
};

async function withClient(options: ConstructorParameters<typeof TestLspClient>[0], run: (client: TestLspClient) => Promise<void>): Promise<void> {
  const client = new TestLspClient(options);
  try {
    await client.initialize();
    await run(client);
  } finally {
    await client.shutdown();
  }
}

/** Opens a file as VS Code opens a .json file (language id json). */
function openJson(client: TestLspClient, path: string, source = text(path)): Promise<void> {
  return client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf(path), languageId: 'json', version: 1, text: source } });
}

/** What an opened registry of `folder` answers: its diagnostics' codes, its links' targets, the fixtures its second URN is used in. */
async function asRegistry(client: TestLspClient, folder: string): Promise<void> {
  const path = `${folder}/config/sub.json`;
  const uri = uriOf(path);
  const source = text(path);
  await openJson(client, path);
  assert.deepEqual((await client.pullDiagnostics(uri)).items, [], 'a sound registry has no findings, and none of an envelope');
  const links: { target: string }[] = await client.request('textDocument/documentLink', { textDocument: { uri } });
  assert.deepEqual(links.map((link) => link.target), [uriOf(`${folder}/config/schemas/orders.json`), uriOf(`${folder}/config/schemas/orders.json`)]);
  const references: { uri: string }[] = await client.request('textDocument/references', { textDocument: { uri }, position: positionOf(source, 'urn:babel:orders:placed', 2), context: { includeDeclaration: false } });
  assert.deepEqual(references.map((reference) => reference.uri), [uriOf(`${folder}/fixtures/placed.babel.json`)]);
  const [toSchema] = await client.request('textDocument/definition', { textDocument: { uri }, position: positionOf(source, 'schemas/orders.json', 3) });
  assert.equal(toSchema?.uri, uriOf(`${folder}/config/schemas/orders.json`));
  // Its own problems, on its unsaved text: a duplicate URN, as in a registry.json.
  const duplicated = source.replace('"urn:babel:orders:placed"', '"urn:babel:orders:created"');
  await client.change(uri, duplicated, 2);
  const items = (await client.pullDiagnostics(uri)).items;
  assert.deepEqual(items.map((item) => item.code), ['registry-error']);
  assert.match(items[0].message, /Duplicate URN/);
  await client.change(uri, source, 3);
  assert.deepEqual((await client.pullDiagnostics(uri)).items, []);
  await client.close(uri);
}

describe('a registry named by babelq.json, opened in the editor', () => {
  test('is the registry: its findings, links, references and definitions, as a registry.json gets', async () => {
    await withClient({ workspaceFolders: [uriOf('project')] }, async (client) => {
      await asRegistry(client, 'project');
      // From the fixture's URN: its declaration is the entry in config/sub.json.
      const fixture = uriOf('project/fixtures/placed.babel.json');
      const fixtureText = text('project/fixtures/placed.babel.json');
      await client.open(fixture, fixtureText);
      const withDeclaration: { uri: string; range: { start: unknown } }[] = await client.request('textDocument/references', {
        textDocument: { uri: fixture },
        position: positionOf(fixtureText, 'urn:babel:orders:placed', 4),
        context: { includeDeclaration: true },
      });
      assert.deepEqual(withDeclaration.map((reference) => [reference.uri, reference.range.start]), [
        [uriOf('project/config/sub.json'), positionOf(text('project/config/sub.json'), '"urn:babel:orders:placed"')],
        [fixture, positionOf(fixtureText, '"urn:babel:orders:placed"')],
      ]);
    });
  });

  test('a JSON file beside it that nothing names stays plain JSON: no registry findings, no links, no references', async () => {
    await withClient({ workspaceFolders: [uriOf('project')] }, async (client) => {
      const uri = uriOf('project/config/other.json');
      const duplicated = text('project/config/other.json').replace('"urn:babel:orders:placed"', '"urn:babel:orders:created"');
      await openJson(client, 'project/config/other.json', duplicated);
      assert.deepEqual((await client.pullDiagnostics(uri)).items, []);
      assert.deepEqual(await client.request('textDocument/documentLink', { textDocument: { uri } }), []);
      assert.deepEqual(await client.request('textDocument/references', { textDocument: { uri }, position: positionOf(duplicated, 'urn:babel:orders:created', 2), context: { includeDeclaration: false } }), []);
    });
  });

  test('opened through a linked folder (cfg -> config), it is the registry still: its own findings, links and references, not plain JSON', async () => {
    await withClient({ workspaceFolders: [uriOf('project')] }, async (client) => {
      const path = 'project/cfg/sub.json';
      const uri = uriOf(path);
      await openJson(client, path);
      assert.deepEqual((await client.pullDiagnostics(uri)).items, [], 'a sound registry has no findings, and none of an envelope');
      const links: { target: string }[] = await client.request('textDocument/documentLink', { textDocument: { uri } });
      assert.deepEqual(links.map((link) => link.target), [uriOf('project/cfg/schemas/orders.json'), uriOf('project/cfg/schemas/orders.json')]);
      const references: { uri: string }[] = await client.request('textDocument/references', { textDocument: { uri }, position: positionOf(text(path), 'urn:babel:orders:placed', 2), context: { includeDeclaration: false } });
      assert.deepEqual(references.map((reference) => reference.uri), [uriOf('project/fixtures/placed.babel.json')]);
      await client.change(uri, text(path).replace('"urn:babel:orders:placed"', '"urn:babel:orders:created"'), 2);
      const items = (await client.pullDiagnostics(uri)).items;
      assert.deepEqual(items.map((item) => item.code), ['registry-error']);
      assert.match(items[0].message, /Duplicate URN/);
    });
  });

  test('named by the setting babelqueue.registry.path, it is the registry too', async () => {
    await withClient({ workspaceFolders: [uriOf('set')], settings: { registry: { path: 'config/sub.json' } } }, async (client) => {
      await asRegistry(client, 'set');
    });
  });

  test('an editor that registers features dynamically (VS Code) is registered references and links for it', async () => {
    const features = ['hover', 'completion', 'codeAction', 'formatting', 'foldingRange', 'documentSymbol', 'selectionRange', 'definition', 'references', 'documentLink'];
    const capabilities = { workspace: { configuration: true }, textDocument: { diagnostic: {}, publishDiagnostics: {}, ...Object.fromEntries(features.map((feature) => [feature, { dynamicRegistration: true }])) } };
    await withClient({ workspaceFolders: [uriOf('project')], capabilities }, async (client) => {
      const methods = ['textDocument/references', 'textDocument/documentLink'];
      const started = Date.now();
      while (!methods.every((method) => client.registrations.some((registration) => registration.method === method)) && Date.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 20));
      const uri = uriOf('project/config/sub.json');
      /** Whether a filter takes a .json file: by language and scheme, and a pattern `**\/<name>` by the file's name. */
      const takes = (filter: { language?: string; scheme?: string; pattern?: string }) => {
        if (filter.pattern !== undefined) assert.match(filter.pattern, /^\*\*\/[^*?{}[\]/]+$/, `a pattern this test reads: ${filter.pattern}`);
        return (filter.language === undefined || filter.language === 'json') && (filter.scheme === undefined || uri.startsWith(`${filter.scheme}:`)) && (filter.pattern === undefined || uri.endsWith(`/${filter.pattern.slice(3)}`));
      };
      for (const method of methods) {
        const selectors = client.registrations.filter((registration) => registration.method === method).map((registration) => registration.registerOptions.documentSelector as { language?: string; scheme?: string; pattern?: string }[]);
        assert.ok(selectors.some((selector) => selector.some(takes)), `${method}: ${JSON.stringify(selectors)}`);
      }
      await asRegistry(client, 'project');
    });
  });
});

// A monorepo: packages/a's babelq.json names the registry in another folder; packages/b's names a
// file outside the workspace folder (mono), which is never a registry.
write('mono/packages/a/babelq.json', { registry: '../../platform/main.json' });
write('mono/packages/a/fixtures/placed.babel.json', envelope('urn:babel:orders:placed'));
write('mono/packages/b/babelq.json', { registry: '../../../outside/main.json' });
write('mono/packages/b/fixtures/placed.babel.json', envelope('urn:babel:orders:created'));
write('mono/platform/main.json', REGISTRY);
write('mono/platform/schemas/orders.json', SCHEMA);
write('outside/main.json', REGISTRY);
write('outside/schemas/orders.json', SCHEMA);
// The shared folder reached through a link.
symlinkSync('platform', at('mono/common'));
// Named inside the workspace folder, but a link to the file outside it.
write('mono/packages/c/babelq.json', { registry: '../../platform/leak.json' });
symlinkSync(at('outside/main.json'), at('mono/platform/leak.json'));

describe('a registry named by a babelq.json in another folder of the workspace (a monorepo)', () => {
  /** Reads packages/a's settings, as the workspace's walk or an open fixture of it does. */
  async function knowPackageA(client: TestLspClient): Promise<void> {
    const fixture = uriOf('mono/packages/a/fixtures/placed.babel.json');
    await client.open(fixture, text('mono/packages/a/fixtures/placed.babel.json'));
    await client.pullDiagnostics(fixture);
  }

  test('opened, it is the registry: its findings, links and references', async () => {
    await withClient({ workspaceFolders: [uriOf('mono')] }, async (client) => {
      await knowPackageA(client);
      const path = 'mono/platform/main.json';
      const uri = uriOf(path);
      await openJson(client, path);
      assert.deepEqual((await client.pullDiagnostics(uri)).items, [], 'a sound registry has no findings, and none of an envelope');
      const links: { target: string }[] = await client.request('textDocument/documentLink', { textDocument: { uri } });
      assert.deepEqual(links.map((link) => link.target), [uriOf('mono/platform/schemas/orders.json'), uriOf('mono/platform/schemas/orders.json')]);
      const references: { uri: string }[] = await client.request('textDocument/references', { textDocument: { uri }, position: positionOf(text(path), 'urn:babel:orders:placed', 2), context: { includeDeclaration: false } });
      assert.deepEqual(references.map((reference) => reference.uri), [uriOf('mono/packages/a/fixtures/placed.babel.json')]);
      await client.change(uri, text(path).replace('"urn:babel:orders:placed"', '"urn:babel:orders:created"'), 2);
      const items = (await client.pullDiagnostics(uri)).items;
      assert.deepEqual(items.map((item) => item.code), ['registry-error']);
      assert.match(items[0].message, /Duplicate URN/);
    });
  });

  test('opened through a linked folder (common -> platform), it is the registry still', async () => {
    await withClient({ workspaceFolders: [uriOf('mono')] }, async (client) => {
      await knowPackageA(client);
      const path = 'mono/common/main.json';
      const uri = uriOf(path);
      await openJson(client, path, text(path).replace('"urn:babel:orders:placed"', '"urn:babel:orders:created"'));
      assert.deepEqual((await client.pullDiagnostics(uri)).items.map((item) => item.code), ['registry-error']);
    });
  });

  test('opened before any babelq.json naming it was read, it becomes the registry once one is, with a refresh', async () => {
    await withClient({ workspaceFolders: [uriOf('mono')] }, async (client) => {
      const path = 'mono/platform/main.json';
      const uri = uriOf(path);
      await openJson(client, path, text(path).replace('"urn:babel:orders:placed"', '"urn:babel:orders:created"'));
      const before = client.refreshes;
      await knowPackageA(client);
      await client.waitForRefreshes(before);
      assert.deepEqual((await client.pullDiagnostics(uri)).items.map((item) => item.code), ['registry-error']);
    });
  });

  test('a file outside the workspace folder that a babelq.json names stays plain JSON, and the fixtures are told it was not read', async () => {
    await withClient({ workspaceFolders: [uriOf('mono')] }, async (client) => {
      const fixture = uriOf('mono/packages/b/fixtures/placed.babel.json');
      await client.open(fixture, text('mono/packages/b/fixtures/placed.babel.json'));
      const fixtureItems = (await client.pullDiagnostics(fixture)).items;
      assert.ok(fixtureItems.some((item) => item.code === 'registry-error' && /outside the workspace folder/.test(item.message)), JSON.stringify(fixtureItems));
      const uri = uriOf('outside/main.json');
      await openJson(client, 'outside/main.json', text('outside/main.json').replace('"urn:babel:orders:placed"', '"urn:babel:orders:created"'));
      assert.deepEqual((await client.pullDiagnostics(uri)).items, []);
      assert.deepEqual(await client.request('textDocument/documentLink', { textDocument: { uri } }), []);
      // Named inside the folder, leading out of it through a link: plain JSON too.
      await client.open(uriOf('mono/packages/c/babelq.json'), text('mono/packages/c/babelq.json'));
      await client.pullDiagnostics(uriOf('mono/packages/c/babelq.json'));
      const leak = uriOf('mono/platform/leak.json');
      await openJson(client, 'mono/platform/leak.json', text('outside/main.json').replace('"urn:babel:orders:placed"', '"urn:babel:orders:created"'));
      assert.deepEqual((await client.pullDiagnostics(leak)).items, []);
      assert.deepEqual(await client.request('textDocument/documentLink', { textDocument: { uri: leak } }), []);
    });
  });
});

describe('a registry named from another folder, once the babelq.json naming it changes on disk', () => {
  test('a change that keeps its "registry" keeps the file the registry, with no fixture of that package open', async () => {
    await withClient({ workspaceFolders: [uriOf('mono')] }, async (client) => {
      const fixture = uriOf('mono/packages/a/fixtures/placed.babel.json');
      await client.open(fixture, text('mono/packages/a/fixtures/placed.babel.json'));
      await client.pullDiagnostics(fixture);
      await client.close(fixture);
      const path = 'mono/platform/main.json';
      const uri = uriOf(path);
      await openJson(client, path, text(path).replace('"urn:babel:orders:placed"', '"urn:babel:orders:created"'));
      assert.deepEqual((await client.pullDiagnostics(uri)).items.map((item) => item.code), ['registry-error']);
      // Saved again as it was (a formatter, a checkout): the same registry named.
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('mono/packages/a/babelq.json'), type: 2 }] });
      await client.waitForQuiet();
      assert.deepEqual((await client.pullDiagnostics(uri)).items.map((item) => item.code), ['registry-error']);
    });
  });
});

describe('a registry named from another folder, once the babelq.json naming it is deleted', () => {
  test('it is plain JSON again: no registry findings', async () => {
    write('gone/packages/a/babelq.json', { registry: '../../platform/main.json' });
    write('gone/packages/a/fixtures/placed.babel.json', envelope('urn:babel:orders:placed'));
    write('gone/platform/main.json', REGISTRY);
    write('gone/platform/schemas/orders.json', SCHEMA);
    await withClient({ workspaceFolders: [uriOf('gone')] }, async (client) => {
      const fixture = uriOf('gone/packages/a/fixtures/placed.babel.json');
      await client.open(fixture, text('gone/packages/a/fixtures/placed.babel.json'));
      await client.pullDiagnostics(fixture);
      await client.close(fixture);
      const path = 'gone/platform/main.json';
      const uri = uriOf(path);
      await openJson(client, path, text(path).replace('"urn:babel:orders:placed"', '"urn:babel:orders:created"'));
      assert.deepEqual((await client.pullDiagnostics(uri)).items.map((item) => item.code), ['registry-error']);
      rmSync(at('gone/packages/a/babelq.json'));
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('gone/packages/a/babelq.json'), type: 3 }] });
      await client.waitForQuiet();
      assert.deepEqual((await client.pullDiagnostics(uri)).items, []);
    });
  });
});

describe('a registry named only by a babelq.json in a folder the workspace\'s walk leaves out', () => {
  test('the walk reads no config in a .gitignored folder, so the file it names stays plain JSON; one named from a folder walked is the registry (babelq lint agrees)', async () => {
    write('walked/.gitignore', 'tmp/\n');
    write('walked/tmp/babelq.json', { registry: '../platform/main.json' });
    write('walked/tmp/fixtures/placed.babel.json', envelope('urn:babel:orders:placed'));
    write('walked/packages/a/babelq.json', { registry: '../../platform/shared.json' });
    write('walked/packages/a/fixtures/placed.babel.json', envelope('urn:babel:orders:placed'));
    write('walked/platform/main.json', REGISTRY);
    write('walked/platform/shared.json', REGISTRY);
    write('walked/platform/schemas/orders.json', SCHEMA);
    execFileSync('git', ['init', '-q', at('walked')], { stdio: 'ignore' });
    await withClient({ workspaceFolders: [uriOf('walked')] }, async (client) => {
      const report = await client.request<{ items: { uri: string }[] }>('workspace/diagnostic', { previousResultIds: [] });
      assert.ok(report.items.some((item) => item.uri === uriOf('walked/packages/a/fixtures/placed.babel.json')), JSON.stringify(report.items.map((item) => item.uri)));
      assert.ok(!report.items.some((item) => item.uri.startsWith(uriOf('walked/tmp/'))), 'the walk did not enter tmp/');
      const duplicated = (path: string) => text(path).replace('"urn:babel:orders:placed"', '"urn:babel:orders:created"');
      await openJson(client, 'walked/platform/shared.json', duplicated('walked/platform/shared.json'));
      assert.deepEqual((await client.pullDiagnostics(uriOf('walked/platform/shared.json'))).items.map((item) => item.code), ['registry-error']);
      await openJson(client, 'walked/platform/main.json', duplicated('walked/platform/main.json'));
      assert.deepEqual((await client.pullDiagnostics(uriOf('walked/platform/main.json'))).items, []);
    });
  });
});
