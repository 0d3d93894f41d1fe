/**
 * Protocol tests: real JSON-RPC over stdio against the built dist/server.js. Diagnostics are
 * pulled (or awaited when pushed), never slept for.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { applyEdits } from '../../core/model/edits';
import { LineIndex } from '../../core/model/positions';
import { fork } from 'node:child_process';
import { createProtocolConnection, IPCMessageReader, IPCMessageWriter } from 'vscode-languageserver-protocol/node';
import { SERVER_PATH, TestLspClient } from '../support/lsp-client';
import { GOOD_ENVELOPE } from '../support/envelopes';

const GOOD = GOOD_ENVELOPE;

const WITH_TIMESTAMP = GOOD.replace('"attempts": 0', '"attempts": 0,\n  "timestamp": 1749132727');

/** Applies LSP text edits to a text (through core's offset edits). */
function applyLspEdits(text: string, edits: { range: { start: any; end: any }; newText: string }[]): string {
  const lines = new LineIndex(text);
  return applyEdits(
    text,
    edits.map((edit) => ({ offset: lines.offsetAt(edit.range.start), end: lines.offsetAt(edit.range.end), newText: edit.newText })),
  );
}

describe('language server over stdio (pull diagnostics)', () => {
  const client = new TestLspClient();
  const uri = 'file:///workspace/orders/created.babel.json';
  let initializeResult: any;

  before(async () => {
    initializeResult = await client.initialize();
  });
  after(() => client.kill());

  test('initialize announces the features', () => {
    const capabilities = initializeResult.capabilities;
    assert.equal(initializeResult.serverInfo.name, 'babelqueue-language-server');
    assert.ok(capabilities.diagnosticProvider, 'pull diagnostics');
    assert.equal(capabilities.hoverProvider, true);
    assert.deepEqual(capabilities.completionProvider.triggerCharacters, ['"', ':']);
    assert.equal(capabilities.documentFormattingProvider, true);
    assert.equal(capabilities.documentSymbolProvider, true);
    assert.equal(capabilities.foldingRangeProvider, true);
    assert.equal(capabilities.selectionRangeProvider, true);
  });

  test('open → pulled diagnostics carry code, source, severity and exact range', async () => {
    await client.open(uri, WITH_TIMESTAMP);
    const report = await client.pullDiagnostics(uri);
    assert.equal(report.kind, 'full');
    assert.equal(report.items.length, 1);
    const [diagnostic] = report.items;
    assert.equal(diagnostic.code, 'forbidden-key');
    assert.equal(diagnostic.source, 'babelqueue');
    assert.equal(diagnostic.severity, 1);
    assert.deepEqual(diagnostic.range, { start: { line: 12, character: 2 }, end: { line: 12, character: 13 } });
  });

  test('change → the new version is validated', async () => {
    await client.change(uri, GOOD, 2);
    const report = await client.pullDiagnostics(uri);
    assert.deepEqual(report.items, []);
    await client.change(uri, GOOD.replace('"php"', '"cobol"'), 3);
    const after = await client.pullDiagnostics(uri);
    assert.deepEqual(after.items.map((d) => d.code), ['unknown-lang']);
  });

  test('hover on a core key explains the field; on created_at shows the UTC date', async () => {
    await client.change(uri, GOOD, 4);
    const onKey = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 11, character: 5 } });
    assert.match(onKey.contents.value, /attempts/);
    assert.match(onKey.contents.value, /required/);
    assert.match(onKey.contents.value, /mutable/);
    const onTime = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 9, character: 22 } });
    assert.match(onTime.contents.value, /2025-06-05T14:12:07Z/);
  });

  test('completion offers the keys meta still lacks, and the lang enum', async () => {
    const text = GOOD.replace('    "schema_version": 1,\n', '    "",\n');
    await client.change(uri, text, 5);
    const line = text.split('\n').findIndex((l) => l.trim() === '"",');
    const items: any[] = await client.request('textDocument/completion', { textDocument: { uri }, position: { line, character: 5 } });
    const labels = items.map((item) => item.label);
    assert.deepEqual(labels, ['schema_version']);
    // The item is a snippet: resolve its placeholder to the default the editor would insert.
    const applied = applyLspEdits(text, [items[0].textEdit]).replace('${1:1}', '1');
    assert.equal(JSON.parse(applied).meta.schema_version, 1);

    const langText = GOOD.replace('"lang": "php"', '"lang": ""');
    await client.change(uri, langText, 6);
    const langLine = langText.split('\n').findIndex((l) => l.includes('"lang"'));
    const langItems: any[] = await client.request('textDocument/completion', { textDocument: { uri }, position: { line: langLine, character: 13 } });
    assert.deepEqual(langItems.map((item) => item.label).sort(), ['dotnet', 'go', 'java', 'node', 'php', 'python']);
  });

  test('completion on a new line below a property with no comma: the keys, each adding that comma (additionalTextEdits)', async () => {
    const text = GOOD.replace('"attempts": 0', '"attempts": 0\n  ').replace('"data": { "order_id": 1042 },\n', '');
    await client.change(uri, text, 7);
    const line = text.split('\n').length - 3;
    const items: any[] = await client.request('textDocument/completion', { textDocument: { uri }, position: { line, character: 2 } });
    const data = items.find((item) => item.label === 'data');
    assert.ok(data, JSON.stringify(items.map((item) => item.label)));
    assert.deepEqual(data.additionalTextEdits, [{ range: { start: { line: line - 1, character: 15 }, end: { line: line - 1, character: 15 } }, newText: ',' }]);
    const applied = applyLspEdits(text, [data.textEdit, ...data.additionalTextEdits]).replace('{$1}', '{}');
    assert.deepEqual(JSON.parse(applied).data, {});
  });

  test('code action removes a forbidden key or moves it into meta.created_at', async () => {
    const text = WITH_TIMESTAMP.replace(',\n    "created_at": 1749132727000', '');
    await client.change(uri, text, 7);
    const report = await client.pullDiagnostics(uri);
    const forbidden = report.items.find((d) => d.code === 'forbidden-key');
    assert.ok(forbidden);
    const actions: any[] = await client.request('textDocument/codeAction', {
      textDocument: { uri },
      range: forbidden.range,
      context: { diagnostics: report.items },
    });
    const move = actions.find((action) => action.title.startsWith('Move'));
    assert.ok(move, `actions: ${actions.map((a) => a.title).join(', ')}`);
    assert.equal(move.isPreferred, true);
    const fixed = applyLspEdits(text, move.edit.changes[uri]);
    const parsed = JSON.parse(fixed);
    assert.equal(parsed.meta.created_at, 1749132727000);
    assert.equal('timestamp' in parsed, false);
  });

  test('formatting, symbols, folding and selection ranges', async () => {
    const compact = JSON.stringify(JSON.parse(GOOD));
    await client.change(uri, compact, 9);
    const edits: any[] = await client.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    const formatted = applyLspEdits(compact, edits);
    assert.deepEqual(JSON.parse(formatted), JSON.parse(GOOD));
    assert.ok(formatted.split('\n').length > 10, 'formatted onto lines');

    await client.change(uri, GOOD, 10);
    const symbols: any[] = await client.request('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(symbols.map((s) => s.name), ['job', 'trace_id', 'data', 'meta', 'attempts']);
    assert.deepEqual(symbols[3].children.map((s: any) => s.name), ['id', 'queue', 'lang', 'schema_version', 'created_at']);
    const folds: any[] = await client.request('textDocument/foldingRange', { textDocument: { uri } });
    assert.ok(folds.some((f) => f.startLine === 0));
    assert.ok(folds.some((f) => f.startLine === 4));
    const selections: any[] = await client.request('textDocument/selectionRange', { textDocument: { uri }, positions: [{ line: 7, character: 14 }] });
    assert.ok(selections[0].parent, 'a chain of ranges');
  });

  test('a severity override in the configuration takes effect without a restart', async () => {
    await client.change(uri, WITH_TIMESTAMP, 11);
    assert.equal((await client.pullDiagnostics(uri)).items[0].severity, 1);
    client.settings = { diagnostics: { severity: { 'forbidden-key': 'hint' } } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { babelqueue: client.settings } });
    assert.equal((await client.pullDiagnostics(uri)).items[0].severity, 4);
    client.settings = { diagnostics: { severity: { 'forbidden-key': 'off' } } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { babelqueue: client.settings } });
    assert.deepEqual((await client.pullDiagnostics(uri)).items, []);
    client.settings = { validation: { enable: false } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { babelqueue: client.settings } });
    await client.change(uri, '{ broken', 12);
    assert.deepEqual((await client.pullDiagnostics(uri)).items, []);
    client.settings = {};
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { babelqueue: {} } });
  });

  test('requests for unknown documents and positions past the end answer empty', async () => {
    await client.change(uri, GOOD, 13);
    const unknown = 'file:///nowhere.babel.json';
    assert.deepEqual((await client.pullDiagnostics(unknown)).items, []);
    assert.equal(await client.request('textDocument/hover', { textDocument: { uri: unknown }, position: { line: 0, character: 0 } }), null);
    assert.deepEqual(await client.request('textDocument/completion', { textDocument: { uri }, position: { line: 9999, character: 9999 } }), []);
  });

  test('close, then shutdown and exit cleanly', async () => {
    await client.close(uri);
    assert.deepEqual((await client.pullDiagnostics(uri)).items, []);
    const code = await client.shutdown();
    assert.equal(code, 0);
    assert.equal(client.logs.filter((line) => /failed/.test(line)).length, 0, client.logs.join('\n'));
  });
});

describe('language server over stdio (push diagnostics)', () => {
  const client = new TestLspClient({ pullDiagnostics: false });
  const uri = 'file:///workspace/push.babel.json';
  before(() => client.initialize());
  after(() => client.kill());

  test('publishes for the latest version only and clears on close', async () => {
    await client.open(uri, WITH_TIMESTAMP, 1);
    await client.change(uri, GOOD.replace('"php"', '"cobol"'), 2);
    await client.waitForPublished((all) => all.some((p) => p.uri === uri));
    await new Promise((r) => setTimeout(r, 300));
    const forUri = client.published.filter((p) => p.uri === uri);
    assert.ok(forUri.every((p) => p.version === 2), `stale publish: ${JSON.stringify(forUri.map((p) => p.version))}`);
    assert.deepEqual(forUri.at(-1)!.diagnostics.map((d) => d.code), ['unknown-lang']);
    await client.close(uri);
    await client.waitForPublished((all) => all.at(-1)?.uri === uri && all.at(-1)!.diagnostics.length === 0);
  });
});

describe('push diagnostics never publish a stale version', () => {
  // Settings arrive slowly, so version 1 is still being validated when version 2 comes in.
  const client = new TestLspClient({ pullDiagnostics: false, configurationDelayMs: 400 });
  const uri = 'file:///workspace/stale.babel.json';
  before(() => client.initialize());
  after(() => client.kill());

  test('a validation that finishes after a newer change is dropped', async () => {
    await client.open(uri, WITH_TIMESTAMP, 1);
    await new Promise((r) => setTimeout(r, 250));
    await client.change(uri, GOOD, 2);
    await client.waitForPublished((all) => all.some((p) => p.uri === uri));
    await new Promise((r) => setTimeout(r, 500));
    const forUri = client.published.filter((p) => p.uri === uri);
    assert.deepEqual(forUri.map((p) => p.version), [2]);
    assert.deepEqual(forUri[0].diagnostics, []);
  });
});

describe('language server over IPC (the transport the extension uses)', () => {
  test('initialize, diagnostics and shutdown over --node-ipc', async () => {
    const child = fork(SERVER_PATH, ['--node-ipc'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const connection = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
    connection.onRequest('client/registerCapability', () => null);
    connection.listen();
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const result: any = await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { textDocument: { diagnostic: {} }, workspace: { configuration: true } } });
    assert.ok(result.capabilities.diagnosticProvider);
    await connection.sendNotification('initialized', {});
    const uri = 'file:///ipc.babel.json';
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'babelqueue-envelope', version: 1, text: WITH_TIMESTAMP } });
    const report: any = await connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    assert.deepEqual(report.items.map((d: any) => d.code), ['forbidden-key']);
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    assert.equal(await exited, 0);
    connection.dispose();
  });
});
