/**
 * In an untrusted workspace (VS Code's Restricted Mode) the broker commands refuse before anything
 * else: no password is read from secret storage or asked for, and no connection is opened. The
 * broker URL points at a local TCP server that counts the connections it is offered.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { installFakeVscode } from '../support/fake-vscode';

const fake = installFakeVscode();
const ROOT = resolve(__dirname, '../..');
const sockets: Socket[] = [];
let server: Server;
let url: string;

before(async () => {
  server = createServer((socket) => {
    sockets.push(socket);
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `amqp://guest@127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(() => new Promise((done) => server.close(done)));

beforeEach(() => {
  fake.reset();
  fake.trusted = false;
  fake.settings = { 'babelqueue.broker.url': url };
  fake.answer = (event) => (event.kind === 'input' && !event.text.startsWith('Password') ? 'orders' : 'never');
});

/** Nothing but the refusal happened: no secret read, no password asked, no connection offered. */
function assertRefusedBeforeAnything(pattern: RegExp): void {
  const seen = fake.events.map((event) => `${event.kind}: ${event.text}`);
  assert.ok(seen.some((line) => line.startsWith('warning: ') && pattern.test(line)), seen.join('\n'));
  assert.ok(!fake.events.some((event) => event.kind.startsWith('secret.')), seen.join('\n'));
  assert.ok(!seen.some((line) => line.startsWith('input: Password')), seen.join('\n'));
  assert.equal(sockets.length, 0, 'no connection was offered to the broker');
}

describe('Restricted Mode', () => {
  // Each refusal offers the way out it names: VS Code's Workspace Trust editor, one click away.
  const refusals: [string, () => Promise<unknown>][] = [
    ['Peek Queue', async () => {
      const messages = await import('../../client/commands/messages');
      messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
      await fake.commands.get('babelqueue.peekQueue')!();
    }],
    ['Send Test Envelope', async () => {
      const send = await import('../../client/commands/send');
      const text = readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8');
      const uri = { scheme: 'untitled', toString: () => 'untitled:Untitled-1', fsPath: '' };
      fake.activeTextEditor = { document: { uri, languageId: 'babelqueue-envelope', isDirty: true, isUntitled: true, getText: () => text } };
      send.registerSendCommands({ ...fake.services(), freshIds: new (await import('../../client/fresh-ids')).FreshIds(), savedBytes: { refusal: async () => undefined } as never, sent: () => {} });
      await fake.commands.get('babelqueue.sendTestEnvelope')!();
    }],
    ['Redrive', async () => {
      const redrive = await import('../../client/commands/redrive');
      const rows = await import('../../core/language/message-rows');
      const body = readFileSync(join(ROOT, 'examples/billing/invoice-paid-dlq.babel.json'));
      const decoders = { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) };
      const [entry] = rows.lintedRows([rows.messageBody(body, decoders)]);
      await redrive.redrive(fake.services(), [{ message: { row: entry!.row, body, source: { queue: 'billing', key: 'billing.dlq', deadLetters: true } } }]);
    }],
  ];
  for (const [name, run] of refusals) {
    test(`${name}'s refusal offers Manage Workspace Trust, which opens VS Code's Workspace Trust editor`, async () => {
      let offered: readonly unknown[] = [];
      fake.answer = (event, items) => {
        if (event.kind !== 'warning') return undefined;
        offered = items;
        return 'Manage Workspace Trust';
      };
      await run();
      // The answer comes after the refusal returned: the button's command runs on its own turn.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(offered, ['Manage Workspace Trust']);
      assert.deepEqual(fake.executed, ['workbench.trust.manage']);
      assert.equal(sockets.length, 0, 'no connection was offered to the broker');
    });
  }

  for (const [name, command] of [['Peek Queue', 'babelqueue.peekQueue'], ['Dead Letters', 'babelqueue.deadLetters']] as const) {
    test(`${name} is refused before any password or connection`, async () => {
      const messages = await import('../../client/commands/messages');
      messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
      await fake.commands.get(command)!();
      assertRefusedBeforeAnything(/Restricted Mode/);
    });
  }

  for (const [name, command] of [['Peek Queue', 'babelqueue.peekQueue'], ['Dead Letters', 'babelqueue.deadLetters']] as const) {
    test(`${name} refuses before it asks which queue to read`, async () => {
      const messages = await import('../../client/commands/messages');
      messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
      const uri = { scheme: 'file', toString: () => 'file:///w/orders/order-created.babel.json', fsPath: '/w/orders/order-created.babel.json' };
      const text = readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8');
      fake.activeTextEditor = { document: { uri, languageId: 'babelqueue-envelope', isDirty: false, isUntitled: false, getText: () => text } };
      await fake.commands.get(command)!();
      const seen = fake.events.map((event) => `${event.kind}: ${event.text}`);
      assert.equal(seen.length, 1, seen.join('\n'));
      assert.match(seen[0]!, /^warning: .*Restricted Mode/);
    });
  }

  test('Send Test Envelope is refused before any password or connection', async () => {
    const send = await import('../../client/commands/send');
    const text = readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8');
    const uri = { scheme: 'untitled', toString: () => 'untitled:Untitled-1', fsPath: '' };
    fake.activeTextEditor = { document: { uri, languageId: 'babelqueue-envelope', isDirty: true, isUntitled: true, getText: () => text } };
    const services = { ...fake.services(), freshIds: new (await import('../../client/fresh-ids')).FreshIds(), savedBytes: { refusal: async () => undefined } as never, sent: () => {} };
    send.registerSendCommands(services);
    await fake.commands.get('babelqueue.sendTestEnvelope')!();
    assertRefusedBeforeAnything(/Restricted Mode/);
  });

  test('Send Test Envelope says the refusal, not a settings error: Restricted Mode is why nothing is sent', async () => {
    const send = await import('../../client/commands/send');
    const text = readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8');
    const uri = { scheme: 'untitled', toString: () => 'untitled:Untitled-1', fsPath: '' };
    fake.activeTextEditor = { document: { uri, languageId: 'babelqueue-envelope', isDirty: true, isUntitled: true, getText: () => text } };
    fake.settings = { 'babelqueue.broker.url': url, 'babelqueue.preview.sdk': 'cobol' };
    send.registerSendCommands({ ...fake.services(), freshIds: new (await import('../../client/fresh-ids')).FreshIds(), savedBytes: { refusal: async () => undefined } as never, sent: () => {} });
    await fake.commands.get('babelqueue.sendTestEnvelope')!();
    const seen = fake.events.map((event) => `${event.kind}: ${event.text}`);
    assert.equal(seen.length, 1, seen.join('\n'));
    assert.match(seen[0]!, /^warning: Sending is disabled in Restricted Mode/);
  });

  test('Redrive is refused before any password or connection', async () => {
    const redrive = await import('../../client/commands/redrive');
    const rows = await import('../../core/language/message-rows');
    const body = readFileSync(join(ROOT, 'examples/billing/invoice-paid-dlq.babel.json'));
    const decoders = { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) };
    const [entry] = rows.lintedRows([rows.messageBody(body, decoders)]);
    const message = { row: entry!.row, body, source: { queue: 'billing', key: 'billing.dlq', deadLetters: true } };
    assert.equal(await redrive.redrive(fake.services(), [{ message }]), false);
    assertRefusedBeforeAnything(/Restricted Mode/);
  });
});
