/**
 * The pure side of dead letters: DLQ names per layout, the redrive transformation per SDK (the
 * D1/D2 cases of facts part 2 §3.2), rows, grouping, filters and the block in words.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  deadLetterLocation,
  deadLetterWords,
  groupDeadLetters,
  matchesFilter,
  matchesReason,
  messageRow,
  newestFirst,
  redriveMessage,
  urnLabel,
  verdictText,
} from '../../../core/message/dead-letter';

const TRACE = '5f0c6c1e-1d6f-4d55-9a8e-0a4d43e4a1a1';
const ID = '7d7f1c1e-1d6f-4d55-9a8e-0a4d43e4a1a2';
const META = `{"id":"${ID}","queue":"orders","lang":"node","schema_version":1,"created_at":1749132727000}`;
const BLOCK = (error: string, failedAt = 1749132728000, lang = 'node') =>
  `{"reason":"failed","error":"${error}","exception":"TypeError","failed_at":${failedAt},"original_queue":"facts-orders","attempts":2,"lang":"${lang}"}`;
/** D1: an extra top-level key and data {"b":1,"a":2.0}, dead-lettered by Node. */
const D1 = `{"job":"urn:babel:orders:created","trace_id":"${TRACE}","data":{"b":1,"a":2.0},"meta":${META},"attempts":2,"x_extra":true,"dead_letter":${BLOCK('gateway down')}}`;
/** D2: only the `urn` alias, empty data. */
const D2 = `{"urn":"urn:babel:orders:created","trace_id":"${TRACE}","data":{},"meta":${META},"attempts":2,"dead_letter":${BLOCK('gateway down')}}`;
const REST = `"trace_id":"${TRACE}"`;

describe('where the dead letters are', () => {
  test('Q.dlq on bare Redis and RabbitMQ, queues:Q.dlq (with the prefix) in the Laravel layout', () => {
    assert.deepEqual(deadLetterLocation('orders', 'redis', 'babelqueue'), { queue: 'orders.dlq', key: 'orders.dlq' });
    assert.deepEqual(deadLetterLocation('orders', 'redis', 'laravel', 'laravel_database_'), { queue: 'orders.dlq', key: 'laravel_database_queues:orders.dlq' });
    assert.deepEqual(deadLetterLocation('orders', 'amqp', 'laravel'), { queue: 'orders.dlq', key: 'orders.dlq' });
  });
});

describe('the redrive transformation, SDK by SDK', () => {
  const redrive = (text: string, sdk: 'auto' | 'node' | 'go' | 'python' | 'php' | 'java') => redriveMessage(text, { sdk, redisLayout: 'babelqueue' });

  test('D1: dead_letter removed and attempts 0 everywhere; x_extra dropped by node, go, java and kept by python, php; data as each encoder writes it', () => {
    const expected: Record<string, string> = {
      node: `{"job":"urn:babel:orders:created",${REST},"data":{"b":1,"a":2},"meta":${META},"attempts":0}`,
      go: `{"job":"urn:babel:orders:created",${REST},"data":{"a":2,"b":1},"meta":${META},"attempts":0}`,
      java: `{"job":"urn:babel:orders:created",${REST},"data":{"b":1,"a":2.0},"meta":${META},"attempts":0}`,
      python: `{"job":"urn:babel:orders:created",${REST},"data":{"b":1,"a":2.0},"meta":${META},"attempts":0,"x_extra":true}`,
      php: `{"job":"urn:babel:orders:created",${REST},"data":{"b":1,"a":2},"meta":${META},"attempts":0,"x_extra":true}`,
    };
    for (const [sdk, text] of Object.entries(expected)) {
      const result = redrive(D1, sdk as 'node');
      assert.ok(result.ok, sdk);
      assert.equal(result.message.text, text, sdk);
      assert.equal(result.target, 'facts-orders');
      assert.equal(result.message.metaId, ID);
      assert.equal(result.message.amqp.properties.headers['x-attempts'], 0);
      assert.equal(result.message.redis.listKey, 'facts-orders');
    }
  });

  test('D2: node, go and java write job and data {}; php keeps urn and writes data []; python refuses (it puts such a message back)', () => {
    for (const sdk of ['node', 'go', 'java'] as const) {
      const result = redrive(D2, sdk);
      assert.ok(result.ok, sdk);
      assert.equal(result.message.text, `{"job":"urn:babel:orders:created",${REST},"data":{},"meta":${META},"attempts":0}`, sdk);
    }
    const php = redrive(D2, 'php');
    assert.ok(php.ok);
    assert.equal(php.message.text, `{"urn":"urn:babel:orders:created",${REST},"data":[],"meta":${META},"attempts":0}`);
    const python = redrive(D2, 'python');
    assert.equal(python.ok, false);
    assert.match(python.ok ? '' : python.error, /Python redrive needs a string "job"/);
  });

  test('the Python redrive judges the job json.loads keeps: the last copy of a repeated key', () => {
    const nulledLast = D1.replace('"job":"urn:babel:orders:created"', '"job":"urn:babel:orders:created","job":null');
    const python = redrive(nulledLast, 'python');
    assert.equal(python.ok, false);
    assert.match(python.ok ? '' : python.error, /Python redrive needs a string "job"/);
  });

  test("D3: schema_version 2 is redriven by go, python, php and java; node's redrive puts back what its accepts() rejects", () => {
    const d3 = D1.replace('"schema_version":1', '"schema_version":2');
    for (const sdk of ['go', 'python', 'php', 'java'] as const) assert.ok(redrive(d3, sdk).ok, sdk);
    const node = redrive(d3, 'node');
    assert.equal(node.ok, false);
    assert.match(node.ok ? '' : node.error, /Node redrive puts back on the DLQ a message its accepts\(\) rejects \(meta\.schema_version must be the number 1\)/);
    // PHP's data [] too: Node's consumers reject it, so its redrive leaves it where it is.
    assert.equal(redrive(D1.replace('"data":{"b":1,"a":2.0}', '"data":[]'), 'node').ok, false);
    // The user's own edit is sent as they wrote it: the gate judges stored messages only.
    assert.ok(redriveMessage(d3, { sdk: 'node', redisLayout: 'babelqueue' }, false).ok);
  });

  test('auto follows dead_letter.lang when that SDK ships a redrive, else node', () => {
    const byGo = D1.replace('"lang":"node"}}', '"lang":"go"}}');
    const go = redrive(byGo, 'auto');
    assert.ok(go.ok);
    assert.equal(go.sdk, 'go');
    const byDotnet = D1.replace('"lang":"node"}}', '"lang":"dotnet"}}');
    const dotnet = redrive(byDotnet, 'auto');
    assert.ok(dotnet.ok);
    assert.equal(dotnet.sdk, 'node');
  });

  test('auto reads dead_letter.lang from the block every decoder keeps: the last copy', () => {
    const block = BLOCK('gateway down').replace('"lang":"node"}', '"lang":"go"}');
    const twice = D1.replace('"x_extra":true,', `"x_extra":true,"dead_letter":${BLOCK('earlier')},`).replace(/"dead_letter":(\{[^}]*\})\}$/, `"dead_letter":${block}}`);
    const go = redrive(twice, 'auto');
    assert.equal(go.ok && go.sdk, 'go');
    const nulled = D1.replace('"lang":"node"}}', '"lang":"go"},"dead_letter":null}');
    const node = redrive(nulled, 'auto');
    assert.equal(node.ok && node.sdk, 'node');
  });

  test('the target: original_queue, else meta.queue; with neither, a refusal instead of the queue named ""', () => {
    const noOriginal = D1.replace('"original_queue":"facts-orders"', '"original_queue":""');
    const fallback = redrive(noOriginal, 'node');
    assert.ok(fallback.ok);
    assert.equal(fallback.target, 'orders');
    const neither = redrive(noOriginal.replace('"queue":"orders"', '"queue":""'), 'node');
    assert.equal(neither.ok, false);
    assert.match(neither.ok ? '' : neither.error, /queue named ""/);
  });

  test('a whitespace-only original_queue: Node, Go, Python and PHP send to the queue of that name, Java (isBlank) to meta.queue; each says so first', () => {
    const blank = D1.replace('"original_queue":"facts-orders"', '"original_queue":"  "');
    for (const sdk of ['node', 'go', 'python', 'php'] as const) {
      const result = redrive(blank, sdk);
      assert.ok(result.ok, sdk);
      assert.equal(result.target, '  ', sdk);
      assert.equal(result.message.redis.listKey, '  ', sdk);
      assert.match(result.note ?? '', /original_queue is "  ", only white space: the \S+ redrive sends to the queue of that name, not to meta\.queue "orders" \(only Java's falls back to meta\.queue\)/, sdk);
    }
    const java = redrive(blank, 'java');
    assert.ok(java.ok);
    assert.equal(java.target, 'orders');
    assert.match(java.note ?? '', /the Java redrive takes it for no queue and sends to meta\.queue "orders"; the Node, Go, Python and PHP redrives would send to the queue named "  "/);
    // A padded name is used as it is: no SDK trims the queue it sends to.
    const padded = redrive(D1.replace('"original_queue":"facts-orders"', '"original_queue":" facts-orders "'), 'node');
    assert.ok(padded.ok);
    assert.equal(padded.message.redis.listKey, ' facts-orders ');
    // A well-formed original_queue needs no word.
    const plain = redrive(D1, 'node');
    assert.ok(plain.ok);
    assert.equal(plain.note, undefined);
  });

  test('a whitespace-only meta.queue behind an empty original_queue is where every SDK sends, said first; only "" is refused', () => {
    const blankMeta = D1.replace('"original_queue":"facts-orders"', '"original_queue":""').replace('"queue":"orders"', '"queue":" "');
    for (const sdk of ['node', 'java'] as const) {
      const result = redrive(blankMeta, sdk);
      assert.ok(result.ok, sdk);
      assert.equal(result.target, ' ', sdk);
      assert.match(result.note ?? '', /meta\.queue is " ", only white space, and dead_letter\.original_queue names no queue/, sdk);
    }
  });

  test('Go reads the target as encoding/json does: keys case-insensitively, a later null changes nothing, repeated objects merge, a dead_letter null resets', () => {
    const target = (text: string, sdk: 'node' | 'go' | 'java') => {
      const result = redrive(text, sdk);
      assert.ok(result.ok, `${sdk}: ${result.ok ? '' : result.error}`);
      return result.target;
    };
    const variant = D1.replace('"original_queue":"facts-orders"', '"Original_Queue":"billing"');
    assert.deepEqual([target(variant, 'go'), target(variant, 'node'), target(variant, 'java')], ['billing', 'orders', 'orders']);
    const nulled = D1.replace('"original_queue":"facts-orders"', '"original_queue":"facts-orders","original_queue":null');
    assert.deepEqual([target(nulled, 'go'), target(nulled, 'node')], ['facts-orders', 'orders']);
    const merged = D1.replace('}}', '},"dead_letter":{"reason":"failed"}}');
    assert.deepEqual([target(merged, 'go'), target(merged, 'node')], ['facts-orders', 'orders']);
    const reset = D1.replace('}}', '},"dead_letter":null}');
    assert.deepEqual([target(reset, 'go'), target(reset, 'node')], ['orders', 'orders']);
    const metaVariant = D1.replace('"original_queue":"facts-orders"', '"original_queue":""').replace('"queue":"orders"', '"queue":"orders","QUEUE":"billing"');
    assert.deepEqual([target(metaVariant, 'go'), target(metaVariant, 'node')], ['billing', 'orders']);
    // The other SDKs keep a repeated key's last copy, as Go does.
    const repeated = D1.replace('"original_queue":"facts-orders"', '"original_queue":"first","original_queue":"facts-orders"');
    assert.deepEqual([target(repeated, 'go'), target(repeated, 'node'), target(repeated, 'java')], ['facts-orders', 'facts-orders', 'facts-orders']);
    const notString = redrive(D1.replace('"original_queue":"facts-orders"', '"original_queue":5'), 'go');
    assert.equal(notString.ok, false);
    assert.match(notString.ok ? '' : notString.error, /^Go's Decode fails on it \(json\.Unmarshal fails: dead_letter\.original_queue is not a string\), so the Go redrive puts the message back on the DLQ/);
  });

  test("Go's redrive puts back what its Decode fails on, wherever the type error is, even in what it would reset; the other SDKs redrive it", () => {
    const cases = [
      [D1.replace('"attempts":2,"lang"', '"attempts":"x","lang"'), /dead_letter\.attempts is a string: not an integer/],
      [D1.replace('"attempts":2,"x_extra"', '"attempts":"3","x_extra"'), /attempts is a string: not an integer/],
      [D1.replace(`"meta":${META}`, '"meta":5'), /meta is not an object/],
      // A later copy would set the field, but the first one's type error fails the decode all the same.
      [D1.replace('"original_queue":"facts-orders"', '"original_queue":5,"original_queue":"facts-orders"'), /dead_letter\.original_queue is not a string/],
      [D1.replace('"exception":"TypeError"', '"EXCEPTION":{"name":"TypeError"}'), /dead_letter\.EXCEPTION is not a string/],
    ] as const;
    for (const [text, why] of cases) {
      const go = redrive(text, 'go');
      assert.equal(go.ok, false, text);
      assert.match(go.ok ? '' : go.error, /^Go's Decode fails on it \(json\.Unmarshal fails: /, text);
      assert.match(go.ok ? '' : go.error, why, text);
      assert.match(go.ok ? '' : go.error, /so the Go redrive puts the message back on the DLQ as it is/, text);
      // An edited envelope Go cannot decode is refused too: there is no decoded envelope to write.
      assert.equal(redriveMessage(text, { sdk: 'go', redisLayout: 'babelqueue' }, false).ok, false, text);
    }
    // Where Decode succeeds, the redrive moves it: dead_letter.attempts 2, a null attempts.
    assert.ok(redrive(D1, 'go').ok);
    assert.ok(redrive(D1.replace('"attempts":2,"x_extra"', '"attempts":null,"x_extra"'), 'go').ok);
    const java = redrive(cases[0][0], 'java');
    assert.ok(java.ok);
    assert.equal(java.target, 'facts-orders');
  });

  test("PHP's, Python's and Java's redrives put back what their own decoders fail or crash on, even in what the redrive would reset; the others move it", () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const cases = [
      // json_decode fails on the whole body (decode() returns []): an unpaired surrogate, 600 levels.
      ['php', D1.replace('"exception":"TypeError"', '"exception":"\\ud800"'), /^PHP's decode\(\) fails on it \(json_decode refuses an unpaired surrogate escape \(JSON_ERROR_UTF16\)\), so the PHP redrive puts the message back on the DLQ as it is/],
      ['php', D1.replace('"exception":"TypeError"', `"exception":"TypeError","trace":${nested(600)}`), /^PHP's decode\(\) fails on it \(json_decode reads at most 511 nested arrays and objects .* nests 602\)/],
      // json.loads raises ValueError (decode() returns {}), or RecursionError, which escapes.
      ['python', D1.replace('"attempts":2,"x_extra"', `"attempts":${'9'.repeat(4400)},"x_extra"`), /^Python's decode\(\) fails on it \(json\.loads refuses an integer of more than 4300 digits \(ValueError\)\), so the Python redrive puts the message back on the DLQ as it is/],
      ['python', D1.replace('"exception":"TypeError"', `"exception":"TypeError","trace":${nested(1200)}`), /^Python's decode\(\) crashes on it \(json\.loads raises RecursionError on 1202 levels of nesting\), so the Python redrive stops on it \(the exception escapes\) and does not move it/],
      ['java', D1.replace('"exception":"TypeError"', `"exception":"TypeError","trace":${nested(3500)}`), /^Java's decode\(\) crashes on it \(its recursive parser throws StackOverflowError on 3502 levels of nesting\), so the Java redrive stops on it/],
    ] as const;
    for (const [sdk, text, why] of cases) {
      const result = redrive(text, sdk);
      assert.equal(result.ok, false, `${sdk}: ${text.slice(0, 200)}`);
      assert.match(result.ok ? '' : result.error, why);
      // An edited envelope the decoder cannot read is refused too: there is nothing decoded to write.
      assert.equal(redriveMessage(text, { sdk, redisLayout: 'babelqueue' }, false).ok, false, `${sdk} (edited)`);
    }
    // What one SDK's decoder fails on, the others read, and their redrives move it.
    assert.ok(redrive(cases[0][1], 'python').ok);
    assert.ok(redrive(cases[0][1], 'java').ok);
    assert.ok(redrive(cases[1][1], 'python').ok);
    assert.ok(redrive(cases[2][1], 'php').ok);
    assert.ok(redrive(cases[2][1], 'java').ok);
    assert.ok(redrive(cases[3][1], 'java').ok);
    assert.ok(redrive(cases[4][1], 'node').ok);
  });

  test('Go redrives what its decoder read: a JOB after job is the job it writes, every case variant of dead_letter and attempts is reset, a padded urn alias is trimmed', () => {
    const variants = D1.replace('"attempts":2,', '"attempts":2,"JOB":"urn:babel:orders:updated","ATTEMPTS":5,"Dead_Letter":{"reason":"poison"},');
    const go = redrive(variants, 'go');
    assert.ok(go.ok);
    assert.equal(go.message.text, `{"job":"urn:babel:orders:updated",${REST},"data":{"a":2,"b":1},"meta":${META},"attempts":0}`);
    const node = redrive(variants, 'node');
    assert.ok(node.ok);
    assert.match(node.message.text, /^\{"job":"urn:babel:orders:created",/);
    const padded = redrive(D2.replace('"urn":"urn:babel:orders:created"', '"urn":" urn:babel:orders:created "'), 'go');
    assert.ok(padded.ok);
    assert.match(padded.message.text, /^\{"job":"urn:babel:orders:created",/);
  });

  test('Node takes original_queue || meta.queue whatever their type: a truthy value that is not a string is refused, a falsy one falls back', () => {
    for (const [value, words] of [['5', 'the number 5'], ['true', 'true'], ['{"name":"orders"}', 'an object'], ['[]', 'an array']] as const) {
      const result = redrive(D1.replace('"original_queue":"facts-orders"', `"original_queue":${value}`), 'node');
      assert.equal(result.ok, false, value);
      assert.match(result.ok ? '' : result.error, new RegExp(`^dead_letter\\.original_queue is ${words.replace(/[[\]{}]/g, '\\$&')}, not a string: the Node redrive \\(original_queue \\|\\| meta\\.queue\\) hands that value itself to the transport`), value);
    }
    for (const value of ['0', 'false', 'null']) {
      const result = redrive(D1.replace('"original_queue":"facts-orders"', `"original_queue":${value}`), 'node');
      assert.ok(result.ok, value);
      assert.equal(result.target, 'orders', value);
    }
    const metaNumber = redrive(D1.replace('"original_queue":"facts-orders"', '"original_queue":""').replace('"queue":"orders"', '"queue":7'), 'node');
    assert.equal(metaNumber.ok, false);
    assert.match(metaNumber.ok ? '' : metaNumber.error, /^meta\.queue is the number 7, not a string/);
  });

  test('Python, PHP and Java take an original_queue that is not a string for none and send to meta.queue, said first; with no queue, each says what it would hand its transport', () => {
    for (const [value, words] of [['5', 'the number 5'], ['true', 'true'], ['{"name":"billing"}', 'an object'], ['["billing"]', 'an array']] as const) {
      const text = D1.replace('"original_queue":"facts-orders"', `"original_queue":${value}`);
      for (const [sdk, why] of [['python', 'it reads original_queue only when it is a non-empty str'], ['php', 'it reads original_queue only when is_string'], ['java', 'its decoder reads a value that is not a string as null']] as const) {
        const result = redrive(text, sdk);
        assert.ok(result.ok, `${sdk} ${value}: ${result.ok ? '' : result.error}`);
        assert.equal(result.target, 'orders', `${sdk} ${value}`);
        assert.equal(result.note, `dead_letter.original_queue is ${words}, not a string: the ${sdk === 'php' ? 'PHP' : sdk === 'python' ? 'Python' : 'Java'} redrive takes it for no queue (${why}) and sends to meta.queue "orders".`, `${sdk} ${value}`);
      }
    }
    // A falsy one falls back in Node too, and is said.
    const zero = redrive(D1.replace('"original_queue":"facts-orders"', '"original_queue":0'), 'node');
    assert.ok(zero.ok);
    assert.match(zero.note ?? '', /^dead_letter\.original_queue is the number 0, not a string: the Node redrive takes it for no queue \(original_queue \|\| meta\.queue, and the value is falsy\)/);
    // A meta.queue that is not a string behind it: no queue, and what each would hand its transport.
    const neither = D1.replace('"original_queue":"facts-orders"', '"original_queue":5').replace('"queue":"orders"', '"queue":7');
    const error = (sdk: 'python' | 'php' | 'java') => {
      const result = redrive(neither, sdk);
      assert.equal(result.ok, false, sdk);
      return result.ok ? '' : result.error;
    };
    for (const sdk of ['python', 'php'] as const) {
      assert.match(error(sdk), /^Neither dead_letter\.original_queue nor meta\.queue names a queue \(dead_letter\.original_queue is the number 5, not a string; meta\.queue is the number 7, not a string\): the (Python|PHP) redrive would publish to the queue named "", so this redrive refuses\.$/, sdk);
    }
    assert.match(error('java'), /: the Java redrive would hand null to its transport as the queue's name \(Redrive\.Transport\.publish\(null, body\)/);
    // Java hands "" when meta.queue is the string "", null when there is none.
    const emptyMeta = redrive(D1.replace('"original_queue":"facts-orders"', '"original_queue":""').replace('"queue":"orders"', '"queue":""'), 'java');
    assert.match(emptyMeta.ok ? '' : emptyMeta.error, /the Java redrive would publish to the queue named ""/);
    const noMetaQueue = redrive(D1.replace('"original_queue":"facts-orders"', '"original_queue":""').replace('"queue":"orders",', ''), 'node');
    assert.match(noMetaQueue.ok ? '' : noMetaQueue.error, /the Node redrive would hand undefined to its transport as the queue's name, so this redrive refuses/);
  });

  test("Python's redrive reads a repeated job as json.loads does, its last copy: a number after the string is put back", () => {
    const numberLast = redrive(D1.replace('"job":"urn:babel:orders:created",', '"job":"urn:babel:orders:created","job":5,'), 'python');
    assert.equal(numberLast.ok, false);
    assert.match(numberLast.ok ? '' : numberLast.error, /The Python redrive needs a string "job"/);
  });

  test("Java's redrive puts back a message whose job, once decoded, is blank as String.isBlank() tests it: an em space too", () => {
    const emSpace = D1.replace('"job":"urn:babel:orders:created"', '"job":"\\u2003"');
    const java = redrive(emSpace, 'java');
    assert.equal(java.ok, false);
    assert.match(java.ok ? '' : java.error, /^The Java redrive needs a job \(or urn\) that is not blank \(String\.isBlank\(\)\) and puts anything else back on the DLQ: it reads "\u2003"/);
    // A no-break space is no white space to isBlank(): Java redrives that job.
    const noBreak = redrive(D1.replace('"job":"urn:babel:orders:created"', '"job":"\\u00a0"'), 'java');
    assert.ok(noBreak.ok, noBreak.ok ? '' : noBreak.error);
  });

  test('a Laravel layout target gets its queues: key; a pretty-printed, edited envelope redrives the same way; a missing attempts is added', () => {
    const edited = `{\n  "job": "urn:babel:orders:created",\n  ${REST.replace(':', ': ')},\n  "data": { "b": 1 },\n  "meta": ${META},\n  "dead_letter": ${BLOCK('x')}\n}\n`;
    const result = redriveMessage(edited, { sdk: 'node', redisLayout: 'laravel' }, false);
    assert.ok(result.ok, result.ok ? '' : result.error);
    assert.equal(result.message.text, `{"job":"urn:babel:orders:created",${REST},"data":{"b":1},"meta":${META},"attempts":0}`);
    assert.equal(result.message.redis.listKey, 'queues:facts-orders');
    assert.equal(result.message.redis.notifyKey, 'queues:facts-orders:notify');
  });

  test('what cannot be redriven says why: broken JSON, a raw dead letter, not an object', () => {
    assert.match(String((redrive('{"job":', 'node') as { error: string }).error), /not valid JSON/);
    assert.match(String((redrive(`{"raw":"{oops","dead_letter":${BLOCK('x')}}`, 'node') as { error: string }).error), /raw dead letter/);
    assert.match(String((redrive('[1]', 'node') as { error: string }).error), /not a JSON object/);
  });

  test("JSON that is not valid is never redriven, and the reason names the redriving SDKs whose lenient decoders would read it", () => {
    assert.match(String((redrive('{"job":', 'python') as { error: string }).error), /^The message is not valid JSON: no SDK redrives it/);
    // json.loads reads a bare NaN; Java's parser a raw tab and a leading zero. The others cannot decode them.
    for (const [text, who] of [
      [D1.replace('"data":{"b":1,"a":2.0}', '"data":{"b":NaN}'), /^The message is not valid JSON: Python's decoder reads it \(json\.loads takes a bare NaN or Infinity\), but this redrive publishes only valid JSON, whichever SDK it follows/],
      [D1.replace('"error":"gateway down"', '"error":"gateway\tdown"'), /^The message is not valid JSON: Java's decoder reads it \(its parser takes a raw tab in a string or a number with a leading zero\), but this redrive publishes only valid JSON, whichever SDK it follows/],
    ] as const) {
      for (const sdk of ['python', 'java', 'node'] as const) {
        const result = redrive(text, sdk);
        assert.equal(result.ok, false, sdk);
        assert.match(result.ok ? '' : result.error, who, sdk);
        assert.doesNotMatch(result.ok ? '' : result.error, /no SDK redrives it/, sdk);
      }
    }
  });

  test("past the parser's bound of 1,000 listed problems, a Java decode that is not known is not said to read the body", () => {
    // 1,001 raw tabs (Java's parser takes them), then '+1', which it is not known to take.
    const tabs = Array.from({ length: 1001 }, (_, i) => `"k${i}":"a\tb"`).join(',');
    const text = D1.replace('"data":{"b":1,"a":2.0}', `"data":{${tabs},"z":+1}`);
    for (const sdk of ['python', 'java', 'node'] as const) {
      const result = redrive(text, sdk);
      assert.equal(result.ok, false, sdk);
      assert.match(result.ok ? '' : result.error, /^The message is not valid JSON/, sdk);
      assert.doesNotMatch(result.ok ? '' : result.error, /Java's decoder reads it/, sdk);
    }
  });
});

describe('rows, groups and words', () => {
  const row = (text: string, position: number) => messageRow(text, text.length, position, { errors: 0, warnings: position });

  test('a row reads the URN, meta.id, created_at, attempts and the block; garbage gives placeholders, never a throw', () => {
    const r = row(D1, 0);
    assert.deepEqual([r.urn, r.metaId, r.createdAt, r.attempts, r.deadLetter?.reason, r.deadLetter?.failedAt, r.deadLetter?.originalQueue], ['urn:babel:orders:created', ID, 1749132727000, 2, 'failed', 1749132728000, 'facts-orders']);
    const garbage = row('\u0000not json', 1);
    assert.deepEqual([garbage.urn, garbage.metaId, garbage.deadLetter], ['(not an envelope)', '(no meta.id)', undefined]);
  });

  test('a row whose job holds no URN shows the urn alias the decoders read, marked as the alias, with the SDKs that read something else', () => {
    const urnOf = (text: string) => {
      const r = row(text, 0);
      return [r.urn, urnLabel(r)];
    };
    const alias = (job: string) => D1.replace('"job":"urn:babel:orders:created"', `"job":${job},"urn":"urn:babel:orders:created"`);
    // Every decoder falls back to the alias for a null or missing job.
    assert.deepEqual(urnOf(alias('null')), ['urn:babel:orders:created', 'urn:babel:orders:created (urn alias)']);
    assert.deepEqual(urnOf(D2), ['urn:babel:orders:created', 'urn:babel:orders:created (urn alias)']);
    // PHP's `job ?? urn` keeps "" and false; Go's Decode fails on false.
    assert.deepEqual(urnOf(alias('""')), ['urn:babel:orders:created', 'urn:babel:orders:created (urn alias; not PHP)']);
    assert.deepEqual(urnOf(alias('false')), ['urn:babel:orders:created', 'urn:babel:orders:created (urn alias; not PHP and Go)']);
    // A blank job is the URN to PHP, Python, Node and Go; Java and .NET take the alias.
    assert.deepEqual(urnOf(alias('"   "')), ['urn:babel:orders:created', 'urn:babel:orders:created (urn alias; Java and .NET only)']);
    // A job that is a URN is shown as it is, with no marker, alias or not.
    assert.deepEqual(urnOf(D1.replace('"job":"urn:babel:orders:created"', '"job":"urn:babel:orders:created","urn":"urn:babel:other:x"')), ['urn:babel:orders:created', 'urn:babel:orders:created']);
    assert.deepEqual(urnOf(D1.replace('"job":"urn:babel:orders:created"', '"job":null')), ['(no URN)', '(no URN)']);
    assert.deepEqual(urnOf(D1.replace('"job":"urn:babel:orders:created"', '"job":""')), ['(no URN)', '(no URN)']);
    // A blank job with no alias is what PHP, Python and Go route on: shown as it is.
    assert.deepEqual(urnOf(D1.replace('"job":"urn:babel:orders:created"', '"job":"  "')), ['  ', '  ']);
    // The filter finds the alias's URN.
    assert.ok(matchesFilter(row(alias('null'), 0), 'orders:created'));
  });

  test('a repeated key is read as its last copy, as JSON.parse, json.loads, json_decode and Java read it; auto follows the last dead_letter.lang', () => {
    const repeated = D1.replace('"job":', '"job":"urn:babel:stale:first","job":')
      .replace(`"meta":{"id"`, `"meta":{"id":"stale","created_at":1,"id"`)
      .replace('"attempts":2,"x_extra"', '"attempts":9,"attempts":2,"x_extra"')
      .replace('"dead_letter":{', '"dead_letter":{"reason":"poison","error":"stale","failed_at":1,"original_queue":"stale","lang":"go",');
    const r = row(repeated, 0);
    assert.deepEqual([r.urn, r.metaId, r.createdAt, r.attempts], ['urn:babel:orders:created', ID, 1749132727000, 2]);
    assert.deepEqual(r.deadLetter, row(D1, 0).deadLetter);
    // A whole dead_letter block repeated: the last one.
    const blocks = row(D1.replace('"dead_letter":', `"dead_letter":${BLOCK('stale', 1, 'go')},"dead_letter":`), 0);
    assert.deepEqual(blocks.deadLetter, row(D1, 0).deadLetter);
    const auto = redriveMessage(repeated, { sdk: 'auto', redisLayout: 'babelqueue' });
    assert.ok(auto.ok, auto.ok ? '' : auto.error);
    assert.equal(auto.sdk, 'node');
  });

  test('grouped by reason and error, largest first; newest first by failed_at, then by position', () => {
    const rows = [row(D1, 0), row(D1.replace(BLOCK('gateway down'), BLOCK('declined', 1749132729000)), 1), row(D1.replace(BLOCK('gateway down'), BLOCK('gateway down', 1749132730000)), 2)];
    const groups = groupDeadLetters(newestFirst(rows));
    assert.deepEqual(groups.map((g) => [g.reason, g.error, g.count]), [['failed', 'gateway down', 2], ['failed', 'declined', 1]]);
    assert.deepEqual(groups[0]!.rows.map((r) => r.position), [2, 0]);
    assert.deepEqual(newestFirst([row('{}', 0), row('{}', 1)]).map((r) => r.position), [1, 0]);
  });

  test('groups of one size are ordered by their text, code unit by code unit, the same in every locale and without ICU', () => {
    const errors = ['gateway down', 'Gateway down', 'éclair', 'declined'];
    const rows = errors.map((error, position) => row(D1.replace(BLOCK('gateway down'), BLOCK(error)), position));
    const compare = String.prototype.localeCompare;
    String.prototype.localeCompare = () => {
      throw new Error('localeCompare reached ICU');
    };
    try {
      assert.deepEqual(groupDeadLetters(rows).map((group) => group.error), ['Gateway down', 'declined', 'gateway down', 'éclair']);
    } finally {
      String.prototype.localeCompare = compare;
    }
  });

  test('the filter looks at URN, meta.id, reason, error and exception; --reason at reason and error only', () => {
    const r = row(D1, 0);
    assert.ok(matchesFilter(r, 'ORDERS:CREATED'));
    assert.ok(matchesFilter(r, ID.slice(0, 8)));
    assert.ok(matchesFilter(r, 'typeerror'));
    assert.ok(!matchesFilter(r, 'declined'));
    assert.ok(matchesReason(r, 'Gateway'));
    assert.ok(!matchesReason(r, 'TypeError'));
  });

  test('the block in words, and the verdict', () => {
    const words = deadLetterWords(row(D1, 0).deadLetter);
    assert.deepEqual(words, [
      'reason: failed (the handler failed on every attempt)',
      'error: gateway down',
      'exception: TypeError',
      'failed at: 2025-06-05T14:12:08Z',
      'original queue: "facts-orders"',
      'attempts before the DLQ: 2',
      'dead-lettered by: node',
    ]);
    assert.match(deadLetterWords(undefined)[0]!, /raw dead letter/);
    assert.equal(verdictText({ errors: 0, warnings: 0 }), 'valid');
    assert.equal(verdictText({ errors: 1, warnings: 2 }), '1 error, 2 warnings');
  });
});

describe('a redrive whose job the SDK decodes from the urn alias', () => {
  const redrive = (text: string, sdk: 'node' | 'java') => redriveMessage(text, { sdk, redisLayout: 'babelqueue' });
  const tail = `${REST},"data":{},"meta":${META},"attempts":2,"dead_letter":${BLOCK('gateway down')}}`;
  const written = `{"job":"urn:babel:orders:created",${REST},"data":{},"meta":${META},"attempts":0}`;

  test('Node copies the alias into a falsy job (where the key stands) and drops urn', () => {
    for (const job of ['null', '""', '0', 'false']) {
      const result = redrive(`{"job":${job},"urn":"urn:babel:orders:created",${tail}`, 'node');
      assert.ok(result.ok, `${job}: ${!result.ok && result.error}`);
      assert.equal(result.message.text, written, job);
    }
    const lastCopies = redrive(`{"job":"urn:babel:stale:first","job":null,"urn":"urn:babel:stale:urn","urn":"urn:babel:orders:created",${tail}`, 'node');
    assert.ok(lastCopies.ok);
    assert.equal(lastCopies.message.text, written);
  });

  test('Java reads the alias for a job that is blank or no string, each their last copy', () => {
    for (const job of ['"  "', '"\\u2003"', '5', '"urn:babel:stale:first","job":"  "']) {
      const result = redrive(`{"job":${job},"urn":"urn:babel:orders:created",${tail}`, 'java');
      assert.ok(result.ok, `${job}: ${!result.ok && result.error}`);
      assert.equal(result.message.text, written, job);
    }
  });

  test('a lone repeated alias becomes job with its last copy', () => {
    for (const sdk of ['node', 'java'] as const) {
      const result = redrive(`{"urn":"urn:babel:stale:first","urn":"urn:babel:orders:created",${tail}`, sdk);
      assert.ok(result.ok, sdk);
      assert.equal(JSON.parse(result.message.text).job, 'urn:babel:orders:created', sdk);
    }
  });

  test('a job the decoder reads itself stays, and urn goes', () => {
    const result = redrive(`{"job":"urn:babel:orders:created","urn":"urn:babel:other:thing",${tail}`, 'java');
    assert.ok(result.ok);
    assert.equal(result.message.text, written);
  });
});
