#!/usr/bin/env node
// Dead-letters a message the way the Node SDK's consumers do after their default 3 tries, so the
// Dead Letters view and `babelq dlq` have something to show: the orders/order-created envelope
// with a fresh meta.id and `is_gift: 0` (the handler throws on the non-boolean), copied with
// attempts 2 and a dead_letter block, pushed to <queue>.dlq.
//
//   node examples/dead-letter.mjs                                   # Redis, bare layout: orders.dlq
//   node examples/dead-letter.mjs --layout laravel                  # Redis, Laravel layout: queues:orders.dlq
//   node examples/dead-letter.mjs --broker amqp://guest:guest@127.0.0.1:5672   # RabbitMQ queue orders.dlq
//   node examples/dead-letter.mjs --queue orders --count 3          # more than one
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    broker: { type: 'string', default: process.env.BABELQ_BROKER_URL ?? 'redis://127.0.0.1:6379' },
    layout: { type: 'string', default: 'babelqueue' },
    queue: { type: 'string', default: 'orders' },
    count: { type: 'string', default: '1' },
  },
});
const fixture = JSON.parse(readFileSync(new URL('./orders/order-created.babel.json', import.meta.url), 'utf8'));

function deadLetter() {
  const envelope = { ...fixture, data: { ...fixture.data, is_gift: 0 }, meta: { ...fixture.meta, id: randomUUID(), queue: values.queue, created_at: Date.now() } };
  // The Node consumer's annotate: a spread copy, the pre-increment attempt count, error.name as the exception.
  return JSON.stringify({
    ...envelope,
    attempts: 2,
    dead_letter: { reason: 'failed', error: 'is_gift must be true or false, got 0', exception: 'TypeError', failed_at: Date.now(), original_queue: values.queue, attempts: 2, lang: 'node' },
  });
}

const bodies = Array.from({ length: Number(values.count) }, deadLetter);
const url = new URL(values.broker);
let where;
if (url.protocol.startsWith('redis')) {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(values.broker, { maxRetriesPerRequest: 0, retryStrategy: null });
  where = values.layout === 'laravel' ? `queues:${values.queue}.dlq` : `${values.queue}.dlq`;
  await redis.rpush(where, ...bodies);
  await redis.quit();
} else {
  const amqp = await import('amqplib');
  const connection = await amqp.connect(values.broker);
  const channel = await connection.createConfirmChannel();
  where = `${values.queue}.dlq`;
  // The work queue too: a redrive publishes there, and the default exchange drops a message for a missing queue.
  for (const name of [values.queue, where]) await channel.assertQueue(name, { durable: true });
  for (const body of bodies) {
    const envelope = JSON.parse(body);
    channel.sendToQueue(where, Buffer.from(body), {
      persistent: true, contentType: 'application/json', contentEncoding: 'utf-8', appId: 'babelqueue', type: envelope.job,
      correlationId: envelope.trace_id, messageId: envelope.meta.id, headers: { 'x-schema-version': 1, 'x-source-lang': 'node', 'x-attempts': 0 },
    });
  }
  await channel.waitForConfirms();
  await connection.close();
}
url.password = url.password ? '***' : '';
console.log(`Dead-lettered ${bodies.length} message(s) on ${url.href.replace(/\/$/, '')} ${where}: ${bodies.map((body) => JSON.parse(body).meta.id).join(', ')}`);
console.log(`Next: babelq dlq list --queue ${values.queue}${values.layout === 'laravel' ? ' --layout laravel' : ''}${url.protocol.startsWith('amqp') ? ` --broker ${url.protocol}//…` : ''}, or "BabelQueue: Dead Letters" in VS Code.`);
