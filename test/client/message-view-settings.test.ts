/**
 * A message opened from Peek Queue in a workspace of several folders is previewed and sent with the
 * settings of the folder it was read with (its broker, layout and prefix), as its redrive is: a
 * message view is in no folder, so its own URI finds only the user's and the workspace's settings.
 * Driven through the stand-in extension host; the folder's broker is a host that is not this
 * machine, so nothing connects.
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const host = installFakeExtensionHost();
const fake = host.vscode;
const WORKER_BROKER = 'redis://10.2.2.2:6379';
const VIEW = 'babelqueue-message:/orders · 0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d?1';
const TEXT = JSON.stringify({ job: 'urn:babel:orders:created', trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b', data: {}, meta: { id: '0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d', queue: 'orders', lang: 'node', created_at: 1749132727000, schema_version: 1 }, attempts: 0 }, null, 2);

let codelens: typeof import('../../client/codelens');
let send: typeof import('../../client/commands/send');
let preview: typeof import('../../client/preview');
let renderer: typeof import('../../client/preview-renderer');
let freshIds: typeof import('../../client/fresh-ids');

before(async () => {
  codelens = await import('../../client/codelens');
  send = await import('../../client/commands/send');
  preview = await import('../../client/preview');
  renderer = await import('../../client/preview-renderer');
  freshIds = await import('../../client/fresh-ids');
});

let view: { uri: { toString(): string }; languageId: string; version: number; isDirty: boolean; isUntitled: boolean; lineCount: number; offsetAt(): number; getText(): string };
/** The message view's settings scope: where it was read (a file of the worker folder). */
let scope: (uri: { toString(): string }) => unknown;

beforeEach(() => {
  fake.reset();
  fake.commands.clear();
  // The worker folder's .vscode/settings.json names its broker; nothing else does.
  host.api.workspace.getConfiguration = (_section: unknown, at?: { path: string }) => ({
    get: (key: string) => (key === 'babelqueue.broker.url' && at?.path.startsWith('/w/worker/') ? WORKER_BROKER : undefined),
  });
  view = { uri: host.uri(VIEW), languageId: 'babelqueue-envelope', version: 1, isDirty: false, isUntitled: false, lineCount: TEXT.split('\n').length, offsetAt: () => TEXT.length, getText: () => TEXT };
  host.api.workspace.textDocuments = [view];
  const readWith = host.uri('file:///w/worker/orders/order-created.babel.json');
  scope = (uri) => (uri.toString() === VIEW ? readWith : uri);
});

describe('a message view, read with the worker folder\'s settings', () => {
  test('its Send lens names the worker folder\'s broker', () => {
    const lenses = new codelens.EnvelopeCodeLenses('babelqueue.sendTestEnvelope', undefined, scope as never);
    const titles = lenses.provideCodeLenses(view as never).map((lens) => lens.command?.title);
    assert.deepEqual(titles, ['Preview Published Bytes', `Send to ${WORKER_BROKER}`]);
  });

  test('its send goes to the worker folder\'s broker', async () => {
    fake.activeTextEditor = { document: view };
    send.registerSendCommands({ ...fake.services(), freshIds: new freshIds.FreshIds(), savedBytes: { refusal: async () => undefined } as never, sent: () => {}, settingsScope: scope as never });
    await fake.commands.get('babelqueue.sendTestEnvelope')!();
    const asked = fake.events.map((event) => `${event.kind}: ${event.text}`);
    assert.ok(asked.some((line) => line.startsWith('warning: 10.2.2.2 is not this machine')), asked.join('\n'));
  });

  test('its preview names the worker folder\'s broker', async () => {
    const previews = new preview.PreviewProvider(new freshIds.FreshIds(), new renderer.PreviewRenderer(async () => undefined), { refusal: async () => undefined } as never, scope as never);
    const text = await previews.provideTextDocumentContent(preview.previewUri(host.uri(VIEW)));
    assert.match(text, /10\.2\.2\.2/, text.slice(0, 400));
    previews.dispose();
  });
});
