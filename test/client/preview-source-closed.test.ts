/**
 * The byte preview when its envelope's document closes and opens again (the tab closed, the file
 * changed on disk meanwhile, the file opened again): a preview on screen says the envelope is not
 * open, then shows the text opened, never the bytes of the document as it was before it closed.
 * Driven through the stand-in extension host (test/support/fake-extension-host.ts).
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const host = installFakeExtensionHost();
const fake = host.vscode;
const SOURCE = 'file:///w/a.babel.json';
let preview: typeof import('../../client/preview');
let renderer: typeof import('../../client/preview-renderer');
let freshIds: typeof import('../../client/fresh-ids');

before(async () => {
  preview = await import('../../client/preview');
  renderer = await import('../../client/preview-renderer');
  freshIds = await import('../../client/fresh-ids');
});

beforeEach(() => {
  fake.reset();
  host.api.workspace.textDocuments = [];
});

/** An open envelope document whose `meta.queue` is `queue`. */
function envelopeDocument(queue: string, version = 1) {
  const text = JSON.stringify({ job: 'urn:babel:orders:created', trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b', data: {}, meta: { id: '0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d', queue, lang: 'node', created_at: 1749132727000, schema_version: 1 }, attempts: 0 });
  return { uri: host.uri(SOURCE), languageId: 'babelqueue-envelope', version, isUntitled: false, isDirty: false, lineCount: 1, offsetAt: () => text.length, getText: () => text };
}

function provider() {
  const made = new preview.PreviewProvider(new freshIds.FreshIds(), new renderer.PreviewRenderer(async () => undefined), { refusal: async () => undefined } as never);
  const changed: string[] = [];
  made.onDidChange((uri) => void changed.push(uri.toString()));
  return { made, changed };
}

/** Waits until `changed` holds `count` renders, or the longest a refresh waits (a second) has passed. */
async function settle(changed: readonly string[], count: number): Promise<void> {
  for (let waited = 0; changed.length < count && waited < 1500; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('the preview of an envelope whose document closes and opens again', () => {
  test('on screen, it is rendered again at each: "not open", then the text opened', async () => {
    const { made, changed } = provider();
    const previewUri = preview.previewUri(host.uri(SOURCE));
    const before = envelopeDocument('orders');
    host.api.workspace.textDocuments = [before];
    fake.previews = [SOURCE];
    assert.match(await made.provideTextDocumentContent(previewUri), /"queue":"orders"/);

    host.api.workspace.textDocuments = [];
    host.fire('onDidCloseTextDocument', before);
    await settle(changed, 1);
    assert.deepEqual(changed, [previewUri.toString()], 'rendered again when its envelope closed');
    assert.match(await made.provideTextDocumentContent(previewUri), /is not open/);

    // The file changed on disk while it was closed, and is opened again.
    const after = envelopeDocument('billing');
    host.api.workspace.textDocuments = [after];
    host.fire('onDidOpenTextDocument', after);
    await settle(changed, 2);
    assert.deepEqual(changed, [previewUri.toString(), previewUri.toString()], 'rendered again when its envelope opened');
    assert.match(await made.provideTextDocumentContent(previewUri), /"queue":"billing"/);
    made.dispose();
  });
});
