/**
 * Registry features over real JSON-RPC against dist/server.js: URN and payload completion (applied
 * text checked), hovers, definition and references locations, links, registry.json diagnostics,
 * and diagnostics that follow a schema edit on disk or in an open editor.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CancellationTokenSource } from 'vscode-languageserver-protocol/node';
import { applyEdits } from '../../core/model/edits';
import { LineIndex } from '../../core/model/positions';
import { TestLspClient } from '../support/lsp-client';

const root = mkdtempSync(join(tmpdir(), 'babelq-lsp-registry-'));
const uriOf = (path: string) => pathToFileURL(join(root, path)).href;

const ORDER_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['order_id', 'total_cents'],
  properties: {
    order_id: { type: 'integer', minimum: 1, description: 'The order number.' },
    total_cents: { type: 'integer', minimum: 0 },
    currency: { enum: ['USD', 'EUR'] },
    gift: { type: 'boolean' },
    buyer_email: { type: 'string', 'x-gdpr-sensitive': 'email' },
  },
  additionalProperties: false,
};

function write(path: string, content: unknown): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
}

write('registry.json', {
  schemas: [
    { urn: 'urn:babel:orders:created', schema: 'schemas/orders-created.json', owner: 'orders-team', status: 'active' },
    { urn: 'urn:babel:orders:placed', schema: 'schemas/orders-created.json', owner: 'orders-team', status: 'deprecated' },
  ],
});
write('schemas/orders-created.json', ORDER_SCHEMA);

/** An envelope for `job` with `dataText` spliced in as written, laid out on lines. */
function envelope(job: string, dataText: string): string {
  return `{
  "job": ${JSON.stringify(job)},
  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
  "data": ${dataText},
  "meta": {
    "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567",
    "queue": "orders",
    "lang": "go",
    "schema_version": 1,
    "created_at": 1749132727000
  },
  "attempts": 0
}
`;
}

const VALID = envelope('urn:babel:orders:created', '{ "order_id": 1042, "total_cents": 9990 }');
write('fixtures/created.babel.json', VALID);
write('fixtures/other.babel.json', envelope('urn:babel:orders:placed', '{ "order_id": 7, "total_cents": 1 }'));

/** Position of the first occurrence of `needle` (plus `delta` characters) in `text`. */
function positionOf(text: string, needle: string, delta = 0) {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, `"${needle}" not in text`);
  return new LineIndex(text).positionAt(offset + delta);
}

function applyItem(text: string, item: any): string {
  const lines = new LineIndex(text);
  const newText = item.insertTextFormat === 2 ? item.textEdit.newText.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\d+/g, '') : item.textEdit.newText;
  return applyEdits(text, [{ offset: lines.offsetAt(item.textEdit.range.start), end: lines.offsetAt(item.textEdit.range.end), newText }]);
}

describe('registry over LSP', () => {
  // Asked for as VS Code's client asks (an editor that does not ask gets none: registry-status.test.ts).
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], initializationOptions: { registryStatus: true } });
  const fixture = uriOf('fixtures/created.babel.json');
  const statuses: any[] = [];

  before(async () => {
    client.connection.onNotification('babelqueue/registryStatus', (params: any) => {
      statuses.push(params);
    });
    await client.initialize();
  });
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });

  test('a valid fixture has no diagnostics, and the status names the registry', async () => {
    await client.open(fixture, VALID);
    assert.deepEqual((await client.pullDiagnostics(fixture)).items, []);
    assert.equal(statuses.at(-1).state, 'loaded');
    assert.equal(statuses.at(-1).message, 'Registry: 2 URNs');
  });

  test('the status is sent when it changes, not on every pull: a keystroke sends none, a reopened file gets it again', async () => {
    const uri = uriOf('fixtures/status.babel.json');
    const mine = () => statuses.filter((status) => status.uri === uri);
    await client.open(uri, VALID);
    await client.pullDiagnostics(uri);
    await client.pullDiagnostics(uri);
    await client.change(uri, VALID.replace('1042', '1043'), 2);
    await client.pullDiagnostics(uri);
    assert.deepEqual(mine().map((status) => [status.state, status.message]), [['loaded', 'Registry: 2 URNs']]);
    await client.close(uri);
    await client.open(uri, VALID);
    await client.pullDiagnostics(uri);
    assert.equal(mine().length, 2, 'sent again once the document was closed and opened');
    await client.close(uri);
  });

  test('a client that did not ask for babelqueue/registryStatus gets none, and has the registry in its log', async () => {
    const plain = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
    try {
      const received: unknown[] = [];
      plain.connection.onNotification('babelqueue/registryStatus', (params: unknown) => {
        received.push(params);
      });
      await plain.initialize();
      const uri = uriOf('fixtures/plain.babel.json');
      await plain.open(uri, VALID);
      assert.deepEqual((await plain.pullDiagnostics(uri)).items, []);
      // The log line goes before the pull is answered, so it is there by now.
      assert.ok(plain.logs.some((line) => /BabelQueue registry .*registry\.json loaded: 2 URNs/.test(line)), plain.logs.join('\n'));
      assert.deepEqual(received, []);
    } finally {
      plain.kill();
    }
  });

  test('a document with no file (untitled, a message opened from a queue) is checked against the first folder\'s registry', async () => {
    const text = envelope('urn:babel:orders:created', '{ "order_id": 1042, "total_cents": "9990" }');
    for (const uri of ['untitled:Untitled-1', 'babelqueue-message:/orders.dlq/f1e2d3c4']) {
      await client.open(uri, text);
      const items = (await client.pullDiagnostics(uri)).items;
      assert.deepEqual(items.map((d) => [d.code, d.range.start.line]), [['payload-schema', 3]], uri);
      assert.match(items[0].message, /total_cents/);
      await client.close(uri);
    }
    // A virtual copy of a file (a git: diff side) belongs where its file is, which the server cannot tell: no registry.
    const gitUri = 'git:/fixtures/created.babel.json?%7B%22ref%22%3A%22HEAD%22%7D';
    await client.open(gitUri, text);
    assert.deepEqual((await client.pullDiagnostics(gitUri)).items, []);
    await client.close(gitUri);
  });

  test('with no workspace folder, a document with no file has no registry (and says nothing of one)', async () => {
    const lone = new TestLspClient();
    try {
      await lone.initialize();
      const text = envelope('urn:babel:orders:created', '{ "order_id": 1042, "total_cents": "9990" }');
      await lone.open('untitled:Untitled-1', text);
      assert.deepEqual((await lone.pullDiagnostics('untitled:Untitled-1')).items, []);
    } finally {
      lone.kill();
    }
  });

  test('URN completion inside an empty job string, active first, deprecated tagged', async () => {
    const text = envelope('', '{}');
    await client.change(fixture, text, 2);
    const items: any[] = await client.request('textDocument/completion', { textDocument: { uri: fixture }, position: positionOf(text, '"job": ""', 8) });
    assert.deepEqual(items.map((i) => i.label), ['urn:babel:orders:created', 'urn:babel:orders:placed']);
    assert.ok(items[0].sortText < items[1].sortText);
    assert.deepEqual(items[1].tags, [1]);
    assert.match(items[0].detail, /orders-team/);
    assert.match(items[0].documentation.value, /order_id/);
    assert.equal(items[0].filterText, '"urn:babel:orders:created"');
    assert.match(applyItem(text, items[0]), /"job": "urn:babel:orders:created",/);
  });

  test('URN completion after a partial urn:babel:ord replaces the whole string', async () => {
    const text = envelope('urn:babel:ord', '{}');
    await client.change(fixture, text, 3);
    const items: any[] = await client.request('textDocument/completion', { textDocument: { uri: fixture }, position: positionOf(text, 'urn:babel:ord', 13) });
    const created = items.find((i) => i.label === 'urn:babel:orders:created');
    assert.ok(created);
    assert.match(applyItem(text, created), /"job": "urn:babel:orders:created",\n/);
  });

  test('data completion offers the schema fields not present, required first, and enum values', async () => {
    const text = envelope('urn:babel:orders:created', '{ "order_id": 1, | }').replace('|', '');
    await client.change(fixture, text, 4);
    const items: any[] = await client.request('textDocument/completion', { textDocument: { uri: fixture }, position: positionOf(text, '"order_id": 1, ', 15) });
    assert.deepEqual(items.map((i) => i.label), ['total_cents', 'currency', 'gift', 'buyer_email']);
    assert.match(items[0].detail, /^required/);
    const applied = applyItem(text, items[0]);
    assert.equal(JSON.parse(applied).data.total_cents, 0);

    const enumText = envelope('urn:babel:orders:created', '{ "order_id": 1, "total_cents": 0, "currency": "" }');
    await client.change(fixture, enumText, 5);
    const values: any[] = await client.request('textDocument/completion', { textDocument: { uri: fixture }, position: positionOf(enumText, '"currency": ""', 13) });
    assert.deepEqual(values.map((i) => i.label), ['"USD"', '"EUR"']);
  });

  test('hover on the URN shows the entry; on a data key its field schema', async () => {
    await client.change(fixture, VALID, 6);
    const onUrn = await client.request('textDocument/hover', { textDocument: { uri: fixture }, position: positionOf(VALID, 'urn:babel:orders:created', 3) });
    assert.match(onUrn.contents.value, /owner: orders-team/);
    assert.match(onUrn.contents.value, /status: active/);
    assert.match(onUrn.contents.value, /\| `order_id` \| integer ≥ 1 \| yes/);
    assert.match(onUrn.contents.value, /buyer_email.*email/);
    const onKey = await client.request('textDocument/hover', { textDocument: { uri: fixture }, position: positionOf(VALID, '"order_id"', 2) });
    assert.match(onKey.contents.value, /data\.order_id.*integer ≥ 1.*required/);
    assert.match(onKey.contents.value, /The order number\./);
  });

  test('definition: URN → its entry in registry.json; data key → its property in the schema file', async () => {
    const [toEntry] = await client.request('textDocument/definition', { textDocument: { uri: fixture }, position: positionOf(VALID, 'urn:babel:orders:created', 3) });
    assert.equal(toEntry.uri, uriOf('registry.json'));
    const registryText = readFileSync(join(root, 'registry.json'), 'utf8');
    assert.deepEqual(toEntry.range.start, positionOf(registryText, '"urn:babel:orders:created"'));
    const [toSchema] = await client.request('textDocument/definition', { textDocument: { uri: fixture }, position: positionOf(VALID, '"total_cents"', 3) });
    assert.equal(toSchema.uri, uriOf('schemas/orders-created.json'));
    const schemaText = readFileSync(join(root, 'schemas/orders-created.json'), 'utf8');
    assert.deepEqual(toSchema.range.start, positionOf(schemaText, '"total_cents": {'));
  });

  test('references from a registry entry find the fixtures that use its URN; links open the schema', async () => {
    const registryUri = uriOf('registry.json');
    const registryText = readFileSync(join(root, 'registry.json'), 'utf8');
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: registryText } });
    const references: any[] = await client.request('textDocument/references', {
      textDocument: { uri: registryUri },
      position: positionOf(registryText, 'urn:babel:orders:placed', 2),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(references.map((r) => r.uri), [uriOf('fixtures/other.babel.json')]);
    const links: any[] = await client.request('textDocument/documentLink', { textDocument: { uri: registryUri } });
    assert.equal(links.length, 2);
    assert.equal(links[0].target, uriOf('schemas/orders-created.json'));
    assert.deepEqual((await client.pullDiagnostics(registryUri)).items, []);
    await client.close(registryUri);
  });

  test('references from the URN in a fixture: the fixtures that route on it, and its registry entry as the declaration', async () => {
    const otherText = readFileSync(join(root, 'fixtures/other.babel.json'), 'utf8');
    const otherUri = uriOf('fixtures/other.babel.json');
    await client.open(otherUri, otherText);
    const at = { textDocument: { uri: otherUri }, position: positionOf(otherText, 'urn:babel:orders:placed', 4) };
    const references: any[] = await client.request('textDocument/references', { ...at, context: { includeDeclaration: false } });
    assert.deepEqual(references.map((r) => [r.uri, r.range.start]), [[otherUri, positionOf(otherText, '"urn:babel:orders:placed"')]]);
    const registryText = readFileSync(join(root, 'registry.json'), 'utf8');
    const withDeclaration: any[] = await client.request('textDocument/references', { ...at, context: { includeDeclaration: true } });
    assert.deepEqual(withDeclaration.map((r) => [r.uri, r.range.start]), [
      [uriOf('registry.json'), positionOf(registryText, '"urn:babel:orders:placed"')],
      [otherUri, positionOf(otherText, '"urn:babel:orders:placed"')],
    ]);
    // Elsewhere in the fixture (a key, a data value) there is nothing to find.
    assert.deepEqual(await client.request('textDocument/references', { textDocument: { uri: otherUri }, position: positionOf(otherText, '"trace_id"', 2), context: { includeDeclaration: true } }), []);
    await client.close(otherUri);
  });

  test('go to definition on a schema path in registry.json opens the schema file (an editor without document links: Neovim)', async () => {
    const registryUri = uriOf('registry.json');
    const registryText = readFileSync(join(root, 'registry.json'), 'utf8');
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: registryText } });
    const [toSchema, ...more] = await client.request('textDocument/definition', { textDocument: { uri: registryUri }, position: positionOf(registryText, 'schemas/orders-created.json', 3) });
    assert.deepEqual(more, []);
    assert.equal(toSchema.uri, uriOf('schemas/orders-created.json'));
    assert.deepEqual(toSchema.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
    // The URN's own key and value lead nowhere: it is the declaration.
    assert.deepEqual(await client.request('textDocument/definition', { textDocument: { uri: registryUri }, position: positionOf(registryText, 'urn:babel:orders:created', 3) }), []);
    await client.close(registryUri);
  });

  test('a schema edit on disk re-validates the envelope without a restart', async () => {
    await client.change(fixture, VALID, 7);
    assert.deepEqual((await client.pullDiagnostics(fixture)).items, []);
    const stricter = { ...ORDER_SCHEMA, properties: { ...ORDER_SCHEMA.properties, order_id: { type: 'integer', minimum: 5000 } } };
    write('schemas/orders-created.json', stricter);
    const started = Date.now();
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('schemas/orders-created.json'), type: 2 }] });
    const items = (await client.pullDiagnostics(fixture)).items;
    const elapsed = Date.now() - started;
    assert.deepEqual(items.map((d: any) => d.code), ['payload-schema']);
    assert.deepEqual(items[0].range.start, positionOf(VALID, '1042'));
    console.log(`# re-validation after a schema change on disk: ${elapsed} ms`);
    write('schemas/orders-created.json', ORDER_SCHEMA);
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('schemas/orders-created.json'), type: 2 }] });
    assert.deepEqual((await client.pullDiagnostics(fixture)).items, []);
  });

  test('an unsaved schema edit in an open editor counts; closing it brings back the disk', async () => {
    const schemaUri = uriOf('schemas/orders-created.json');
    const schemaText = readFileSync(join(root, 'schemas/orders-created.json'), 'utf8');
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: schemaUri, languageId: 'json', version: 1, text: schemaText } });
    await client.change(schemaUri, schemaText.replace('"minimum": 1', '"minimum": 2000'), 2);
    assert.deepEqual((await client.pullDiagnostics(fixture)).items.map((d: any) => d.code), ['payload-schema']);
    await client.close(schemaUri);
    assert.deepEqual((await client.pullDiagnostics(fixture)).items, []);
  });

  test('an open schema file of the registry: unenforced-keyword and misread-keyword on its unsaved text; other JSON gets none', async () => {
    await client.open(fixture, VALID);
    await client.pullDiagnostics(fixture);
    const schemaUri = uriOf('schemas/orders-created.json');
    const schemaText = readFileSync(join(root, 'schemas/orders-created.json'), 'utf8');
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: schemaUri, languageId: 'json', version: 1, text: schemaText } });
    // The schema as written uses only what BabelQueue's validators enforce.
    assert.deepEqual((await client.pullDiagnostics(schemaUri)).items, []);
    const edited = schemaText.replace('"minimum": 1,', '"minimum": 1, "maximum": 99,').replace('"type": "boolean"', '"type": ["boolean", "null"]');
    await client.change(schemaUri, edited, 2);
    const items = (await client.pullDiagnostics(schemaUri)).items;
    assert.deepEqual(items.map((d: any) => [d.code, d.severity, d.range.start]), [
      ['unenforced-keyword', 3, positionOf(edited, '"maximum"')],
      ['misread-keyword', 2, positionOf(edited, '"type": ["boolean"')],
    ]);
    await client.close(schemaUri);
    const other = uriOf('schemas/unrelated.json');
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: other, languageId: 'json', version: 1, text: '{ "type": "object", "pattern": "x" }' } });
    assert.deepEqual((await client.pullDiagnostics(other)).items, []);
    await client.close(other);
  });

  test('a broken registry.json yields registry-error in it and on the job of envelopes', async () => {
    const registryUri = uriOf('registry.json');
    const good = readFileSync(join(root, 'registry.json'), 'utf8');
    const broken = good.replace('"urn:babel:orders:placed"', '"urn:babel:orders:created"');
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: broken } });
    const inRegistry = (await client.pullDiagnostics(registryUri)).items;
    assert.deepEqual(inRegistry.map((d: any) => d.code), ['registry-error']);
    assert.match(inRegistry[0].message, /Duplicate URN/);

    await client.change(registryUri, '{ "schemas": [ ', 2);
    const onJob = (await client.pullDiagnostics(fixture)).items;
    assert.deepEqual(onJob.map((d: any) => d.code), ['registry-error']);
    assert.deepEqual(onJob[0].range.start, positionOf(VALID, '"urn:babel:orders:created"'));
    assert.equal(statuses.at(-1).state, 'broken');
    await client.close(registryUri);
    assert.deepEqual((await client.pullDiagnostics(fixture)).items, []);
  });

  test('New Envelope: entries for a folder and a valid envelope for a URN', async () => {
    const entries = await client.request('babelqueue/registryEntries', { uri: pathToFileURL(root).href });
    assert.deepEqual(entries.entries.map((e: any) => [e.urn, e.deprecated]), [['urn:babel:orders:created', false], ['urn:babel:orders:placed', true]]);
    const { text } = await client.request('babelqueue/newEnvelope', { uri: pathToFileURL(root).href, urn: 'urn:babel:orders:created' });
    const uri = uriOf('fixtures/new.babel.json');
    await client.open(uri, text);
    assert.deepEqual((await client.pullDiagnostics(uri)).items, []);
    assert.equal(JSON.parse(text).job, 'urn:babel:orders:created');
    await client.close(uri);
  });

  test('the one request path: a references or registry request cancelled at once is answered empty, the next in full', async () => {
    const cancelledAtOnce = async (method: string, params: unknown): Promise<unknown> => {
      const source = new CancellationTokenSource();
      const pending = client.connection.sendRequest(method, params, source.token);
      source.cancel();
      // RequestCancelled (-32800) is an empty answer too.
      return pending.catch((error: { code?: number }) => (error.code === -32800 ? 'cancelled' : Promise.reject(error)));
    };
    const registryUri = uriOf('registry.json');
    const registryText = readFileSync(join(root, 'registry.json'), 'utf8');
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: registryText } });
    const references = { textDocument: { uri: registryUri }, position: positionOf(registryText, 'urn:babel:orders:placed', 2), context: { includeDeclaration: false } };
    const cancelled = await cancelledAtOnce('textDocument/references', references);
    assert.ok(cancelled === 'cancelled' || (Array.isArray(cancelled) && cancelled.length === 0), JSON.stringify(cancelled));
    assert.deepEqual((await client.request('textDocument/references', references)).map((r: any) => r.uri), [uriOf('fixtures/other.babel.json')]);
    // A folder not asked about before: its settings are fetched from the client, and the cancellation is read meanwhile.
    const entries = await cancelledAtOnce('babelqueue/registryEntries', { uri: uriOf('schemas') });
    assert.ok(entries === 'cancelled' || (entries as { entries: unknown[] }).entries.length === 0, JSON.stringify(entries));
    assert.equal((await client.request('babelqueue/registryEntries', { uri: pathToFileURL(root).href })).entries.length, 2);
    assert.deepEqual(client.logs.filter((line) => /failed/.test(line)), []);
    await client.close(registryUri);
  });
});
