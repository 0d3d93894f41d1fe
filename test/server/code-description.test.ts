/**
 * Every published diagnostic links its code to its entry in the diagnostic catalogue shipped
 * beside the server bundle (docs/diagnostics.md one folder above dist/server.js), pulled and
 * pushed: a file: URI at the line of the code's heading (`#L<line>`, what VS Code opens at a line);
 * a client that does not declare `codeDescriptionSupport` (eglot, Neovim 0.7) is sent none.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { EGLOT_1_9 } from '../support/editor-capabilities';
import { SERVER_PATH, TestLspClient } from '../support/lsp-client';

const CATALOGUE = join(dirname(SERVER_PATH), '..', 'docs', 'diagnostics.md');
/** Findings of several codes and levels: forbidden-key (error), urn-alias (warning), encoding-divergence carrying case-mismatch, and others. */
const MANY = GOOD_ENVELOPE.replace('"job"', '"urn"').replace('"attempts": 0', '"attempts": 0,\n  "timestamp": 1749132727000,\n  "Attempts": 1');

function assertLinked(diagnostics: readonly any[]): void {
  const lines = readFileSync(CATALOGUE, 'utf8').split('\n');
  assert.ok(diagnostics.length >= 3, JSON.stringify(diagnostics));
  for (const diagnostic of diagnostics) {
    const href = new URL(diagnostic.codeDescription?.href);
    assert.equal(href.protocol, 'file:');
    assert.equal(fileURLToPath(href), CATALOGUE);
    const line = /^#L(\d+)$/.exec(href.hash)?.[1];
    assert.ok(line, `${href}: a #L<line> fragment`);
    assert.equal(lines[Number(line) - 1], `### \`${diagnostic.code}\``, `${href}: the line of ${diagnostic.code}'s heading`);
  }
}

describe('codeDescription', () => {
  const clients: TestLspClient[] = [];
  after(() => clients.forEach((client) => client.kill()));

  test('pulled diagnostics link to their catalogue entry', async () => {
    const client = new TestLspClient();
    clients.push(client);
    await client.initialize();
    const uri = 'file:///workspace/linked.babel.json';
    await client.open(uri, MANY);
    const report = await client.pullDiagnostics(uri);
    const codes = new Set(report.items.map((item) => item.code));
    for (const code of ['urn-alias', 'forbidden-key', 'encoding-divergence']) assert.ok(codes.has(code), `${code} in ${[...codes].join(', ')}`);
    assertLinked(report.items);
  });

  test('pushed diagnostics carry the same links', async () => {
    const client = new TestLspClient({ pullDiagnostics: false });
    clients.push(client);
    await client.initialize();
    const uri = 'file:///workspace/pushed.babel.json';
    await client.open(uri, MANY);
    assertLinked(await client.lastPublished(uri, 3));
  });

  test('a client that does not take codeDescription gets none', async () => {
    const client = new TestLspClient({ capabilities: EGLOT_1_9 });
    clients.push(client);
    await client.initialize();
    const uri = 'file:///workspace/unlinked.babel.json';
    await client.open(uri, MANY);
    for (const diagnostic of await client.lastPublished(uri, 3)) assert.equal(diagnostic.codeDescription, undefined, JSON.stringify(diagnostic));
  });
});
