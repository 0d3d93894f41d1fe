/**
 * A publish RabbitMQ refuses by closing the channel before its confirm (406 PRECONDITION_FAILED:
 * a message larger than the server's max_message_size), against the real local RabbitMQ: the
 * limit is lowered with rabbitmqctl for the moment of the publish and put back in `finally`. The
 * error says that RabbitMQ refused the message, why in its words, and that it was not published;
 * a redrive says the message is still in the DLQ only, not "perhaps also" on its target.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { openBroker } from '../../broker';
import { redriveMessage } from '../../core/message/dead-letter';
import type { OutgoingMessage, RedriveMove } from '../../core/message/types';
import { AMQP_URL, deadLettered, outgoing, putOnQueue, uniqueQueue, useRealBrokers } from './helpers';

const brokers = useRealBrokers();
const { amqpQueues } = brokers;

/** The limit while a test publishes (other test files may publish at the same time: theirs are far smaller). */
const LIMIT = 1024 * 1024;

function rabbitmqctlEval(expression: string): string {
  return execFileSync('rabbitmqctl', ['eval', expression], { encoding: 'utf8', timeout: 30_000 }).trim();
}

/** Runs `work` with RabbitMQ's max_message_size at LIMIT, and puts the previous value back after. */
async function withMaxMessageSize<T>(work: () => Promise<T>): Promise<T> {
  const found = /\{ok,(\d+)\}/.exec(rabbitmqctlEval('application:get_env(rabbit, max_message_size).'))?.[1];
  // LIMIT itself is what a run stopped before its `finally` left behind: the server's default goes back.
  const previous = found === String(LIMIT) ? undefined : found;
  rabbitmqctlEval(`application:set_env(rabbit, max_message_size, ${LIMIT}).`);
  try {
    return await work();
  } finally {
    rabbitmqctlEval(previous === undefined ? 'application:unset_env(rabbit, max_message_size).' : `application:set_env(rabbit, max_message_size, ${previous}).`);
  }
}

/** `message` with its note padded until the body is `bytes` long. */
function padded(message: OutgoingMessage, bytes: number): OutgoingMessage {
  const text = message.text.replace('"note":"', `"note":"${'x'.repeat(bytes - message.byteLength)}`);
  const encoded = new TextEncoder().encode(text);
  assert.equal(encoded.byteLength, bytes);
  return { ...message, text, bytes: encoded, byteLength: encoded.byteLength, textLength: text.length };
}

const REFUSAL = /RabbitMQ refused the message/;

describe('rabbitmq: a publish refused by closing the channel', () => {
  test('send: said as refused, with the broker\'s reason, and not published', async () => {
    const queue = uniqueQueue();
    amqpQueues.add(queue);
    await brokers.channel.assertQueue(queue, { durable: true });
    const message = padded(outgoing(queue), LIMIT + 1000);
    const broker = await openBroker(AMQP_URL, { timeoutMs: 5000 });
    try {
      await withMaxMessageSize(() =>
        assert.rejects(broker.publish(message), (error: Error & { kind?: string; code?: string }) => {
          assert.equal(error.kind, 'rejected', error.message);
          assert.match(error.message, REFUSAL);
          assert.ok(error.message.includes(`message size ${LIMIT + 1000} is larger than configured max size ${LIMIT}`), error.message);
          assert.ok(error.message.includes(`It was not published to ${queue}.`), error.message);
          assert.doesNotMatch(error.message, /perhaps|may or may not/);
          return true;
        }));
      // The connection is still usable: the next publish, within the limit, is confirmed.
      await broker.publish(outgoing(queue));
    } finally {
      await broker.close();
    }
    assert.equal((await brokers.channel.checkQueue(queue)).messageCount, 1, 'only the second message arrived');
  });

  test('redrive: the refused message is still in the DLQ only, not perhaps on its target', async () => {
    const queue = uniqueQueue();
    const dlq = `${queue}.dlq`;
    for (const name of [queue, dlq]) {
      amqpQueues.add(name);
      await brokers.channel.assertQueue(name, { durable: true });
    }
    // A dead letter within the limit whose redriven bytes (as edited before a redrive) are past it.
    const body = deadLettered(outgoing(queue).text, queue, 'gateway down');
    await putOnQueue(brokers.channel, dlq, [body]);
    const redriven = redriveMessage(body, { sdk: 'node', redisLayout: 'babelqueue' });
    assert.ok(redriven.ok);
    const move: RedriveMove = { original: new TextEncoder().encode(body), message: padded(redriven.message, LIMIT + 1000) as RedriveMove['message'] };
    const broker = await openBroker(AMQP_URL, { timeoutMs: 5000 });
    try {
      await withMaxMessageSize(() =>
        assert.rejects(broker.redrive(dlq, [move]), (error: Error & { kind?: string; moved?: number }) => {
          assert.equal(error.kind, 'rejected', error.message);
          assert.equal(error.moved, 0);
          assert.match(error.message, REFUSAL);
          assert.ok(error.message.includes(`message size ${LIMIT + 1000} is larger than configured max size ${LIMIT}`), error.message);
          assert.ok(error.message.includes(`meta.id ${move.message.metaId} was not published to ${queue}`), error.message);
          assert.doesNotMatch(error.message, /perhaps/);
          return true;
        }));
    } finally {
      await broker.close();
    }
    assert.equal((await brokers.channel.checkQueue(queue)).messageCount, 0);
    assert.equal((await brokers.channel.checkQueue(dlq)).messageCount, 1);
  });
});
