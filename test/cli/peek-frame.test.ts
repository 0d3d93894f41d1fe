/**
 * A Redis list element that is an SDK's header frame (`{"__bq_frame":1,"headers":{…},"body":"…"}`,
 * stored when a message travels with out-of-band headers such as traceparent) is read by every
 * SDK consumer as the envelope inside: `babelq peek` lints that envelope and shows the frame's
 * headers, instead of reporting the frame as an envelope with every field missing. Something that
 * only looks like a frame (no string body) stays a bare value. Against the real local Redis.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outgoing, uniqueQueue, useRealBrokers } from '../broker/helpers';
import { babelq, REPO_ROOT } from './helpers';

const brokers = useRealBrokers();

interface Row {
  urn: string;
  metaId: string;
  errors: number;
  frameHeaders?: Record<string, unknown>;
  text: string;
}

test('peek lints the envelope inside a Redis header frame and shows its headers; a look-alike stays bare', async () => {
  const queue = uniqueQueue();
  brokers.redisKeys.add(queue);
  const envelope = outgoing(queue);
  const frame = JSON.stringify({ __bq_frame: 1, headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }, body: envelope.text });
  const lookalike = JSON.stringify({ __bq_frame: 1, headers: {}, body: { job: envelope.urn } });
  await brokers.redis.rpush(queue, frame, lookalike);

  const json = babelq(['peek', '--queue', queue, '--format', 'json'], REPO_ROOT);
  assert.equal(json.status, 0, json.stderr);
  const [bare, framed] = JSON.parse(json.stdout) as Row[];
  assert.equal(framed!.urn, envelope.urn);
  assert.equal(framed!.metaId, envelope.metaId);
  assert.equal(framed!.errors, 0, json.stdout);
  assert.equal(framed!.text, envelope.text);
  assert.deepEqual(framed!.frameHeaders, { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
  assert.equal(bare!.frameHeaders, undefined);
  assert.ok(bare!.errors > 0);

  const text = babelq(['peek', '--queue', queue], REPO_ROOT);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /stored in a Redis header frame, __bq_frame; the envelope inside is shown\) headers: \{"traceparent":"00-4bf92f/);
  assert.equal(await brokers.redis.llen(queue), 2, 'nothing was removed');
});
