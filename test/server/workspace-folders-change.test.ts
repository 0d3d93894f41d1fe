/**
 * A workspace folder added while the server runs (workspace/didChangeWorkspaceFolders, then the
 * server asks workspace/workspaceFolders): its fixtures join the workspace's report. A client that
 * answers the question with something other than a list of folders leaves the folders as they were,
 * and the log says what was wrong with the answer rather than that the client refused it.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const BROKEN = GOOD_ENVELOPE.replace('"attempts": 0', '"attempts": 0,\n  "timestamp": 1750000000');

const CAPABILITIES = {
  workspace: { configuration: true, workspaceFolders: true, diagnostics: { refreshSupport: true } },
  textDocument: { diagnostic: { dynamicRegistration: false }, publishDiagnostics: {} },
};

type Report = { items: { uri: string; items?: { code: string }[] }[] };

/** The fixtures with findings in a fresh report of the workspace. */
async function broken(client: TestLspClient): Promise<string[]> {
  const report = await client.request<Report>('workspace/diagnostic', { previousResultIds: [] });
  return report.items.filter((item) => item.uri.endsWith('.babel.json') && (item.items ?? []).length > 0).map((item) => item.uri).sort();
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  for (const giveUp = Date.now() + timeoutMs; ; ) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > giveUp) assert.fail(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

test('a folder added joins the report; an answer that is not a list of folders keeps the folders and says so', async () => {
  assert.ok(BROKEN !== GOOD_ENVELOPE, 'the broken fixture has its forbidden key');
  const first = scratchFolder('babelq-folders-first-');
  const second = scratchFolder('babelq-folders-second-');
  first.write('a/bad.babel.json', BROKEN);
  second.write('b/bad.babel.json', BROKEN);
  const client = new TestLspClient({ workspaceFolders: [first.uriOf('')], capabilities: CAPABILITIES });
  after(() => client.shutdown());
  let answer: unknown = [{ uri: first.uriOf(''), name: 'first' }];
  client.connection.onRequest('workspace/workspaceFolders', () => answer);
  await client.initialize();
  assert.deepEqual(await broken(client), [first.uriOf('a/bad.babel.json')]);

  answer = [{ uri: first.uriOf(''), name: 'first' }, { uri: second.uriOf(''), name: 'second' }];
  await client.connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [{ uri: second.uriOf(''), name: 'second' }], removed: [] } });
  await until('the added folder\'s fixture in the report', async () => ((await broken(client)).length === 2 ? true : undefined));
  assert.deepEqual(await broken(client), [first.uriOf('a/bad.babel.json'), second.uriOf('b/bad.babel.json')].sort());

  answer = 5;
  await client.connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [{ uri: second.uriOf(''), name: 'second' }] } });
  const said = await until('the log line about the answer', async () => client.logs.find((line) => /workspace\/workspaceFolders/.test(line)));
  assert.match(said, /answered workspace\/workspaceFolders with something other than a list of folders \(5\): the workspace folders stay as they were/);
  assert.ok(!client.logs.some((line) => /is not a function|refused by the client/.test(line)), client.logs.join('\n'));
  assert.deepEqual(await broken(client), [first.uriOf('a/bad.babel.json'), second.uriOf('b/bad.babel.json')].sort());
});
