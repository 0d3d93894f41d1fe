/**
 * A registry.json with no "schemas" key (a typo such as `"schemas" oops:`, a renamed key) is
 * passed over, as `babelq lint` passes it over; the editor's status says so in lint's words, not
 * "No registry.json found", and says it from the search it keeps: no read of the file per keystroke.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { RegistryService } from '../../server/registry';
import { RegistryStatusReporter } from '../../server/registry-status';
import { DEFAULT_SETTINGS } from '../../core/rules/settings/settings';
import { TestLspClient } from '../support/lsp-client';
import { NOT_READ_AS_REGISTRY } from '../../workspace/registry-loader';
import { babelq } from '../cli/helpers';

const root = mkdtempSync(join(tmpdir(), 'babelq-passed-over-'));
after(() => rmSync(root, { recursive: true, force: true }));

function workspace(registryText: string) {
  const folder = mkdtempSync(join(root, 'w-'));
  mkdirSync(join(folder, 'billing'));
  writeFileSync(join(folder, 'billing', 'registry.json'), registryText);
  const reads: string[] = [];
  // The overlay is asked first for every file read: it counts the reads of registry.json.
  const registries = new RegistryService((path) => {
    reads.push(path);
    return undefined;
  });
  registries.setWorkspaceFolders([pathToFileURL(folder).href]);
  return { registries, reads, fixture: pathToFileURL(join(folder, 'billing', 'paid.babel.json')).href };
}

function statusMessage(state: Parameters<RegistryStatusReporter['report']>[1]): { state: string; message: string } {
  const sent: { state: string; message: string }[] = [];
  const connection = { sendNotification: (_method: unknown, params: unknown) => (sent.push(params as { state: string; message: string }), Promise.resolve()) } as unknown as ConstructorParameters<typeof RegistryStatusReporter>[0];
  const reporter = new RegistryStatusReporter(connection, () => true);
  reporter.enabled = true;
  reporter.report('file:///x.babel.json', state);
  return sent[0];
}

for (const [name, text] of [
  ['a typo after the key', '{"schemas" oops: [{"urn": "urn:babel:billing:invoice.paid", "schema": "s.json"}]}'],
  ['a renamed key', '{"schemata": [{"urn": "urn:babel:billing:invoice.paid", "schema": "s.json"}]}'],
]) {
  test(`registry.json with no "schemas" key (${name}): the status says it was not read as a registry, as babelq lint does`, () => {
    const { registries, fixture } = workspace(text);
    const state = registries.stateFor(fixture, DEFAULT_SETTINGS);
    assert.equal(state.kind, 'none');
    const status = statusMessage(state);
    assert.equal(status.state, 'none');
    assert.doesNotMatch(status.message, /No registry\.json found/);
    assert.match(status.message, /billing[/\\]registry\.json was not read as a registry: it has no "schemas" key \(a BabelQueue registry is \{"schemas": \[\.\.\.\]\}\)/);
  });
}

test('the status of a passed-over registry.json comes from the search kept: a keystroke\'s pull reads no file', () => {
  const { registries, reads, fixture } = workspace('{"schemata": []}');
  registries.stateFor(fixture, DEFAULT_SETTINGS);
  const readsAfterFirst = reads.length;
  assert.ok(readsAfterFirst > 0, 'the first search reads registry.json');
  for (let pull = 0; pull < 5; pull++) assert.equal(registries.stateFor(fixture, DEFAULT_SETTINGS).kind, 'none');
  assert.equal(reads.length, readsAfterFirst);
});

test('a folder with no registry.json at all is still "No registry.json found"', () => {
  const folder = mkdtempSync(join(root, 'empty-'));
  const registries = new RegistryService(() => undefined);
  registries.setWorkspaceFolders([pathToFileURL(folder).href]);
  assert.equal(statusMessage(registries.stateFor(pathToFileURL(join(folder, 'a.babel.json')).href, DEFAULT_SETTINGS)).message, 'No registry.json found for this file');
});

test('over LSP: the status sent for a fixture below a registry.json with no "schemas" key says it was not read as a registry', async () => {
  const folder = mkdtempSync(join(root, 'lsp-'));
  writeFileSync(join(folder, 'registry.json'), '{"schemas" oops: []}');
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(folder).href], initializationOptions: { registryStatus: true } });
  try {
    const statuses: { state: string; message: string }[] = [];
    client.connection.onNotification('babelqueue/registryStatus', (params: { state: string; message: string }) => {
      statuses.push(params);
    });
    await client.initialize();
    const uri = pathToFileURL(join(folder, 'a.babel.json')).href;
    await client.open(uri, '{"job": "urn:babel:orders:created", "data": {}}');
    await client.pullDiagnostics(uri);
    assert.deepEqual(statuses.map((status) => [status.state, status.message]), [['none', 'No registry for this file: registry.json was not read as a registry: it has no "schemas" key (a BabelQueue registry is {"schemas": [...]})']]);
    // In the words babelq lint's note uses for the same folder.
    writeFileSync(join(folder, 'a.babel.json'), '{"job": "urn:babel:orders:created", "data": {}}');
    assert.ok(babelq(['lint', 'a.babel.json'], folder).stderr.includes(`registry.json ${NOT_READ_AS_REGISTRY}`));
  } finally {
    client.kill();
  }
});

test('over LSP: a registry.json passed over for the next one up is named in the status beside the registry used, as lint\'s note names both', async () => {
  const folder = mkdtempSync(join(root, 'lsp-up-'));
  writeFileSync(join(folder, 'registry.json'), '{"schemas": []}');
  mkdirSync(join(folder, 'billing'));
  writeFileSync(join(folder, 'billing', 'registry.json'), '{"schemata": []}');
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(folder).href], initializationOptions: { registryStatus: true } });
  try {
    const statuses: { state: string; message: string }[] = [];
    client.connection.onNotification('babelqueue/registryStatus', (params: { state: string; message: string }) => {
      statuses.push(params);
    });
    await client.initialize();
    const uri = pathToFileURL(join(folder, 'billing', 'a.babel.json')).href;
    await client.open(uri, '{"job": "urn:babel:orders:created", "data": {}}');
    await client.pullDiagnostics(uri);
    await client.pullDiagnostics(uri);
    assert.equal(statuses.length, 1);
    assert.equal(statuses[0].state, 'loaded');
    assert.match(statuses[0].message, /^Registry: 0 URNs \(billing[/\\]registry\.json was not read as a registry: it has no "schemas" key \(a BabelQueue registry is \{"schemas": \[\.\.\.\]\}\), and was passed over for the next one up\)$/);
  } finally {
    client.kill();
  }
});
