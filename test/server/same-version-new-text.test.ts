/**
 * A document whose text changes while its version does not: closed and opened again at the version
 * it had (editors number each opening's versions from 1), or changed by a client that does not
 * raise the version (the protocol forbids it). Its diagnostics, pulled and in the workspace's
 * report, are the new text's, even when the report was still working on the earlier opening (waiting
 * for the document's settings) when the reopening came.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const FIXTURE = join(resolve(__dirname, '../../examples'), 'orders/order-created.babel.json');
const text = readFileSync(FIXTURE, 'utf8');
const withForbiddenKey = text.replace('"attempts": 0', '"attempts": 0, "timestamp": 1');
const broken = '{';

const codesOf = (report: { items: { code: string }[] }) => report.items.map((d) => d.code);

describe('a document whose text changes while its version does not', () => {
  const folder = scratchFolder('babelq-same-version-');
  mkdirSync(folder.at('.git'));
  folder.write('reopened.babel.json', withForbiddenKey);
  const uri = folder.uriOf('reopened.babel.json');
  // Settings answered late, so the workspace's report is still waiting for them when the document reopens.
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(folder.base).href], configurationDelayMs: 300 });

  before(() => client.initialize());
  after(() => client.kill());

  test('didOpen (version 1), didClose, didOpen (version 1, another text): the diagnostics are the second text\'s', async () => {
    await client.open(uri, withForbiddenKey, 1);
    assert.deepEqual(codesOf(await client.pullDiagnostics(uri)), ['forbidden-key']);
    await client.close(uri);
    await client.open(uri, broken, 1);
    const now = codesOf(await client.pullDiagnostics(uri));
    assert.ok(now.includes('json-syntax') && !now.includes('forbidden-key'), now.join(','));
    await client.close(uri);
  });

  test('the workspace\'s report reads the first opening after the second has come: the diagnostics are still the second text\'s', async () => {
    await client.open(uri, withForbiddenKey, 1);
    const asked = client.configurationRequests;
    const report = client.request<{ items: { uri: string; items?: { code: string }[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
    // The report has found the open document and asks for its settings: it goes on with that document once they come.
    const started = Date.now();
    while (client.configurationRequests === asked) {
      assert.ok(Date.now() - started < 5000, 'the workspace report asks for the open document\'s settings');
      await new Promise((r) => setTimeout(r, 5));
    }
    await client.close(uri);
    await client.open(uri, broken, 1);
    await report;
    const now = codesOf(await client.pullDiagnostics(uri));
    assert.ok(now.includes('json-syntax') && !now.includes('forbidden-key'), now.join(','));
    const { items } = await client.request<{ items: { uri: string; items?: { code: string }[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
    assert.deepEqual(items.find((item) => item.uri === uri)?.items?.map((d) => d.code), now, 'the workspace report');
  });

  test('a change that keeps the version, then a keystroke that raises it: the diagnostics are each text\'s', async () => {
    const changed = folder.uriOf('changed.babel.json');
    const before = '{ "timestamp": "abc" }';
    await client.open(changed, before, 1);
    assert.ok(codesOf(await client.pullDiagnostics(changed)).includes('forbidden-key'));
    const replace = (version: number, start: number, end: number, text: string) =>
      client.connection.sendNotification('textDocument/didChange', { textDocument: { uri: changed, version }, contentChanges: [{ range: { start: { line: 0, character: start }, end: { line: 0, character: end } }, text }] });
    // "timestamp" becomes "timeStamp" (as long), the version kept at 1.
    await replace(1, 7, 8, 'S');
    const kept = codesOf(await client.pullDiagnostics(changed));
    assert.ok(!kept.includes('forbidden-key') && kept.includes('encoding-divergence'), kept.join(','));
    // Then "abc" becomes "abcd" at version 2: the same findings as the text opened afresh.
    await replace(2, 19, 19, 'd');
    const fresh = folder.uriOf('fresh.babel.json');
    await client.open(fresh, '{ "timeStamp": "abcd" }', 1);
    assert.deepEqual(codesOf(await client.pullDiagnostics(changed)), codesOf(await client.pullDiagnostics(fresh)));
  });
});

describe('a document reopened at the same version in an editor that is sent its diagnostics (no pull)', () => {
  const folder = scratchFolder('babelq-same-version-push-');
  mkdirSync(folder.at('.git'));
  const uri = folder.uriOf('reopened.babel.json');
  // Settings answered late, so the first opening's run is still waiting for them when the document reopens.
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(folder.base).href], pullDiagnostics: false, configurationDelayMs: 300 });

  before(() => client.initialize());
  after(() => client.kill());

  test('the first opening\'s findings are never sent for the second', async () => {
    const asked = client.configurationRequests;
    await client.open(uri, withForbiddenKey, 1);
    // The first opening's run has started and waits for the document's settings.
    const opened = Date.now();
    while (client.configurationRequests === asked) {
      assert.ok(Date.now() - opened < 5000, 'the run asks for the open document\'s settings');
      await new Promise((r) => setTimeout(r, 5));
    }
    await client.close(uri);
    const reopenedAt = client.published.length;
    await client.open(uri, broken, 1);
    const sentSince = () => client.published.slice(reopenedAt).filter((p: { uri: string }) => p.uri === uri) as { diagnostics: { code: string }[] }[];
    const started = Date.now();
    while (!sentSince().some((p) => p.diagnostics.some((d) => d.code === 'json-syntax'))) {
      assert.ok(Date.now() - started < 10_000, 'the second text\'s findings are sent');
      await new Promise((r) => setTimeout(r, 10));
    }
    // Both runs have had their settings by now.
    await new Promise((r) => setTimeout(r, 700));
    // The close's own empty list (no version) may come after the reopening; every list sent for
    // version 1 since is the second text's: the first opening's run, finished late, sent its own
    // (empty, as for a closed document) for the new one.
    const sent = sentSince()
      .filter((p) => (p as { version?: number }).version === 1)
      .map((p) => p.diagnostics.map((d) => d.code).join(','));
    assert.ok(sent.length > 0 && sent.every((codes) => codes.includes('json-syntax') && !codes.includes('forbidden-key')), sent.join(' | '));
  });
});
