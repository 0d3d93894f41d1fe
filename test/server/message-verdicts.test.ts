/**
 * `babelqueue/judgeMessages` over real JSON-RPC against dist/server.js: the editor's lists and
 * redrives judged with the first workspace folder's registry and babelq.json, as a message opened
 * from a broker is, and as `babelq peek` and `dlq` judge the same texts at the top of that folder.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { lintedRows, verdictOf } from '../../core/language/message-rows';
import { messageJudgement } from '../../cli/message-judgement';
import { TestLspClient } from '../support/lsp-client';
import { ORDERS_SCHEMA, ordersFixture } from '../support/orders-schema';

const root = mkdtempSync(join(tmpdir(), 'babelq-message-verdicts-'));
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};
write('registry.json', JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/orders-created.json', owner: 'orders', status: 'active' }] }));
write('schemas/orders-created.json', ORDERS_SCHEMA);
// Fixtures, and so messages judged as one, may carry a schema failure as a warning.
write('babelq.json', JSON.stringify({ overrides: [{ files: ['*.babel.json'], severity: { 'payload-schema': 'warning' } }] }));

const VALID = ordersFixture({ order_id: 7 });
const SCHEMA_FAILURE = ordersFixture({ order_id: 'seven' });
const CONTRACT_ERROR = ordersFixture({ order_id: 7 }).replace('"attempts": 0', '"attempts": "0"');
const NOT_JSON = '{"job": ';

describe('babelqueue/judgeMessages', () => {
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });

  before(() => client.initialize());
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });

  test('each text judged with the folder\'s registry and babelq.json, in order', async () => {
    const { verdicts } = await client.request('babelqueue/judgeMessages', { texts: [VALID, SCHEMA_FAILURE, CONTRACT_ERROR, NOT_JSON] });
    assert.equal(verdicts.length, 4);
    assert.deepEqual(verdicts[0], { errors: 0, warnings: 0, errorCodes: [] });
    // The registry's schema applies, at the severity the override for *.babel.json gives it.
    assert.deepEqual(verdicts[1], { errors: 0, warnings: 1, errorCodes: [] });
    assert.ok(verdicts[2].errors >= 1 && verdicts[2].errorCodes.length === verdicts[2].errors, JSON.stringify(verdicts[2]));
    assert.equal(verdicts[3].errorCodes[0], 'json-syntax');
  });

  test('the same verdicts as babelq peek and dlq give at the top of the folder', async () => {
    const texts = [VALID, SCHEMA_FAILURE, CONTRACT_ERROR, NOT_JSON, `\ufeff${VALID}`];
    const { verdicts } = await client.request('babelqueue/judgeMessages', { texts });
    const judgement = messageJudgement(root, undefined);
    const cli = lintedRows(texts.map((text) => ({ text, bytes: Buffer.byteLength(text) })), judgement.settings, judgement.registry).map((row) => verdictOf(row.diagnostics));
    assert.deepEqual(verdicts, cli);
  });

  test('a message opened from a broker shows what its row said: the override for *.babel.json applies to it too', async () => {
    const uri = 'babelqueue-message:/orders.dlq/5f0c2a8e';
    await client.open(uri, SCHEMA_FAILURE);
    try {
      const items = (await client.pullDiagnostics(uri)).items;
      assert.deepEqual(items.map((d: { code: string; severity: number }) => [d.code, d.severity]), [['payload-schema', 2]]);
    } finally {
      await client.close(uri);
    }
  });

  test('params of the wrong shape are refused with InvalidParams, saying what is wrong', async () => {
    await assert.rejects(client.request('babelqueue/judgeMessages', { texts: 'not a list' }), /texts is not a list/);
    await assert.rejects(client.request('babelqueue/judgeMessages', { texts: [VALID, 7] }), /texts is not a list of strings/);
    await assert.rejects(client.request('babelqueue/judgeMessages', { texts: new Array(1001).fill(VALID) }), /texts holds 1001 messages, more than the 1000 one request judges/);
    // Still answering.
    assert.equal((await client.request('babelqueue/judgeMessages', { texts: [VALID] })).verdicts.length, 1);
  });

  test('a thousand large messages are judged in turns: a request sent meanwhile is answered first', async () => {
    const large = ordersFixture({ order_id: 'seven', lines: Array.from({ length: 300 }, (_, at) => ({ sku: `SKU-${at}`, quantity: at, note: 'boxed' })) });
    const started = Date.now();
    let judgedAt = 0;
    const judged = client.request('babelqueue/judgeMessages', { texts: new Array(1000).fill(large) }).then((result) => {
      judgedAt = Date.now();
      return result;
    });
    // Past the settings and registry the judging awaits first: into its loop.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const hover = await client.request('textDocument/hover', { textDocument: { uri: 'file:///not-open.babel.json' }, position: { line: 0, character: 0 } });
    const hoveredAt = Date.now();
    const { verdicts } = await judged;
    assert.equal(hover, null);
    assert.equal(verdicts.length, 1000);
    assert.ok(verdicts.every((verdict: { warnings: number }) => verdict.warnings === 1));
    assert.ok(judgedAt - started > 300, `judging took ${judgedAt - started} ms, too little to tell`);
    assert.ok(hoveredAt < judgedAt, `the hover was answered ${hoveredAt - started} ms after the request, the judging ${judgedAt - started} ms`);
  });
});

describe('babelqueue/judgeMessages without a workspace folder', () => {
  test('no registry: the contract alone', async () => {
    const lone = new TestLspClient();
    try {
      await lone.initialize();
      const { verdicts } = await lone.request('babelqueue/judgeMessages', { texts: [SCHEMA_FAILURE] });
      assert.deepEqual(verdicts, [{ errors: 0, warnings: 0, errorCodes: [] }]);
    } finally {
      lone.kill();
    }
  });
});
