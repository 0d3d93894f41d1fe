/**
 * Find references when an editor names an open fixture by another spelling of its URI than the
 * server writes for its path (VS Code percent-encodes `(`, `)` and `+`, which Node's file URLs keep
 * as they are): the fixture is still read as the editor holds it, unsaved edits included, not as
 * it is on disk.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';

test('references read an open fixture named by another spelling of its URI as its editor holds it (openFiles scope: no report to answer from)', { timeout: 30_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-references-spelling-'));
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], settings: { diagnostics: { scope: 'openFiles' } } });
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });
  mkdirSync(join(root, 'schemas'));
  writeFileSync(join(root, 'schemas', 'order.json'), '{"type": "object"}\n');
  const registryText = `${JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/order.json', owner: 'orders', status: 'active' }] }, null, 2)}\n`;
  writeFileSync(join(root, 'registry.json'), registryText);
  const onDisk = '{\n  "job": "urn:babel:orders:created",\n  "data": {}\n}\n';
  const path = join(root, 'order (copy)+1.babel.json');
  writeFileSync(path, onDisk);
  const serverUri = pathToFileURL(path).href;
  // As VS Code writes it (vscode-uri encodes these characters in a path).
  const editorUri = serverUri.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/\+/g, '%2B');
  assert.notEqual(editorUri, serverUri);

  await client.initialize();
  // Unsaved: three lines above the URN.
  await client.open(editorUri, `\n\n\n${onDisk}`);
  const registryUri = pathToFileURL(join(root, 'registry.json')).href;
  await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: registryText } });
  const line = registryText.split('\n').findIndex((text) => text.includes('"urn:babel:orders:created"'));
  const fromRegistry: { uri: string; range: { start: { line: number; character: number } } }[] = await client.request('textDocument/references', {
    textDocument: { uri: registryUri },
    position: { line, character: 16 },
    context: { includeDeclaration: false },
  });
  assert.deepEqual(fromRegistry.map((location) => [location.uri, location.range.start]), [[serverUri, { line: 4, character: 9 }]]);
  const fromFixture: typeof fromRegistry = await client.request('textDocument/references', {
    textDocument: { uri: editorUri },
    position: { line: 4, character: 14 },
    context: { includeDeclaration: false },
  });
  assert.deepEqual(fromFixture.map((location) => [location.uri, location.range.start]), [[serverUri, { line: 4, character: 9 }]]);

  // The URN changed in the editor, unsaved: the fixture no longer routes on it.
  await client.change(editorUri, onDisk.replace('orders:created', 'orders:cancelled'), 2);
  const afterEdit: typeof fromRegistry = await client.request('textDocument/references', {
    textDocument: { uri: registryUri },
    position: { line, character: 16 },
    context: { includeDeclaration: false },
  });
  assert.deepEqual(afterEdit, []);
});
