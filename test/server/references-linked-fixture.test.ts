/**
 * Find references from a registry entry with a fixture reached through a symbolic link (a link to a
 * file inside the workspace folder, which the workspace's report lists as `babelq lint` lints it):
 * the fixture is one location, where it really is, before the report and after it alike.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';

const URN = 'urn:babel:orders:created';

test('a linked fixture is referenced once, where it really is, before and after the workspace report', { timeout: 60_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-references-link-'));
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });
  mkdirSync(join(root, 'schemas'));
  mkdirSync(join(root, 'v3'));
  mkdirSync(join(root, 'fixtures'));
  writeFileSync(join(root, 'schemas', 'order.json'), '{"type": "object"}\n');
  writeFileSync(join(root, 'registry.json'), `${JSON.stringify({ schemas: [{ urn: URN, schema: 'schemas/order.json', owner: 'orders', status: 'active' }] }, null, 2)}\n`);
  writeFileSync(join(root, 'v3', 'order.babel.json'), `${JSON.stringify({ job: URN, trace_id: 't-1', data: {}, meta: {}, attempts: 0 }, null, 2)}\n`);
  symlinkSync(join('..', 'v3', 'order.babel.json'), join(root, 'fixtures', 'current.babel.json'));
  const expected = [pathToFileURL(join(root, 'v3', 'order.babel.json')).href];

  await client.initialize();
  const registryUri = pathToFileURL(join(root, 'registry.json')).href;
  const registryText = readFileSync(join(root, 'registry.json'), 'utf8');
  await client.open(registryUri, registryText);
  const line = registryText.split('\n').findIndex((text) => text.includes(`"${URN}"`));
  const params = { textDocument: { uri: registryUri }, position: { line, character: 16 }, context: { includeDeclaration: false } };
  const before = await client.request<{ uri: string }[]>('textDocument/references', params);
  assert.deepEqual(before.map((location) => location.uri), expected, 'before the report');
  const report = await client.request<{ items: { uri: string }[] }>('workspace/diagnostic', { previousResultIds: [] });
  assert.ok(report.items.some((item) => item.uri.endsWith('/fixtures/current.babel.json')), 'the report lists the link, as babelq lint lints it');
  const afterReport = await client.request<{ uri: string }[]>('textDocument/references', params);
  assert.deepEqual(afterReport.map((location) => location.uri), expected, 'after the report');
});
