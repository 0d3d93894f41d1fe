/**
 * The bytes a Laravel retry puts back on the queue (core/encode/cjson.ts): written out by hand from
 * the behaviour the facts (§4.1) and lua-cjson document, and compared whole with the real peer:
 * the local Redis's own cjson, running what Laravel's reservation script does to a body (decode,
 * attempts + 1, encode). The keys of a Lua table come out in no fixed order, so that comparison
 * sorts both sides' keys and compares every value's text exactly. Without Redis that comparison
 * is skipped with a message, or fails under BABELQ_REQUIRE_RUNTIMES=1 (.ci/run, which starts Redis).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import Redis from 'ioredis';
import { cjsonRetry } from '../../../core/encode/cjson';
import { parseText } from '../../../core/parse/parser';
import type { ValueNode } from '../../../core/model/tree';

const BODY =
  '{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",' +
  '"data":{"order_id":1042,"big":9007199254740993,"ratio":0.30000000000000004,"tags":[],"lines":[{"sku":"A/1"},[]],"empty":{},"weight":1.0,"tiny":1e-5,"note":"Café ☕ 😀 \\u0001\\u007f\\t\\"q\\" back\\\\slash"},' +
  '"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"php","schema_version":1,"created_at":1773480413412},"attempts":0}';

describe('a Laravel retry\'s cjson re-encoding', () => {
  test('numbers in %.14g, [] as {}, / as \\/, controls and DEL escaped, non-ASCII as is, attempts + 1', () => {
    const retry = cjsonRetry(BODY);
    assert.ok(retry.ok);
    assert.equal(
      retry.text,
      '{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",' +
        '"data":{"order_id":1042,"big":9.007199254741e+15,"ratio":0.3,"tags":{},"lines":[{"sku":"A\\/1"},{}],"empty":{},"weight":1,"tiny":1e-05,"note":"Café ☕ 😀 \\u0001\\u007f\\t\\"q\\" back\\\\slash"},' +
        '"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"php","schema_version":1,"created_at":1773480413412},"attempts":1}',
    );
    assert.deepEqual(retry.changedNumbers, [
      { path: 'data.big', raw: '9007199254740993', written: '9.007199254741e+15' },
      { path: 'data.ratio', raw: '0.30000000000000004', written: '0.3' },
    ]);
    assert.deepEqual(retry.emptyLists, ['data.tags', 'data.lines[1]']);
    assert.equal(retry.respeltNumbers, 2);
    assert.equal(retry.escapedSlashes, 1);
    assert.deepEqual(retry.attempts, { from: '0', to: '1' });
  });

  test('a repeated key once, with its last value, as the decoder keeps it', () => {
    const retry = cjsonRetry('{"a":1,"b":2,"a":3}');
    assert.ok(retry.ok);
    assert.equal(retry.text, '{"b":2,"a":3}');
  });

  test('what cjson refuses: a lone surrogate, a number beyond the double range, more than 1,000 levels', () => {
    for (const [body, reason] of [
      ['{"data":{"s":"\\ud800"}}', /data\.s holds a lone surrogate, which cjson refuses to decode/],
      ['{"data":{"n":1e400}}', /data\.n is 1e400, beyond the double range: cjson refuses to write it/],
      [`{"data":${'['.repeat(1000)}${']'.repeat(1000)}}`, /more than 1000 levels deep/],
    ] as const) {
      const retry = cjsonRetry(body);
      assert.equal(retry.ok, false, body.slice(0, 40));
      if (!retry.ok) assert.match(retry.reason, reason);
    }
    assert.equal(cjsonRetry(`{"data":${'['.repeat(998)}${']'.repeat(998)}}`).ok, true);
  });
});

describe('against the local Redis\'s cjson (what Laravel\'s reservation script runs)', () => {
  let redis: Redis | undefined;
  after(() => redis?.disconnect());

  const bodies = [
    BODY,
    '{"job":"urn:babel:x:y","data":{"a":[1,2.5,-0.0,1e21,1.5e300,5e-324,123456789012345,99999999999999,100000000000000,-1.5e-7,0.1,1234567.125],"b":[[],{},[[]]],"c":"\\/\\b\\f\\n\\r\\u001f \\u00a0\\u2028","d":null,"e":true,"f":false},"attempts":41}',
    '{"data":{"x":123456789012345678901234567890,"y":1.7976931348623157e308,"z":0.00001234,"w":99999999999999.5},"attempts":2}',
  ];

  test('the same bytes but for key order, on bodies with every case', async (t) => {
    redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
    } catch {
      const message = 'no Redis answers on 127.0.0.1:6379: the re-encoding was compared with the hand-written bytes only (.ci/run starts Redis)';
      if (process.env.BABELQ_REQUIRE_RUNTIMES === '1') assert.fail(`${message} (BABELQ_REQUIRE_RUNTIMES=1)`);
      t.skip(message);
      return;
    }
    const script = "local payload = cjson.decode(ARGV[1]); payload['attempts'] = payload['attempts'] + 1; return cjson.encode(payload)";
    for (const body of bodies) {
      const theirs = (await redis.eval(script, 0, body)) as string;
      const ours = cjsonRetry(body);
      assert.ok(ours.ok, body);
      assert.equal(keysSorted(ours.text), keysSorted(theirs), body);
      assert.equal(ours.text.length, theirs.length);
    }
  });
});

/** The text with every object's members sorted by key; every key's and value's text kept exactly as written. */
function keysSorted(text: string): string {
  const doc = parseText(text);
  assert.deepEqual(doc.syntaxProblems, []);
  const write = (node: ValueNode): string => {
    if (node.kind === 'array') return `[${node.items.map(write).join(',')}]`;
    if (node.kind === 'object') {
      const members = node.properties.map((p) => `${text.slice(p.keyOffset, p.keyEnd)}:${write(p.value!)}`);
      return `{${members.sort().join(',')}}`;
    }
    return text.slice(node.offset, node.end);
  };
  return write(doc.root!);
}
