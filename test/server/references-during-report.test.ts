/**
 * Find references while the workspace's first report is under way (as VS Code asks for the report
 * the moment the server starts): the fixtures the report has analysed answer from what it knows,
 * the rest have their URN read, and every answer, asked before, during and after the report, is
 * the set a walk of the files finds.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';

const FIXTURES = 3_000;
const URNS = ['urn:babel:orders:created', 'urn:babel:orders:placed', 'urn:babel:orders:cancelled'];

test('references asked again and again while the first report runs: always the fixtures that route on the URN, no more, no fewer', { timeout: 120_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-references-'));
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });
  mkdirSync(join(root, 'schemas'));
  writeFileSync(join(root, 'schemas', 'order.json'), '{"type": "object"}\n');
  writeFileSync(join(root, 'registry.json'), `${JSON.stringify({ schemas: URNS.map((urn) => ({ urn, schema: 'schemas/order.json', owner: 'orders', status: 'active' })) }, null, 2)}\n`);
  const expected: string[] = [];
  for (let i = 0; i < FIXTURES; i++) {
    const folder = join(root, `batch-${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(folder);
    const path = join(folder, `f${i}.babel.json`);
    // Every seventh writes its URN after the data, so the URN is not always where the last one was.
    const urn = URNS[i % URNS.length];
    const envelope = i % 7 === 0 ? { trace_id: `t-${i}`, data: { n: i }, job: urn, meta: {}, attempts: 0 } : { job: urn, trace_id: `t-${i}`, data: { n: i }, meta: {}, attempts: 0 };
    writeFileSync(path, `${JSON.stringify(envelope, null, 2)}\n`);
    if (urn === URNS[1]) expected.push(pathToFileURL(path).href);
  }
  expected.sort();

  await client.initialize();
  const registryUri = pathToFileURL(join(root, 'registry.json')).href;
  const registryText = readFileSync(join(root, 'registry.json'), 'utf8');
  await client.open(registryUri, registryText);
  const line = registryText.split('\n').findIndex((text) => text.includes(`"${URNS[1]}"`));
  const params = { textDocument: { uri: registryUri }, position: { line, character: 16 }, context: { includeDeclaration: false } };
  let reported = false;
  const report = client.request('workspace/diagnostic', { previousResultIds: [] }).then(() => (reported = true));
  let during = 0;
  do {
    const locations = await client.request<{ uri: string }[]>('textDocument/references', params);
    assert.deepEqual(locations.map((location) => location.uri), expected);
    if (!reported) during++;
    // A pause longer than the one the report gives way for after a walk someone waits for
    // (workspace/time-slices.ts): references asked back to back would hold it back for good.
    await new Promise((resume) => setTimeout(resume, 60));
  } while (!reported);
  await report;
  const afterReport = await client.request<{ uri: string }[]>('textDocument/references', params);
  assert.deepEqual(afterReport.map((location) => location.uri), expected);
  assert.ok(during >= 2, `${during} answers came while the report ran`);
});
