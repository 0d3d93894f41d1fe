/**
 * The byte preview with a preview or Redis setting it cannot use (`babelqueue.preview.sdk` spelt
 * "Go", a layout spelt "Laravel"): Send refuses such a setting, and the preview, which shows what
 * Send publishes, says at its top which setting it left aside and that its default is shown in its
 * place, rather than showing the default's bytes as if they were what the settings ask for.
 * Driven through the stand-in extension host (test/support/fake-extension-host.ts).
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const host = installFakeExtensionHost();
const fake = host.vscode;
const SOURCE = 'file:///w/a.babel.json';
const TEXT = JSON.stringify({ job: 'urn:babel:orders:created', trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b', data: {}, meta: { id: '0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d', queue: 'orders', lang: 'node', created_at: 1749132727000, schema_version: 1 }, attempts: 0 });

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
  const document = { uri: host.uri(SOURCE), languageId: 'babelqueue-envelope', version: 1, isUntitled: false, isDirty: false, lineCount: 1, offsetAt: () => TEXT.length, getText: () => TEXT };
  host.api.workspace.textDocuments = [document];
});

async function previewText(settings: Record<string, unknown>): Promise<string> {
  host.api.workspace.getConfiguration = () => ({ get: (key: string) => settings[key] });
  const previews = new preview.PreviewProvider(new freshIds.FreshIds(), new renderer.PreviewRenderer(async () => undefined), { refusal: async () => undefined } as never);
  try {
    return await previews.provideTextDocumentContent(preview.previewUri(host.uri(SOURCE)));
  } finally {
    previews.dispose();
  }
}

describe('the byte preview with a setting it cannot use', () => {
  test('an unusable babelqueue.preview.sdk is named at the top, with the encoder shown in its place', async () => {
    const text = await previewText({ 'babelqueue.preview.sdk': 'Go' });
    const top = text.split('\n').slice(0, 3).join('\n');
    assert.match(top, /babelqueue\.preview\.sdk must be one of .*not "Go"/, top);
    assert.match(top, /default/, top);
    // The bytes shown are still the default's (meta.lang's encoder), as before.
    assert.match(text, /node encoder/);
  });

  test('an unusable babelqueue.redis.layout is named too; a broker timeout, which the preview does not read, is not', async () => {
    const text = await previewText({ 'babelqueue.redis.layout': 'Laravel', 'babelqueue.broker.timeoutMs': -1 });
    assert.match(text, /babelqueue\.redis\.layout must be "babelqueue" or "laravel", not "Laravel"/);
    assert.doesNotMatch(text, /timeoutMs/);
  });

  test('usable settings add nothing above the preview', async () => {
    const text = await previewText({ 'babelqueue.preview.sdk': 'go', 'babelqueue.redis.layout': 'laravel' });
    assert.match(text.split('\n')[0]!, /^BabelQueue: bytes published with the go encoder/, text.slice(0, 300));
  });

  test('each render reads the settings once (one configuration per render, as the preview follows typing)', async () => {
    let reads = 0;
    const settings: Record<string, unknown> = { 'babelqueue.preview.sdk': 'Go' };
    host.api.workspace.getConfiguration = () => (reads++, { get: (key: string) => settings[key] });
    const previews = new preview.PreviewProvider(new freshIds.FreshIds(), new renderer.PreviewRenderer(async () => undefined), { refusal: async () => undefined } as never);
    try {
      await previews.provideTextDocumentContent(preview.previewUri(host.uri(SOURCE)));
    } finally {
      previews.dispose();
    }
    assert.equal(reads, 1);
  });
});
