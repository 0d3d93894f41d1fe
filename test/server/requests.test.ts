/**
 * The one request path (server/request.ts), over real JSON-RPC against dist/server.js: every
 * envelope feature answers empty for a JSON document that is not an envelope, and a request
 * cancelled while it waits is answered empty (or RequestCancelled) without stopping the next one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CancellationTokenSource } from 'vscode-languageserver-protocol/node';
import { TestLspClient } from '../support/lsp-client';
import { GOOD_ENVELOPE } from '../support/envelopes';

/** Laid out so that an envelope gets formatting edits, folds, symbols and selection ranges. */
const UNFORMATTED = '{ "job": "urn:babel:orders:created",\n  "data": {\n    "order_id": 1042 } }\n';

/** The structure requests, as params for a document: an envelope of UNFORMATTED text gets an answer to each. */
const STRUCTURE_REQUESTS: Record<string, (textDocument: { uri: string }) => unknown> = {
  'textDocument/formatting': (textDocument) => ({ textDocument, options: { tabSize: 2, insertSpaces: true } }),
  'textDocument/foldingRange': (textDocument) => ({ textDocument }),
  'textDocument/documentSymbol': (textDocument) => ({ textDocument }),
  'textDocument/selectionRange': (textDocument) => ({ textDocument, positions: [{ line: 2, character: 8 }] }),
};

/** LSP's RequestCancelled error code. */
const REQUEST_CANCELLED = -32800;

function noFailures(client: TestLspClient): void {
  assert.deepEqual(client.logs.filter((line) => /failed/.test(line)), []);
}

describe('the envelope gate', () => {
  const client = new TestLspClient();
  const other = 'file:///x/other.json';
  const envelope = 'file:///x/same.babel.json';

  before(async () => {
    await client.initialize();
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: other, languageId: 'json', version: 1, text: UNFORMATTED } });
    await client.open(envelope, UNFORMATTED);
  });
  after(() => client.kill());

  test('the same text as an envelope gets formatting, folding, symbols and selection ranges', async () => {
    for (const [method, paramsFor] of Object.entries(STRUCTURE_REQUESTS)) {
      const answer: unknown[] = await client.request(method, paramsFor({ uri: envelope }));
      assert.ok(answer.length > 0, `${method} on an envelope answered ${JSON.stringify(answer)}`);
    }
  });

  test('a JSON document that is not an envelope gets nothing from the envelope features', async () => {
    const textDocument = { uri: other };
    assert.equal(await client.request('textDocument/hover', { textDocument, position: { line: 0, character: 4 } }), null);
    assert.deepEqual(await client.request('textDocument/completion', { textDocument, position: { line: 1, character: 2 } }), []);
    for (const [method, paramsFor] of Object.entries(STRUCTURE_REQUESTS)) assert.deepEqual(await client.request(method, paramsFor(textDocument)), [], method);
    assert.deepEqual(await client.request('textDocument/definition', { textDocument, position: { line: 0, character: 14 } }), []);
    noFailures(client);
  });

  test('references and links work on registry.json only: an envelope or other JSON gets none', async () => {
    for (const uri of [other, envelope]) {
      const textDocument = { uri };
      assert.deepEqual(await client.request('textDocument/references', { textDocument, position: { line: 0, character: 14 }, context: { includeDeclaration: true } }), []);
      assert.deepEqual(await client.request('textDocument/documentLink', { textDocument }), []);
    }
    noFailures(client);
  });
});

describe('cancellation', () => {
  // Settings arrive slowly and are fetched once per document, so a request on a document just
  // opened is still waiting for them when its cancellation comes in.
  const client = new TestLspClient({ configurationDelayMs: 300 });
  let opened = 0;

  before(() => client.initialize());
  after(() => client.kill());

  async function freshDocument(text: string): Promise<{ uri: string }> {
    const uri = `file:///workspace/cancelled-${++opened}.babel.json`;
    await client.open(uri, text);
    return { uri };
  }

  /** Sends a request, cancels it at once, and passes on its answer ('cancelled' for RequestCancelled). */
  async function cancelled(method: string, params: unknown): Promise<unknown> {
    const source = new CancellationTokenSource();
    const pending = client.connection.sendRequest(method, params, source.token);
    source.cancel();
    return pending.then(
      (answer) => answer,
      (error: { code?: number }) => {
        assert.equal(error.code, REQUEST_CANCELLED, `${method} was refused with ${JSON.stringify(error)}`);
        return 'cancelled';
      },
    );
  }

  const emptyOrCancelled = (answer: unknown) => answer === 'cancelled' || answer === null || (Array.isArray(answer) && answer.length === 0);

  test('a cancelled hover, completion or diagnostics pull is answered empty, and the next request is served', async () => {
    const onJob = { line: 1, character: 4 };
    const textDocument = await freshDocument(GOOD_ENVELOPE);
    const hover = await cancelled('textDocument/hover', { textDocument, position: onJob });
    assert.ok(emptyOrCancelled(hover), JSON.stringify(hover));
    const next = await client.request('textDocument/hover', { textDocument, position: onJob });
    assert.match(next?.contents?.value ?? '', /`job`/, JSON.stringify(next));

    const completion = await cancelled('textDocument/completion', { textDocument: await freshDocument(GOOD_ENVELOPE), position: onJob });
    assert.ok(emptyOrCancelled(completion), JSON.stringify(completion));

    const wrongLang = await freshDocument(GOOD_ENVELOPE.replace('"php"', '"cobol"'));
    const pulled = await cancelled('textDocument/diagnostic', { textDocument: wrongLang });
    assert.ok(pulled === 'cancelled' || (pulled as { items: unknown[] }).items.length === 0, JSON.stringify(pulled));
    assert.deepEqual((await client.pullDiagnostics(wrongLang.uri)).items.map((d) => d.code), ['unknown-lang']);
    noFailures(client);
  });

  test('a cancelled structure request is answered empty too, and the next one is answered', async () => {
    for (const [method, paramsFor] of Object.entries(STRUCTURE_REQUESTS)) {
      const textDocument = await freshDocument(UNFORMATTED);
      const answer = await cancelled(method, paramsFor(textDocument));
      assert.ok(emptyOrCancelled(answer), `${method}: ${JSON.stringify(answer)}`);
      const served: unknown[] = await client.request(method, paramsFor(textDocument));
      assert.ok(served.length > 0, `${method} after a cancellation: ${JSON.stringify(served)}`);
    }
    noFailures(client);
  });
});

describe('diagnostics first on a large document (server/diagnostics-first.ts)', () => {
  const client = new TestLspClient();
  before(() => client.initialize());
  after(() => client.kill());

  /** An envelope of about 2 MB: many orders, and one wrong value near the top. */
  function largeEnvelope(): string {
    const orders = Array.from({ length: 20_000 }, (_, index) => ({ order_id: index, sku: `SKU-${index}`, quantity: 2, note: 'gift wrap' }));
    return JSON.stringify({ job: 'urn:babel:orders:created', trace_id: 'not-a-uuid', meta: { schema_version: 1 }, attempts: 0, data: { orders } }, null, 2);
  }

  test('the outline and folding asked before the diagnostics are answered after them', async () => {
    const uri = 'file:///workspace/large-order.babel.json';
    const text = largeEnvelope();
    assert.ok(text.length > 1024 * 1024);
    await client.open(uri, text);
    const order: string[] = [];
    const textDocument = { uri };
    // As VS Code sends them on opening a file: the outline and folding first, the diagnostics last.
    const symbols = client.request('textDocument/documentSymbol', { textDocument }).then((answer: unknown[]) => (order.push('symbols'), answer));
    const folding = client.request('textDocument/foldingRange', { textDocument }).then((answer: unknown[]) => (order.push('folding'), answer));
    const diagnostics = client.pullDiagnostics(uri).then((answer) => (order.push('diagnostics'), answer));
    const [outline, folds, report] = await Promise.all([symbols, folding, diagnostics]);
    assert.equal(order[0], 'diagnostics', `answered in the order ${order.join(', ')}`);
    assert.ok(report.items.some((item) => item.code === 'trace-id-format' || /trace_id/.test(item.message)), JSON.stringify(report.items.map((item) => item.code)));
    assert.ok(outline.length > 0 && folds.length > 0, 'the outline and folding still come');
  });

  test('a small document answers in arrival order, without waiting', async () => {
    const uri = 'file:///workspace/small-order.babel.json';
    await client.open(uri, UNFORMATTED);
    const order: string[] = [];
    const textDocument = { uri };
    const symbols = client.request('textDocument/documentSymbol', { textDocument }).then(() => order.push('symbols'));
    const diagnostics = client.pullDiagnostics(uri).then(() => order.push('diagnostics'));
    await Promise.all([symbols, diagnostics]);
    assert.deepEqual(order, ['symbols', 'diagnostics']);
  });
});
