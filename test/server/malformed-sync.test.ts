/**
 * Document sync notifications that do not have the protocol's shape (a `uri` that is not a
 * string, a change without a version, content changes that are not an array or have a broken
 * range) are dropped before they reach the open documents: the server logs each kind once, keeps
 * every document and registry as it was, and answers the next requests as before.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const EXAMPLES = resolve(__dirname, '../../examples');
const FIXTURE = join(EXAMPLES, 'orders/order-created.babel.json');

describe('malformed document sync', () => {
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(EXAMPLES).href] });
  const uri = pathToFileURL(FIXTURE).href;
  const text = readFileSync(FIXTURE, 'utf8');
  const unknownUrn = text.replace('"urn:babel:orders:created"', '"urn:babel:orders:creatd"');

  before(() => client.initialize());
  after(() => client.kill());

  test('bad didOpen, didChange and didClose params change nothing, are logged once each, and the registry still answers', async () => {
    const send = (method: string, params: unknown) => client.connection.sendNotification(method, params);
    for (let i = 0; i < 3; i++) {
      await send('textDocument/didOpen', { textDocument: { uri: 42, languageId: 'babelqueue-envelope', version: 1, text } });
      await send('textDocument/didOpen', { textDocument: { uri: { path: FIXTURE }, languageId: 'babelqueue-envelope', version: 1, text } });
    }
    await client.open(uri, unknownUrn, 1);
    await send('textDocument/didChange', { textDocument: { uri }, contentChanges: [{ text: '{}' }] });
    await send('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: { text: '{}' } });
    await send('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ range: { start: { line: -1 }, end: null }, text: '{}' }] });
    await send('textDocument/didClose', { textDocument: { uri: null } });

    // The document is as it was opened, and its registry is found: the typo gets its "did you mean".
    const codes = (await client.pullDiagnostics(uri)).items.map((d: { code: string }) => d.code);
    assert.deepEqual(codes, ['unknown-urn']);
    const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
    assert.match(hover?.contents?.value ?? '', /`job`/);

    const ignored = client.logs.filter((line) => line.startsWith('Ignored a malformed'));
    assert.equal(ignored.length, new Set(ignored).size, 'each kind is logged once');
    assert.ok(ignored.some((line) => /DidOpenTextDocument.*uri/.test(line)), ignored.join('\n'));
    assert.ok(ignored.some((line) => /DidChangeTextDocument.*version/.test(line)));
    assert.ok(ignored.some((line) => /DidChangeTextDocument.*contentChanges/.test(line)));
    assert.ok(ignored.some((line) => /DidChangeTextDocument.*range/.test(line)));
    assert.ok(ignored.some((line) => /DidCloseTextDocument/.test(line)));
    assert.deepEqual(client.logs.filter((line) => /failed/.test(line)), []);
  });
});

describe('a second didOpen without a didClose', () => {
  // The protocol forbids it, but a client that sends it means the text it sends: TextDocuments
  // replaces the document, and nothing worked out for the earlier text (same URI, same version) may stay.
  const folder = scratchFolder('babelq-reopen-');
  mkdirSync(folder.at('.git'));
  const text = readFileSync(FIXTURE, 'utf8');
  const forbidden = text.replace('"attempts": 0', '"attempts": 0, "timestamp": 1');
  folder.write('reopen.babel.json', forbidden);
  const uri = folder.uriOf('reopen.babel.json');
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(folder.base).href] });

  before(() => client.initialize());
  after(() => client.kill());

  test('replaces the text at the same version: its diagnostics and the workspace report are the new text\'s', async () => {
    const codes = async () => (await client.pullDiagnostics(uri)).items.map((d: { code: string }) => d.code);
    const reported = async () => {
      const { items } = await client.request<{ items: { uri: string; items?: { code: string }[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
      return items.find((item) => item.uri === uri)?.items?.map((d) => d.code);
    };
    await client.open(uri, forbidden, 1);
    assert.deepEqual(await codes(), ['forbidden-key']);
    assert.deepEqual(await reported(), ['forbidden-key']);
    await client.open(uri, '{', 1);
    const now = await codes();
    assert.ok(now.includes('json-syntax') && !now.includes('forbidden-key'), now.join(','));
    assert.deepEqual(await reported(), now);
    const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
    assert.equal(hover, null, 'hover reads the new text, which has no line 2');
  });
});
