/**
 * The editor's Peek Queue reads a Redis list element stored as an SDK's header frame
 * (`{"__bq_frame":1,"headers":{…},"body":"…"}`) as the consumers and `babelq peek` read it: the
 * row is the envelope inside, linted, while the bytes kept for a redrive are the stored ones (by
 * which it is found and removed). Driven through the fake `vscode` module against the real Redis.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { redisProjection } from '../../core/message/build';
import type { MessageRow } from '../../core/message/dead-letter';
import { outgoing, uniqueQueue, useRealBrokers } from '../broker/helpers';
import { installFakeVscode } from '../support/fake-vscode';

const fake = installFakeVscode();
const brokers = useRealBrokers();
let messages: typeof import('../../client/commands/messages');

before(async () => {
  messages = await import('../../client/commands/messages');
});

test('Peek Queue on Redis lists the envelope inside a header frame, and keeps the stored bytes for a redrive', async () => {
  const queue = uniqueQueue();
  const key = redisProjection(queue, 'babelqueue', '').listKey;
  brokers.redisKeys.add(key);
  const envelope = outgoing(queue);
  const frame = JSON.stringify({ __bq_frame: 1, headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }, body: envelope.text });
  await brokers.redis.rpush(key, frame);
  fake.reset();
  fake.settings = { 'babelqueue.broker.url': 'redis://127.0.0.1:6379' };
  fake.answer = (event, items) => {
    if (event.kind === 'input') return queue;
    // The list of messages: the one there is opened.
    if (event.kind === 'quickPick') return (items as { row?: MessageRow }[]).find((item) => item.row);
    return undefined;
  };
  let opened: { row: MessageRow; body: Uint8Array } | undefined;
  messages.registerMessageCommands({ ...fake.services(), views: { open: async (message: { row: MessageRow; body: Uint8Array }) => void (opened = message) } as never });
  await fake.commands.get(messages.PEEK_COMMAND)!();
  assert.ok(opened, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
  assert.equal(opened.row.urn, envelope.urn);
  assert.equal(opened.row.metaId, envelope.metaId);
  assert.equal(opened.row.errors, 0);
  assert.equal(opened.row.text, envelope.text);
  assert.equal(new TextDecoder().decode(opened.body), frame);
});
