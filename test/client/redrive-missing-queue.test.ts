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

/** Dead letters of each of `originals`, all stored in one fresh DLQ; no original is declared. */
async function deadLettersFor(originals: readonly string[]) {
  const dlq = `${uniqueQueue()}.dlq`;
  brokers.amqpQueues.add(dlq);
  for (const original of originals) brokers.amqpQueues.add(original);
  await brokers.channel.assertQueue(dlq, { durable: true });
  const example = readFileSync(join(ROOT, 'examples/billing/invoice-paid-dlq.babel.json'), 'utf8');
  const bodies = originals.map((original, at) => Buffer.from(example.replace(/"original_queue":\s*"billing"/, `"original_queue": "${original}"`).replace(/"queue":\s*"billing"/, `"queue": "${original}"`).replace(/"id":\s*"([0-9a-f-]{34})[0-9a-f]{2}"/, `"id": "$1a${at}"`)));
  await putOnQueue(brokers.channel, dlq, bodies);
  await untilQueueHolds(brokers.channel, dlq, bodies.length);
  const decoders = { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) };
  const entries = rows.lintedRows(bodies.map((body) => rows.messageBody(body, decoders)));
  return { dlq, messages: entries.map((entry, at) => ({ row: entry.row, body: bodies[at]!, source: { queue: dlq, key: dlq, deadLetters: true } })) };
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

test('The questions come before the progress: "Redriving from …" starts only once every answer is in', async () => {
  const original = uniqueQueue();
  const { message } = await deadLetterFor(original);
  fake.settings = { 'babelqueue.broker.url': URL };
  const progressWhenAsked: number[] = [];
  const answer = answering(true);
  fake.answer = (event, items) => {
    const question = (event.kind === 'info' && event.text.startsWith('Redrive ')) || (event.kind === 'warning' && MISSING.test(event.text));
    if (question) progressWhenAsked.push(fake.progressTitles.length);
    return answer(event, items);
  };
  assert.equal(await redriveModule.redrive(fake.services(), [{ message }], 'node'), true, said());
  assert.ok(fake.events.some((event) => event.kind === 'warning' && MISSING.test(event.text)), said());
  assert.deepEqual(progressWhenAsked.filter((count) => count > 0), [], `a question was asked under ${fake.progressTitles.join(', ')}`);
  assert.equal(fake.progressTitles.filter((title) => title.startsWith('Redriving from ')).length, 1, fake.progressTitles.join(', '));
});

test('Two missing queues, the first accepted and the second declined: neither is declared and both dead letters stay in the DLQ', async () => {
  const [first, second] = [uniqueQueue(), uniqueQueue()];
  const { dlq, messages } = await deadLettersFor([first, second]);
  fake.settings = { 'babelqueue.broker.url': URL };
  const asked: string[] = [];
  fake.answer = (event, items) => {
    if (event.kind === 'info' && event.text.startsWith('Redrive ')) return 'Redrive';
    if (event.kind === 'warning' && MISSING.test(event.text)) {
      asked.push(event.text);
      return event.text.includes(first) ? items[0] : undefined;
    }
    return undefined;
  };
  assert.equal(await redriveModule.redrive(fake.services(), messages.map((message) => ({ message })), 'node'), false, said());
  assert.equal(asked.length, 2, said());
  assert.ok(asked[0]!.includes(first) && asked[1]!.includes(second), said());
  assert.equal(await queueExists(first), false, 'the accepted queue was declared although nothing was redriven');
  assert.equal(await queueExists(second), false);
  assert.deepEqual(fake.progressTitles, []);
  assert.equal((await drainQueue(brokers.channel, dlq)).length, 2);
});

test('Two missing queues, both accepted: both are declared and each dead letter moves to its own', async () => {
  const [first, second] = [uniqueQueue(), uniqueQueue()];
  const { dlq, messages } = await deadLettersFor([first, second]);
  fake.settings = { 'babelqueue.broker.url': URL };
  fake.answer = answering(true);
  assert.equal(await redriveModule.redrive(fake.services(), messages.map((message) => ({ message })), 'node'), true, said());
  assert.equal(fake.events.filter((event) => event.kind === 'warning' && MISSING.test(event.text)).length, 2, said());
  assert.equal((await drainQueue(brokers.channel, first)).length, 1, said());
  assert.equal((await drainQueue(brokers.channel, second)).length, 1, said());
  assert.deepEqual(await drainQueue(brokers.channel, dlq), []);
});
