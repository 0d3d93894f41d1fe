/**
 * `babelq peek`'s exit status, held to what send and dlq say for the same broker answer: a queue
 * the broker refuses to read before anything was read (a Redis key that is not a list, a RabbitMQ
 * queue that does not exist) is 1; usage errors and a broker that cannot be reached are 2.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { uniqueQueue, useRealBrokers } from '../broker/helpers';
import { babelq, REPO_ROOT } from './helpers';

const brokers = useRealBrokers();
const AMQP = ['--broker', 'amqp://guest:guest@127.0.0.1:5672'];

describe('babelq peek exit status', () => {
  test('a Redis key that is not a list: exit 1 and the broker\'s refusal, as send exits for the same key', async () => {
    const queue = uniqueQueue();
    brokers.redisKeys.add(queue).add(`${queue}.dlq`);
    await brokers.redis.set(queue, 'not a list');
    await brokers.redis.set(`${queue}.dlq`, 'not a list');
    for (const args of [['--queue', queue], ['--queue', queue, '--dlq'], ['--queue', queue, '--format', 'json']]) {
      const peek = babelq(['peek', ...args], REPO_ROOT);
      assert.equal(peek.status, 1, `peek ${args.join(' ')}: ${peek.stderr}`);
      assert.match(peek.stderr, /exists but is not a list, so nothing was read/);
      assert.equal(peek.stdout, '');
    }
    const send = babelq(['send', 'examples/orders/order-created.babel.json', '--queue', queue], REPO_ROOT);
    assert.equal(send.status, 1, send.stderr);
  });

  test('a Redis queue that does not exist reads as an empty one (Redis keeps no empty list): 0 messages, exit 0, as its help says', () => {
    const queue = uniqueQueue();
    const peek = babelq(['peek', '--queue', queue], REPO_ROOT);
    assert.equal(peek.status, 0, peek.stderr);
    assert.match(peek.stdout, /\b0 messages\b/);
  });

  test('a RabbitMQ queue that does not exist: exit 1, naming it, as send exits', () => {
    const queue = uniqueQueue();
    for (const args of [['--queue', queue], ['--queue', queue, '--dlq']]) {
      const peek = babelq(['peek', ...args, ...AMQP], REPO_ROOT);
      assert.equal(peek.status, 1, `peek ${args.join(' ')}: ${peek.stderr}`);
      assert.match(peek.stderr, /The queue babelq-test-[0-9a-f]+(\.dlq)? does not exist on amqp:\/\/127\.0\.0\.1:5672\./);
    }
    const send = babelq(['send', 'examples/orders/order-created.babel.json', '--queue', queue, ...AMQP], REPO_ROOT);
    assert.equal(send.status, 1, send.stderr);
  });

  test('a broker that cannot be reached and a usage error stay 2', () => {
    const refused = babelq(['peek', '--queue', uniqueQueue(), '--broker', 'redis://127.0.0.1:1', '--timeout', '1000'], REPO_ROOT);
    assert.equal(refused.status, 2, refused.stderr);
    assert.match(refused.stderr, /refused/i);
    const usage = babelq(['peek'], REPO_ROOT);
    assert.equal(usage.status, 2, usage.stderr);
    assert.match(usage.stderr, /--queue is required/);
  });

  test('an empty --queue is said to be empty, not missing (peek and dlq, exit 2)', () => {
    for (const args of [['peek', '--queue', ''], ['peek', '--queue', '  '], ['dlq', 'list', '--queue', '']]) {
      const result = babelq(args, REPO_ROOT);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /--queue needs a queue name, not an empty value/);
    }
  });

  test('an empty --filter is said to be empty, not a filter that lets every message through (exit 2)', () => {
    for (const empty of ['', '  ']) {
      const result = babelq(['peek', '--queue', 'orders', '--filter', empty, '--broker', 'redis://127.0.0.1:1', '--timeout', '1'], REPO_ROOT);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /^babelq: --filter needs text to look for, not an empty value \(leave it out to list every message\)\n/);
    }
  });

  test('--help says what each exit status means, as send and dlq do', () => {
    const help = babelq(['peek', '--help'], REPO_ROOT);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /\nExit status: 0 read \(whatever the messages' verdicts, and when none matched\), 1 refused/);
    assert.match(help.stdout, /a\s+RabbitMQ queue that does not exist, a Redis key that is not a list/);
    // Redis keeps no empty list: a queue that does not exist is one with no messages, and peek says 0.
    assert.match(help.stdout, /a Redis queue that does not exist reads as one with\s+no messages, exit 0/);
    assert.match(help.stdout, /2 usage,\s+connection, login or permission\s+problem/);
  });
});
