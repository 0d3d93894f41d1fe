/**
 * Findings checked against what the SDK consumers measurably do on decode
 * (babelqueue-facts-2.md §2, consumer acceptance): each message says what happens, and each
 * consumer rejection of the fixture as written is an error.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeActions } from '../../../core/language/code-actions';
import { reparse } from '../../../core/parse/incremental';
import { consumerVerdicts } from '../../../core/message/acceptance';
import { parseJson, parseText } from '../../../core/parse/parser';
import { parseJson as referenceParse } from '../../oracle/reference-parser';
import { analyze, analyzeDocument, analyzeText } from '../../../core/rules/analyze';
import { definitionOf } from '../../../core/rules/catalogue';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { stableFresh } from '../../support/fresh';
import { encodeEnvelope } from '../../../core/encode';

const CANONICAL =
  '{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{"order_id":1042},' +
  '"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"node","schema_version":1,"created_at":1749132727000},"attempts":0}';

const lint = (text: string) => analyze(parseText(text), DEFAULT_SETTINGS);
const at = (text: string, token: string, from = 0) => {
  const offset = text.indexOf(token, from);
  assert.ok(offset >= 0, token);
  return lint(text).filter((d) => d.offset === offset && d.end === offset + token.length);
};

test('a duplicate job: every SDK keeps the last copy (no "some keep the first")', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":"urn:babel:orders:created","job":"urn:babel:orders:updated"');
  const [finding] = at(text, '"job"', 10);
  assert.equal(finding.code, 'duplicate-key');
  assert.doesNotMatch(finding.message, /first/);
  assert.match(finding.message, /last copy/);
});

test('a duplicate data: Go merges the two objects, the others keep the last', () => {
  const text = CANONICAL.replace('"data":{"order_id":1042}', '"data":{"a":1},"data":{"b":2}');
  const [finding] = at(text, '"data"', text.indexOf('"data"') + 1);
  assert.equal(finding.code, 'duplicate-key');
  assert.match(finding.message, /Go merges/);
});

test('a duplicate job whose last copy is null: Go keeps the copy before it, the others the null', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":"urn:babel:orders:created","job":null');
  const [finding] = at(text, '"job"', 10);
  assert.equal(finding.code, 'duplicate-key');
  assert.match(finding.message, /PHP, Python, Node, Java and \.NET keep only the last copy, the null, but Go ignores that null and keeps the job an earlier copy set/);
  assert.doesNotMatch(finding.message, /every SDK/);
});

test('a duplicate meta.queue whose last copy is null, and one in data: Go keeps meta\'s earlier copy, data\'s null like the others', () => {
  const text = CANONICAL.replace('"queue":"orders"', '"queue":"orders","queue":null').replace('"order_id":1042', '"order_id":1042,"order_id":null');
  const [queue] = at(text, '"queue"', text.indexOf('"queue"') + 1);
  assert.match(queue.message, /but Go ignores that null and keeps the queue an earlier copy set/);
  const [orderId] = at(text, '"order_id"', text.indexOf('"order_id"') + 1);
  assert.match(orderId.message, /every SDK decoder keeps only the last copy/);
});

test('repeated meta and dead_letter objects: Go merges them; a dead_letter null between two starts afresh', () => {
  const dl = '"dead_letter":{"reason":"failed","original_queue":"orders"}';
  const text = CANONICAL.replace('"attempts":0}', `"attempts":0,"meta":{"queue":"billing"},${dl},"dead_letter":{"attempts":3}}`);
  const [meta] = at(text, '"meta"', text.indexOf('"meta"') + 1);
  assert.match(meta.message, /PHP, Python, Node, Java and \.NET keep only the last copy, and Go merges the 2 meta objects into one, key by key/);
  const [deadLetter] = at(text, '"dead_letter"', text.indexOf('"dead_letter"') + 1);
  assert.match(deadLetter.message, /Go merges the 2 dead_letter objects/);
  const reset = text.replace(`${dl},`, `${dl},"dead_letter":null,`);
  const findings = lint(reset).filter((d) => d.code === 'duplicate-key' && d.message.includes('"dead_letter"'));
  assert.equal(findings.length, 2);
  for (const finding of findings) assert.match(finding.message, /every SDK decoder keeps only the last copy/);
  // A meta null changes nothing in Go: it merges the two objects and ignores the null.
  const metaNull = text.replace('"meta":{"queue":"billing"}', '"meta":{"queue":"billing"},"meta":null');
  const metaFindings = lint(metaNull).filter((d) => d.code === 'duplicate-key' && d.message.includes('"meta"'));
  assert.equal(metaFindings.length, 2);
  for (const finding of metaFindings) assert.match(finding.message, /keep only the last copy, the null, but Go merges the 2 meta objects into one, key by key, and ignores the null after them/);
});

test('duplicate-key says the same on the parser\'s columns, on a tree without them, and after a string edit', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":"urn:babel:orders:created","job":null').replace('"queue":"orders"', '"queue":"orders","queue":null');
  const fromColumns = lint(text).filter((d) => d.code === 'duplicate-key');
  const fromTree = analyze(referenceParse(text), DEFAULT_SETTINGS).filter((d) => d.code === 'duplicate-key');
  assert.equal(fromColumns.length, 2);
  assert.deepEqual(fromTree, fromColumns);
  const edited = text.replace('urn:babel:orders:created', 'urn:babel:orders:createdX');
  const previous = parseText(text);
  const next = reparse(previous, edited);
  assert.ok(next, 'reparsed incrementally');
  const reused = analyzeDocument(next, undefined, undefined, analyzeDocument(previous)).diagnostics.filter((d) => d.code === 'duplicate-key');
  assert.deepEqual(reused, analyzeText(edited).filter((d) => d.code === 'duplicate-key'));
  assert.match(reused[0].message, /Go ignores that null/);
});

test('a duplicate key inside data: no claim that Go merges', () => {
  const text = CANONICAL.replace('"data":{"order_id":1042}', '"data":{"order_id":1,"order_id":2}');
  const [finding] = at(text, '"order_id"', text.indexOf('"order_id"') + 1);
  assert.doesNotMatch(finding.message, /merge/);
});

test('an empty trace_id: PHP (missing_trace_id) and Python reject it too', () => {
  const text = CANONICAL.replace('"trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"', '"trace_id":""');
  const [finding] = at(text, '""');
  assert.deepEqual([finding.code, finding.severity], ['invalid-value', 'error']);
  assert.match(finding.message, /PHP \(missing_trace_id\), Python, Node, Go and Java/);
});

test('a whitespace trace_id: PHP and Python accept it, Node, Go and Java reject it', () => {
  const text = CANONICAL.replace('"trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"', '"trace_id":"  "');
  const [finding] = at(text, '"  "');
  assert.equal(finding.code, 'invalid-value');
  assert.match(finding.message, /Node, Go and Java consumers reject/);
  assert.match(finding.message, /PHP and Python accept/);
});

test('a blank meta.id: no claim that consumers reject it (they do not check it)', () => {
  const text = CANONICAL.replace('"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567"', '"id":""');
  const [finding] = at(text, '""');
  assert.equal(finding.code, 'invalid-value');
  assert.doesNotMatch(finding.message, /reject/);
  assert.match(finding.message, /dedup/);
});

test('job: null beside urn: every SDK accepts it and routes on urn, so no wrong-type, only the urn-alias warning', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":null,"urn":"urn:babel:orders:created"');
  const found = lint(text);
  assert.deepEqual(found.map((d) => [d.code, d.severity]), [['urn-alias', 'warning']]);
  assert.match(found[0].message, /null/);
  assert.doesNotMatch(found[0].message, /no SDK can route/);
});

test('job: null without urn is still the wrong type', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":null');
  assert.deepEqual(at(text, 'null').map((d) => d.code), ['wrong-type']);
});

test('a whitespace job beside urn: Node rejects the message and PHP, Python and Go misroute it, an error like a blank trace_id', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":"   ","urn":"urn:babel:orders:created"');
  const found = lint(text);
  assert.deepEqual(found.map((d) => [d.code, d.severity]), [['urn-alias', 'error']]);
});

test('an empty job beside urn stays a warning (facts part 1 advises a warning: only PHP rejects it)', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":"","urn":"urn:babel:orders:created"');
  assert.deepEqual(lint(text).map((d) => [d.code, d.severity]), [['urn-alias', 'warning']]);
});

const withAttempts = (attempts: string) => CANONICAL.replace('"attempts":0', `"attempts":${attempts}`);

test('attempts 4294967296: Java silently reads 0 (a 32-bit int), a warning naming Java\'s value', () => {
  const text = withAttempts('4294967296');
  const found = at(text, '4294967296');
  assert.deepEqual(found.map((d) => [d.code, d.severity]), [['invalid-value', 'warning']]);
  assert.match(found[0].message, /Java/);
  assert.match(found[0].message, /as 0\b/);
});

test('attempts 3000000000: Java reads it as a negative count', () => {
  const found = at(withAttempts('3000000000'), '3000000000');
  assert.deepEqual(found.map((d) => [d.code, d.severity]), [['invalid-value', 'warning']]);
  assert.match(found[0].message, /-1294967296/);
});

test('attempts 2147483647 fits Java\'s int: no finding', () => {
  assert.deepEqual(at(withAttempts('2147483647'), '2147483647'), []);
});

test('attempts beyond signed 64-bit stays one error (not also the Java warning)', () => {
  const found = at(withAttempts('9223372036854775808'), '9223372036854775808');
  assert.deepEqual(found.map((d) => [d.code, d.severity]), [['invalid-value', 'error']]);
});

test('attempts beyond 2^53 but within signed 64-bit: Node reads the nearest double, not the value as written', () => {
  const [finding] = at(withAttempts('9007199254740993'), '9007199254740993');
  assert.match(finding.message, /Node as the nearest double \(9007199254740992\)/);
});

const withData = (data: string, lang = 'node') => CANONICAL.replace('"data":{"order_id":1042}', `"data":${data}`).replace('"lang":"node"', `"lang":"${lang}"`);

for (const lang of ['node', 'go', 'php', 'python']) {
  test(`1e400 in data (meta.lang ${lang}): the Go consumer fails to decode the message, one error on the token`, () => {
    const found = at(withData('{"v":1e400}', lang), '1e400');
    assert.deepEqual(found.map((d) => [d.code, d.severity]), [['unsafe-integer', 'error']]);
    assert.match(found[0].message, /Go consumer/);
    assert.match(found[0].message, /decode/);
  });
}

test('1e400 in data: the carried encoders\' divergence names Go\'s rejection too, not "Go fails to relay it"', () => {
  const [finding] = at(withData('{"v":-1e400}'), '-1e400');
  const divergence = finding.related?.find((r) => r.code === 'encoding-divergence');
  assert.ok(divergence);
  assert.match(divergence.message, /Go consumer fails to decode/);
  assert.doesNotMatch(divergence.message, /Go(,| and) [^,]*fail to relay|PHP, Go/);
});

test('an integer literal beyond the double range: Go fails to decode it as well', () => {
  const huge = `1${'0'.repeat(400)}`;
  const [finding] = at(withData(`{"v":${huge}}`), huge);
  assert.deepEqual([finding.code, finding.severity], ['unsafe-integer', 'error']);
  assert.match(finding.message, /Go consumer/);
});

test('1e-400 (rounds to 0) and 1e308 are within the double range: no error', () => {
  assert.deepEqual(at(withData('{"v":1e308}'), '1e308').filter((d) => d.severity === 'error'), []);
  assert.deepEqual(at(withData('{"v":1e-400}'), '1e-400').filter((d) => d.severity === 'error'), []);
});

const onKey = (text: string, key: string) => {
  const offset = text.lastIndexOf(`"${key}"`);
  return lint(text).filter((d) => d.offset === offset && d.end === offset + key.length + 2);
};

test('"Attempts" beside attempts: one finding on the key (encoding-divergence carries case-mismatch and its rename)', () => {
  const text = CANONICAL.replace('"attempts":0}', '"attempts":0,"Attempts":5}');
  const found = onKey(text, 'Attempts');
  assert.deepEqual(found.map((d) => [d.code, d.severity]), [['encoding-divergence', 'warning']]);
  assert.deepEqual(found[0].related?.map((r) => r.code), ['case-mismatch']);
});

test('"meta.Queue": one finding on the key', () => {
  const text = CANONICAL.replace('"queue":"orders"', '"queue":"orders","Queue":"other"');
  assert.deepEqual(onKey(text, 'Queue').map((d) => d.code), ['encoding-divergence']);
});

test('"JOB" after job: the message says Go routes on the later URN, the others on job', () => {
  const text = CANONICAL.replace('"attempts":0}', '"attempts":0,"JOB":"urn:babel:orders:updated"}');
  const [finding] = onKey(text, 'JOB');
  assert.match(finding.message, /Go routes on "urn:babel:orders:updated"/);
  assert.match(finding.message, /"urn:babel:orders:created"/);
});

test('"JOB": null after job: Go keeps the job before it (a null sets no string field), so nothing says Go takes the null', () => {
  const text = CANONICAL.replace('"attempts":0}', '"attempts":0,"JOB":null}');
  const [finding] = onKey(text, 'JOB');
  assert.match(finding.message, /but as a null it changes nothing: Go keeps the job the other keys set/);
  assert.doesNotMatch(finding.message, /Go takes it/);
});

test('"JOB" before a null job: Go routes on it, as the null sets nothing, where the others read job as null', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"JOB":"urn:babel:orders:updated","job":null');
  const [finding] = onKey(text, 'JOB');
  assert.match(finding.message, /and as the "job" after it is null, which sets nothing in Go, Go routes on "urn:babel:orders:updated" where the other SDKs read "job" as null/);
  assert.doesNotMatch(finding.message, /instead of|comes last/);
  const after = onKey(CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":null,"JOB":"urn:babel:orders:updated"'), 'JOB')[0];
  assert.match(after.message, /and as it comes last Go routes on "urn:babel:orders:updated" where the other SDKs read "job" as null/);
  const queue = onKey(CANONICAL.replace('"queue":"orders"', '"Queue":"billing","queue":null'), 'Queue')[0];
  assert.match(queue.message, /and as the "queue" after it is null, which sets nothing in Go, Go keeps this value where the other SDKs read "queue" as null/);
});

test('"JOB" without job: one finding on the key, missing-field, carrying the case variant\'s findings and offering the rename', () => {
  const text = CANONICAL.replace('"job":', '"JOB":');
  const found = lint(text);
  assert.deepEqual(found.map((d) => [d.code, d.severity, text.slice(d.offset, d.end)]), [['missing-field', 'error', '"JOB"']]);
  assert.deepEqual(found[0].related?.map((r) => r.code).sort(), ['case-mismatch', 'encoding-divergence']);
  assert.match(found[0].message, /only Go/);
  const titles = codeActions(parseText(text), found, stableFresh()).map((action) => [action.title, action.isPreferred]);
  assert.deepEqual(titles, [['Rename "JOB" to "job"', true]]);
});

const deadLettered = (lang: string) =>
  CANONICAL.replace(
    '"attempts":0}',
    `"attempts":0,"dead_letter":{"reason":"failed","error":null,"exception":null,"failed_at":1749132730000,"original_queue":"orders-consumer","attempts":2,"lang":"${lang}"}}`,
  );

test('original_queue other than meta.queue from Java: DeadLetters.annotate takes the queue from its caller (facts-2 §3.1), so no warning', () => {
  assert.deepEqual(lint(deadLettered('java')).filter((d) => d.code === 'original-queue-mismatch'), []);
});

test('original_queue other than meta.queue from Node still warns: its consumers write meta.queue there', () => {
  assert.equal(lint(deadLettered('node')).filter((d) => d.code === 'original-queue-mismatch').length, 1);
});

// attempts beyond signed 64-bit, a leading zero or NaN, and urn beside a blank job.
const onAttempts = (attempts: string) => {
  const text = withAttempts(attempts);
  const at = text.lastIndexOf(attempts);
  return analyze(parseText(text), DEFAULT_SETTINGS).filter((d) => d.offset === at);
};

test('attempts beyond signed 64-bit: PHP decodes a float and rejects it, Go fails to decode: an error', () => {
  const found = onAttempts('9223372036854775808');
  assert.deepEqual(found.map((d) => [d.code, d.severity]), [['invalid-value', 'error']]);
  assert.match(found[0].message, /PHP/);
  assert.match(found[0].message, /Go/);
});

test('attempts at the signed 64-bit limit is no error of invalid-value (only the warning that Java reads it as a 32-bit int)', () => {
  assert.deepEqual(onAttempts('9223372036854775807').filter((d) => d.code === 'invalid-value').map((d) => d.severity), ['warning']);
});

test('attempts beyond signed 64-bit from a PHP producer: one finding on the token (invalid-value carries consumer-rejects)', () => {
  const text = withAttempts('9223372036854775808').replace('"lang":"node"', '"lang":"php"');
  const at = text.lastIndexOf('9223372036854775808');
  const found = analyze(parseText(text), DEFAULT_SETTINGS).filter((d) => d.offset === at);
  assert.deepEqual(found.map((d) => d.code), ['invalid-value']);
  assert.deepEqual(found[0].related?.map((r) => r.code), ['consumer-rejects']);
});

test('attempts written 00: one cause, one finding (json-syntax carries wrong-type)', () => {
  const found = onAttempts('00');
  assert.deepEqual(found.map((d) => d.code), ['json-syntax']);
  assert.deepEqual(found[0].related?.map((r) => r.code), ['wrong-type']);
});

const urnAlias = (text: string) => analyze(parseText(text), DEFAULT_SETTINGS).filter((d) => d.code === 'urn-alias');

test('a whitespace job beside urn: Node rejects it, PHP, Python and Go route on the blank URN, only Java falls back (facts-2 §2)', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":"   ","urn":"urn:babel:orders:created"');
  const [finding] = urnAlias(text);
  assert.match(finding.message, /Node/);
  assert.match(finding.message, /only Java/);
  assert.doesNotMatch(finding.message, /PHP rejects/);
});

test('an empty job beside urn: PHP rejects the shape (missing_urn), the others fall back', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":"","urn":"urn:babel:orders:created"');
  assert.match(urnAlias(text)[0].message, /PHP rejects/);
});

test('urn alone: the message does not claim the published bytes never carry "urn" (PHP, Python and Node relays keep it)', () => {
  const text = CANONICAL.replace('"job":', '"urn":');
  assert.doesNotMatch(urnAlias(text)[0].message, /never "urn"/);
});

test('a number job beside urn: Python routes on its text, PHP, Node and Go reject the message, Java and .NET fall back to urn (their decode reads no string as null)', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":123,"urn":"urn:babel:orders:created"');
  const [finding] = urnAlias(text);
  assert.doesNotMatch(finding.message, /no SDK can route/);
  assert.match(finding.message, /Python routes on "123"/);
  assert.match(finding.message, /PHP, Node and Go reject/);
  assert.match(finding.message, /Java and \.NET .*fall back to "urn"/);
});

test('a falsy job beside urn (0, false): Python and Node fall back to urn as Java and .NET do; PHP and Go reject the message', () => {
  for (const job of ['0', 'false']) {
    const text = CANONICAL.replace('"job":"urn:babel:orders:created"', `"job":${job},"urn":"urn:babel:orders:created"`);
    const [finding] = urnAlias(text);
    assert.match(finding.message, /PHP and Go reject/, job);
    assert.match(finding.message, /Python, Node, Java and \.NET .*fall back to "urn"/, job);
  }
});

test('an empty list or object as job beside urn: Python falls back to urn, Node does not (both are truthy in JavaScript), as its consumer verdict says', () => {
  for (const job of ['[]', '{}']) {
    const text = CANONICAL.replace('"job":"urn:babel:orders:created"', `"job":${job},"urn":"urn:babel:orders:created"`);
    const [finding] = urnAlias(text);
    assert.match(finding.message, /PHP, Node and Go reject/, job);
    assert.match(finding.message, /Python, Java and \.NET .*fall back to "urn"/, job);
    const node = consumerVerdicts(parseJson(text)).find((verdict) => verdict.sdk === 'node');
    assert.equal(node?.kind, 'rejects', job);
  }
});

test('a padded job: Go routes on it padded like PHP and Python (only the urn alias is trimmed by its Decode); Node, Java and .NET trim it', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":"  urn:babel:orders:created "');
  const found = lint(text).filter((d) => d.code === 'invalid-urn');
  assert.equal(found.length, 1);
  assert.match(found[0].message, /PHP, Python and Go route on it padded/);
  assert.match(found[0].message, /Node, Java and \.NET .*trim it/);
});

test('a padded urn alias: PHP and Python keep it padded; Node, Go, Java and .NET trim it', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"urn":"  urn:babel:orders:created "');
  const found = lint(text).filter((d) => d.code === 'invalid-urn');
  assert.equal(found.length, 1);
  assert.match(found[0].message, /PHP and Python keep it padded/);
  assert.match(found[0].message, /Node, Go, Java and \.NET .*trim it/);
});

test('a job with no value beside urn: the syntax error is the finding, and the rule does not throw', () => {
  for (const job of ['"job":,', '"job":\u0000,', '"job":}']) {
    const text = CANONICAL.replace('"job":"urn:babel:orders:created",', `${job}"urn":"urn:babel:orders:created",`);
    const found = analyzeText(text);
    assert.ok(found.some((d) => d.code === 'json-syntax'), job);
    assert.deepEqual(urnAlias(text), [], job);
  }
});

test('a number of 5,000 digits is quoted shortened in every finding on it, as describeValue quotes a value', () => {
  const digits = '9'.repeat(5000);
  const cases = [
    CANONICAL.replace('"attempts":0', `"attempts":${digits}`),
    CANONICAL.replace('"attempts":0', `"attempts":-${digits}`),
    CANONICAL.replace('"attempts":0', `"attempts":1.${digits}`),
    CANONICAL.replace('"created_at":1749132727000', `"created_at":${digits}`),
    CANONICAL.replace('"schema_version":1', `"schema_version":1.${digits}`),
    CANONICAL.replace('"order_id":1042', `"order_id":${digits}`),
    CANONICAL.replace('"order_id":1042', `"order_id":1${'0'.repeat(300)}e999`),
    CANONICAL.replace('"order_id":1042', `"order_id":9007199254740993${'0'.repeat(0)},"total_price":1.${digits}`),
  ];
  for (const text of cases) {
    const findings = lint(text).filter((finding) => finding.message.includes('999999999') || finding.message.includes('0000000000'));
    assert.ok(lint(text).length > 0, text.slice(0, 120));
    for (const finding of findings) assert.ok(finding.message.length < 600, `${finding.code}: ${finding.message.length} characters: ${finding.message.slice(0, 160)}`);
  }
});

test('attempts beyond a 32-bit int: the warning says .NET reads 0 as well (TryGetInt32 fails on it, as its relay writes), not that it reads the count as written', () => {
  for (const attempts of ['3000000000', '9223372036854775807', '9223372036854775808']) {
    const text = withAttempts(attempts);
    const [finding] = at(text, attempts);
    assert.match(finding.message, /\.NET as 0/, attempts);
    assert.doesNotMatch(finding.message, /the other consumers read it as written/, attempts);
    const dotnet = encodeEnvelope(parseJson(text), 'dotnet');
    assert.ok(dotnet.ok && dotnet.text.endsWith('"attempts":0}'), attempts);
  }
});

test('schema_version written as a number that is not the literal 1: the wrong-type message names every consumer that rejects it, and Java reading 1.5 as 1', () => {
  const labels = { php: 'PHP', python: 'Python', node: 'Node', java: 'Java' } as const;
  for (const version of ['1.0', '1e0', '1.5', '2.0', '0.5', '1e400', '4294967297.0']) {
    const text = CANONICAL.replace('"schema_version":1', `"schema_version":${version}`);
    const [finding] = at(text, version, text.indexOf('"schema_version"'));
    assert.equal(finding.code, 'wrong-type', version);
    const rejected = /Go fails to decode it, (.*?) reject it/.exec(finding.message)?.[1] ?? '';
    for (const verdict of consumerVerdicts(text)) {
      if (!(verdict.sdk in labels)) continue;
      const named = new RegExp(`\\b${labels[verdict.sdk as keyof typeof labels]}\\b`).test(rejected);
      assert.equal(named, verdict.kind === 'rejects', `${version}: ${verdict.sdk} ${verdict.kind}, message: ${finding.message}`);
    }
  }
  assert.match(at(CANONICAL.replace('"schema_version":1', '"schema_version":1.5'), '1.5')[0].message, /Java reads it as 1/);
});

test('unsafe-integer within 64 bits says a double holds the integer exactly only when the Node and Go relays write it back as written', () => {
  for (const integer of ['9007199254740994', '4611686018427387904', '-4611686018427387904', '9007199254740993', '9223372036854775807']) {
    const text = CANONICAL.replace('"order_id":1042', `"order_id":${integer}`);
    const [finding] = at(text, integer).filter((d) => d.code === 'unsafe-integer');
    const doc = parseJson(text);
    const written = ['node', 'go'].map((sdk) => {
      const result = encodeEnvelope(doc, sdk as 'node' | 'go');
      assert.ok(result.ok);
      return /"order_id":(-?[0-9e+.]+)/.exec(result.text)![1];
    });
    if (written.every((text) => text === integer)) assert.match(finding.message, /holds this one exactly/, integer);
    else assert.ok(finding.message.includes(`round it to ${written[0]}`), `${integer}: Node writes ${written[0]}, message: ${finding.message}`);
  }
});

test('unsafe-integer beyond 64 bits says Node and Go lose the integer only when their relays write it back with other digits', () => {
  for (const integer of ['100000000000000000000', '-100000000000000000000', '18446744073709551616', '1000000000000000000000', '123456789012345678901234567890']) {
    const text = CANONICAL.replace('"order_id":1042', `"order_id":${integer}`);
    const [finding] = at(text, integer).filter((d) => d.code === 'unsafe-integer');
    assert.equal(finding.severity, 'error', integer);
    const doc = parseJson(text);
    const written = (sdk: 'node' | 'go' | 'php' | 'dotnet') => {
      const result = encodeEnvelope(doc, sdk);
      assert.ok(result.ok);
      return /"order_id":(-?[0-9eE+.]+)/.exec(result.text)![1];
    };
    if (written('node') === integer && written('go') === integer) {
      assert.doesNotMatch(finding.message, /loses it/, integer);
      assert.match(finding.message, /holds this one exactly/, integer);
      assert.ok(finding.message.includes(written('php')) && finding.message.includes(written('dotnet')), finding.message);
    } else assert.match(finding.message, /every SDK but Python and Java loses it/, integer);
  }
});

test('an integer of more than 4,300 digits in data: unsafe-integer and encoding-divergence say the Python consumer cannot decode the message either', () => {
  const integer = '8'.repeat(4301);
  const text = CANONICAL.replace('"order_id":1042', `"order_id":${integer}`);
  const python = consumerVerdicts(text).find((verdict) => verdict.sdk === 'python')!;
  assert.equal(python.kind, 'rejects');
  const [finding] = at(text, integer).filter((d) => d.code === 'unsafe-integer');
  assert.match(finding.message, /the Go and Python consumers fail to decode the message/);
  const divergence = finding.related?.find((r) => r.code === 'encoding-divergence');
  assert.ok(divergence, JSON.stringify(finding));
  assert.match(divergence.message, /the Go and Python consumers fail to decode the message/);
  assert.equal(divergence.message.split('Python').length - 1, 1, 'Python is named once, as a consumer that cannot decode it');
  // Up to 4,300 digits Python reads it, exactly.
  const readable = '8'.repeat(4300);
  const [beyondDouble] = at(CANONICAL.replace('"order_id":1042', `"order_id":${readable}`), readable).filter((d) => d.code === 'unsafe-integer');
  assert.match(beyondDouble.message, /the Go consumer fails to decode the message/);
});

test('several numbers beyond the double range from a Python producer: consumer-rejects on each, naming who fails to decode it', () => {
  // Python relays each as bare Infinity: every one is a cause of its own, at its own token.
  const text = CANONICAL.replace('"data":{"order_id":1042}', '"data":{"a":1e400,"b":[2e400],"c":{"d":-3e400}}')
    .replace('"lang":"node"', '"lang":"python","z":4e400')
    .replace('"attempts":0', '"attempts":0,"x":-5e400');
  const found = lint(text);
  const rejects = found.flatMap((d) => [d, ...(d.related ?? [])]).filter((d) => d.code === 'consumer-rejects');
  const tokens = rejects.map((d) => text.slice(d.offset, d.end));
  assert.deepEqual(tokens, ['1e400', '2e400', '-3e400', '4e400', '-5e400']);
  // Go rejects the fixture as written (it cannot decode data's numbers: unsafe-integer says so), so the relay adds PHP, Node and Java.
  for (const d of rejects) assert.match(d.message, /the PHP, Node and Java consumers reject the message .*refuses a bare NaN or Infinity/);
  // Each is its own finding (or carried by the error on its own token): none on meta.lang.
  const lang = text.indexOf('"python"');
  assert.ok(!rejects.some((d) => d.offset === lang));
});

test('a number beyond the double range inside an array of data from a Python producer: consumer-rejects sits on it, not on meta.lang', () => {
  const text = withData('{"c":[1,1e400]}', 'python').replace('"attempts":0', '"attempts":0,"x":[2e400]');
  const rejects = lint(text).flatMap((d) => [d, ...(d.related ?? [])]).filter((d) => d.code === 'consumer-rejects');
  assert.deepEqual(rejects.map((d) => text.slice(d.offset, d.end)), ['1e400', '2e400']);
});

test('numbers beyond the double range outside data from a Python producer: Go, which skips them unread as written, fails on each relayed Infinity too', () => {
  const text = CANONICAL.replace('"lang":"node"', '"lang":"python","z":4e400').replace('"attempts":0', '"attempts":0,"x":-5e400');
  const rejects = lint(text).filter((d) => d.code === 'consumer-rejects');
  assert.deepEqual(rejects.map((d) => text.slice(d.offset, d.end)), ['4e400', '-5e400']);
  for (const d of rejects) assert.match(d.message, /the PHP, Node, Go and Java consumers reject/);
});

test('attempts 1.0: wrong-type names the consumers that reject or change it (PHP, Python, Go, .NET), not Go alone, and not Node or Java', () => {
  // facts-2 §2: PHP R, Python R, Node A, Go R†, Java A (→ 1); facts §1.5: .NET reads it as 0 (by its code).
  for (const literal of ['1.0', '1e0']) {
    const found = onAttempts(literal).filter((d) => d.code === 'wrong-type');
    assert.equal(found.length, 1, literal);
    const { message } = found[0];
    assert.match(message, /PHP and Python consumers reject it/);
    assert.match(message, /Go fails to decode it/);
    assert.match(message, /\.NET reads it as 0/);
    assert.doesNotMatch(message, /Node|Java/);
  }
});

test('attempts 1.5: Node rejects it too, and Java reads it as 1', () => {
  const [found] = onAttempts('1.5').filter((d) => d.code === 'wrong-type');
  assert.match(found.message, /PHP, Python and Node consumers reject it/);
  assert.match(found.message, /Go fails to decode it/);
  assert.match(found.message, /Java reads it as 1/);
  assert.match(found.message, /\.NET reads it as 0/);
});

test('1,008 numbers beyond the double range from a Python producer, 8 of them in meta.ext: each is one finding, the last ones too', () => {
  const inData = Array.from({ length: 1000 }, (_, i) => `${i + 1}e400`);
  const inExt = Array.from({ length: 8 }, (_, i) => `${i + 7001}e400`);
  const text = CANONICAL.replace('"data":{"order_id":1042}', `"data":{"list":[${inData.join(',')}]}`).replace('"lang":"node"', `"lang":"python","ext":{${inExt.map((n, i) => `"k${i}":${n}`).join(',')}}`);
  const found = lint(text).flatMap((d) => [d, ...(d.related ?? [])]).filter((d) => d.code === 'consumer-rejects' || d.code === 'encoding-divergence');
  const perToken = new Map<string, string[]>();
  for (const d of found) perToken.set(text.slice(d.offset, d.end), [...(perToken.get(text.slice(d.offset, d.end)) ?? []), d.code]);
  for (const token of [...inData, ...inExt]) assert.deepEqual(perToken.get(token), ['consumer-rejects'], token);
});

test('an integral float no double holds (9007199254740993.0): every consumer reads another number, a warning; one a double holds stays information', () => {
  const lost = '9007199254740993.0';
  const text = CANONICAL.replace('"order_id":1042', `"order_id":${lost}`);
  const found = lint(text).filter((d) => text.slice(d.offset, d.end) === lost);
  assert.deepEqual(found.map((d) => [d.code, d.severity]), [['encoding-divergence', 'warning']]);
  assert.match(found[0].message, /reads? it as 9007199254740992/);
  const kept = '9007199254740992.0';
  const plain = CANONICAL.replace('"order_id":1042', `"order_id":${kept}`);
  const same = lint(plain).filter((d) => plain.slice(d.offset, d.end) === kept);
  assert.deepEqual(same.map((d) => [d.code, d.severity]), [['encoding-divergence', 'information']]);
});

test('integral floats a double holds, or that a double reads back as written, stay information: -0.0, 1e21, 1.5e300', () => {
  for (const literal of ['-0.0', '1e21', '1.5e300']) {
    const text = CANONICAL.replace('"order_id":1042', `"order_id":${literal}`);
    for (const d of lint(text).filter((d) => d.code === 'encoding-divergence')) assert.doesNotMatch(d.message, /no double holds it/, literal);
  }
});

test('created_at and failed_at as integral floats: wrong-type names the decoder that fails on them (Go), once, and no consumer that accepts them', () => {
  // facts-2 §2: Go's typed decode fails on a fraction or exponent in an integer field (R†, §2.1:
  // the App loses the bytes); the PHP, Python, Node and Java gates read no created_at or failed_at
  // (a meta of schema_version alone is accepted by all five). The facts say nothing of .NET here.
  const text = CANONICAL.replace('"created_at":1749132727000', '"created_at":1700000000.0').replace(
    '"attempts":0}',
    '"attempts":0,"dead_letter":{"reason":"failed","error":null,"exception":null,"failed_at":1749132730000.0,"original_queue":"orders","attempts":0,"lang":"go"}}',
  );
  for (const [name, literal] of [['meta.created_at', '1700000000.0'], ['dead_letter.failed_at', '1749132730000.0']] as const) {
    const offset = text.indexOf(literal);
    const found = lint(text).filter((d) => d.offset === offset);
    assert.deepEqual(found.map((d) => d.code), ['wrong-type'], name);
    const { message } = found[0];
    assert.match(message, new RegExp(`^"${name.replace('.', '\\.')}" must be an integer`), name);
    assert.match(message, /Go fails to decode the message/, name);
    assert.doesNotMatch(message, /PHP|Python|Node|Java|\.NET/, name);
  }
});

test('a forbidden key: the message tells the contract (encoders reject, decoders drop with a warning) from what the SDKs do (no warning; PHP, Python and Node keep it, Go, Java and .NET drop it)', () => {
  const text = CANONICAL.replace('"schema_version":1', '"schema_version":1,"ts":1749132727');
  const [finding] = at(text, '"ts"');
  assert.equal(finding.code, 'forbidden-key');
  // No SDK decoder warns, and the PHP, Python and Node relays re-emit the key (facts §1.4, facts-2 §2).
  assert.doesNotMatch(finding.message, /\(consumers drop it with a warning, encoders reject it\)/);
  assert.match(finding.message, /contract/);
  assert.match(finding.message, /PHP, Python and Node keep it/);
  assert.match(finding.message, /Go, Java and \.NET drop it/);
  assert.match(finding.message, /Use `meta\.created_at` in Unix milliseconds instead\.$/);
});

test('urn beside a job: every consumer routes on job, and the message does not claim the warning and drop that only the contract asks for', () => {
  const text = CANONICAL.replace('"job":"urn:babel:orders:created"', '"job":"urn:babel:orders:created","urn":"urn:babel:orders:updated"');
  const [finding] = at(text, '"urn"');
  assert.equal(finding.code, 'urn-alias');
  assert.doesNotMatch(finding.message, /dropped on decode, with a warning/);
  assert.match(finding.message, /PHP, Python and Node keep "urn"/);
  assert.match(finding.message, /Go, Java and \.NET drop it/);
  assert.match(finding.message, /Remove "urn"\.$/);
});

test('a message that names an impossible value also says what to write', () => {
  const negativeAttempts = CANONICAL.replace('"attempts":0', '"attempts":-1');
  assert.match(at(negativeAttempts, '-1', negativeAttempts.indexOf('"attempts":-1'))[0].message, /cannot be negative \(-1\): write the number of attempts made so far, from 0\.$/);
  const negativeTime = CANONICAL.replace('1749132727000', '-1749132727000');
  assert.match(at(negativeTime, '-1749132727000')[0].message, /cannot be negative \(-1749132727000\): write the time in Unix epoch milliseconds \(UTC\), such as 1749132727000\.$/);
  const version = CANONICAL.replace('"schema_version":1', '"schema_version":2');
  assert.match(at(version, '2', version.indexOf('"schema_version"'))[0].message, / Write 1\.$/);
  const early = CANONICAL.replace(',"attempts":0}', ',"attempts":0,"dead_letter":{"reason":"failed","failed_at":1749132720000,"original_queue":"orders","attempts":0}}');
  assert.match(at(early, '1749132720000')[0].message, / Write a failed_at at or after created_at, or correct created_at\.$/);
});

test('missing-field\'s advice names the consumers that reject an envelope without attempts, as the consumer model measures them (Go and Java read it as 0)', () => {
  const withoutAttempts = CANONICAL.replace(',"attempts":0', '');
  const rejecting = consumerVerdicts(parseJson(withoutAttempts)).filter((verdict) => verdict.kind === 'rejects').map((verdict) => verdict.sdk);
  assert.deepEqual(rejecting, ['php', 'python', 'node']);
  const instead = definitionOf('missing-field').docs.instead;
  assert.doesNotMatch(instead, /consumers reject an envelope without `trace_id`, `data`, `meta` or `attempts`/);
  assert.match(instead, /the PHP, Python and Node consumers one without `attempts` \(Go and Java read it as 0\)/);
});

test('NaN and Infinity: the message names who rejects them, since Python\'s decoder reads them (facts-2 §2: json.loads allows NaN/Infinity)', () => {
  for (const word of ['NaN', 'Infinity', '-Infinity']) {
    const text = CANONICAL.replace('"order_id":1042', `"order_id":${word}`);
    const [finding] = at(text, word, text.indexOf('"order_id"'));
    assert.equal(finding.code, 'json-syntax', word);
    assert.doesNotMatch(finding.message, /no SDK can carry it/, word);
    assert.match(finding.message, /the PHP, Node, Go and Java consumers reject the message; Python's reads it/, word);
  }
});

test('an invalid number token is no number beyond the double range: only json-syntax says what is wrong with it', () => {
  for (const token of ['0x1e5', '1e5e5', '-b5a6-4789-90ab-cdef01234567']) {
    const text = CANONICAL.replace('"order_id":1042', `"order_id":${token}`);
    const offset = text.indexOf(token);
    const codes = lint(text).filter((d) => d.offset >= offset && d.offset < offset + token.length).map((d) => d.code);
    assert.ok(codes.includes('json-syntax'), token);
    assert.ok(!codes.includes('unsafe-integer'), `${token}: ${codes.join()}`);
  }
  // A real number beyond the double range still is one.
  const huge = CANONICAL.replace('"order_id":1042', '"order_id":1e400');
  assert.deepEqual(at(huge, '1e400').map((d) => d.code), ['unsafe-integer']);
});

test('json-syntax\'s advice does not say every SDK decoder rejects what is not strict JSON: Python reads NaN, Java a raw tab and a leading zero (facts-2 §2)', () => {
  const instead = definitionOf('json-syntax').docs.instead;
  assert.doesNotMatch(instead, /every SDK decoder rejects the rest/);
  assert.match(instead, /Python reads NaN and Infinity, Java a raw tab and a leading zero/);
});
