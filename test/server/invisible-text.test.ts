/**
 * A registry written to fool the reader of a hover (Trojan Source): bidirectional overrides and
 * isolates in an entry's owner and status, a schema's field name and its description. Over real
 * JSON-RPC against dist/server.js, in an untrusted workspace: no hover or completion carries one
 * as is; each is shown as its `\uXXXX` escape, as `babelq` shows it on a terminal. The same for a
 * fixture's own key inside a finding's message, which the client then sends back for its fixes,
 * and for a key a quick fix's title names (the registry's missing field, the fixture's money key).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';

/** Right-to-left override, pop, first-strong isolate, right-to-left mark, line separator. */
const INVISIBLE = /[\u202e\u202c\u2068\u200f\u2028]/;

describe('bidirectional controls from a registry, in hovers and completions', () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-invisible-'));
  mkdirSync(join(root, 'schemas'));
  writeFileSync(join(root, 'registry.json'), JSON.stringify({
    schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/created.json', owner: 'payments\u202e\u2068 ksed-ytiruces', status: 'active\u200f\u202c' }],
  }));
  const field = 'to\u202etal_cents';
  writeFileSync(join(root, 'schemas/created.json'), JSON.stringify({
    type: 'object',
    required: [field],
    properties: { [field]: { type: 'integer', description: 'Amount\u2028in cents \u202egnirts a ton' } },
  }));
  const text = `{\n  "job": "urn:babel:orders:created",\n  "data": { "${field}": 1 }\n}\n`;
  const uri = pathToFileURL(join(root, 'order.babel.json')).href;
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], initializationOptions: { workspaceTrusted: false } });
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });

  test('the URN\'s hover, the data key\'s hover and the URN completion show every control as its escape', async () => {
    await client.initialize();
    await client.open(uri, text);
    const urnHover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 15 } });
    const keyHover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 15 } });
    const completion = await client.request('textDocument/completion', { textDocument: { uri }, position: { line: 1, character: 12 } });
    const items: { label: string; detail?: string; documentation?: string | { value: string } }[] = Array.isArray(completion) ? completion : completion.items;
    const entry = items.find((item) => item.label === 'urn:babel:orders:created');
    assert.ok(entry, JSON.stringify(items.map((item) => item.label)));
    const shown: [string, string][] = [
      ['the URN hover', urnHover.contents.value],
      ['the key hover', keyHover.contents.value],
      ['the completion detail', entry.detail ?? ''],
      ['the completion documentation', typeof entry.documentation === 'string' ? entry.documentation : (entry.documentation?.value ?? '')],
    ];
    for (const [where, value] of shown) assert.doesNotMatch(value, INVISIBLE, `${where}: ${JSON.stringify(value)}`);
    assert.match(urnHover.contents.value, /payments\\\\u202e\\\\u2068 ksed-ytiruces · status: active\\\\u200f\\\\u202c/);
    assert.match(entry.detail!, /owner: payments\\u202e\\u2068 ksed-ytiruces · status: active\\u200f\\u202c/);
    assert.match(keyHover.contents.value, /to\\u202etal_cents/);
    assert.match(keyHover.contents.value, /Amount\\\\u2028in cents \\\\u202egnirts a ton/);
  });

  test('the fix that adds the schema\'s missing fields names the field with its escapes', async () => {
    const missing = pathToFileURL(join(root, 'missing.babel.json')).href;
    await client.open(missing, `{\n  "job": "urn:babel:orders:created",\n  "data": {}\n}\n`);
    const { items } = await client.pullDiagnostics(missing);
    const onData = items.filter((item: { code: string }) => item.code === 'payload-schema');
    assert.equal(onData.length, 1, JSON.stringify(items));
    const actions: { title: string }[] = await client.request('textDocument/codeAction', { textDocument: { uri: missing }, range: onData[0].range, context: { diagnostics: onData, only: ['quickfix'] } });
    const add = actions.find((action) => action.title.startsWith('Add the missing required data field'));
    assert.ok(add, JSON.stringify(actions));
    assert.doesNotMatch(add.title, INVISIBLE, add.title);
    assert.match(add.title, /"to\\u202etal_cents"/);
  });
});

/**
 * A fixture whose money key (its last word is "price") is written `keyInJson` in the file: its
 * float-currency message shows the key as `shown`, and the finding the client sends back as
 * published still gets its fixes.
 */
function keyInDiagnostics(title: string, keyInJson: string, shown: string, raw: RegExp): void {
  describe(title, () => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-invisible-key-'));
    const text = `{\n  "job": "urn:babel:orders:created",\n  "trace_id": "0b5e7a3c-58a4-4f1e-9d1a-6f6c2a9b8e11",\n  "data": { "${keyInJson}": 19.99 },\n  "meta": { "id": "3c1f6a2e-8d4b-4f5a-9e7c-1b2d3e4f5a6b", "queue": "orders", "lang": "node", "schema_version": 1, "created_at": 1749132727000 },\n  "attempts": 0\n}\n`;
    const uri = pathToFileURL(join(root, 'order.babel.json')).href;
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
    after(() => {
      client.kill();
      rmSync(root, { recursive: true, force: true });
    });

    test('the message shows the key as the file writes it, and the finding sent back still gets its fixes', async () => {
      await client.initialize();
      await client.open(uri, text);
      type Item = { code: string; message: string; range: { start: { line: number } } };
      const { items } = (await client.pullDiagnostics(uri)) as { items: Item[] };
      const onKey = items.filter((item) => item.range.start.line === 3);
      assert.ok(onKey.some((item) => item.code === 'float-currency'), JSON.stringify(items));
      for (const item of onKey) assert.doesNotMatch(item.message, raw, item.message);
      assert.ok(onKey.some((item) => item.message.includes(shown)), JSON.stringify(onKey.map((item) => item.message)));
      // The client sends the message back as published: the server still knows the finding.
      const actions: { title: string; diagnostics?: unknown[] }[] = await client.request('textDocument/codeAction', { textDocument: { uri }, range: onKey[0]!.range, context: { diagnostics: onKey, only: ['quickfix'] } });
      assert.ok(actions.length > 0 && actions.every((action) => (action.diagnostics ?? []).length > 0), JSON.stringify(actions));
      // The fixes' titles name the key too ("money to cents" renames it), on one line as the message.
      for (const action of actions) assert.doesNotMatch(action.title, raw, action.title);
    });
  });
}

// A first word that carries an override and an isolate: each shown as its escape.
keyInDiagnostics("bidirectional controls from a fixture's own keys, in its diagnostics", 'unit\u202e\u2066_price', 'unit\\u202e\\u2066_price', /[\u202e\u2066]/);
// A line break (written \n in the file): shown as \n on the message's one line, not splitting it in the Problems panel.
keyInDiagnostics("a line break in a fixture's own key, in its diagnostics", 'unit\\nprice', '"unit\\nprice"', /[\r\n]/);

describe('file and folder names with controls, in the server\'s log and pop-ups', () => {
  // An escape sequence, a bell, a line break (which would start a forged line of the log) and a right-to-left override.
  const hostile = 'x\u001b[31m\u0007\nBabelQueue registry ok\u202e';
  const root = mkdtempSync(join(tmpdir(), 'babelq-invisible-names-'));
  const folder = join(root, `sub${hostile}`);
  mkdirSync(folder);
  writeFileSync(join(folder, 'registry.json'), '{ "schemas": [ { "urn": "urn:babel:orders:created", "schema": "missing.json" } ] }');
  writeFileSync(join(folder, `large${hostile}.babel.json`), `{ "job": "urn:babel:orders:created", "data": { "a": "${'a'.repeat(1_100_000)}" } }`);
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], initializationOptions: { workspaceTrusted: false } });
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });

  test('every line the server logs or shows names them with their escapes, on one line', { skip: process.platform === 'win32' && 'needs mkfifo and controls in names' }, async () => {
    execFileSync('mkfifo', [join(folder, `pipe${hostile}.babel.json`)]);
    await client.initialize();
    const uri = pathToFileURL(join(folder, 'a.babel.json')).href;
    await client.open(uri, '{ "job": "urn:babel:orders:created", "data": {} }');
    await client.pullDiagnostics(uri);
    await client.request('workspace/diagnostic', { previousResultIds: [] });
    const deadline = Date.now() + 5_000;
    while (client.logs.filter((line) => line.includes('large')).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = [...client.logs, ...client.shown.map((shown) => shown.message)];
    const naming = lines.filter((line) => line.includes('sub'));
    // The registry loaded with a broken schema, the large fixture left to its editor and the pipe skipped.
    assert.ok(naming.some((line) => line.startsWith('BabelQueue registry ')), JSON.stringify(lines));
    assert.ok(naming.some((line) => line.includes('large')), JSON.stringify(lines));
    assert.ok(naming.some((line) => line.includes('pipe')), JSON.stringify(lines));
    for (const line of naming) {
      assert.doesNotMatch(line, /[\u0000-\u001f\u202e]/, JSON.stringify(line));
      assert.ok(line.includes('sub' + 'x\\u001b[31m\\u0007\\nBabelQueue registry ok\\u202e'), JSON.stringify(line));
    }
  });
});
