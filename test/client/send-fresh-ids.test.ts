/**
 * Send Test Envelope with `babelqueue.send.freshIds` (the default): the created_at sent is the time
 * of the send when no byte preview of the envelope is on screen, not the time values were last
 * minted (after the previous send, or by a preview since closed). With the preview on screen, the
 * values it shows are the ones sent. Sent to the local Redis, under a unique queue.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, beforeEach, describe, test } from 'node:test';
import { fixedFresh } from '../../core/model/fresh';
import { uniqueQueue, useRealBrokers } from '../broker/helpers';
import { installFakeVscode } from '../support/fake-vscode';

const fake = installFakeVscode();
const { redis, redisKeys: keys } = useRealBrokers();
const ROOT = resolve(__dirname, '../..');
const HOUR = 3_600_000;

let send: typeof import('../../client/commands/send');
before(async () => {
  send = await import('../../client/commands/send');
});
beforeEach(() => fake.reset());

/** Fresh values pinned an hour ago (as after a send an hour back), renewed to now on request. */
function pinnedAnHourAgo() {
  let pinned = { id: randomUUID(), now: Date.now() - HOUR };
  return {
    pinned: () => pinned,
    ids: {
      for: () => fixedFresh(pinned.id, pinned.now),
      renew: () => void (pinned = { id: randomUUID(), now: Date.now() }),
    },
  };
}

async function sendOpenEnvelope(previewShown: boolean, ids: { for: () => unknown; renew: () => void }): Promise<{ id: string; created_at: number }> {
  const queue = uniqueQueue();
  keys.add(queue);
  const text = readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8').replace('"queue": "orders"', `"queue": "${queue}"`);
  const uri = { scheme: 'untitled', toString: () => 'untitled:Untitled-1', fsPath: '' };
  fake.activeTextEditor = { document: { uri, languageId: 'babelqueue-envelope', isDirty: true, isUntitled: true, getText: () => text } };
  fake.previews = previewShown ? ['untitled:Untitled-1'] : [];
  fake.settings = { 'babelqueue.broker.url': 'redis://127.0.0.1:6379' };
  send.registerSendCommands({ ...fake.services(), freshIds: ids as never, savedBytes: { refusal: async () => undefined } as never, sent: () => {} });
  await fake.commands.get('babelqueue.sendTestEnvelope')!();
  const stored = await redis.lindex(queue, 0);
  assert.ok(stored, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
  return (JSON.parse(stored) as { meta: { id: string; created_at: number } }).meta;
}

describe('Send Test Envelope: fresh meta.id and created_at', () => {
  test('without a preview on screen, created_at is the time of the send', async () => {
    const { ids, pinned } = pinnedAnHourAgo();
    const stale = pinned();
    const meta = await sendOpenEnvelope(false, ids);
    assert.ok(Math.abs(meta.created_at - Date.now()) < 60_000, `created_at ${new Date(meta.created_at).toISOString()}, sent at ${new Date().toISOString()}`);
    assert.notEqual(meta.id, stale.id);
  });

  test('with the preview on screen, the values it shows are the ones sent', async () => {
    const { ids, pinned } = pinnedAnHourAgo();
    const shown = pinned();
    const meta = await sendOpenEnvelope(true, ids);
    assert.deepEqual([meta.id, meta.created_at], [shown.id, shown.now]);
  });
});

test('the send is logged once, in the output\'s own timestamped line: no second timestamp in the text', async () => {
  const { ids } = pinnedAnHourAgo();
  const meta = await sendOpenEnvelope(false, ids);
  const lines = fake.events.filter((event) => event.kind === 'log.info').map((event) => event.text);
  const sent = lines.filter((line) => line.includes(`meta.id ${meta.id}`));
  assert.equal(sent.length, 1, lines.join('\n'));
  assert.match(sent[0]!, /^Sent \d+ bytes to redis:\/\/127\.0\.0\.1:6379 /);
  assert.doesNotMatch(sent[0]!, /\d{4}-\d\d-\d\dT\d\d:\d\d/);
});
