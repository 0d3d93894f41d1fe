/**
 * One name for the broker wherever the editor says where a send goes: the CodeLens, the progress
 * notification and the "Sent to" notification all name it as the setting does (its user name
 * with it, never a password), also when the password kept in secret storage equals the user name.
 * On the local RabbitMQ, under a unique queue.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, beforeEach, test } from 'node:test';
import { parseTarget } from '../../broker/target';
import { passwordKey } from '../../client/send-settings';
import { drainQueue, uniqueQueue, useRealBrokers } from '../broker/helpers';
import { installFakeVscode } from '../support/fake-vscode';

const fake = installFakeVscode();
const brokers = useRealBrokers();
const ROOT = resolve(__dirname, '../..');
const URL = 'amqp://guest@127.0.0.1:5672';

let send: typeof import('../../client/commands/send');
let lenses: typeof import('../../client/codelens');
before(async () => {
  send = await import('../../client/commands/send');
  lenses = await import('../../client/codelens');
});
beforeEach(() => fake.reset());

test('the CodeLens, the progress and the Sent notification name the broker alike, without the password', async () => {
  const queue = uniqueQueue();
  brokers.amqpQueues.add(queue);
  await brokers.channel.assertQueue(queue, { durable: true });
  const envelope = JSON.parse(readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8')) as Record<string, any>;
  envelope.meta.queue = queue;
  envelope.meta.id = randomUUID();
  const text = JSON.stringify(envelope, null, 2);
  const uri = { scheme: 'untitled', toString: () => 'untitled:Untitled-1', fsPath: '' };
  fake.activeTextEditor = { document: { uri, languageId: 'babelqueue-envelope', isDirty: true, isUntitled: true, getText: () => text } };
  fake.settings = { 'babelqueue.broker.url': URL, 'babelqueue.send.freshIds': false };
  // The password kept from an earlier send: the user name, as RabbitMQ's default guest user has it.
  fake.secrets.set(passwordKey(parseTarget(URL)), 'guest');

  const lens = new lenses.EnvelopeCodeLenses('babelqueue.sendTestEnvelope').provideCodeLenses({ uri } as never).find((each) => each.command?.title.startsWith('Send to '));
  const named = lens!.command!.title.slice('Send to '.length);
  assert.equal(named, 'amqp://guest@127.0.0.1:5672');

  const fresh = { for: () => undefined, renew: () => undefined };
  send.registerSendCommands({ ...fake.services(), freshIds: fresh as never, savedBytes: { refusal: async () => undefined } as never, sent: () => {} });
  await fake.commands.get('babelqueue.sendTestEnvelope')!();
  const said = fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n');
  assert.equal((await drainQueue(brokers.channel, queue)).length, 1, said);

  assert.equal(fake.progressTitles.length, 1);
  assert.equal(fake.progressTitles[0], `Sending to ${named} queue ${queue}…`);
  const sent = fake.events.find((event) => event.kind === 'info' && event.text.startsWith('Sent to '));
  assert.ok(sent, said);
  assert.match(sent.text, new RegExp(`^Sent to ${queue} on ${named.replace(/[.]/g, '\\.')}: meta\\.id `));
  assert.ok(fake.events.some((event) => event.kind === 'log.info' && event.text.startsWith('Sent ') && event.text.includes(`to ${named} queue ${queue}`)), said);
  for (const event of fake.events) assert.doesNotMatch(event.text, /guest:guest/);
});
