/**
 * Send Test Envelope names what the fixture writes (its meta.queue and meta.id, a checkout's text)
 * in its notifications, its question about a missing RabbitMQ queue and the output: cut and on
 * one line. On the local Redis and RabbitMQ, under unique names; the missing queue is not declared.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, beforeEach, test } from 'node:test';
import { redisProjection } from '../../core/message/build';
import { uniqueQueue, useRealBrokers } from '../broker/helpers';
import { installFakeVscode } from '../support/fake-vscode';

const fake = installFakeVscode();
const { redis, redisKeys: keys } = useRealBrokers();
const ROOT = resolve(__dirname, '../..');
const HOSTILE = '\n\u202eSent\u001b[2J';
const INVISIBLE = /[\n\r\u202e\u001b]/;

let send: typeof import('../../client/commands/send');
before(async () => {
  send = await import('../../client/commands/send');
});
beforeEach(() => fake.reset());

async function sendEnvelope(url: string, queue: string, metaId: string): Promise<void> {
  const envelope = JSON.parse(readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8')) as Record<string, any>;
  envelope.meta.queue = queue;
  envelope.meta.id = metaId;
  const text = JSON.stringify(envelope, null, 2);
  const uri = { scheme: 'untitled', toString: () => 'untitled:Untitled-1', fsPath: '' };
  fake.activeTextEditor = { document: { uri, languageId: 'babelqueue-envelope', isDirty: true, isUntitled: true, getText: () => text } };
  fake.settings = { 'babelqueue.broker.url': url, 'babelqueue.send.freshIds': false };
  const fresh = { for: () => undefined, renew: () => undefined };
  send.registerSendCommands({ ...fake.services(), freshIds: fresh as never, savedBytes: { refusal: async () => undefined } as never, sent: () => {} });
  await fake.commands.get('babelqueue.sendTestEnvelope')!();
}

function assertQuoted(max: number): void {
  const said = fake.events.filter((event) => !event.kind.startsWith('secret.'));
  assert.ok(said.length > 0);
  for (const event of said) {
    assert.ok(event.text.length <= max, `${event.kind} is ${event.text.length} characters`);
    assert.doesNotMatch(event.text, INVISIBLE, `${event.kind}: ${event.text.slice(0, 300)}`);
  }
}

test('Redis: the notification and the output line name the queue and meta.id cut and on one line', async () => {
  const queue = `${uniqueQueue()}${HOSTILE}${'q'.repeat(50_000)}`;
  keys.add(redisProjection(queue, 'babelqueue', '').listKey);
  const metaId = `${randomUUID()}${HOSTILE}${'i'.repeat(50_000)}`;
  // Every question (a consumer that rejects such a meta.id) is answered yes.
  fake.answer = (event, items) => (event.kind === 'warning' ? items[0] : undefined);
  await sendEnvelope('redis://127.0.0.1:6379', queue, metaId);
  assert.equal(await redis.llen(redisProjection(queue, 'babelqueue', '').listKey), 1, fake.events.map((event) => `${event.kind}: ${event.text.slice(0, 200)}`).join('\n'));
  assert.ok(fake.events.some((event) => event.kind === 'info' && event.text.startsWith('Sent to ')));
  assertQuoted(1500);
});

test('RabbitMQ: the question about a missing queue names it on one line, and its button too', async () => {
  const queue = `${uniqueQueue()}${HOSTILE}`;
  let button: unknown;
  fake.answer = (event, items) => {
    if (event.kind === 'warning' && /does not exist/.test(event.text)) {
      button = items[0];
      return undefined;
    }
    return event.kind === 'warning' ? items[0] : undefined;
  };
  await sendEnvelope('amqp://guest:guest@127.0.0.1:5672', queue, randomUUID());
  const question = fake.events.find((event) => /does not exist/.test(event.text));
  assert.ok(question, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
  assert.equal(typeof button, 'string', fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
  assert.doesNotMatch(button as string, INVISIBLE);
  assertQuoted(1500);
});
