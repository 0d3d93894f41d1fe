/**
 * Peek Queue and Dead Letters list what a queue holds, written by whoever published it: each row's
 * URN, meta.id, dead-letter reason, error, exception, original queue and language, the group
 * headings and the titles that name a message are cut and on one line (VS Code's quick pick shows
 * a line break as nothing and lets a bidirectional override reorder the row). On the local Redis,
 * with unique keys, through the fake `vscode` module.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeEach, test } from 'node:test';
import { outgoing, uniqueQueue, useRealBrokers } from '../broker/helpers';
import { installFakeVscode } from '../support/fake-vscode';

const fake = installFakeVscode();
const { redis, redisKeys: keys } = useRealBrokers();
const REDIS = 'redis://127.0.0.1:6379';
const HOSTILE = '\n\u202eforged row\u001b[2J';
const LONG = 'x'.repeat(100_000);
const INVISIBLE = /[\n\r\u202e\u001b]/;

beforeEach(() => fake.reset());

/** A dead letter on `queue`'s DLQ whose every quoted field is long and holds a line break, an override and ESC. */
function hostileDeadLetter(queue: string): { text: string; metaId: string } {
  const envelope = JSON.parse(outgoing(queue).text) as Record<string, any>;
  const metaId = `${randomUUID()}${HOSTILE}${LONG}`;
  envelope.job = `urn:babel:orders:created${HOSTILE}${LONG}`;
  envelope.meta.id = metaId;
  envelope.attempts = 2;
  envelope.dead_letter = { reason: `failed${HOSTILE}${LONG}`, error: `down${HOSTILE}${LONG}`, exception: `Error${HOSTILE}${LONG}`, failed_at: 1749132730000, original_queue: `${queue}${HOSTILE}${LONG}`, attempts: 2, lang: `node${HOSTILE}${LONG}` };
  return { text: JSON.stringify(envelope), metaId };
}

function assertQuoted(text: string | undefined, max: number, what: string): void {
  if (text === undefined) return;
  assert.ok(text.length <= max, `${what} is ${text.length} characters`);
  assert.doesNotMatch(text, INVISIBLE, what);
}

for (const [name, command, list] of [['Dead Letters', 'babelqueue.deadLetters', /dead letter\(s\) on/], ['Peek Queue', 'babelqueue.peekQueue', /message\(s\) on/]] as const) {
  test(`${name}: each row's fields from the message are cut and on one line`, async () => {
    const queue = uniqueQueue();
    keys.add(`${queue}.dlq`);
    await redis.rpush(`${queue}.dlq`, hostileDeadLetter(queue).text);
    fake.settings = { 'babelqueue.broker.url': REDIS };
    let items: { label: string; description?: string; detail?: string; row?: unknown }[] = [];
    const titles: string[] = [];
    fake.answer = (event, offered) => {
      if (event.kind === 'input') return `${queue}.dlq`;
      if (event.kind === 'quickPick' && list.test(event.text)) {
        items = offered as typeof items;
        return items.find((item) => item.row);
      }
      if (event.kind === 'quickPick') titles.push(event.text);
      return undefined;
    };
    fake.services();
    const messages = await import('../../client/commands/messages');
    messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
    await fake.commands.get(command)!();
    assert.ok(items.length > 0, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
    for (const item of items) {
      assertQuoted(item.label, 300, 'a label');
      assertQuoted(item.description, 500, 'a description');
      assertQuoted(item.detail, 2000, 'a detail');
    }
    for (const title of titles) assertQuoted(title, 300, 'a title');
  });
}

test('Peek Queue: the open envelope\'s meta.queue is offered cut and on one line', async () => {
  const queue = `orders${HOSTILE}${LONG}`;
  fake.activeTextEditor = { document: { languageId: 'babelqueue-envelope', uri: { toString: () => 'file:///w/a.babel.json' }, getText: () => JSON.stringify({ meta: { queue } }) } };
  let labels: string[] = [];
  fake.answer = (event, offered) => {
    if (event.kind === 'quickPick') labels = (offered as { label: string }[]).map((item) => item.label);
    return undefined;
  };
  const messages = await import('../../client/commands/messages');
  messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
  await fake.commands.get('babelqueue.peekQueue')!();
  assert.equal(labels.length, 3, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
  for (const label of labels) assertQuoted(label, 300, 'a queue offered');
});

test('Peek Queue: a meta.queue written like an icon, `$(check) orders`, is offered as written, not drawn as an icon', async () => {
  const queue = '$(check) orders';
  fake.activeTextEditor = { document: { languageId: 'babelqueue-envelope', uri: { toString: () => 'file:///w/a.babel.json' }, getText: () => JSON.stringify({ meta: { queue } }) } };
  let labels: string[] = [];
  fake.answer = (event, offered) => {
    if (event.kind === 'quickPick') labels = (offered as { label: string }[]).map((item) => item.label);
    return undefined;
  };
  const messages = await import('../../client/commands/messages');
  messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
  await fake.commands.get('babelqueue.peekQueue')!();
  // VS Code draws `$(check)` in a label as the check icon; `\$(check)` as the text `$(check)`.
  assert.deepEqual(labels.slice(0, 2), ['\\$(check) orders', '\\$(check) orders.dlq']);
});

test('Dead Letters: a row whose URN, meta.id, reason, error, original queue and language are written like icons shows each as written', async () => {
  const queue = uniqueQueue();
  keys.add(`${queue}.dlq`);
  const envelope = JSON.parse(outgoing(queue).text) as Record<string, any>;
  envelope.job = 'urn:babel:orders:created$(check)';
  envelope.meta.id = '$(pass) 1';
  envelope.dead_letter = { reason: '$(info)', error: 'down $(error)', exception: 'Error $(bug)', failed_at: 1749132730000, original_queue: '$(check) orders', attempts: 1, lang: '$(zap)' };
  await redis.rpush(`${queue}.dlq`, JSON.stringify(envelope));
  fake.settings = { 'babelqueue.broker.url': REDIS };
  let items: { label: string; description?: string; detail?: string; row?: unknown }[] = [];
  fake.answer = (event, offered) => {
    if (event.kind === 'input') return `${queue}.dlq`;
    if (event.kind === 'quickPick' && /dead letter\(s\) on/.test(event.text)) items = offered as typeof items;
    return undefined;
  };
  const messages = await import('../../client/commands/messages');
  messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
  await fake.commands.get('babelqueue.deadLetters')!();
  const row = items.find((item) => item.row)!;
  assert.ok(row, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
  assert.match(row.label, /urn:babel:orders:created\\\$\(check\)/);
  assert.match(row.description!, /^\\\$\(pass\) 1 · /);
  assert.match(row.detail!, /^\\\$\(info\): down \\\$\(error\) · Error \\\$\(bug\) · original queue "\\\$\(check\) orders" · by \\\$\(zap\)$/);
  const heading = items.find((item) => !item.row)!;
  assert.equal(heading.label, '1 × \\$(info): down \\$(error)');
});

test('Dead Letters: a group heading cut at its 40 characters keeps an emoji whole or leaves it out, never half of it', async () => {
  const queue = uniqueQueue();
  keys.add(`${queue}.dlq`);
  const envelope = JSON.parse(outgoing(queue).text) as Record<string, any>;
  // `1 × ` and 34 characters: the emoji's first half is the heading's 39th character, the last kept.
  envelope.dead_letter = { reason: `${'r'.repeat(34)}😀 timed out`, error: 'down', failed_at: 1749132730000, original_queue: queue, attempts: 1 };
  await redis.rpush(`${queue}.dlq`, JSON.stringify(envelope));
  fake.settings = { 'babelqueue.broker.url': REDIS };
  let items: { label: string; row?: unknown }[] = [];
  fake.answer = (event, offered) => {
    if (event.kind === 'input') return `${queue}.dlq`;
    if (event.kind === 'quickPick' && /dead letter\(s\) on/.test(event.text)) items = offered as typeof items;
    return undefined;
  };
  const messages = await import('../../client/commands/messages');
  messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
  await fake.commands.get('babelqueue.deadLetters')!();
  const heading = items.find((item) => !item.row);
  assert.ok(heading, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
  assert.doesNotMatch(heading.label, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/, JSON.stringify(heading.label));
  assert.ok(heading.label.endsWith('…') && heading.label.length <= 40, heading.label);
});
