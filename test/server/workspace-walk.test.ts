/**
 * The server walks its workspace folders in time slices (a folder of `/` takes seconds): requests
 * that need the fixtures while a walk is under way wait for that walk instead of reading the
 * fixtures it has not yet found, and the server answers meanwhile; changes that keep asking for
 * a walk do not hold a report back for good.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';

const ROOT = resolve(__dirname, '..', '..');
/** Enough folders that the walk takes several slices. */
const EMPTY_FOLDERS = 10_000;

describe('the workspace walk', () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-walk-'));
  cpSync(join(ROOT, 'examples'), join(root, 'zz-examples'), { recursive: true });
  for (let i = 0; i < EMPTY_FOLDERS; i++) mkdirSync(join(root, `d${Math.floor(i / 50)}`, `e${i}`), { recursive: true });
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });

  test('two reports asked at once, and a hover meanwhile: both reports list every fixture, found after the empty folders', { timeout: 30_000 }, async () => {
    await client.initialize();
    const uri = pathToFileURL(join(root, 'open.babel.json')).href;
    await client.open(uri, '{"job":"urn:babel:orders:placed","trace_id":"t","data":{},"meta":{},"attempts":0}');
    type Item = { uri: string };
    const ask = () => client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: [] });
    const [first, second, hover] = await Promise.all([ask(), ask(), client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 3 } })]);
    const fixtures = (items: Item[]) => items.filter((item) => item.uri.includes('/zz-examples/') && item.uri.endsWith('.babel.json')).length;
    assert.ok(fixtures(first.items) >= 10, `the first report lists ${fixtures(first.items)} of the examples`);
    assert.equal(fixtures(second.items), fixtures(first.items), 'the second report waited for the same walk');
    assert.ok(hover, 'the hover was answered');
  });

  test('changes that each ask for a walk, coming faster than a walk ends, do not hold a report back', { timeout: 30_000 }, async () => {
    /** Far above two walks of these folders (a fraction of a second each); the changes go on until the report comes. */
    const BOUND_MS = 10_000;
    // A .gitignore changed on disk asks for a walk of the folders, as typing in babelq.json does.
    const gitignore = pathToFileURL(join(root, '.gitignore')).href;
    // A send still buffered when the suite ends and kills the server fails with EPIPE: nothing to report then.
    const change = () => void client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: gitignore, type: 2 }] }).catch(() => undefined);
    // One before the report is asked for, so that it has a walk to wait for; then one every 5 ms.
    change();
    const stream = setInterval(change, 5);
    const started = Date.now();
    try {
      const report = await client.request<{ items: unknown[] }>('workspace/diagnostic', { previousResultIds: [] });
      const elapsed = Date.now() - started;
      // The report waits for at most two walks (the one under way, then one that saw the changes so far), not for the stream to end.
      assert.ok(elapsed < BOUND_MS, `the report took ${elapsed} ms while the changes kept coming`);
      assert.ok(report.items.length > 0);
    } finally {
      clearInterval(stream);
    }
  });
});
