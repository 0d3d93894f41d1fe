/**
 * A document closed and opened again at the version it had, with another text (editors number
 * each opening's versions from 1): its diagnostics are the new text's, even when something the
 * server was still working out for the earlier opening (the workspace's report, waiting for the
 * document's settings) reads the earlier text into the parse cache after the reopening.
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

describe('a document reopened at the same version with another text', () => {
  const folder = scratchFolder('babelq-reopen-same-version-');
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
  });
});
