/**
 * The workspace's report pushed to clients without pull diagnostics (Neovim 0.7, eglot 1.9), over
 * real JSON-RPC against dist/server.js: a fixture nobody opened is pushed with its findings, a
 * clean one is not pushed at all; a fixture mended, deleted or newly ignored on disk gets an empty
 * list; an open fixture is left to the open-document push until it closes, then its file's
 * findings come back; a save has the folders looked at again (Neovim 0.7 sends no file events,
 * eglot 1.9 none for a folder made after it started); thousands of
 * fixtures cost a notification only for those with findings, and requests are answered while
 * they go out. The project files the report lists are pushed too: registry.json (one sender, with
 * the open fixtures that use it), babelq.json and the suppressions file. With a stand-in report
 * held open by the test: a fixture opened while a round reports it is left to its editor's push.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { EGLOT_1_9, NEOVIM_0_7 } from '../support/editor-capabilities';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';
import type { ServerContext } from '../../server/context';
import { PushedWorkspaceFixtures } from '../../server/pushed-workspace-fixtures';
import type { PushedRegistryFiles } from '../../server/registry-file-reports';
import type { WorkspaceFixtures } from '../../server/workspace-diagnostics';
import { scratchFolder } from '../support/scratch-folder';

const ROOT = resolve(__dirname, '..', '..');
const BROKEN = readFileSync(join(ROOT, 'examples/bad/contract.babel.json'), 'utf8');
const REGISTRY = JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/orders.json', owner: 'orders', status: 'active' }] }, null, 2);
/** A registry whose entry names a schema file that is not there: a registry-error in registry.json. */
const REGISTRY_MISSING_SCHEMA = JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/missing.json', owner: 'orders', status: 'active' }] }, null, 2);
const CREATED = 1;
const CHANGED = 2;
const DELETED = 3;

/** A Git work tree with a registry, one broken fixture and one clean one. */
function project(prefix: string) {
  const folder = scratchFolder(prefix);
  folder.write('.git/HEAD', 'ref: refs/heads/main\n');
  folder.write('registry.json', REGISTRY);
  folder.write('schemas/orders.json', { type: 'object' });
  folder.write('fixtures/broken.babel.json', BROKEN);
  folder.write('fixtures/clean.babel.json', GOOD_ENVELOPE);
  return folder;
}

const codesOf = (diagnostics: readonly { code?: unknown }[]) => diagnostics.map((d) => String(d.code));
/** The publications for `uri`, in order, as the number of findings each carried. */
const countsFor = (client: TestLspClient, uri: string) => client.published.filter((p) => p.uri === uri).map((p) => p.diagnostics.length);
/** Waits until the last publication for `uri` has `count` findings (at least one when count is 'some'). */
const lastIs = (client: TestLspClient, uri: string, count: number | 'some', timeoutMs = 10_000) =>
  client.waitForPublished((all) => {
    const last = all.filter((p) => p.uri === uri).at(-1);
    return last !== undefined && (count === 'some' ? last.diagnostics.length > 0 : last.diagnostics.length === count);
  }, timeoutMs);

describe('the workspace\'s fixtures pushed to a client without pull diagnostics', () => {
  test('an unopened fixture with findings is pushed with what babelq lint reports; a clean one is not pushed at all', async () => {
    const { uriOf } = project('babelq-push-unopened-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    try {
      await client.initialize();
      const pushed = await client.lastPublished(uriOf('fixtures/broken.babel.json'));
      assert.ok(codesOf(pushed).includes('forbidden-key'), JSON.stringify(pushed));
      // The registry.json below has no problem, and the clean fixture none: a notification for either is noise.
      await new Promise((done) => setTimeout(done, 300));
      assert.deepEqual(client.published.map((p) => p.uri), [uriOf('fixtures/broken.babel.json')]);
    } finally {
      client.kill();
    }
  });

  test('with file events (eglot 1.9): a fixture mended on disk gets an empty list, one broken on disk its findings, a deleted one an empty list', async () => {
    const { uriOf, write, at } = project('babelq-push-events-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
    const event = (path: string, type: number) => client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path), type }] });
    try {
      await client.initialize();
      await lastIs(client, uriOf('fixtures/broken.babel.json'), 'some');
      write('fixtures/broken.babel.json', GOOD_ENVELOPE);
      await event('fixtures/broken.babel.json', CHANGED);
      await lastIs(client, uriOf('fixtures/broken.babel.json'), 0);
      write('fixtures/clean.babel.json', BROKEN);
      write('fixtures/new.babel.json', BROKEN);
      await event('fixtures/clean.babel.json', CHANGED);
      await event('fixtures/new.babel.json', CREATED);
      await lastIs(client, uriOf('fixtures/clean.babel.json'), 'some');
      await lastIs(client, uriOf('fixtures/new.babel.json'), 'some');
      rmSync(at('fixtures/new.babel.json'));
      await event('fixtures/new.babel.json', DELETED);
      await lastIs(client, uriOf('fixtures/new.babel.json'), 0);
      // Mended once, the first fixture was told so once, and is told nothing more while it stays clean.
      assert.deepEqual(countsFor(client, uriOf('fixtures/broken.babel.json')).slice(1), [0]);
    } finally {
      client.kill();
    }
  });

  test('a fixture newly ignored by babelq.json, or out of scope, gets an empty list; a registry change gives its fixtures their new findings', async () => {
    const { uriOf, write } = project('babelq-push-ignored-');
    write('fixtures/unknown.babel.json', GOOD_ENVELOPE.replace('urn:babel:orders:created', 'urn:babel:orders:shipped'));
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
    try {
      await client.initialize();
      await lastIs(client, uriOf('fixtures/unknown.babel.json'), 'some');
      assert.ok(codesOf(client.published.filter((p) => p.uri === uriOf('fixtures/unknown.babel.json')).at(-1)!.diagnostics).includes('unknown-urn'));
      // The registry learns the URN: the fixture's finding goes.
      write('registry.json', JSON.stringify({ schemas: [...JSON.parse(REGISTRY).schemas, { urn: 'urn:babel:orders:shipped', schema: 'schemas/orders.json', owner: 'orders', status: 'active' }] }, null, 2));
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('registry.json'), type: CHANGED }] });
      await lastIs(client, uriOf('fixtures/unknown.babel.json'), 0);
      // Ignored: the broken fixture is no longer the workspace's.
      await lastIs(client, uriOf('fixtures/broken.babel.json'), 'some');
      write('babelq.json', '{ "ignore": ["fixtures/broken.babel.json"] }\n');
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('babelq.json'), type: CREATED }] });
      await lastIs(client, uriOf('fixtures/broken.babel.json'), 0);
      // Back in, then the scope turned to open files: cleared again.
      write('babelq.json', '{}\n');
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('babelq.json'), type: CHANGED }] });
      await lastIs(client, uriOf('fixtures/broken.babel.json'), 'some');
      client.settings = { diagnostics: { scope: 'openFiles' } };
      await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { babelqueue: client.settings } });
      await lastIs(client, uriOf('fixtures/broken.babel.json'), 0);
      // And back to the workspace: its findings come back (they are what they were before).
      client.settings = { diagnostics: { scope: 'workspace' } };
      await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { babelqueue: client.settings } });
      await lastIs(client, uriOf('fixtures/broken.babel.json'), 'some');
    } finally {
      client.kill();
    }
  });

  test('an opened fixture is the open-document push\'s until it closes; then its file\'s findings come back', async () => {
    const { uriOf, write } = project('babelq-push-open-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
    const uri = uriOf('fixtures/broken.babel.json');
    try {
      await client.initialize();
      await lastIs(client, uri, 'some');
      // Opened with the fix typed in, unsaved: the editor's text is what it shows.
      await client.open(uri, GOOD_ENVELOPE);
      await lastIs(client, uri, 0);
      const atOpen = client.published.length;
      // A change that has the workspace reported again: nothing goes out for the open fixture.
      write('fixtures/other.babel.json', BROKEN);
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('fixtures/other.babel.json'), type: CREATED }] });
      await lastIs(client, uriOf('fixtures/other.babel.json'), 'some');
      assert.deepEqual(client.published.slice(atOpen).filter((p) => p.uri === uri), [], 'nothing pushed for the open fixture from its file');
      // Closed unsaved: cleared by the close, then what the file still holds.
      await client.close(uri);
      await client.waitForPublished((all) => {
        const counts = all.slice(atOpen).filter((p) => p.uri === uri).map((p) => p.diagnostics.length);
        return counts.length >= 2 && counts[0] === 0 && counts.at(-1)! > 0;
      }, 10_000);
    } finally {
      client.kill();
    }
  });

  test('a fixture opened under another spelling of its URI has the workspace\'s entry cleared, so it is not listed twice', async () => {
    const { uriOf, write } = project('babelq-push-spelling-');
    write('fixtures/team@orders.babel.json', BROKEN);
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    const nodeSpelling = uriOf('fixtures/team@orders.babel.json');
    const editorSpelling = nodeSpelling.replace('team@orders', 'team%40orders');
    try {
      await client.initialize();
      await lastIs(client, nodeSpelling, 'some');
      await client.open(editorSpelling, BROKEN);
      await lastIs(client, editorSpelling, 'some');
      assert.deepEqual(countsFor(client, nodeSpelling).at(-1), 0, 'the entry under the other spelling is cleared');
    } finally {
      client.kill();
    }
  });

  test('without file events (Neovim 0.7): a save of any document has the folders looked at again', async () => {
    const { uriOf, write } = project('babelq-push-save-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    try {
      await client.initialize();
      await lastIs(client, uriOf('fixtures/broken.babel.json'), 'some');
      write('fixtures/broken.babel.json', GOOD_ENVELOPE);
      write('fixtures/created.babel.json', BROKEN);
      await client.open(uriOf('fixtures/clean.babel.json'), GOOD_ENVELOPE);
      await client.save(uriOf('fixtures/clean.babel.json'));
      await lastIs(client, uriOf('fixtures/broken.babel.json'), 0);
      await lastIs(client, uriOf('fixtures/created.babel.json'), 'some');
    } finally {
      client.kill();
    }
  });

  test('with file events that miss a folder made later (eglot 1.9 watches the folders it found at start): a save has the folders walked again', async () => {
    const { uriOf, write } = project('babelq-push-save-watched-');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
    try {
      await client.initialize();
      await lastIs(client, uriOf('fixtures/broken.babel.json'), 'some');
      // Written in a new folder: no file event comes for it.
      write('later/created.babel.json', BROKEN);
      await client.open(uriOf('fixtures/clean.babel.json'), GOOD_ENVELOPE);
      await client.save(uriOf('fixtures/clean.babel.json'));
      await lastIs(client, uriOf('later/created.babel.json'), 'some');
    } finally {
      client.kill();
    }
  });

  test('a registry.json with a problem, used only by fixtures nobody opened, is pushed with its findings, and emptied once mended', async () => {
    const { uriOf, write } = project('babelq-push-registry-');
    write('registry.json', REGISTRY_MISSING_SCHEMA);
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
    const registryUri = uriOf('registry.json');
    try {
      await client.initialize();
      await lastIs(client, registryUri, 'some');
      assert.deepEqual(codesOf(client.published.filter((p) => p.uri === registryUri).at(-1)!.diagnostics), ['registry-error']);
      write('registry.json', REGISTRY);
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: registryUri, type: CHANGED }] });
      await lastIs(client, registryUri, 0);
      assert.deepEqual(countsFor(client, registryUri), [1, 0], 'sent once with its finding, once empty');
    } finally {
      client.kill();
    }
  });

  test('registry.json used by an open fixture and by the workspace\'s report has one sender: the fixture closing leaves it listed; the report dropping it leaves it to the open fixture; both gone, cleared', async () => {
    const { uriOf, write } = project('babelq-push-registry-owner-');
    write('registry.json', REGISTRY_MISSING_SCHEMA);
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
    const registryUri = uriOf('registry.json');
    const fixtureUri = uriOf('fixtures/clean.babel.json');
    const settle = () => new Promise((done) => setTimeout(done, 600));
    try {
      await client.initialize();
      await lastIs(client, registryUri, 'some');
      // Opened and closed: the report still lists the registry, so nothing clears it, and its unchanged findings are not sent twice.
      await client.open(fixtureUri, GOOD_ENVELOPE);
      // Its own registry-error (its URN's schema cannot be read), from the open-document push.
      await client.waitForPublished((all) => all.some((p) => p.uri === fixtureUri && p.version === 1));
      await client.close(fixtureUri);
      await settle();
      assert.deepEqual(countsFor(client, registryUri), [1], 'sent once, and neither cleared nor sent again');
      // Open again, then every fixture ignored: the report drops the registry, the open fixture still uses it.
      // (Once the fixture's push has told which registry it uses: a report that drops the registry
      // before that clears it, and the push shows it again.)
      const beforeOpen = client.published.length;
      await client.open(fixtureUri, GOOD_ENVELOPE);
      await client.waitForPublished((all) => all.slice(beforeOpen).some((p) => p.uri === fixtureUri && p.version === 1));
      write('babelq.json', '{ "ignore": ["fixtures/**"] }\n');
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('babelq.json'), type: CREATED }] });
      await lastIs(client, uriOf('fixtures/broken.babel.json'), 0);
      await settle();
      assert.deepEqual(countsFor(client, registryUri), [1], 'still shown: the open fixture uses it');
      // The fixture closed: no one uses it any more.
      await client.close(fixtureUri);
      await lastIs(client, registryUri, 0);
      assert.deepEqual(countsFor(client, registryUri), [1, 0]);
    } finally {
      client.kill();
    }
  });

  test('babelq.json and the suppressions file with findings are pushed unopened; opened, they are the open-document push\'s; closed, their files\' findings come back; mended, emptied', async () => {
    const { uriOf, write } = project('babelq-push-config-');
    write('babelq.json', '{ "severty": {} }\n');
    write('babelq-suppressions.json', '{ "suppressions": [{ "file": "fixtures/broken.babel.json", "code": "forbidden-key", "pointer": "/timestamp" }] }\n');
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
    const configUri = uriOf('babelq.json');
    const suppressionsUri = uriOf('babelq-suppressions.json');
    try {
      await client.initialize();
      await lastIs(client, configUri, 'some');
      await lastIs(client, suppressionsUri, 'some');
      assert.deepEqual(codesOf(client.published.filter((p) => p.uri === configUri).at(-1)!.diagnostics), ['config-error']);
      assert.deepEqual(codesOf(client.published.filter((p) => p.uri === suppressionsUri).at(-1)!.diagnostics), ['unexplained-suppression']);
      // Opened with the key mended, unsaved: the editor's text is what it shows, and nothing comes from the file.
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: configUri, languageId: 'jsonc', version: 1, text: '{ "severity": {} }\n' } });
      await lastIs(client, configUri, 0);
      const atOpen = client.published.length;
      write('fixtures/other.babel.json', BROKEN);
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('fixtures/other.babel.json'), type: CREATED }] });
      await lastIs(client, uriOf('fixtures/other.babel.json'), 'some');
      assert.deepEqual(client.published.slice(atOpen).filter((p) => p.uri === configUri), [], 'nothing pushed for the open babelq.json from its file');
      // Closed unsaved: cleared by the close, then what the file still holds.
      await client.close(configUri);
      await client.waitForPublished((all) => {
        const counts = all.slice(atOpen).filter((p) => p.uri === configUri).map((p) => p.diagnostics.length);
        return counts.length >= 2 && counts[0] === 0 && counts.at(-1)! > 0;
      }, 10_000);
      // Mended on disk: emptied.
      write('babelq.json', '{}\n');
      write('babelq-suppressions.json', '{ "suppressions": [] }\n');
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: configUri, type: CHANGED }, { uri: suppressionsUri, type: CHANGED }] });
      await lastIs(client, configUri, 0);
      await lastIs(client, suppressionsUri, 0);
    } finally {
      client.kill();
    }
  });

  test('3,000 fixtures: one notification per fixture with findings, none for the clean ones, and requests answered while they go out', async () => {
    const { uriOf, write } = project('babelq-push-many-');
    const BROKEN_COUNT = 1_500;
    for (let index = 0; index < BROKEN_COUNT; index++) write(`many/broken-${index}.babel.json`, BROKEN);
    for (let index = 0; index < 1_500; index++) write(`many/clean-${index}.babel.json`, GOOD_ENVELOPE);
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: EGLOT_1_9 });
    const fromWalk = (uri: string) => uri.includes('/many/broken-') || uri.endsWith('/fixtures/broken.babel.json');
    try {
      await client.initialize();
      await client.open(uriOf('fixtures/clean.babel.json'), GOOD_ENVELOPE);
      await client.waitForPublished((all) => all.some((p) => fromWalk(p.uri)), 60_000);
      // Asked as soon as the first went out: answered before the last.
      await client.request('textDocument/documentSymbol', { textDocument: { uri: uriOf('fixtures/clean.babel.json') } });
      const beforeAnswer = client.published.filter((p) => fromWalk(p.uri)).length;
      await client.waitForPublished((all) => all.filter((p) => fromWalk(p.uri)).length >= BROKEN_COUNT + 1, 60_000);
      assert.ok(beforeAnswer < BROKEN_COUNT + 1, `the request was answered after all ${BROKEN_COUNT + 1} notifications`);
      const pushed = client.published.filter((p) => p.uri !== uriOf('fixtures/clean.babel.json'));
      assert.equal(pushed.length, BROKEN_COUNT + 1, 'one notification per fixture with findings');
      assert.ok(pushed.every((p) => p.diagnostics.length > 0 && fromWalk(p.uri)));
      // A change that leaves their findings as they were sends none of them again.
      write('many/broken-7.babel.json', GOOD_ENVELOPE);
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('many/broken-7.babel.json'), type: CHANGED }] });
      await lastIs(client, uriOf('many/broken-7.babel.json'), 0, 60_000);
      await new Promise((done) => setTimeout(done, 500));
      assert.equal(client.published.filter((p) => p.uri !== uriOf('fixtures/clean.babel.json')).length, BROKEN_COUNT + 2);
    } finally {
      client.kill();
    }
  });
});

describe('the workspace push against documents opened while a round runs', () => {
  /** A stand-in for the server's context and report: the report of each round is resolved by the test. */
  function harness() {
    const open = new Map<string, { uri: string }>();
    const listeners = { open: [] as ((event: { document: { uri: string } }) => void)[], close: [] as ((event: { document: { uri: string } }) => void)[] };
    const sent: { uri: string; diagnostics: unknown[] }[] = [];
    const reports: ((items: unknown[]) => void)[] = [];
    const context = {
      connection: { sendDiagnostics: async (params: { uri: string; diagnostics: unknown[] }) => void sent.push(params), console: { error: (text: string) => assert.fail(text) } },
      documents: {
        all: () => [...open.values()],
        onDidOpen: (listener: (event: { document: { uri: string } }) => void) => listeners.open.push(listener),
        onDidClose: (listener: (event: { document: { uri: string } }) => void) => listeners.close.push(listener),
        onDidSave: () => undefined,
      },
    };
    const workspace = { onChanged: () => undefined, rescan: () => undefined, listsRegistryFile: () => false, report: () => new Promise<unknown[]>((resolve) => reports.push(resolve)) };
    // The stand-in report lists fixtures only, so nothing reaches the registry's sender.
    const registryFiles = { fromWorkspace: async () => assert.fail('a fixture was sent to the registry sender') };
    const push = new PushedWorkspaceFixtures(context as unknown as ServerContext, workspace as unknown as WorkspaceFixtures, registryFiles as unknown as PushedRegistryFiles);
    const openDocument = (uri: string) => {
      open.set(uri, { uri });
      for (const listener of listeners.open) listener({ document: { uri } });
    };
    return { push, sent, reports, openDocument };
  }

  const until = async (condition: () => boolean) => {
    for (let waited = 0; !condition(); waited += 10) {
      assert.ok(waited < 5_000, 'timed out');
      await new Promise((done) => setTimeout(done, 10));
    }
  };

  test('a fixture opened while its on-disk findings were being reported is not sent them: its editor\'s push has it', async () => {
    const { push, sent, reports, openDocument } = harness();
    const opened = pathToFileURL(resolve('/project/opened.babel.json')).href;
    const unopened = pathToFileURL(resolve('/project/unopened.babel.json')).href;
    const finding = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'on disk' };
    push.start();
    await until(() => reports.length === 1);
    // The report read both files before the editor opened one of them.
    openDocument(opened);
    reports[0]!([opened, unopened].map((uri, i) => ({ kind: 'full', uri, version: null, resultId: `${i + 1}`, items: [finding] })));
    await until(() => sent.length > 0);
    await new Promise((done) => setTimeout(done, 50));
    assert.deepEqual(sent.map((s) => s.uri), [unopened]);
  });
});
