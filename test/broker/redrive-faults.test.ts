/**
 * Faults in the middle of a redrive, against the real Redis and RabbitMQ through the loopback
 * proxy: the connection dropped before and after each step of a move. Whatever happens, every
 * dead letter is somewhere (never in neither queue), Redis never holds two copies (its move is
 * one atomic script), RabbitMQ holds two at worst (published, not yet acked), the messages after
 * the failed one are untouched in the DLQ, and the error says how far the redrive got.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isBrokerError, openBroker, RedriveInterrupted, type Broker } from '../../broker';
import { redriveMessage } from '../../core/message/dead-letter';
import type { RedriveMove } from '../../core/message/types';
import { amqpQueueWithDlq, deadLettered, drainQueue, leakedIn, outgoing, putOnQueue, uniqueQueue, uniqueSecret, untilQueueHolds, useRealBrokers } from './helpers';
import { fakeAuth, isAmqpMethod, isBasicPublish, Proxy, respCommand, type Action } from './proxy';

const TIMEOUT_MS = 500;

const brokers = useRealBrokers();
const { redis, redisKeys } = brokers;

/** Three dead letters of a fresh queue and their moves. */
function deadLetters(queue: string): { bodies: string[]; moves: RedriveMove[] } {
  const bodies = [1, 2, 3].map((orderId) => deadLettered(outgoing(queue, { orderId }).text, queue, 'gateway down'));
  const moves = bodies.map((body) => {
    const redriven = redriveMessage(body, { sdk: 'node', redisLayout: 'babelqueue' });
    assert.ok(redriven.ok);
    return { original: new TextEncoder().encode(body), message: redriven.message };
  });
  return { bodies, moves };
}

/** The `n`th occurrence of a command, so a fault can hit the second move rather than the first. */
function nth(n: number, matches: (chunk: Buffer) => boolean): (chunk: Buffer) => boolean {
  let seen = 0;
  return (chunk) => matches(chunk) && ++seen === n;
}

async function redriveThrough(url: string, proxy: Proxy, dlq: string, moves: RedriveMove[]): Promise<RedriveInterrupted> {
  let broker: Broker | undefined;
  try {
    broker = await openBroker(url, { timeoutMs: TIMEOUT_MS });
    proxy.armed = true;
    await broker.redrive(dlq, moves);
  } catch (error) {
    assert.ok(isBrokerError(error), `expected a BrokerError, got ${String(error)}`);
    assert.ok(error instanceof RedriveInterrupted, `expected RedriveInterrupted, got ${error.message}`);
    return error;
  } finally {
    await broker?.close();
  }
  assert.fail('the redrive succeeded through a cut connection');
}

describe('redis: faults in the middle of a redrive', () => {
  const cases: [Action, string, number][] = [
    ['cut-before', 'the connection drops before the second move reaches Redis: the first is moved, the second and third stay in the DLQ', 1],
    ['cut-after', 'Redis runs the second move, then the connection drops: two moved, one copy each; the third stays in the DLQ', 2],
    ['blackhole-after', 'Redis runs the second move and its reply never comes back: a timeout; two moved, the third untouched', 2],
  ];
  for (const [action, name, movedOnServer] of cases) {
    test(name, async () => {
      const secret = uniqueSecret();
      const queue = uniqueQueue();
      const dlq = `${queue}.dlq`;
      redisKeys.add(queue).add(dlq);
      const { bodies, moves } = deadLetters(queue);
      await redis.rpush(dlq, ...bodies);
      const proxy = await Proxy.start(6379, action, nth(2, respCommand('EVAL')), fakeAuth);
      brokers.closers.push(() => proxy.close());
      const error = await redriveThrough(`redis://:${secret}@127.0.0.1:${proxy.port}`, proxy, dlq, moves);
      assert.equal(error.moved, 1, 'the client saw one move confirmed');
      assert.ok(action === 'blackhole-after' ? error.kind === 'timeout' : ['closed', 'timeout'].includes(error.kind), `${error.kind}: ${error.message}`);
      assert.match(error.message, /Redrive stopped after 1 of 3 message\(s\)/);
      assert.match(error.message, /either still in .* or already on .*, never both and never neither/);
      assert.deepEqual(leakedIn(error, secret), []);
      // Exactly one copy of each message, somewhere; the third never left the DLQ.
      const onQueue = await redis.lrange(queue, 0, -1);
      const inDlq = await redis.lrange(dlq, 0, -1);
      assert.deepEqual(onQueue, moves.slice(0, movedOnServer).map((m) => m.message.text));
      assert.deepEqual(inDlq, bodies.slice(movedOnServer));
    });
  }
});

describe('rabbitmq: faults in the middle of a redrive', () => {
  const url = (port: number) => `amqp://guest:guest@127.0.0.1:${port}`;

  const queuesFor = () => amqpQueueWithDlq(brokers);

  const bodiesIn = (queue: string) => drainQueue(brokers.channel, queue);

  // [action, at, name, where the first message ends up, what the client counted as moved]
  const cases: [Action, (chunk: Buffer) => boolean, string, 'dlq' | 'both', number][] = [
    ['cut-before', isBasicPublish, 'the connection drops before the publish reaches RabbitMQ: the message stays in the DLQ only', 'dlq', 0],
    ['cut-after', isBasicPublish, 'RabbitMQ stores the publish, the connection drops before the confirm: the message is in both queues, never in neither', 'both', 0],
    ['cut-before', isAmqpMethod(60, 80), 'the publish is confirmed and the connection drops before the ack: in both queues, and the error says so', 'both', 1],
  ];
  for (const [action, trigger, name, where, counted] of cases) {
    test(name, async () => {
      const { queue, dlq } = await queuesFor();
      const { bodies, moves } = deadLetters(queue);
      await putOnQueue(brokers.channel, dlq, bodies);
      const proxy = await Proxy.start(5672, action, trigger);
      brokers.closers.push(() => proxy.close());
      const error = await redriveThrough(url(proxy.port), proxy, dlq, moves);
      assert.equal(error.moved, counted);
      assert.match(error.message, new RegExp(`Redrive stopped after ${counted} of 3 message\\(s\\)`));
      assert.match(error.message, where === 'both' ? /perhaps also on|may be in .* again/ : /still in/);
      assert.match(error.message, /[Ee]very message not moved is still in/);
      assert.equal(error.kind, 'closed', error.message);
      assert.match(error.message, /closed in the middle of the redrive/);
      assert.doesNotMatch(error.message, /guest:guest/);
      // The broker requeues the unacked messages when it has seen the connection go.
      await untilQueueHolds(brokers.channel, dlq, bodies.length);
      const inDlq = await bodiesIn(dlq);
      const onQueue = await bodiesIn(queue);
      assert.deepEqual([...inDlq].sort(), [...bodies].sort(), 'every dead letter is still in the DLQ');
      assert.deepEqual(onQueue, where === 'both' ? [moves[0]!.message.text] : []);
    });
  }
});
