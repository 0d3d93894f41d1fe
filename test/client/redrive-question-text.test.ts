/**
 * Redrive's question quotes what the dead letters hold: their target queues, meta.ids and bodies,
 * written by whoever dead-lettered them. Each is cut and put on one line (a body keeps its lines,
 * cut), so no message makes the dialog megabytes long, begins a line of its own in it, or reorders
 * it with a bidirectional override. Nothing here reaches a broker: the question is dismissed.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, beforeEach, test } from 'node:test';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const host = installFakeExtensionHost();
const fake = host.vscode;
const ROOT = resolve(__dirname, '../..');
const LOCAL = 'amqp://guest@127.0.0.1:5672';

let redriveModule: typeof import('../../client/commands/redrive');
let rows: typeof import('../../core/language/message-rows');

before(async () => {
  redriveModule = await import('../../client/commands/redrive');
  rows = await import('../../core/language/message-rows');
});

beforeEach(() => {
  fake.reset();
  fake.commands.clear();
});

/** The billing example's dead letter with `edit` applied to its parsed JSON. */
function deadLetter(edit: (message: Record<string, any>) => void) {
  const message = JSON.parse(readFileSync(join(ROOT, 'examples/billing/invoice-paid-dlq.babel.json'), 'utf8')) as Record<string, any>;
  message.meta.id = randomUUID();
  edit(message);
  const body = Buffer.from(JSON.stringify(message));
  const decoders = { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) };
  const [entry] = rows.lintedRows([rows.messageBody(body, decoders)]);
  return { row: entry!.row, body, source: { queue: 'billing', key: `babelq-q-${randomUUID().slice(0, 8)}.dlq`, deadLetters: true } };
}

const HOSTILE = 'billing\n\u202eRedrive 0 message(s)\u001b[2J';

test('Redrive: target queues from the dead letters are cut and on one line in the question, bodies cut in its detail', async () => {
  fake.settings = { 'babelqueue.broker.url': LOCAL };
  const messages = Array.from({ length: 8 }, (_, index) =>
    deadLetter((message) => {
      message.dead_letter.original_queue = `${HOSTILE}${index}${'q'.repeat(5000)}`;
      message.data.payer_name = `\u202e${'n'.repeat(200_000)}`;
    }),
  );
  assert.equal(await redriveModule.redrive(fake.services(), messages.map((message) => ({ message }))), false);
  const question = fake.events.find((event) => event.kind === 'info' && event.text.startsWith('Redrive '));
  assert.ok(question, fake.events.map((event) => event.text).join('\n'));
  assert.ok(question.text.length < 2000, `the question is ${question.text.length} characters`);
  assert.doesNotMatch(question.text, /[\n\r\u202e\u001b]/);
  assert.match(question.text, /billing\\n\\u202eRedrive/);
  assert.match(question.text, /and 3 more/);
  const detail = question.detail ?? '';
  assert.ok(detail.length < 10_000, `the detail is ${detail.length} characters`);
  assert.doesNotMatch(detail, /[\u202e\u001b]/);
  assert.match(detail, /more characters/);
});

test('Redrive: every dead letter left in the DLQ is not listed in the error: the first few, and how many more', async () => {
  fake.settings = { 'babelqueue.broker.url': LOCAL };
  // A raw dead letter (no envelope inside) is never redriven.
  const messages = Array.from({ length: 40 }, () => deadLetter((message) => {
    message.job = '';
    message.urn = '';
  }));
  assert.equal(await redriveModule.redrive(fake.services(), messages.map((message) => ({ message })), 'java'), false);
  const error = fake.events.find((event) => event.kind === 'error');
  assert.ok(error, fake.events.map((event) => event.text).join('\n'));
  assert.match(error.text, /^Nothing to redrive: /);
  assert.ok(error.text.length < 3000, `the error is ${error.text.length} characters`);
  assert.match(error.text, /and 35 more/);
});

test('Redrive on a message that is no dead letter names its queue cut and on one line', async () => {
  const message = deadLetter(() => undefined);
  const queue = `${HOSTILE}${'q'.repeat(100_000)}`;
  const document = { uri: host.uri('babelqueue-message:/view?1') };
  fake.activeTextEditor = { document } as never;
  const views = { messageOf: () => ({ ...message, source: { ...message.source, queue, deadLetters: false } }) };
  redriveModule.registerRedriveCommands({ ...fake.services(), views: views as never });
  assert.equal(await fake.commands.get('babelqueue.redriveMessage')!(), false);
  const notice = fake.events.find((event) => event.kind === 'info');
  assert.ok(notice, fake.events.map((event) => event.text).join('\n'));
  assert.match(notice.text, /is not a dead-letter queue/);
  assert.ok(notice.text.length < 1000, `the notice is ${notice.text.length} characters`);
  assert.doesNotMatch(notice.text, /[\n\u202e\u001b]/);
});
