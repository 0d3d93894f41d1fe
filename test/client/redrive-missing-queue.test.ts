/**
 * Redrive onto a RabbitMQ queue that does not exist: the editor offers to declare it (durable), as
 * Send does, and the dead letter leaves the DLQ only when the redrive succeeds. Declined, nothing
 * is declared and the dead letter stays where it was. On the local RabbitMQ, under unique names.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, beforeEach, test } from 'node:test';
import { connect } from 'amqplib';
import { AMQP_URL, drainQueue, putOnQueue, uniqueQueue, untilQueueHolds, useRealBrokers } from '../broker/helpers';
import { installFakeVscode, type UiEvent } from '../support/fake-vscode';

const fake = installFakeVscode();
const brokers = useRealBrokers();
const ROOT = resolve(__dirname, '../..');
const URL = 'amqp://guest:guest@127.0.0.1:5672';
const MISSING = /does not exist/;

let redriveModule: typeof import('../../client/commands/redrive');
let rows: typeof import('../../core/language/message-rows');
before(async () => {
  redriveModule = await import('../../client/commands/redrive');
  rows = await import('../../core/language/message-rows');
});
beforeEach(() => fake.reset());

/** A dead letter of `original`, stored in a fresh DLQ; `original` itself is not declared. */
async function deadLetterFor(original: string) {
  const dlq = `${uniqueQueue()}.dlq`;
  brokers.amqpQueues.add(dlq);
  brokers.amqpQueues.add(original);
  await brokers.channel.assertQueue(dlq, { durable: true });
  const text = readFileSync(join(ROOT, 'examples/billing/invoice-paid-dlq.babel.json'), 'utf8').replace(/"original_queue":\s*"billing"/, `"original_queue": "${original}"`).replace(/"queue":\s*"billing"/, `"queue": "${original}"`);
  const body = Buffer.from(text);
  await putOnQueue(brokers.channel, dlq, [body]);
  await untilQueueHolds(brokers.channel, dlq, 1);
  const decoders = { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) };
  const [entry] = rows.lintedRows([rows.messageBody(body, decoders)]);
  return { dlq, message: { row: entry!.row, body, source: { queue: dlq, key: dlq, deadLetters: true } } };
}

/** Yes to the redrive question; `declare` answers the question about the missing queue. */
function answering(declare: boolean) {
  return (event: UiEvent, items: readonly unknown[]) => {
    if (event.kind === 'info' && event.text.startsWith('Redrive ')) return 'Redrive';
    if (event.kind === 'warning' && MISSING.test(event.text)) return declare ? items[0] : undefined;
    return undefined;
  };
}

/** Asked on a connection of its own: a passive declare of a missing queue closes the channel it is made on. */
async function queueExists(queue: string): Promise<boolean> {
  const connection = await connect(AMQP_URL);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    await channel.checkQueue(queue);
    return true;
  } catch {
    return false;
  } finally {
    await connection.close();
  }
}

const said = () => fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n');

test('Redrive onto a missing RabbitMQ queue offers to declare it (durable), then moves the dead letter there', async () => {
  const original = uniqueQueue();
  const { dlq, message } = await deadLetterFor(original);
  fake.settings = { 'babelqueue.broker.url': URL };
  fake.answer = answering(true);
  assert.equal(await redriveModule.redrive(fake.services(), [{ message }], 'node'), true, said());
  const question = fake.events.find((event) => event.kind === 'warning' && MISSING.test(event.text));
  assert.ok(question, said());
  assert.match(question.text, new RegExp(`${original}.*Declare it \\(durable\\) and redrive\\?`));
  assert.equal((await drainQueue(brokers.channel, original)).length, 1, said());
  assert.deepEqual(await drainQueue(brokers.channel, dlq), []);
});

test('Declined, nothing is declared and the dead letter stays in the DLQ', async () => {
  const original = uniqueQueue();
  const { dlq, message } = await deadLetterFor(original);
  fake.settings = { 'babelqueue.broker.url': URL };
  fake.answer = answering(false);
  assert.equal(await redriveModule.redrive(fake.services(), [{ message }], 'node'), false);
  assert.ok(fake.events.some((event) => event.kind === 'warning' && MISSING.test(event.text)), said());
  const error = fake.events.find((event) => event.kind === 'error');
  assert.ok(error, said());
  assert.match(error.text, new RegExp(`still in ${dlq.replace(/[.]/g, '\\.')}`));
  assert.equal(await queueExists(original), false);
  assert.equal((await drainQueue(brokers.channel, dlq)).length, 1);
});

test('A declare the broker refuses (a name under the reserved amq. prefix) moves nothing, and the error says the dead letter is still in the DLQ', async () => {
  const original = `amq.${uniqueQueue()}`;
  const { dlq, message } = await deadLetterFor(original);
  fake.settings = { 'babelqueue.broker.url': URL };
  fake.answer = answering(true);
  assert.equal(await redriveModule.redrive(fake.services(), [{ message }], 'node'), false);
  assert.ok(fake.events.some((event) => event.kind === 'warning' && MISSING.test(event.text)), said());
  const error = fake.events.find((event) => event.kind === 'error');
  assert.ok(error, said());
  assert.match(error.text, /amq\./, said());
  assert.match(error.text, new RegExp(`Nothing was moved: the 1 message\\(s\\) are still in ${dlq.replace(/[.]/g, '\\.')}`), said());
  assert.equal(await queueExists(original), false);
  assert.equal((await drainQueue(brokers.channel, dlq)).length, 1);
});
