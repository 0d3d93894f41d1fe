/**
 * A registry of 100,000 entries loads in time slices (server/registry.ts, workspace/time-slices.ts):
 * a request about another document is answered while it loads, the requests that need it get it,
 * and a load during which one of its files changed is not kept (its requests wait for at most two).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../core/rules/settings/settings';
import { RegistryService, toUri } from '../../server/registry';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';

const ENTRIES = 100_000;

/** registry.json text: `count` URNs sharing one schema, `urn:babel:orders:created` first. */
function registryText(count: number, prefix = 'event'): string {
  const entries = [JSON.stringify({ urn: 'urn:babel:orders:created', schema: 'schemas/order.json', owner: 'orders', status: 'active' })];
  for (let i = 1; i < count; i++) entries.push(JSON.stringify({ urn: `urn:babel:orders:${prefix}-${i}`, schema: 'schemas/order.json', owner: 'orders', status: 'active' }));
  return `{"schemas": [\n${entries.join(',\n')}\n]}\n`;
}

function writeRegistry(folder: string): void {
  mkdirSync(join(folder, 'schemas'), { recursive: true });
  // GOOD_ENVELOPE's order_id is a number: a schema that wants a string gives it a payload-schema finding.
  writeFileSync(join(folder, 'schemas', 'order.json'), JSON.stringify({ type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] }));
  writeFileSync(join(folder, 'registry.json'), registryText(ENTRIES));
}

describe('a large registry loads in time slices', () => {
  test('a hover on another document sent while the registry loads is answered before the diagnostics that wait for it', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-registry-slices-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const large = join(root, 'large');
    const other = join(root, 'other');
    writeRegistry(large);
    mkdirSync(other);
    const client = new TestLspClient({ workspaceFolders: [toUri(large), toUri(other)] });
    t.after(() => client.kill());
    await client.initialize();
    const fixture = toUri(join(large, 'order.babel.json'));
    const elsewhere = toUri(join(other, 'order.babel.json'));
    const hoverParams = { textDocument: { uri: elsewhere }, position: { line: 1, character: 12 } };
    await client.open(elsewhere, GOOD_ENVELOPE);
    // Its settings and parse made first, so the hover below waits for nothing but the event loop.
    assert.notEqual(await client.request('textDocument/hover', hoverParams), null);
    await client.open(fixture, GOOD_ENVELOPE);

    // The diagnostics ask for the fixture's settings, then load its registry. The hover is sent
    // once those settings are answered, so it arrives while the load runs: a load in one go
    // answers the diagnostics first, since it reads no message until it is done.
    const order: string[] = [];
    let hover: Promise<unknown> | undefined;
    const answer = client.settings;
    client.connection.onRequest('workspace/configuration', (params: { items: { scopeUri?: string }[] }) => {
      if (params.items.some((item) => item.scopeUri === fixture) && !hover) {
        setImmediate(() => {
          hover = client.request('textDocument/hover', hoverParams).then((result) => {
            order.push('hover');
            return result;
          });
        });
      }
      return params.items.map(() => answer);
    });
    const diagnostics = await client.pullDiagnostics(fixture);
    order.push('diagnostics');
    assert.ok(hover, 'the hover was sent');
    assert.notEqual(await hover, null, 'the hover was answered');
    assert.deepEqual(order, ['hover', 'diagnostics']);
    // The diagnostics are the registry's: the fixture's payload against its URN's schema.
    assert.deepEqual(diagnostics.items.map((item) => item.code), ['payload-schema']);
  });

  test('a load during which one of its files changed is made again, with the file as it is now', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-registry-slices-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    writeRegistry(root);
    const registryPath = join(root, 'registry.json');
    // The editor holds registry.json with other URNs once "edited" below.
    let edited: string | undefined;
    const registries = new RegistryService((path) => (path === registryPath ? edited : undefined));
    registries.setWorkspaceFolders([toUri(root)]);
    const fixture = toUri(join(root, 'order.babel.json'));
    const loading = registries.stateWhenLoaded(fixture, DEFAULT_SETTINGS);
    // The load has begun (its first step ran with the call) and yields before it ends.
    await new Promise((resume) => setImmediate(resume));
    edited = registryText(ENTRIES, 'renamed');
    assert.equal(registries.invalidate([toUri(registryPath)]), true);
    const state = await loading;
    assert.equal(state.kind, 'loaded');
    if (state.kind !== 'loaded') return;
    assert.ok(state.registry.byUrn.has('urn:babel:orders:renamed-1'), 'the registry as edited');
    assert.ok(!state.registry.byUrn.has('urn:babel:orders:event-1'), 'not as it was when the load began');
    assert.equal(registries.stateFor(fixture, DEFAULT_SETTINGS), state, 'and kept');
  });

  test('a request waits through two loads while a schema of the registry is edited without a pause, and is answered with the second', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-registry-slices-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const { registries, schemaPath, schemaText, edit } = editedSchema(root);
    let answered = false;
    const loading = registries.stateWhenLoaded(toUri(join(root, 'order.babel.json')), DEFAULT_SETTINGS).finally(() => (answered = true));
    // An edit every 20 ms, each heard by the service, until the request is answered or 30 s have passed.
    const started = Date.now();
    while (!answered && Date.now() - started < 30_000) {
      await new Promise((resume) => setTimeout(resume, 20));
      edit();
      registries.invalidate([toUri(schemaPath)]);
    }
    assert.ok(answered, 'answered while the edits went on');
    const state = await loading;
    assert.equal(state.kind === 'loaded' && state.registry.entries.length, ENTRIES);
    // The answer is not kept: the next request loads the schema as it is now.
    const next = await registries.stateWhenLoaded(toUri(join(root, 'order.babel.json')), DEFAULT_SETTINGS);
    assert.equal(JSON.stringify(next.kind === 'loaded' && next.registry.byUrn.get('urn:babel:orders:created')?.schema?.value), schemaText());
  });

  test('an edit of a schema file a load under way has read asks for the diagnostics again, since the load answers without being kept', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-registry-slices-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const { registries, schemaPath, schemaText, edit } = editedSchema(root);
    let answered = false;
    const fixture = toUri(join(root, 'order.babel.json'));
    const loading = registries.stateWhenLoaded(fixture, DEFAULT_SETTINGS).finally(() => (answered = true));
    // Each load reads the schema with its first entry; it is edited once per load, after that read.
    const heardEdits: boolean[] = [];
    while (!answered) {
      await new Promise((resume) => setImmediate(resume));
      if (!registries.isRegistryFile(toUri(schemaPath)) || answered) continue;
      edit();
      heardEdits.push(registries.invalidate([toUri(schemaPath)]));
      // Until the load that read the schema before this edit is over.
      while (!answered && registries.isRegistryFile(toUri(schemaPath))) await new Promise((resume) => setImmediate(resume));
    }
    const state = await loading;
    assert.equal(JSON.stringify(state.kind === 'loaded' && state.registry.byUrn.get('urn:babel:orders:created')?.schema?.value) === schemaText(), false, 'answered with a load that read the schema before its last edit');
    // The service says so for the edit: the server asks for the diagnostics again (registryFilesChanged).
    assert.deepEqual(heardEdits, heardEdits.map(() => true), 'every edit of a file a load under way had read is a change');
  });

  /**
   * A registry whose schema file the editor holds (the service's overlay), each edit (`edit`)
   * changing which type order_id has; `schemaText` is the schema as it is now.
   */
  function editedSchema(root: string): { registries: RegistryService; schemaPath: string; schemaText: () => string; edit: () => void } {
    writeRegistry(root);
    const schemaPath = join(root, 'schemas', 'order.json');
    let edits = 0;
    const schemaText = () => JSON.stringify({ type: 'object', properties: { order_id: { type: edits % 2 === 0 ? 'string' : 'integer' } } });
    const registries = new RegistryService((path) => (path === schemaPath ? schemaText() : undefined));
    registries.setWorkspaceFolders([toUri(root)]);
    return { registries, schemaPath, schemaText, edit: () => void edits++ };
  }

  /** A registry service whose registry.json is read through the editor's overlay, which counts the reads (a large one takes tens of milliseconds). */
  function countingReads(root: string): { registries: RegistryService; reads: () => number } {
    writeRegistry(root);
    const registryPath = join(root, 'registry.json');
    const text = registryText(ENTRIES);
    let reads = 0;
    const registries = new RegistryService((path) => {
      if (path !== registryPath) return undefined;
      reads++;
      return text;
    });
    registries.setWorkspaceFolders([toUri(root)]);
    return { registries, reads: () => reads };
  }

  test('registry.json is read once when a fixture first finds its registry and loads it', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-registry-slices-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const { registries, reads } = countingReads(root);
    const state = await registries.stateWhenLoaded(toUri(join(root, 'order.babel.json')), DEFAULT_SETTINGS);
    assert.equal(state.kind === 'loaded' && state.registry.entries.length, ENTRIES);
    assert.equal(reads(), 1);
  });

  test('registry.json is read once for the fixtures of many folders, and once more after it changes', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-registry-slices-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const { registries, reads } = countingReads(root);
    const registryPath = join(root, 'registry.json');
    for (let folder = 0; folder < 20; folder++) {
      const state = await registries.stateWhenLoaded(toUri(join(root, `batch-${folder}`, 'order.babel.json')), DEFAULT_SETTINGS);
      assert.equal(state.kind === 'loaded' && state.registry.entries.length, ENTRIES);
    }
    assert.equal(reads(), 1, 'read by the first search, its text handed to the load');
    registries.invalidate([toUri(registryPath)]);
    for (let folder = 0; folder < 20; folder++) await registries.stateWhenLoaded(toUri(join(root, `batch-${folder}`, 'order.babel.json')), DEFAULT_SETTINGS);
    assert.equal(reads(), 2);
  });

  test('while a registry loads, a schema file it has read is one of its files (an edit of it is heard), and other files are not', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-registry-slices-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    writeRegistry(root);
    const schemaPath = join(root, 'schemas', 'order.json');
    writeFileSync(join(root, 'other.json'), '{}');
    let editedSchema: string | undefined;
    const registries = new RegistryService((path) => (path === schemaPath ? editedSchema : undefined));
    registries.setWorkspaceFolders([toUri(root)]);
    let done = false;
    const loading = registries.stateWhenLoaded(toUri(join(root, 'order.babel.json')), DEFAULT_SETTINGS).finally(() => (done = true));
    // The schema is read with the first entry; some hundred steps of entries follow it.
    let heard = false;
    while (!done && !heard) {
      await new Promise((resume) => setImmediate(resume));
      heard = registries.isRegistryFile(toUri(schemaPath));
    }
    assert.ok(heard, 'the schema file counted as the registry\'s before its load ended');
    assert.equal(registries.isRegistryFile(toUri(join(root, 'other.json'))), false, 'a file the load did not read');
    // The editor changes the schema meanwhile: the load is made again with it.
    editedSchema = JSON.stringify({ type: 'object', properties: { order_id: { type: 'integer' } } });
    registries.invalidate([toUri(schemaPath)]);
    const state = await loading;
    assert.equal(state.kind === 'loaded' && JSON.stringify(state.registry.byUrn.get('urn:babel:orders:created')?.schema?.value), editedSchema);
  });
});
