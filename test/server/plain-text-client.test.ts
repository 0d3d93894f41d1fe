/**
 * Hovers and completion documentation in the content format the client declared: Markdown to a
 * client that names it, plain text (no `**`, backticks, escapes or `| --- |` rows) to one that
 * names only `plaintext` or no format at all (eglot 1.9 without markdown-mode: hover
 * `["plaintext"]`, no completion documentationFormat), which shows what it is sent as it stands.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { EGLOT_1_9 } from '../support/editor-capabilities';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const { uriOf, write } = scratchFolder('babelq-plain-text-');
write('.git/HEAD', 'ref: refs/heads/main\n');
write('registry.json', { schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/orders_created.json', owner: 'orders_team', status: 'active' }] });
write('schemas/orders_created.json', { type: 'object', required: ['order_id'], properties: { order_id: { type: 'integer', minimum: 1 }, currency: { enum: ['EUR', 'USD'] } } });
const FIXTURE = 'fixtures/a.babel.json';
write(FIXTURE, GOOD_ENVELOPE);

/** Markup a plain-text client would show as it stands. */
const MARKUP = /\*\*|`|\\_|\| --- \||\]\(file:/;

async function hoverAndCompletion(capabilities?: Record<string, unknown>): Promise<{ hover: any; completion: any[] }> {
  const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], ...(capabilities ? { capabilities } : {}) });
  try {
    await client.initialize();
    await client.open(uriOf(FIXTURE), GOOD_ENVELOPE);
    // Inside the URN of "job" (line 1).
    const position = { line: 1, character: 14 };
    const hover = await client.request('textDocument/hover', { textDocument: { uri: uriOf(FIXTURE) }, position });
    const completion = await client.request('textDocument/completion', { textDocument: { uri: uriOf(FIXTURE) }, position });
    return { hover, completion: Array.isArray(completion) ? completion : completion.items };
  } finally {
    client.kill();
  }
}

describe('content formats', () => {

  test('a plain-text client gets the URN hover and the completion documentation as plain text', async () => {
    const { hover, completion } = await hoverAndCompletion(EGLOT_1_9);
    assert.equal(hover.contents.kind, 'plaintext');
    assert.doesNotMatch(hover.contents.value, MARKUP, hover.contents.value);
    assert.match(hover.contents.value, /^urn:babel:orders:created\n\nowner: orders_team · status: active\n\nschema: schemas\/orders_created.json\n\n/);
    // The fields table in aligned columns, its header and rows.
    assert.match(hover.contents.value, /\nfield +type +required +enum +x-gdpr-sensitive\norder_id +integer ≥ 1 +yes\ncurrency +[^\n]*"EUR" "USD"/);
    const item = completion.find((candidate) => candidate.label === 'urn:babel:orders:created');
    assert.ok(item?.documentation, JSON.stringify(completion));
    assert.equal(item.documentation.kind, 'plaintext');
    assert.equal(item.documentation.value, 'Required data fields:\n- order_id: integer ≥ 1');
  });

  test('a client that names Markdown gets Markdown', async () => {
    const { hover, completion } = await hoverAndCompletion();
    assert.equal(hover.contents.kind, 'markdown');
    assert.match(hover.contents.value, /^\*\*`urn:babel:orders:created`\*\*/);
    assert.equal(completion.find((candidate) => candidate.label === 'urn:babel:orders:created')?.documentation?.kind, 'markdown');
  });
});
