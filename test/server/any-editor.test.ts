/**
 * The server as editors other than VS Code use it, over stdio against dist/server.js: a root from
 * rootUri or rootPath and, with neither, from the file (the nearest folder holding .git, else
 * babelq.json, else registry.json, else its own folder), never reading a registry above that root; the registry's state as
 * window/logMessage and one window/showMessage per broken registry; every feature from a plain
 * client (push diagnostics, no configuration requests, no dynamic registration); and the byte
 * preview through babelqueue/preview and the babelqueue.preview command, equal to babelq preview.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const { at, uriOf, write } = scratchFolder('babelq-any-editor-');
const CLI = resolve(__dirname, '../../dist/cli.js');


/** The shared valid envelope with another `job`, and `extra` members before "attempts". */
const envelope = (job: string, extra = '') => GOOD_ENVELOPE.replace('"urn:babel:orders:created"', JSON.stringify(job)).replace('\n  "attempts"', `${extra}\n  "attempts"`);

// A registry above the project that must never be read for the project's files.
write('outer/registry.json', { schemas: [{ urn: 'urn:babel:outer:only', schema: 'schemas/any.json' }] });
write('outer/schemas/any.json', { type: 'object' });
mkdirSync(at('outer/project/.git'), { recursive: true });
write('outer/project/registry.json', { schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/orders.json', owner: 'orders-team', status: 'active' }] });
write('outer/project/schemas/orders.json', { type: 'object', required: ['order_id'], properties: { order_id: { type: 'integer' } } });
write('outer/project/fixtures/deep/known.babel.json', envelope('urn:babel:orders:created'));
write('outer/project/fixtures/deep/outer.babel.json', envelope('urn:babel:outer:only'));
write('outer/project/fixtures/deep/legacy.babel.json', envelope('urn:babel:orders:created', '\n  "timestamp": 1749132727,'));
// No .git anywhere above: the nearest folder holding registry.json is the root, so the registry
// one level up is found (a deprecated entry shows it is used).
write('loose/registry.json', { schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/orders.json', status: 'deprecated' }] });
write('loose/schemas/orders.json', { type: 'object' });
write('loose/sub/known.babel.json', envelope('urn:babel:orders:created'));
// No .git either, but a babelq.json: it marks the root, and the registry above it is not read.
write('configured/registry.json', { schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/orders.json', status: 'deprecated' }] });
write('configured/schemas/orders.json', { type: 'object' });
write('configured/project/babelq.json', { moneyKeyPatterns: ['amount'] });
write('configured/project/sub/known.babel.json', envelope('urn:babel:orders:created'));
// Nothing above at all: the file's own folder.
write('bare/sub/known.babel.json', envelope('urn:babel:orders:created'));
// A broken registry (not JSON) in a project of its own.
mkdirSync(at('broken/.git'), { recursive: true });
write('broken/registry.json', '{"schemas": [');
write('broken/a.babel.json', envelope('urn:babel:orders:created'));

const fileText = (path: string) => readFileSync(at(path), 'utf8');

async function codesOf(client: TestLspClient, path: string): Promise<string[]> {
  await client.open(uriOf(path), fileText(path));
  const report = await client.pullDiagnostics(uriOf(path));
  return report.items.map((item) => item.code);
}

async function withClient<T>(options: ConstructorParameters<typeof TestLspClient>[0], run: (client: TestLspClient) => Promise<T>): Promise<T> {
  const client = new TestLspClient(options);
  try {
    await client.initialize();
    return await run(client);
  } finally {
    await client.shutdown();
  }
}

describe('the root without workspace folders', () => {
  test('rootUri is the root: the registry inside it is used, one above it is not', async () => {
    await withClient({ root: { rootUri: uriOf('outer/project') } }, async (client) => {
      assert.ok(!(await codesOf(client, 'outer/project/fixtures/deep/known.babel.json')).includes('unknown-urn'));
      assert.ok((await codesOf(client, 'outer/project/fixtures/deep/outer.babel.json')).includes('unknown-urn'), 'outer/registry.json is above the root');
    });
    await withClient({ root: { rootUri: uriOf('outer/project/fixtures') } }, async (client) => {
      assert.ok(!(await codesOf(client, 'outer/project/fixtures/deep/outer.babel.json')).includes('unknown-urn'), 'no registry inside the root: no URN check');
      assert.ok(client.logs.some((line) => line.includes('No registry.json') && line.includes(at('outer/project/fixtures'))), client.logs.join('\n'));
    });
  });

  test('rootPath stands for rootUri when that is absent', async () => {
    await withClient({ root: { rootPath: at('outer/project') } }, async (client) => {
      assert.ok((await codesOf(client, 'outer/project/fixtures/deep/outer.babel.json')).includes('unknown-urn'));
      assert.ok(client.logs.some((line) => line.includes(`registry ${at('outer/project/registry.json')} loaded: 1 URN`)), client.logs.join('\n'));
    });
  });

  test('with neither, the nearest folder holding .git, else babelq.json, else registry.json, else the file\'s own folder', async () => {
    await withClient({ root: {} }, async (client) => {
      assert.ok(!(await codesOf(client, 'outer/project/fixtures/deep/known.babel.json')).includes('unknown-urn'), 'the project registry is found from two levels down');
      assert.ok((await codesOf(client, 'outer/project/fixtures/deep/outer.babel.json')).includes('unknown-urn'), 'the registry above .git is not read');
      assert.ok((await codesOf(client, 'loose/sub/known.babel.json')).includes('deprecated-urn'), 'the registry.json in the parent folder is found and used');
      assert.ok(client.logs.some((line) => line.includes(`registry ${at('loose/registry.json')} loaded: 1 URN`)), client.logs.join('\n'));
      assert.ok(!(await codesOf(client, 'configured/project/sub/known.babel.json')).includes('deprecated-urn'), 'babelq.json marks the root: the registry above it is not read');
      assert.ok(client.logs.some((line) => line.includes('No registry.json') && line.includes(`inside ${at('configured/project')}`)), client.logs.join('\n'));
      await codesOf(client, 'bare/sub/known.babel.json');
      assert.ok(client.logs.some((line) => line.includes('No registry.json') && line.includes(`inside ${at('bare/sub')}`)), client.logs.join('\n'));
    });
  });

  test('a root that names no local folder (Neovim sends a relative root_dir "." as file://.) is logged and left out: each file\'s project is found as without one', async () => {
    for (const root of [{ workspaceFolders: ['file://.'] }, { root: { rootUri: 'https://example.com/project' } }]) {
      await withClient(root, async (client) => {
        assert.ok((await codesOf(client, 'outer/project/fixtures/deep/outer.babel.json')).includes('unknown-urn'), 'the project registry is found from the file');
        const named = 'workspaceFolders' in root ? 'file://.' : 'https://example.com/project';
        assert.ok(client.logs.some((line) => line.startsWith(`The root ${named} the editor named is no local folder`) && /each file's project is found from the file/.test(line)), client.logs.join('\n'));
      });
    }
    // A remote root's password is not written to the log: the user is named, the password masked.
    await withClient({ root: { rootUri: 'sftp://deploy:s3cret@example.com/project' } }, async (client) => {
      await codesOf(client, 'outer/project/fixtures/deep/outer.babel.json');
      assert.ok(client.logs.some((line) => line.startsWith('The root sftp://deploy:***@example.com/project the editor named is no local folder')), client.logs.join('\n'));
      assert.ok(!client.logs.some((line) => line.includes('s3cret')), client.logs.join('\n'));
    });
    // A root that is a local folder is not logged as one.
    await withClient({ root: { rootUri: uriOf('outer/project') } }, async (client) => {
      await codesOf(client, 'outer/project/fixtures/deep/known.babel.json');
      assert.ok(!client.logs.some((line) => line.includes('is no local folder')), client.logs.join('\n'));
    });
  });
});

test('a broken registry is logged on every load and shown once per file, not on every edit', async () => {
  await withClient({ root: {} }, async (client) => {
    const uri = uriOf('broken/a.babel.json');
    await client.open(uri, fileText('broken/a.babel.json'));
    for (let version = 1; version <= 4; version++) {
      if (version > 1) await client.change(uri, envelope('urn:babel:orders:created').replace('"order_id": 1042', `"order_id": ${version}`), version);
      await client.pullDiagnostics(uri);
    }
    // registry.json open and edited in the editor: each edit reloads it, still broken the same way.
    const registryUri = uriOf('broken/registry.json');
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: '{"schemas": [' } });
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri: registryUri, version: 2 }, contentChanges: [{ text: '{"schemas": [ ' }] });
    await client.pullDiagnostics(registryUri);
    // Mended, then broken another way: still no second message.
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri: registryUri, version: 3 }, contentChanges: [{ text: '{"schemas": []}' }] });
    await client.pullDiagnostics(registryUri);
    await client.pullDiagnostics(uri);
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri: registryUri, version: 4 }, contentChanges: [{ text: '{"schemas": {' }] });
    const registryReport = await client.pullDiagnostics(registryUri);
    await client.pullDiagnostics(uri);
    assert.ok(registryReport.items.some((item) => item.code === 'registry-error'), 'registry.json carries its own diagnostic');
    const shown = client.shown.filter((message) => message.message.includes(at('broken/registry.json')));
    assert.equal(shown.length, 1, JSON.stringify(client.shown));
    assert.equal(shown[0].type, 1, 'shown as an error');
    assert.match(shown[0].message, /cannot be used/);
    assert.ok(client.logs.filter((line) => line.includes(`${at('broken/registry.json')} cannot be used`)).length >= 3, 'every reload is logged');
    assert.ok(client.logs.some((line) => line.includes(`${at('broken/registry.json')} loaded: 0 URNs`)), 'the mended registry is logged');
  });
});

test('a plain client (push diagnostics, no configuration, no registration) gets every feature', async () => {
  await withClient({ root: { rootUri: uriOf('outer/project') }, pullDiagnostics: false, plainClient: true }, async (client) => {
    assert.equal(client.configurationRequests, 0);
    const legacy = uriOf('outer/project/fixtures/deep/legacy.babel.json');
    const known = uriOf('outer/project/fixtures/deep/known.babel.json');
    await client.open(legacy, fileText('outer/project/fixtures/deep/legacy.babel.json'));
    await client.open(known, fileText('outer/project/fixtures/deep/known.babel.json'));
    await client.waitForPublished((all) => all.some((p) => p.uri === legacy && p.diagnostics.some((d) => d.code === 'forbidden-key')));
    const forbidden = client.published.find((p) => p.uri === legacy)!.diagnostics.find((d) => d.code === 'forbidden-key')!;
    const actions = await client.request('textDocument/codeAction', { textDocument: { uri: legacy }, range: forbidden.range, context: { diagnostics: [forbidden] } });
    assert.ok(actions.some((action: { title: string }) => action.title === 'Remove forbidden key "timestamp"'), JSON.stringify(actions));

    const onUrn = { textDocument: { uri: known }, position: { line: 1, character: 14 } };
    const completion = await client.request('textDocument/completion', onUrn);
    assert.deepEqual((completion.items ?? completion).map((item: { label: string }) => item.label), ['urn:babel:orders:created']);
    const hover = await client.request('textDocument/hover', onUrn);
    assert.match(hover.contents.value, /owner: orders-team · status: active/);
    const definition = await client.request('textDocument/definition', onUrn);
    assert.equal((Array.isArray(definition) ? definition[0] : definition).uri, uriOf('outer/project/registry.json'));

    const symbols = await client.request('textDocument/documentSymbol', { textDocument: { uri: known } });
    assert.deepEqual(symbols.map((symbol: { name: string }) => symbol.name), ['job', 'trace_id', 'data', 'meta', 'attempts']);
    const folding = await client.request('textDocument/foldingRange', { textDocument: { uri: known } });
    assert.ok(folding.some((range: { startLine: number }) => range.startLine === 0), JSON.stringify(folding));
    const squeezed = fileText('outer/project/fixtures/deep/known.babel.json').replace('"order_id": 1042', '"order_id":1042');
    await client.change(known, squeezed, 2);
    const edits = await client.request('textDocument/formatting', { textDocument: { uri: known }, options: { tabSize: 2, insertSpaces: true } });
    assert.ok(edits.length > 0 && edits.every((edit: { newText: string }) => /^\s*$/.test(edit.newText)), JSON.stringify(edits));

    const registryUri = uriOf('outer/project/registry.json');
    const registryText = fileText('outer/project/registry.json');
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: registryText } });
    const line = registryText.split('\n').findIndex((text) => text.includes('urn:babel:orders:created'));
    const references = await client.request('textDocument/references', { textDocument: { uri: registryUri }, position: { line, character: registryText.split('\n')[line].indexOf('urn:babel') + 3 }, context: { includeDeclaration: false } });
    const referring = references.map((location: { uri: string }) => location.uri).sort();
    assert.ok(referring.includes(known) && referring.includes(legacy) && !referring.includes(uriOf('outer/project/fixtures/deep/outer.babel.json')), JSON.stringify(referring));
  });
});

test('a client that declares no capability is sent no request: no configuration, registration, refresh or folders asked, and its diagnostics pushed', async () => {
  await withClient({ root: { rootUri: uriOf('outer/project') }, capabilities: {} }, async (client) => {
    const legacy = uriOf('outer/project/fixtures/deep/legacy.babel.json');
    await client.open(legacy, fileText('outer/project/fixtures/deep/legacy.babel.json'));
    assert.ok((await client.lastPublished(legacy)).some((diagnostic) => diagnostic.code === 'forbidden-key'));
    // The fixtures nobody opened are pushed too: the workspace's walk ran.
    await client.waitForPublished((all) => all.some((published) => published.uri === uriOf('outer/project/fixtures/deep/outer.babel.json')));
    await client.change(legacy, fileText('outer/project/fixtures/deep/legacy.babel.json').replace('"timestamp"', '"timestamp2"'), 2);
    await client.save(legacy);
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { babelqueue: { diagnostics: { severity: { 'forbidden-key': 'off' } } } } });
    await client.waitForQuiet(400);
    assert.deepEqual({ configuration: client.configurationRequests, registrations: client.registrations, refreshes: client.refreshes, other: client.otherRequests }, { configuration: 0, registrations: [], refreshes: 0, other: [] });
  });
});

test('a client that registers each feature dynamically (Sublime LSP declares it for all) is registered them for *.babel.json whatever language id it gives the file', async () => {
  const features = ['hover', 'completion', 'codeAction', 'formatting', 'foldingRange', 'documentSymbol', 'selectionRange', 'definition', 'references', 'documentLink'];
  const capabilities = { textDocument: { publishDiagnostics: {}, ...Object.fromEntries(features.map((feature) => [feature, { dynamicRegistration: true }])) } };
  await withClient({ root: { rootUri: uriOf('outer/project') }, capabilities }, async (client) => {
    const envelopeFeatures = ['hover', 'completion', 'codeAction', 'formatting', 'foldingRange', 'documentSymbol', 'selectionRange', 'definition'].map((feature) => `textDocument/${feature}`);
    const started = Date.now();
    while (!envelopeFeatures.every((method) => client.registrations.some((registration) => registration.method === method)) && Date.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 20));
    /** Whether a document selector takes the document, as the protocol reads one: every property a filter names must match. */
    const takes = (selector: { language?: string; scheme?: string; pattern?: string }[], uri: string, languageId: string) =>
      selector.some((filter) => (filter.language === undefined || filter.language === languageId) && (filter.scheme === undefined || uri.startsWith(`${filter.scheme}:`)) && (filter.pattern === undefined || globMatches(filter.pattern, new URL(uri).pathname)));
    const fixture = uriOf('outer/project/fixtures/deep/known.babel.json');
    for (const method of envelopeFeatures) {
      const registered = client.registrations.filter((registration) => registration.method === method);
      assert.ok(registered.length > 0, `${method} is registered: ${JSON.stringify(client.registrations.map((registration) => registration.method))}`);
      for (const languageId of ['json', 'jsonc', 'babelqueue-envelope']) {
        assert.ok(registered.some((registration) => takes(registration.registerOptions.documentSelector, fixture, languageId)), `${method} for a fixture whose language id is ${languageId}: ${JSON.stringify(registered.map((registration) => registration.registerOptions.documentSelector))}`);
      }
      // A JSON file that is no fixture keeps the editor's own JSON features alone.
      if (method !== 'textDocument/codeAction') assert.ok(!registered.some((registration) => takes(registration.registerOptions.documentSelector, uriOf('outer/project/package.json'), 'json')), `${method} for package.json`);
    }
    // And the feature answers such a file.
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: fixture, languageId: 'json', version: 1, text: fileText('outer/project/fixtures/deep/known.babel.json') } });
    assert.match((await client.request('textDocument/hover', { textDocument: { uri: fixture }, position: { line: 1, character: 14 } }))?.contents?.value ?? '', /orders-team/);
  });
});

/** A glob of a document filter (`**`, `*`, `?`, `{a,b}`) as a test of a path. */
function globMatches(glob: string, path: string): boolean {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (glob.startsWith('**/', index)) {
      source += '(?:.*/)?';
      index += 2;
    } else if (glob.startsWith('**', index)) {
      source += '.*';
      index += 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') source += '(?:';
    else if (char === '}') source += ')';
    else if (char === ',') source += '|';
    else source += char.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^(?:.*/)?${source}$`).test(path);
}

test('the outline is DocumentSymbol[] only for a client that declares hierarchicalDocumentSymbolSupport; any other gets SymbolInformation[], flat, each with its location and container', async () => {
  const uri = uriOf('outer/project/fixtures/deep/known.babel.json');
  const text = fileText('outer/project/fixtures/deep/known.babel.json');
  const outline = (capabilities: Record<string, unknown>) =>
    withClient({ root: { rootUri: uriOf('outer/project') }, capabilities }, async (client) => {
      await client.open(uri, text);
      return client.request('textDocument/documentSymbol', { textDocument: { uri } });
    });
  const hierarchical = await outline({ textDocument: { documentSymbol: { hierarchicalDocumentSymbolSupport: true } } });
  assert.deepEqual(hierarchical.map((symbol: { name: string }) => symbol.name), ['job', 'trace_id', 'data', 'meta', 'attempts']);
  assert.ok(hierarchical.find((symbol: { name: string }) => symbol.name === 'meta').children.length > 0);
  for (const capabilities of [{}, { textDocument: { documentSymbol: { hierarchicalDocumentSymbolSupport: false } } }]) {
    const flat = await outline(capabilities);
    // Each symbol of the tree, in its order, with the range the tree gives it and its parent's name.
    const expected: { name: string; kind: number; location: { uri: string; range: unknown }; containerName?: string }[] = [];
    const walk = (symbols: any[], container?: string) => {
      for (const symbol of symbols) {
        expected.push({ name: symbol.name, kind: symbol.kind, location: { uri, range: symbol.range }, ...(container !== undefined ? { containerName: container } : {}) });
        walk(symbol.children ?? [], symbol.name);
      }
    };
    walk(hierarchical);
    assert.deepEqual(flat, expected);
    assert.ok(flat.some((symbol: { name: string; containerName?: string }) => symbol.name === 'queue' && symbol.containerName === 'meta'), JSON.stringify(flat));
  }
});

test('a deprecated URN offered in completion is tagged for a client whose completionItem.tagSupport lists Deprecated, marked deprecated for one with deprecatedSupport alone, and neither for another', async () => {
  const uri = uriOf('loose/sub/known.babel.json');
  const offered = (completionItem: Record<string, unknown> | undefined) =>
    withClient({ root: {}, capabilities: completionItem ? { textDocument: { completion: { completionItem } } } : {} }, async (client) => {
      await client.open(uri, fileText('loose/sub/known.babel.json'));
      const answer = await client.request('textDocument/completion', { textDocument: { uri }, position: { line: 1, character: 14 } });
      const item = (answer.items ?? answer).find((candidate: { label: string }) => candidate.label === 'urn:babel:orders:created');
      assert.ok(item, JSON.stringify(answer));
      return { tags: item.tags, deprecated: item.deprecated };
    });
  assert.deepEqual(await offered({ tagSupport: { valueSet: [1] } }), { tags: [1], deprecated: undefined });
  assert.deepEqual(await offered({ tagSupport: { valueSet: [] }, deprecatedSupport: true }), { tags: undefined, deprecated: true });
  assert.deepEqual(await offered({ deprecatedSupport: false }), { tags: undefined, deprecated: undefined });
  assert.deepEqual(await offered(undefined), { tags: undefined, deprecated: undefined });
});

test('diagnostic tags go only to a client that declares them (publishDiagnostics.tagSupport), and only those in its value set', async () => {
  const uri = uriOf('loose/sub/known.babel.json');
  const deprecatedTags = async (capabilities: Record<string, unknown>) =>
    withClient({ root: {}, capabilities }, async (client) => {
      await client.open(uri, fileText('loose/sub/known.babel.json'));
      const deprecated = (await client.lastPublished(uri)).find((diagnostic) => diagnostic.code === 'deprecated-urn');
      assert.ok(deprecated, JSON.stringify(client.published));
      return deprecated.tags;
    });
  assert.equal(await deprecatedTags({}), undefined, 'no tagSupport declared');
  assert.equal(await deprecatedTags({ textDocument: { publishDiagnostics: { tagSupport: { valueSet: [1] } } } }), undefined, 'Deprecated (2) is not in the value set');
  assert.deepEqual(await deprecatedTags({ textDocument: { publishDiagnostics: { tagSupport: { valueSet: [1, 2] } } } }), [2]);
});

test('a client without snippet support (eglot without yasnippet, Neovim 0.7) gets completions as plain text, never snippet syntax', async () => {
  await withClient({ root: { rootUri: uriOf('outer/project') }, pullDiagnostics: false, plainClient: true }, async (client) => {
    const uri = uriOf('outer/project/fixtures/deep/typing.babel.json');
    await client.open(uri, '{\n  \n}\n');
    const list = await client.request('textDocument/completion', { textDocument: { uri }, position: { line: 1, character: 2 } });
    const items: { label: string; insertTextFormat?: number; textEdit: { newText: string } }[] = list.items ?? list;
    assert.ok(items.length >= 5, JSON.stringify(items));
    for (const item of items) {
      assert.notEqual(item.insertTextFormat, 2, `${item.label} is sent as a snippet to a client that cannot expand one`);
      assert.doesNotMatch(item.textEdit.newText, /\$\{?\d/, `${item.label} carries snippet placeholders`);
    }
    const byLabel = new Map(items.map((item) => [item.label, item.textEdit.newText]));
    assert.equal(byLabel.get('job'), '"job": "urn:babel:orders:created"');
    assert.equal(byLabel.get('data'), '"data": {}');
    assert.equal(byLabel.get('attempts'), '"attempts": 0');
    assert.match(byLabel.get('trace_id')!, /^"trace_id": "[0-9a-f-]{36}"$/);
    const meta = byLabel.get('meta')!;
    assert.doesNotMatch(meta, /\\/, 'no snippet escapes left');
    assert.equal(typeof JSON.parse(`{${meta}}`).meta.created_at, 'number');
  });
});

describe('the byte preview for any editor', () => {
  const path = 'outer/project/fixtures/deep/known.babel.json';
  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, 'preview', at(path), '--no-fresh-ids', ...args], { encoding: 'utf8' }).stdout;

  test('babelqueue/preview answers the text babelq preview prints, for one SDK and for all', async () => {
    await withClient({ root: {}, plainClient: true }, async (client) => {
      await client.open(uriOf(path), fileText(path));
      const one = await client.request('babelqueue/preview', { textDocument: { uri: uriOf(path) }, freshIds: false, sdk: 'php' });
      assert.deepEqual(one, { ok: true, text: cli('--sdk', 'php'), notes: [] });
      const all = await client.request('babelqueue/preview', { textDocument: { uri: uriOf(path) }, freshIds: false, sdk: 'all', layout: 'laravel' });
      assert.equal(all.text, cli('--sdk', 'all', '--layout', 'laravel'));
      const hex = await client.request('babelqueue/preview', { textDocument: { uri: uriOf(path) }, freshIds: false, hex: true });
      assert.equal(hex.text, cli('--hex'));
      const fresh = await client.request('babelqueue/preview', { textDocument: { uri: uriOf(path) } });
      assert.notEqual(JSON.parse(fresh.text).meta.id, 'f1e2d3c4-b5a6-4789-90ab-cdef01234567', 'fresh ids by default, as babelq preview');
      const refused = await client.request('babelqueue/preview', { textDocument: { uri: uriOf(path) }, sdk: 'cobol' });
      assert.equal(refused.ok, false);
      assert.match(refused.error, /^sdk must be one of (\w+, ){6}auto, all$/);
      const closed = await client.request('babelqueue/preview', { textDocument: { uri: uriOf('outer/project/fixtures/deep/outer.babel.json') } });
      assert.equal(closed.ok, false);
      assert.match(closed.error, /not open/);
    });
  });

  test('babelqueue/preview with what an editor pins: the published encoder, the fresh values and the target shown; each checked', async () => {
    await withClient({ root: {}, plainClient: true }, async (client) => {
      await client.open(uriOf(path), fileText(path));
      const pinned = { textDocument: { uri: uriOf(path) }, sdk: 'all', published: 'python', fresh: { id: '0b7e4c1a-9d2f-4e3b-8a6c-5f1d2e3c4b5a', createdAt: 1767225600000 }, target: 'amqp://mq.internal:5672/' };
      const all = await client.request('babelqueue/preview', pinned);
      assert.equal(all.ok, true);
      assert.match(all.text, /^BabelQueue: bytes published with the python encoder, fresh meta\.id and created_at\n/);
      const body = JSON.parse(all.text.split('\n')[3]);
      assert.equal(body.meta.id, '0b7e4c1a-9d2f-4e3b-8a6c-5f1d2e3c4b5a');
      assert.match(all.text, /\nBroker: amqp:\/\/mq\.internal:5672\/\n/);
      assert.deepEqual(await client.request('babelqueue/preview', pinned), all, 'the same pinned values, the same text');
      for (const [bad, why] of [
        [{ published: 'all' }, /^published must be one of (\w+, ){6}auto$/],
        [{ fresh: { id: 7, createdAt: 0 } }, /^fresh must be \{ id: a string/],
        [{ fresh: { id: 'x', createdAt: Number.MAX_VALUE * 10 } }, /^fresh must be/],
        [{ target: 'x'.repeat(3000) }, /^target must be one line of at most 2048 characters$/],
        [{ target: 'redis://127.0.0.1:6379\nConsumers: all accept' }, /^target must be one line/],
        [{ target: 'redis://a\u2028b' }, /^target must be one line/],
        [{ sdk: 'all', queue: 'orders\nConsumers: all accept' }, /^queue must be a string of one line$/],
        [{ sdk: 'all', layout: 'laravel', prefix: 'bq:\u2028Consumers: all accept' }, /^prefix must be a string of one line$/],
      ] as const) {
        const refused = await client.request('babelqueue/preview', { ...pinned, ...bad });
        assert.equal(refused.ok, false);
        assert.match(refused.error, why);
      }
    });
  });

  test('the babelqueue.preview command returns the same text, and says what is wrong with its arguments', async () => {
    await withClient({ root: {}, plainClient: true }, async (client) => {
      await client.open(uriOf(path), fileText(path));
      const text = await client.request('workspace/executeCommand', { command: 'babelqueue.preview', arguments: [uriOf(path), { freshIds: false, sdk: 'go' }] });
      assert.equal(text, cli('--sdk', 'go'));
      await assert.rejects(client.request('workspace/executeCommand', { command: 'babelqueue.preview', arguments: [] }), /takes \[uri, options\?\]/);
      await assert.rejects(client.request('workspace/executeCommand', { command: 'babelqueue.preview', arguments: [uriOf(path), { layout: 'x' }] }), /layout must be babelqueue or laravel/);
      await assert.rejects(client.request('workspace/executeCommand', { command: 'babelqueue.other', arguments: [] }), /Unknown command babelqueue.other/);
      // Params without the protocol's shape are refused as such, not failed on with a stack in the log.
      for (const [params, why] of [
        [{ command: 'babelqueue.preview', arguments: { uri: uriOf(path) } }, /arguments is not a list/],
        [{ command: 'babelqueue.preview', arguments: 5 }, /arguments is not a list/],
        [{ command: 'babelqueue.preview', arguments: uriOf(path) }, /arguments is not a list/],
        [{ command: 7, arguments: [uriOf(path)] }, /command is not a string/],
      ] as const) {
        await assert.rejects(client.request('workspace/executeCommand', params), (error: { code?: number; message?: string }) => error.code === -32602 && why.test(error.message ?? ''));
      }
      assert.deepEqual(client.logs.filter((line) => /failed/.test(line)), []);
      await client.change(uriOf(path), '{"job": ', 2);
      await assert.rejects(client.request('workspace/executeCommand', { command: 'babelqueue.preview', arguments: [uriOf(path)] }), /a JSON syntax error at line 1, column 1/);
    });
  });
});
