/**
 * Send Test Envelope from the command palette (or a keybinding) on a dead letter, or on its edited
 * copy: the CodeLens there is Redrive, since a send would publish a second message with the
 * `dead_letter` block and leave the stored one in the dead-letter queue. The command asks first
 * and offers the redrive; nothing is published by the question. An ordinary envelope is sent as
 * before. The broker is a host that is not this machine, so nothing connects.
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const host = installFakeExtensionHost();
const fake = host.vscode;
const DEAD = 'babelqueue-message:/orders.dlq · 0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d?1';
const FIXTURE = 'file:///w/orders/order-created.babel.json';
const TEXT = JSON.stringify({ job: 'urn:babel:orders:created', trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b', data: {}, meta: { id: '0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d', queue: 'orders', lang: 'node', created_at: 1749132727000, schema_version: 1 }, attempts: 3, dead_letter: { reason: 'boom', failed_at: 1749132728000, original_queue: 'orders' } }, null, 2);

let send: typeof import('../../client/commands/send');
let freshIds: typeof import('../../client/fresh-ids');
const executed: { command: string; args: unknown[] }[] = [];

before(async () => {
  send = await import('../../client/commands/send');
  freshIds = await import('../../client/fresh-ids');
});

const documentAt = (uri: string) => ({ uri: host.uri(uri), languageId: 'babelqueue-envelope', version: 1, isDirty: false, isUntitled: false, lineCount: TEXT.split('\n').length, offsetAt: () => TEXT.length, getText: () => TEXT });

beforeEach(() => {
  fake.reset();
  fake.commands.clear();
  executed.length = 0;
  host.api.workspace.getConfiguration = () => ({ get: (key: string) => (key === 'babelqueue.broker.url' ? 'redis://10.2.2.2:6379' : undefined) });
  host.api.workspace.textDocuments = [documentAt(DEAD), documentAt(FIXTURE)];
  host.api.commands.executeCommand = async (command: string, ...args: unknown[]) => void executed.push({ command, args });
  send.registerSendCommands({
    ...fake.services(),
    freshIds: new freshIds.FreshIds(),
    savedBytes: { refusal: async () => undefined } as never,
    sent: () => {},
    redriveInstead: { command: 'babelqueue.redriveMessage', isDeadLetter: (uri) => uri.toString() === DEAD },
  });
});

const said = () => fake.events.map((event) => `${event.kind}: ${event.text}`);
const runSend = (uri?: unknown) => fake.commands.get('babelqueue.sendTestEnvelope')!(...(uri === undefined ? [] : [uri]));

describe('Send Test Envelope on a dead letter', () => {
  test('from the palette, it asks first, and dismissing the question sends nothing and asks nothing more', async () => {
    fake.activeTextEditor = { document: documentAt(DEAD) };
    await runSend();
    assert.equal(fake.events.length, 1, said().join('\n'));
    const [question] = fake.events;
    assert.equal(question!.kind, 'warning');
    assert.match(question!.text, /dead letter/);
    assert.match(question!.text, /dead_letter block/);
    assert.match(question!.text, /Redrive/);
    assert.deepEqual(executed, []);
  });

  test('answering Redrive runs the redrive on that view, and no send question follows', async () => {
    fake.activeTextEditor = { document: documentAt(DEAD) };
    fake.answer = (_event, items) => items.find((item) => item === 'Redrive');
    await runSend();
    assert.equal(fake.events.length, 1, said().join('\n'));
    assert.equal(executed.length, 1);
    assert.equal(executed[0]!.command, 'babelqueue.redriveMessage');
    assert.equal(String(executed[0]!.args[0]), DEAD);
  });

  test('given the view\'s URI (a keybinding\'s argument), it asks the same', async () => {
    await runSend(host.uri(DEAD));
    assert.equal(fake.events.length, 1, said().join('\n'));
    assert.match(fake.events[0]!.text, /dead letter/);
  });

  test('an ordinary fixture goes on to the send\'s own questions, unchanged', async () => {
    fake.activeTextEditor = { document: documentAt(FIXTURE) };
    await runSend();
    assert.ok(said().some((line) => line.startsWith('warning: 10.2.2.2 is not this machine')), said().join('\n'));
    assert.ok(!said().some((line) => /dead letter/.test(line)), said().join('\n'));
    assert.deepEqual(executed, []);
  });
});
