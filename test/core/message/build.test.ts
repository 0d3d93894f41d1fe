/** The one path from document to bytes: buildMessage, the projections and the preview text. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildMessage, chooseSdk, redisProjection } from '../../../core/message/build';
import { BODY_SHOWN_LIMIT, hexDump, markDifference, previewOutput, renderPreview } from '../../../core/message/preview';
import { parseJson } from '../../../core/parse/parser';

const fresh = { uuid: () => '99999999-8888-4777-8666-555555555555', now: () => 1764400000000 };
const ENVELOPE = `{
  "job": "urn:babel:orders:created",
  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
  "data": { "order_id": 1042, "ratio": 10.0, "title": "Café ☕" },
  "meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "python", "schema_version": 1, "created_at": 1749132727000 },
  "attempts": 2
}`;
const options = { sdk: 'auto' as const, freshIds: false, fresh, redisLayout: 'babelqueue' as const };

describe('buildMessage', () => {
  test('auto picks the SDK of meta.lang; the body is that encoder\'s bytes, UTF-8', () => {
    const doc = parseJson(ENVELOPE);
    assert.equal(chooseSdk(doc, 'auto'), 'python');
    const built = buildMessage(doc, options);
    assert.ok(built.ok);
    assert.equal(built.message.sdk, 'python');
    assert.match(built.message.text, /"ratio":10\.0/, 'Python keeps 10.0');
    assert.deepEqual(built.message.bytes, new TextEncoder().encode(built.message.text));
    assert.ok(built.message.bytes.length > built.message.text.length, 'non-ASCII takes more bytes than characters');
  });

  test('fresh ids replace meta.id and created_at, keep trace_id; the projection follows', () => {
    const built = buildMessage(parseJson(ENVELOPE), { ...options, freshIds: true, sdk: 'node' });
    assert.ok(built.ok);
    const sent = JSON.parse(built.message.text);
    assert.equal(sent.meta.id, fresh.uuid());
    assert.equal(sent.meta.created_at, fresh.now());
    assert.equal(sent.trace_id, '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b');
    const { properties } = built.message.amqp;
    assert.deepEqual(
      { type: properties.type, correlationId: properties.correlationId, messageId: properties.messageId, headers: properties.headers },
      { type: 'urn:babel:orders:created', correlationId: sent.trace_id, messageId: fresh.uuid(), headers: { 'x-schema-version': 1, 'x-source-lang': 'python', 'x-attempts': 2 } },
    );
    assert.equal(built.message.amqp.routingKey, 'orders');
  });

  test('the AMQP properties project the body the encoder wrote: Go\'s trimmed job, Java\'s int-read attempts', () => {
    const padded = ENVELOPE.replace('"job": "urn:babel:orders:created"', '"urn": "  urn:babel:orders:created "');
    const go = buildMessage(parseJson(padded), { ...options, sdk: 'go' });
    assert.ok(go.ok);
    assert.equal(JSON.parse(go.message.text).job, 'urn:babel:orders:created');
    assert.equal(go.message.amqp.properties.type, 'urn:babel:orders:created', 'type is the job Go publishes, trimmed');
    const php = buildMessage(parseJson(padded), { ...options, sdk: 'php' });
    assert.ok(php.ok);
    assert.equal(php.message.amqp.properties.type, '  urn:babel:orders:created ', 'PHP keeps the alias as is');

    const beyondInt = ENVELOPE.replace('"attempts": 2', '"attempts": 4294967298').replace('"schema_version": 1', '"schema_version": 4294967297');
    const java = buildMessage(parseJson(beyondInt), { ...options, sdk: 'java' });
    assert.ok(java.ok);
    const sent = JSON.parse(java.message.text);
    assert.deepEqual([sent.attempts, sent.meta.schema_version], [2, 1]);
    assert.deepEqual(java.message.amqp.properties.headers, { 'x-schema-version': 1, 'x-source-lang': 'python', 'x-attempts': 2 });
  });

  test('Redis layouts: the bare queue, or Laravel keys with the prefix and notify marker', () => {
    assert.deepEqual(redisProjection('orders', 'babelqueue', 'ignored_'), { layout: 'babelqueue', listKey: 'orders', commands: ['RPUSH orders <body>'] });
    const laravel = redisProjection('orders', 'laravel', 'laravel_database_');
    assert.equal(laravel.listKey, 'laravel_database_queues:orders');
    assert.equal(laravel.notifyKey, 'laravel_database_queues:orders:notify');
  });

  test('a queue override wins over meta.queue; no URN or broken JSON is refused with the reason', () => {
    const built = buildMessage(parseJson(ENVELOPE), { ...options, queue: 'orders-test' });
    assert.ok(built.ok && built.message.queue === 'orders-test' && built.message.redis.listKey === 'orders-test');
    const noUrn = buildMessage(parseJson(ENVELOPE.replace('"job": "urn:babel:orders:created",', '')), options);
    assert.equal(noUrn.ok, false);
    assert.match((noUrn as { error: string }).error, /no URN/);
    assert.equal(buildMessage(parseJson('{ "job": '), options).ok, false);
  });

  test('broken JSON is refused with where its first error is, so the author can go to it', () => {
    const trailingComma = ENVELOPE.replace('"attempts": 2', '"attempts": 2,');
    const one = buildMessage(parseJson(trailingComma), options);
    assert.equal(one.ok, false);
    // The comma ends line 6 ("  "attempts": 2,"), at column 16.
    assert.match((one as { error: string }).error, /^The file has a JSON syntax error at line 6, column 16: .+ Fix it before previewing or sending\.$/);
    const several = buildMessage(parseJson(`// a comment\n${trailingComma}`), options);
    assert.match((several as { error: string }).error, /^The file has 2 JSON syntax errors, the first at line 1, column 1: Comments are not allowed in JSON; remove the comment\. Fix them before previewing or sending\.$/);
  });
});

describe('preview text', () => {
  test('shows the body with its byte count, the target without secrets, every SDK and a hex view', () => {
    const text = renderPreview(parseJson(ENVELOPE), { ...options, target: 'redis://127.0.0.1:6379' });
    const built = buildMessage(parseJson(ENVELOPE), options);
    assert.ok(built.ok);
    assert.ok(text.includes(`── Body: ${built.message.bytes.length} bytes (UTF-8) ──\n${built.message.text}\n`));
    assert.match(text, /Broker: redis:\/\/127\.0\.0\.1:6379/);
    for (const sdk of ['php', 'python', 'node', 'go', 'java', 'dotnet']) assert.match(text, new RegExp(`^${sdk}\\s+\\d+ bytes`, 'm'), sdk);
    assert.match(text, /^node\s+\d+ bytes {2}DIFFERS/m, 'Node writes 10, Python 10.0');
    assert.match(text, /^java\s+\d+ bytes {2}identical/m, 'Java writes 10.0 too');
    assert.match(text, /"ratio":10⟦⟧,.*\(published: ⟦\.0⟧\)/);
    assert.match(text, /^00000000 {2}7b 22 6a 6f 62 22/m);
  });

  test('the header says where the encoder came from: meta.lang, a meta.lang that is no SDK, no meta.lang, or the setting', () => {
    const header = (source: string, sdk: 'auto' | 'go' = 'auto') => renderPreview(parseJson(source), { ...options, sdk, target: 'redis://127.0.0.1:6379' }).split('\n')[0];
    assert.equal(header(ENVELOPE), 'BabelQueue: bytes published with the python encoder (from meta.lang)');
    assert.equal(header(ENVELOPE.replace('"lang": "python"', '"lang": "ruby"')), 'BabelQueue: bytes published with the node encoder (meta.lang "ruby" is no SDK: node\'s encoder is shown)');
    assert.equal(header(ENVELOPE.replace('"lang": "python", ', '')), 'BabelQueue: bytes published with the node encoder (no meta.lang: node\'s encoder is shown)');
    assert.equal(header(ENVELOPE.replace('"lang": "python"', '"lang": "ruby"'), 'go'), 'BabelQueue: bytes published with the go encoder');
  });

  test('one encoder\'s bytes (babelq preview without --sdk): a meta.lang that is no SDK is a note, as the full preview says it', () => {
    const ruby = previewOutput(parseJson(ENVELOPE.replace('"lang": "python"', '"lang": "ruby"')), { ...options, target: 'redis://127.0.0.1:6379' });
    assert.ok(ruby.ok);
    assert.ok(ruby.notes.includes('note: meta.lang "ruby" is no SDK: node\'s encoder is shown'), ruby.notes.join('\n'));
    const python = previewOutput(parseJson(ENVELOPE), { ...options, target: 'redis://127.0.0.1:6379' });
    assert.ok(python.ok && !python.notes.some((note) => note.includes('meta.lang')));
  });

  test('the published encoder\'s notes stand under the body they are about, before the consumers and the target', () => {
    const legacy = ENVELOPE.replace('"meta": {', '"meta": { "ts": 1773480413,');
    assert.notEqual(legacy, ENVELOPE);
    const lines = renderPreview(parseJson(legacy), { ...options, target: 'redis://127.0.0.1:6379' }).split('\n');
    const body = lines.findIndex((line) => line.startsWith('── Body: '));
    const consumers = lines.indexOf('── Consumers (each SDK decoding the body above) ──');
    const notes = lines.flatMap((line, at) => (line.startsWith('Note (') ? [at] : []));
    assert.ok(notes.length > 0, lines.join('\n'));
    assert.ok(lines.some((line) => /^Note \(contract\): .*re-emits the forbidden legacy keys meta\.ts/.test(line)), lines.join('\n'));
    for (const at of notes) assert.ok(at > body + 1 && at < consumers, `a note at line ${at}, the body at ${body}, the consumers at ${consumers}`);
  });

  test('markDifference brackets only the differing middle', () => {
    assert.equal(markDifference('{"a":10.0}', '{"a":10}', 3), '…:10⟦⟧}  (published: ⟦.0⟧)');
  });

  test('markDifference never shows half of a character outside the BMP: its context and a long middle are cut between characters', () => {
    const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    // One emoji and 23 letters before the difference: 24 units of context would start inside the emoji.
    const before = `{"name":"😀${'a'.repeat(23)}`;
    const context = markDifference(`${before}X"}`, `${before}Y"}`);
    assert.doesNotMatch(context, loneSurrogate, context);
    assert.match(context, /a⟦Y⟧/);
    // A long differing middle of emoji on both sides, cut in its middle.
    const middle = markDifference(`["${'😀'.repeat(150)}x"]`, `["-${'😀'.repeat(150)}y"]`);
    assert.doesNotMatch(middle, loneSurrogate, middle);
  });

  test('markDifference says what a long middle leaves out, in characters, and shortens no middle by less than it says', () => {
    const long = markDifference(`[${'1'.repeat(1000)}]`, `[${'2'.repeat(1000)}]`);
    assert.match(long, /… \(800 more characters\) …/, long);
    // Two characters over the limit are shown whole: "… (2 more characters) …" would be longer than they are.
    const near = markDifference(`[${'1'.repeat(202)}]`, `[${'2'.repeat(202)}]`);
    assert.ok(near.includes(`⟦${'2'.repeat(202)}⟧`), near);
  });

  test('hexDump: offset, 16 bytes, printable ASCII', () => {
    assert.equal(hexDump(new TextEncoder().encode('{"a":1}\n')), '00000000  7b 22 61 22 3a 31 7d 0a                          |{"a":1}.|');
  });
});

describe('preview of a long body', () => {
  test('shows the start and the end with what is left out between them; the count and hex are of the whole body', () => {
    const long = ENVELOPE.replace('"data": {', `"data": { "notes": ${JSON.stringify('抹茶 😀 '.repeat(20_000))},`);
    const built = buildMessage(parseJson(long), options);
    assert.ok(built.ok && built.message.text.length > BODY_SHOWN_LIMIT);
    const lines = renderPreview(parseJson(long), { ...options, target: 'redis://127.0.0.1:6379' }).split('\n');
    const header = lines.indexOf(`── Body: ${built.message.bytes.length} bytes (UTF-8) ──`);
    assert.ok(header >= 0);
    const [head, gap, tail] = lines.slice(header + 1, header + 4);
    assert.ok(built.message.text.startsWith(head) && built.message.text.endsWith(tail));
    assert.ok(head.length + tail.length < BODY_SHOWN_LIMIT);
    const left = built.message.text.length - head.length - tail.length;
    assert.equal(gap, `… ${left.toLocaleString('en')} more characters of the body are not shown here (\`babelq preview <file>\` prints the whole body) …`);
    // No half of a surrogate pair at either cut.
    assert.ok(!/[\ud800-\udbff]$/.test(head) && !/^[\udc00-\udfff]/.test(tail));
  });

  test('a body at the limit is shown whole', () => {
    const built = buildMessage(parseJson(ENVELOPE), options);
    assert.ok(built.ok);
    const padded = ENVELOPE.replace('"data": {', `"data": { "pad": "${'x'.repeat(BODY_SHOWN_LIMIT - built.message.text.length - 9)}",`);
    const text = buildMessage(parseJson(padded), options);
    assert.ok(text.ok && text.message.text.length === BODY_SHOWN_LIMIT, String(text.ok && text.message.text.length));
    assert.ok(renderPreview(parseJson(padded), { ...options, target: 'redis://127.0.0.1:6379' }).includes(`──\n${text.message.text}\n`));
  });
});

describe('buildMessage takes the URN as the chosen SDK\'s decoder does', () => {
  const SDKS = ['php', 'python', 'node', 'go', 'java', 'dotnet'] as const;
  const withJob = (job: string) => ENVELOPE.replace('"job": "urn:babel:orders:created",', job);
  const urnOf = (text: string, sdk: (typeof SDKS)[number]) => {
    const built = buildMessage(parseJson(text), { ...options, sdk });
    return built.ok ? built.message.urn : `refused: ${built.error}`;
  };

  test('a repeated job is its last copy for every SDK, as every decoder reads it', () => {
    for (const sdk of SDKS) {
      assert.equal(urnOf(withJob('"job": null, "job": "urn:babel:orders:created",'), sdk), 'urn:babel:orders:created', sdk);
      const built = buildMessage(parseJson(withJob('"job": "urn:babel:stale:first", "job": "urn:babel:orders:created",')), { ...options, sdk });
      assert.ok(built.ok, sdk);
      assert.equal(built.message.urn, 'urn:babel:orders:created', sdk);
      assert.equal(built.message.amqp.properties.type, 'urn:babel:orders:created', sdk);
    }
  });

  test('a blank job falls back to the urn alias where the decoder does (Java, .NET), and is refused where it reads the blank (PHP, Python, Node, Go)', () => {
    const text = withJob('"job": "  ", "urn": "urn:babel:orders:created",');
    for (const sdk of ['java', 'dotnet'] as const) assert.equal(urnOf(text, sdk), 'urn:babel:orders:created', sdk);
    for (const sdk of ['php', 'python', 'node', 'go'] as const) assert.match(urnOf(text, sdk), /^refused: .*no URN as the .* decoder reads it .*"  ", which is blank/, sdk);
  });

  test('a job blank only to the SDK\'s own test (an em space): Node, Java and .NET refuse it, or take the alias where they fall back to it', () => {
    const alone = withJob('"job": "\\u2003",');
    for (const sdk of ['node', 'java', 'dotnet'] as const) assert.match(urnOf(alone, sdk), /^refused: .*no URN as the .* decoder reads it/, sdk);
    const withAlias = withJob('"job": "\\u2003", "urn": "urn:babel:orders:created",');
    for (const sdk of ['java', 'dotnet'] as const) assert.equal(urnOf(withAlias, sdk), 'urn:babel:orders:created', sdk);
  });

  test('an empty job falls back to the alias but in PHP (`job ?? urn`); a null one in every SDK', () => {
    const empty = withJob('"job": "", "urn": "urn:babel:orders:created",');
    for (const sdk of ['python', 'node', 'go', 'java', 'dotnet'] as const) assert.equal(urnOf(empty, sdk), 'urn:babel:orders:created', sdk);
    assert.match(urnOf(empty, 'php'), /^refused: .*no URN/);
    const nulled = withJob('"job": null, "urn": "urn:babel:orders:created",');
    for (const sdk of SDKS) assert.equal(urnOf(nulled, sdk), 'urn:babel:orders:created', sdk);
  });

  test('a job that is no string: the alias where the decoder falls back to it, Python\'s str() of a number', () => {
    const text = withJob('"job": 0, "urn": "urn:babel:orders:created",');
    // 0 is falsy in Node and Python; Java and .NET read no string; PHP takes 0 itself (not null).
    for (const sdk of ['python', 'node', 'java', 'dotnet'] as const) assert.equal(urnOf(text, sdk), 'urn:babel:orders:created', sdk);
    assert.match(urnOf(text, 'php'), /^refused: .*no URN/);
    assert.equal(urnOf(withJob('"job": 123,'), 'python'), '123', 'json.loads then str(job): the URN "123"');
    assert.match(urnOf(withJob('"job": 123,'), 'node'), /^refused: .*no URN/);
    assert.match(urnOf(withJob('"job": [1], "urn": "urn:babel:orders:created",'), 'python'), /^refused: .*no URN as the Python decoder reads it .*reads a list as the URN \(str\(\) writes its repr\)/);
  });
});

test('the preview of a body Python writes with more than 1,000 bare Infinity values: Python accepts it, as it accepts fewer', () => {
  // 1e400 is beyond a double: Python reads it as inf and writes bare Infinity (facts part 1, §1.7),
  // which json.loads reads back (facts part 2, §2); the parser's bound of 1,000 listed problems is not Python's.
  for (const count of [999, 1001]) {
    const source = ENVELOPE.replace('"ratio": 10.0', `"big": [${Array.from({ length: count }, () => '1e400').join(',')}]`);
    const text = renderPreview(parseJson(source), { ...options, sdk: 'python', target: 'redis://127.0.0.1:6379' });
    const consumers = text.slice(text.indexOf('── Consumers'), text.indexOf('── Target'));
    assert.match(consumers, /^Python accepts, reads NaN, Infinity/m, `${count}`);
    assert.doesNotMatch(consumers, /syntax problems/, `${count}`);
  }
});

test('meta.queue and meta.id written twice: the target queue, the routing key and message_id are the last copies, which the body carries', () => {
  // Every SDK decoder keeps the last copy of a repeated key (facts part 2, §2 and §1.7).
  const source = ENVELOPE.replace('"queue": "orders"', '"queue": "drafts", "queue": "orders"').replace('"id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567"', '"id": "00000000-0000-4000-8000-000000000000", "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567"');
  for (const sdk of ['python', 'go', 'node'] as const) {
    const built = buildMessage(parseJson(source), { ...options, sdk });
    assert.ok(built.ok);
    const body = JSON.parse(built.message.text);
    assert.equal(body.meta.queue, 'orders', sdk);
    assert.equal(built.message.queue, 'orders', sdk);
    assert.equal(built.message.amqp.routingKey, 'orders', sdk);
    assert.equal(built.message.metaId, 'f1e2d3c4-b5a6-4789-90ab-cdef01234567', sdk);
    assert.match(built.message.redis.commands.join(' '), /orders/, sdk);
  }
});

test('meta written twice, the last without queue or id: Go merges both metas, so the target queue, the routing key and message_id are the first meta\'s, which its body carries', () => {
  // Go decodes repeated meta objects into one Meta struct, key by key (facts part 2, §2).
  const source = ENVELOPE.replace(
    '"meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "python", "schema_version": 1, "created_at": 1749132727000 }',
    '"meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders" }, "meta": { "lang": "go", "schema_version": 1, "created_at": 1749132727000 }',
  );
  const built = buildMessage(parseJson(source), { ...options, sdk: 'go' });
  assert.ok(built.ok);
  const body = JSON.parse(built.message.text);
  assert.equal(body.meta.queue, 'orders');
  assert.equal(built.message.queue, body.meta.queue);
  assert.equal(built.message.amqp.routingKey, body.meta.queue);
  assert.equal(built.message.metaId, body.meta.id);
  assert.equal(built.message.amqp.properties.messageId, body.meta.id);
});
