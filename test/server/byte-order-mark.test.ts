/**
 * A fixture stored with a UTF-8 byte-order mark, which editors hide: VS Code, Neovim and Emacs
 * open it without the mark, so the text the server is sent does not hold it, yet every SDK
 * consumer rejects the file's bytes. Over real JSON-RPC against dist/server.js and the CLI: the
 * editor reports the mark as `babelq lint` does (json-syntax, empty, at 1:1), the rest at the
 * columns the editor shows, and follows "Save with Encoding" (the mark gone or added, the text the same).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { TestLspClient, type TestClientOptions } from '../support/lsp-client';
import { asPublished, asSentToEditor } from '../support/published';

const CLI = resolve(__dirname, '../../dist/cli.js');
const MARK = Buffer.from([0xef, 0xbb, 0xbf]);
const BOM_MESSAGE = /^The file starts with a byte-order mark \(U\+FEFF\); strict JSON must not\. Save it as UTF-8 without BOM\.$/;

/** One line, so the finding about `attempts` is on the mark's line: its column tells whether the mark was counted. */
const TEXT = '{"job":"urn:babel:identity:user.registered","trace_id":"bf3cf504-099d-4122-b5f1-42a46741f5e4","data":{},"meta":{"id":"3aee8c1b-f93c-4aaa-954d-879a240b142e","queue":"identity","lang":"python","schema_version":1,"created_at":1763626417054},"attempts":"0"}\n';
const ATTEMPTS_AT = TEXT.indexOf('"0"');

function lintJson(root: string, file: string): Record<string, unknown>[] {
  const result = spawnSync(process.execPath, [CLI, 'lint', '--format', 'json', file], { cwd: root, encoding: 'utf8' });
  const reports = JSON.parse(result.stdout, asSentToEditor) as { file: string; diagnostics: Record<string, unknown>[] }[];
  return reports.find((report) => report.file === file)!.diagnostics;
}

interface Finding {
  readonly code: string;
  readonly message: string;
  readonly range: unknown;
}

/** A scratch workspace folder with the fixture's path in it, and a server for it: both gone after the suite. */
function scratchWorkspace(name: string, options: Omit<TestClientOptions, 'workspaceFolders'> = {}): { root: string; path: string; uri: string; client: TestLspClient } {
  const root = mkdtempSync(join(tmpdir(), `babelq-bom-${name}-`));
  const path = join(root, 'registered.babel.json');
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], ...options });
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });
  return { root, path, uri: pathToFileURL(path).href, client };
}

const jsonSyntax = (items: readonly unknown[]) => (items as Finding[]).filter((item) => item.code === 'json-syntax');

describe('a fixture stored with a byte-order mark, opened as editors open it', () => {
  const { root, path, uri, client } = scratchWorkspace('open');

  test('the editor reports the mark and every other finding exactly as babelq lint does, at the editor\'s columns', async () => {
    writeFileSync(path, Buffer.concat([MARK, Buffer.from(TEXT)]));
    const fromCli = lintJson(root, 'registered.babel.json');
    await client.initialize();
    await client.open(uri, TEXT);
    const fromEditor = (await client.pullDiagnostics(uri)).items.map(asPublished);
    assert.deepEqual(fromEditor, fromCli);
    const [mark] = jsonSyntax(fromEditor);
    assert.match(mark.message, BOM_MESSAGE);
    assert.deepEqual(mark.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
    // The mark takes no column: a finding on its line is where the editor shows the value.
    const attempts = fromEditor.find((item) => (item.range as { start: { character: number } }).start.character === ATTEMPTS_AT);
    assert.ok(attempts, `a finding at column ${ATTEMPTS_AT}: ${JSON.stringify(fromEditor)}`);
  });

  test('saved without the mark (the same text, "Save with Encoding"), the finding goes at the save; saved with it again, it comes back', async () => {
    writeFileSync(path, TEXT);
    const before = client.refreshes;
    await client.save(uri);
    // The save changed no text and no version: the server asks the editor to pull again.
    const deadline = Date.now() + 5000;
    while (client.refreshes === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(client.refreshes, before + 1, 'a diagnostic refresh after the save');
    assert.deepEqual(jsonSyntax((await client.pullDiagnostics(uri)).items), []);
    assert.deepEqual(lintJson(root, 'registered.babel.json').filter((d) => d.code === 'json-syntax'), []);

    writeFileSync(path, Buffer.concat([MARK, Buffer.from(TEXT)]));
    await client.save(uri);
    assert.equal(jsonSyntax((await client.pullDiagnostics(uri)).items).length, 1);
    // A save that changes nothing about the mark asks for no refresh.
    const refreshes = client.refreshes;
    await client.save(uri);
    await client.pullDiagnostics(uri);
    assert.equal(client.refreshes, refreshes);
  });

  test('an editor that keeps the mark in the text gets the one finding, on the mark it shows', async () => {
    const kept = pathToFileURL(join(root, 'kept.babel.json')).href;
    writeFileSync(join(root, 'kept.babel.json'), Buffer.concat([MARK, Buffer.from(TEXT)]));
    await client.open(kept, `\ufeff${TEXT}`);
    const marks = jsonSyntax((await client.pullDiagnostics(kept)).items);
    assert.equal(marks.length, 1, JSON.stringify(marks));
    assert.deepEqual(marks[0].range, { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } });
    await client.close(kept);
  });

  test('a file without the mark, and an untitled document, get no finding about it', async () => {
    const plain = pathToFileURL(join(root, 'plain.babel.json')).href;
    writeFileSync(join(root, 'plain.babel.json'), TEXT);
    await client.open(plain, TEXT);
    assert.deepEqual(jsonSyntax((await client.pullDiagnostics(plain)).items), []);
    await client.open('untitled:Untitled-1', TEXT);
    assert.deepEqual(jsonSyntax((await client.pullDiagnostics('untitled:Untitled-1')).items), []);
  });

  test('the workspace report of the closed file gives what lint gives, the mark at 1:1 and the columns the editor will show', async () => {
    await client.close(uri);
    const report = await client.request('workspace/diagnostic', { previousResultIds: [] });
    const item = report.items.find((entry: { uri: string }) => entry.uri === uri);
    assert.ok(item, JSON.stringify(report.items.map((entry: { uri: string }) => entry.uri)));
    assert.deepEqual(item.items.map(asPublished), lintJson(root, 'registered.babel.json'));
    assert.equal(jsonSyntax(item.items).length, 1);
  });
});

describe('a fixture stored with a byte-order mark, in an editor that takes pushed diagnostics', () => {
  const { root, path, uri, client } = scratchWorkspace('push', { pullDiagnostics: false });

  test('the mark is published on open, and its finding withdrawn once the file is saved without it', async () => {
    writeFileSync(path, Buffer.concat([MARK, Buffer.from(TEXT)]));
    await client.initialize();
    await client.open(uri, TEXT);
    await client.waitForPublished((all) => all.some((p) => p.uri === uri));
    const first = client.published.filter((p) => p.uri === uri).at(-1)!;
    assert.deepEqual(first.diagnostics.map(asPublished), lintJson(root, 'registered.babel.json'));
    assert.equal(jsonSyntax(first.diagnostics).length, 1);
    const count = client.published.length;
    writeFileSync(path, TEXT);
    await client.save(uri);
    await client.waitForPublished((all) => all.length > count && all.slice(count).some((p) => p.uri === uri));
    const after = client.published.slice(count).filter((p) => p.uri === uri).at(-1)!;
    assert.deepEqual(jsonSyntax(after.diagnostics), []);
  });
});

describe('a fixture stored with a byte-order mark, rewritten on disk while it is open (a checkout, a script)', () => {
  const { root, path, uri, client } = scratchWorkspace('events', { watchesFiles: true });

  test('the file event has the mark looked at again: its finding goes, with a refresh, and comes back with the mark', async () => {
    writeFileSync(path, Buffer.concat([MARK, Buffer.from(TEXT)]));
    await client.initialize();
    await client.open(uri, TEXT);
    assert.equal(jsonSyntax((await client.pullDiagnostics(uri)).items).length, 1);
    for (const [bytes, marks] of [[Buffer.from(TEXT), 0], [Buffer.concat([MARK, Buffer.from(TEXT)]), 1]] as const) {
      writeFileSync(path, bytes);
      const before = client.refreshes;
      // Many changes in one batch, one of them the open fixture's (the others are not open).
      const others = Array.from({ length: 200 }, (_, index) => ({ uri: pathToFileURL(join(root, `other-${index}.babel.json`)).href, type: 1 }));
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [...others, { uri, type: 2 }] });
      const deadline = Date.now() + 5000;
      while (client.refreshes === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(client.refreshes, before + 1, 'a diagnostic refresh after the event');
      assert.equal(jsonSyntax((await client.pullDiagnostics(uri)).items).length, marks);
    }
  });
});

describe('a registry.json stored with a byte-order mark, open in the editor', () => {
  const { root, client } = scratchWorkspace('registry');

  test('is refused as bqschema and lint refuse it, opened or not, until it is saved without the mark', async () => {
    mkdirSync(join(root, 'schemas'));
    writeFileSync(join(root, 'schemas', 'registered.json'), '{"type": "object"}\n');
    const registryText = `${JSON.stringify({ schemas: [{ urn: 'urn:babel:identity:user.registered', schema: 'schemas/registered.json', owner: 'identity', status: 'active' }] }, null, 2)}\n`;
    const registryPath = join(root, 'registry.json');
    writeFileSync(registryPath, Buffer.concat([MARK, Buffer.from(registryText)]));
    writeFileSync(join(root, 'registered.babel.json'), TEXT);
    const fixtureUri = pathToFileURL(join(root, 'registered.babel.json')).href;
    const registryUri = pathToFileURL(registryPath).href;
    const registryErrors = async () => (await client.pullDiagnostics(fixtureUri)).items.filter((item: { code: string }) => item.code === 'registry-error');
    const fromCli = lintJson(root, 'registered.babel.json').filter((d) => d.code === 'registry-error');
    assert.equal(fromCli.length, 1, 'lint refuses the registry');
    await client.initialize();
    await client.open(fixtureUri, TEXT);
    assert.deepEqual((await registryErrors()).map(asPublished), fromCli);
    // Opened, the editor shows the registry without the mark: it is still the file bqschema refuses.
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: registryText } });
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual((await registryErrors()).map(asPublished), fromCli);
    const onRegistry = (await client.pullDiagnostics(registryUri)).items;
    assert.ok(onRegistry.some((item: { message: string }) => /byte-order mark/.test(item.message)), JSON.stringify(onRegistry));
    // Saved without the mark (the same text): the registry loads, and the fixture's registry-error goes.
    writeFileSync(registryPath, registryText);
    await client.save(registryUri);
    const deadline = Date.now() + 5000;
    while ((await registryErrors()).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(await registryErrors(), []);
    assert.deepEqual(lintJson(root, 'registered.babel.json').filter((d) => d.code === 'registry-error'), []);
  });
});

describe('find references to a URN routed on by a fixture stored with a byte-order mark', () => {
  const { root, client } = scratchWorkspace('references');

  test('the reference is where the editor shows the URN on line 1, whether the workspace\'s report has read the file or not', async () => {
    mkdirSync(join(root, 'schemas'));
    writeFileSync(join(root, 'schemas', 'registered.json'), '{"type": "object"}\n');
    const registryText = `${JSON.stringify({ schemas: [{ urn: 'urn:babel:identity:user.registered', schema: 'schemas/registered.json', owner: 'identity', status: 'active' }] }, null, 2)}\n`;
    writeFileSync(join(root, 'registry.json'), registryText);
    const fixture = join(root, 'registered.babel.json');
    writeFileSync(fixture, Buffer.concat([MARK, Buffer.from(TEXT)]));
    // And one whose bytes are not all UTF-8 (lint's one json-syntax finding), the URN still on line 1.
    const latin1 = join(root, 'latin1.babel.json');
    const dataAt = TEXT.indexOf('"data":{}');
    writeFileSync(latin1, Buffer.concat([MARK, Buffer.from(`${TEXT.slice(0, dataAt)}"data":{"note":"caf`), Buffer.from([0xe9]), Buffer.from(`"}${TEXT.slice(dataAt + '"data":{}'.length)}`)]));
    const urnAt = TEXT.indexOf('"urn:babel:identity:user.registered"');
    const range = { start: { line: 0, character: urnAt }, end: { line: 0, character: urnAt + '"urn:babel:identity:user.registered"'.length } };
    const expected = [latin1, fixture].map((path) => ({ uri: pathToFileURL(path).href, range }));
    await client.initialize();
    const registryUri = pathToFileURL(join(root, 'registry.json')).href;
    await client.open(registryUri, registryText);
    const line = registryText.split('\n').findIndex((text) => text.includes('"urn:babel:identity:user.registered"'));
    const params = { textDocument: { uri: registryUri }, position: { line, character: 16 }, context: { includeDeclaration: false } };
    // Before the workspace's report has walked the folder: the files are read for the request.
    assert.deepEqual(await client.request('textDocument/references', params), expected);
    const report = await client.request('workspace/diagnostic', { previousResultIds: [] });
    // After it: from what the report read.
    assert.deepEqual(await client.request('textDocument/references', params), expected);
    // The report's finding for the bytes that are not UTF-8 is lint's, at the column the editor shows the byte.
    const item = report.items.find((entry: { uri: string }) => entry.uri === pathToFileURL(latin1).href);
    assert.deepEqual(item.items.map(asPublished), lintJson(root, 'latin1.babel.json'));
    assert.deepEqual(item.items[0].range.start, { line: 0, character: dataAt + '"data":{"note":"caf'.length });
  });
});
