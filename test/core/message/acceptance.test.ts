/**
 * Each SDK consumer's verdict on exact bytes (core/message/acceptance.ts), row by row from the
 * facts' decode-acceptance table (part 2, §2; part 1, §1.5), written out by hand: A accepts, N
 * accepts with a note, R rejects. The decoders' own failures are also checked against the real
 * PHP, Python and Go in test/oracle/runtimes.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { consumerVerdicts, describeRejections } from '../../../core/message/acceptance';

const META = '"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"php","schema_version":1,"created_at":1749132727000}';
const TRACE = '"trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"';

/** The canonical envelope with one part replaced: `job`, `trace`, `data`, `meta`, `attempts` or `extra`. */
function body(parts: { job?: string; trace?: string; data?: string; meta?: string; attempts?: string; extra?: string } = {}): string {
  const fields = [
    parts.job ?? '"job":"urn:babel:orders:created"',
    parts.trace ?? TRACE,
    parts.data ?? '"data":{"a":1}',
    parts.meta ?? META,
    parts.attempts ?? '"attempts":0',
    parts.extra ?? '',
  ].filter((field) => field !== '');
  return `{${fields.join(',')}}`;
}

/** PHP, Python, Node, Go, Java. */
type Row = readonly [label: string, body: string, verdicts: string];

const ROWS: readonly Row[] = [
  ['canonical', body(), 'AAAAA'],
  ['data: []', body({ data: '"data":[]' }), 'ARRRR'],
  ['data: {}', body({ data: '"data":{}' }), 'NAAAA'],
  ['data: null', body({ data: '"data":null' }), 'RRRRR'],
  ['data missing', body({ data: '"x":1' }), 'RRRRR'],
  ['data: [1]', body({ data: '"data":[1]' }), 'ARRRR'],
  ['schema_version: 2', body({ meta: META.replace('"schema_version":1', '"schema_version":2') }), 'RRRRR'],
  ['schema_version: "1"', body({ meta: META.replace('"schema_version":1', '"schema_version":"1"') }), 'RRRRR'],
  ['schema_version: 1.0', body({ meta: META.replace('"schema_version":1', '"schema_version":1.0') }), 'RAARA'],
  ['schema_version: 1e0', body({ meta: META.replace('"schema_version":1', '"schema_version":1e0') }), 'RAARA'],
  ['schema_version: 1.0000000000000001', body({ meta: META.replace('"schema_version":1', '"schema_version":1.0000000000000001') }), 'RAARA'],
  ['schema_version: 1.5 (Java truncates it)', body({ meta: META.replace('"schema_version":1', '"schema_version":1.5') }), 'RRRRN'],
  ['schema_version: 4294967297', body({ meta: META.replace('"schema_version":1', '"schema_version":4294967297') }), 'RRRRN'],
  ['meta: {"schema_version":1} only', body({ meta: '"meta":{"schema_version":1}' }), 'AAAAA'],
  ['meta: {}', body({ meta: '"meta":{}' }), 'RRRRR'],
  ['attempts missing', body({ attempts: '"x":0' }), 'RRRNN'],
  ['attempts: -1', body({ attempts: '"attempts":-1' }), 'AAAAA'],
  ['attempts: "0"', body({ attempts: '"attempts":"0"' }), 'RRRRN'],
  ['attempts: 1.0', body({ attempts: '"attempts":1.0' }), 'RRARN'],
  ['attempts: 9223372036854775808', body({ attempts: '"attempts":9223372036854775808' }), 'RAARN'],
  ['9007199254740993 in data (Node and Go round it)', body({ data: '"data":{"a":9007199254740993}' }), 'AANNA'],
  ['18446744073709551616 in data', body({ data: '"data":{"a":18446744073709551616}' }), 'NANNA'],
  ['job "" + urn', body({ job: '"job":"","urn":"urn:babel:orders:created"' }), 'RAAAA'],
  ['job "   " + urn', body({ job: '"job":"   ","urn":"urn:babel:orders:created"' }), 'AARAA'],
  ['job: 123', body({ job: '"job":123' }), 'RNRRR'],
  ['trace_id: "  "', body({ trace: '"trace_id":"  "' }), 'AARRR'],
  ['trace_id missing', body({ trace: '"x":"y"' }), 'RRRRR'],
  ['key "JOB" instead of job', body({ job: '"JOB":"urn:babel:orders:created"' }), 'RRRNR'],
  ['forbidden keys timestamp and meta.ts (Go and Java drop them)', body({ meta: META.replace('"meta":{', '"meta":{"ts":1,'), extra: '"timestamp":1' }), 'AAANN'],
  ['data {"a":1} then data {"b":2} (Go merges them)', body({ extra: '"data":{"b":2}' }), 'AAANA'],
  ['1e400 in data', body({ data: '"data":{"a":1e400}' }), 'NNNRN'],
  ['NaN in data (Python accepts it, and notes it)', body({ data: '"data":{"a":NaN}' }), 'RNRRR'],
  ['lone surrogate escape', body({ data: '"data":{"a":"\\ud800"}' }), 'RAANA'],
  ['raw TAB in a string', body({ data: '"data":{"a":"x\ty"}' }), 'RRRRA'],
  ['trailing garbage', `${body()} x`, 'RRRRR'],
  ['nesting depth 600', body({ data: `"data":{"a":${'['.repeat(600)}${']'.repeat(600)}}` }), 'RAAAA'],
  ['nesting depth 20000 (Node reads it, and its re-encode throws RangeError)', body({ data: `"data":{"a":${'['.repeat(20000)}${']'.repeat(20000)}}` }), 'RRNRR'],
  // Read from the SDKs' decoders (EnvelopeCodec.decode, Decode, urn()): which values fall back to
  // the urn alias, and which characters each one's trim or blank test takes for white space.
  ['job: 123 + urn (Java reads a job that is no string as null and falls back)', body({ job: '"job":123,"urn":"urn:babel:orders:created"' }), 'RNRRA'],
  ['job: 0 + urn (falsy: Python and Node fall back, so does Java)', body({ job: '"job":0,"urn":"urn:babel:orders:created"' }), 'RAARA'],
  ['job: true (Python routes on str(True))', body({ job: '"job":true' }), 'RNRRR'],
  ['trace_id: NBSP (Java\'s isBlank keeps it; Node\'s trim and Go\'s TrimSpace do not)', body({ trace: '"trace_id":"\u00a0"' }), 'AARRA'],
  ['urn: U+0085 only (Go\'s TrimSpace takes it for white space; JavaScript\'s trim does not)', body({ job: '"urn":"\u0085"' }), 'AAARA'],
  ['urn: U+FEFF only (JavaScript\'s trim takes it for white space; Go\'s TrimSpace does not)', body({ job: '"urn":"\ufeff"' }), 'AARAA'],
  // encoding/json: a null leaves a string, int or struct field as it was, and empties a map.
  ['job "…" then job null (Go keeps the string)', body({ job: '"job":"urn:babel:orders:created","job":null' }), 'RRRAR'],
  ['trace_id "…" then trace_id null (Go keeps the string)', body({ trace: `${TRACE},"trace_id":null` }), 'RRRAR'],
  ['attempts 0 then attempts null (Go keeps 0)', body({ attempts: '"attempts":0,"attempts":null' }), 'RRRAN'],
  ['attempts null alone (Go reads 0)', body({ attempts: '"attempts":null' }), 'RRRNN'],
  ['schema_version 1 then schema_version null (Go keeps 1)', body({ meta: META.replace('"schema_version":1', '"schema_version":1,"schema_version":null') }), 'RRRAR'],
  ['meta then meta null (Go keeps the Meta struct)', body({ extra: '"meta":null' }), 'RRRAR'],
  ['meta then a meta without schema_version (Go merges them and keeps 1)', body({ extra: '"meta":{"id":"x"}' }), 'RRRNR'],
  ['data then data null (Go empties the map)', body({ extra: '"data":null' }), 'RRRRR'],
];

const LETTER = { accepts: 'A', 'accepts-with-note': 'N', rejects: 'R', 'not-measured': '?', 'not-known': 'K' } as const;

for (const [label, text, expected] of ROWS) {
  test(`${label}: PHP, Python, Node, Go, Java = ${expected}; .NET not measured`, () => {
    const verdicts = consumerVerdicts(text);
    assert.deepEqual(verdicts.map((v) => v.sdk), ['php', 'python', 'node', 'go', 'java', 'dotnet']);
    assert.equal(verdicts.slice(0, 5).map((v) => LETTER[v.kind]).join(''), expected, JSON.stringify(verdicts, null, 1));
    assert.equal(verdicts[5].kind, 'not-measured');
    for (const verdict of verdicts) assert.equal(verdict.kind === 'accepts', verdict.reasons.length === 0, `${verdict.sdk}: a reason for every verdict but a plain accept`);
  });
}

test("PHP's []: the rejections name each consumer with its reason, and what the runtimes do with it (facts part 2, §5)", () => {
  assert.equal(
    describeRejections(consumerVerdicts(body({ data: '"data":[]' }))),
    "Python (data must be an object (a dict); its BabelQueue runtime never calls accepts() and runs the URN's handler all the same, with data {}), " +
      'Node (data must be an object; its Redis and RabbitMQ consumers move the raw body, without a dead_letter block, to <queue>.dlq (on RabbitMQ only if that queue exists)), ' +
      "Go (json.Unmarshal fails: data is an array, not an object; Go's App decodes it to the zero envelope, retries that, then dead-letters it as unknown_urn where dead-lettering is on, and drops it where it is off (the default): the original bytes are lost), " +
      'Java (data must be an object (it decodes to null))',
  );
});

test('the runtime notes follow what the facts measured (§2.1): a gate rejection runs the handler in Python and Go, an undecodable body is lost', () => {
  const runtimeOf = (text: string, sdk: string) => consumerVerdicts(text).find((v) => v.sdk === sdk)?.runtime;
  const version2 = body({ meta: META.replace('"schema_version":1', '"schema_version":2') });
  assert.equal(runtimeOf(version2, 'python'), "its BabelQueue runtime never calls accepts() and runs the URN's handler all the same");
  assert.equal(runtimeOf(version2, 'go'), "Go's App never calls Accepts and runs the URN's handler all the same");
  assert.match(runtimeOf(`${body()} x`, 'python')!, /reads an undecodable body as \{\}.*the body is lost/);
  // Without a URN there is no handler to run: nothing is claimed.
  assert.equal(runtimeOf(body({ job: '"x":1', data: '"data":[]' }), 'python'), undefined);
  // A crash of the decoder is no "undecodable body" the runtime reads as {}.
  assert.equal(runtimeOf(body({ data: `"data":{"a":${'['.repeat(1100)}${']'.repeat(1100)}}` }), 'python'), undefined);
  // PHP's dispatcher and Java have no runtime of theirs in the facts.
  assert.equal(runtimeOf(body({ data: '"data":null' }), 'php'), undefined);
  assert.equal(runtimeOf(body({ data: '"data":null' }), 'java'), undefined);
  // An accepted body has no runtime note.
  assert.equal(runtimeOf(body(), 'node'), undefined);
});

test('a typed SDK names the keys it drops, and Go says when it merges repeated objects', () => {
  const text = body({ meta: META.replace('"meta":{', '"meta":{"ts":1,'), extra: '"timestamp":1,"x_extra":{"a":1},"dead_letter":{"reason":"failed","note":"x"}' });
  const notes = (sdk: string) => consumerVerdicts(text).find((v) => v.sdk === sdk)!.reasons.map((r) => r.message);
  assert.deepEqual(notes('go'), ['drops the keys its Envelope struct does not have: timestamp, x_extra, meta.ts, dead_letter.note']);
  assert.deepEqual(notes('java'), ['drops the keys its envelope model does not have: timestamp, x_extra, meta.ts, dead_letter.note']);
  const repeated = body({ extra: `"data":{"b":2},${META.replace('"lang":"php"', '"lang":"go"')},"Data":{"c":3}` });
  assert.deepEqual(
    consumerVerdicts(repeated).find((v) => v.sdk === 'go')!.reasons.map((r) => r.message),
    [
      'reads the key "Data" as data (it matches field names case-insensitively)',
      'merges the 3 data objects into one (the keys of each, the last value of a repeated key), where the other SDKs keep the last data',
      'merges the 2 meta objects into one (the keys of each, the last value of a repeated key), where the other SDKs keep the last meta',
    ],
  );
  // A null data resets Go's map: what follows it is all that is kept.
  assert.ok(!consumerVerdicts(body({ extra: '"data":null,"data":{"b":2}' })).find((v) => v.sdk === 'go')!.reasons.some((r) => /merges/.test(r.message)));
  // A meta null leaves the struct: the objects on both sides of it merge. A dead_letter null sets the
  // pointer to nil: only the objects after it merge, though Go drops the keys of every one it read.
  const nulls = body({ extra: `"meta":null,"Meta":{"ts":1},"dead_letter":{"reason":"a","x":1},"dead_letter":null,"dead_letter":{"reason":"b"},"DEAD_LETTER":{"y":2}` });
  assert.deepEqual(consumerVerdicts(nulls).find((v) => v.sdk === 'go')!.reasons.map((r) => r.message), [
    'reads the key "Meta" as meta (it matches field names case-insensitively)',
    'reads the key "DEAD_LETTER" as dead_letter (it matches field names case-insensitively)',
    'drops the keys its Envelope struct does not have: meta.ts, dead_letter.x, dead_letter.y',
    'merges the 2 meta objects into one (the keys of each, the last value of a repeated key), where the other SDKs keep the last meta',
    'merges the 2 dead_letter objects into one (the keys of each, the last value of a repeated key), where the other SDKs keep the last dead_letter',
  ]);
});

test('"JOB" after job: the Go note says Go routes on the later URN, where the others route on job (facts part 2, §2)', () => {
  const goNotes = (text: string) => consumerVerdicts(text).find((v) => v.sdk === 'go')!.reasons.map((r) => r.message);
  assert.deepEqual(goNotes(body({ extra: '"JOB":"urn:babel:orders:updated"' })), [
    'reads the key "JOB" as job (it matches field names case-insensitively), and, as it comes after "job", routes on "urn:babel:orders:updated" where the other SDKs route on "urn:babel:orders:created"',
  ]);
  // Before job, or null, or the same URN: Go routes where the others do, and the note says no more.
  for (const job of ['"JOB":"urn:babel:orders:updated","job":"urn:babel:orders:created"', '"job":"urn:babel:orders:created","JOB":null', '"job":"urn:babel:orders:created","JOB":"urn:babel:orders:created"']) {
    assert.deepEqual(goNotes(body({ job })), ['reads the key "JOB" as job (it matches field names case-insensitively)'], job);
  }
});

test('"JOB" with job null: Go routes on the variant wherever it stands, as a null sets no Job; the note says so', () => {
  const goNotes = (text: string) => consumerVerdicts(text).find((v) => v.sdk === 'go')!.reasons.map((r) => r.message);
  for (const job of ['"JOB":"urn:babel:orders:updated","job":null', '"job":null,"JOB":"urn:babel:orders:updated"']) {
    assert.deepEqual(
      goNotes(body({ job })),
      ['reads the key "JOB" as job (it matches field names case-insensitively), and, as "job" is null, which sets nothing in Go, routes on "urn:babel:orders:updated" where the other SDKs read job as null'],
      job,
    );
  }
});

test('Go refuses a dead_letter field of another type (found by the runtime differential: its decoder fails)', () => {
  for (const block of ['{"reason":5}', '{"failed_at":"x"}', '{"attempts":1.5}', '{"error":true}', '[]']) {
    const go = consumerVerdicts(body({ extra: `"dead_letter":${block}` })).find((v) => v.sdk === 'go')!;
    assert.equal(go.kind, 'rejects', block);
    assert.equal(go.reasons[0].stage, 'decode', block);
  }
  assert.equal(consumerVerdicts(body({ extra: '"dead_letter":{"error":null,"exception":"E","failed_at":1}' })).find((v) => v.sdk === 'go')!.kind, 'accepts');
});

test("Go's App and Python's BabelQueue dead-letter only when told to (facts part 2, §3.1: off by default): an undecodable body is dropped otherwise", () => {
  const runtimeOf = (text: string, sdk: string) => consumerVerdicts(text).find((v) => v.sdk === sdk)?.runtime ?? '';
  const undecodable = `${body()} x`;
  assert.match(runtimeOf(undecodable, 'go'), /dead-letters it as unknown_urn where dead-lettering is on, and drops it where it is off \(the default\)/);
  assert.match(runtimeOf(undecodable, 'python'), /the DLQ gets \{"attempts":3, "dead_letter":…\} where dead-lettering is on, and nothing where it is off \(the default\)/);
});

test('the runtimes route as their decoders read job: a whitespace job beside urn is routed on as written by Python and Go, so no handler runs', () => {
  const runtimeOf = (text: string, sdk: string) => consumerVerdicts(text).find((v) => v.sdk === sdk)?.runtime;
  const version2 = META.replace('"schema_version":1', '"schema_version":2');
  const blankJob = body({ job: '"job":"   ","urn":"urn:babel:orders:created"', meta: version2 });
  assert.equal(runtimeOf(blankJob, 'python'), undefined);
  assert.equal(runtimeOf(blankJob, 'go'), undefined);
  // An empty job falls back to urn in both, and a falsy one in Python: the urn's handler runs.
  const emptyJob = body({ job: '"job":"","urn":"urn:babel:orders:created"', meta: version2 });
  assert.match(runtimeOf(emptyJob, 'python')!, /runs the URN's handler/);
  assert.match(runtimeOf(emptyJob, 'go')!, /runs the URN's handler/);
  assert.match(runtimeOf(body({ job: '"job":0,"urn":"urn:babel:orders:created"', meta: version2 }), 'python')!, /runs the URN's handler/);
});

// Bare NaN and Infinity past the parser's bound on listed syntax problems (1,000): json.loads reads
// every one of them (facts part 2, §2: "NaN literal in data", Python A; part 1, §1.7), so Python's
// verdict cannot depend on how many there are; the bound is the parser's, not Python's.
const nonFinite = (count: number, after = '') => body({ data: `"data":{"v":[${Array.from({ length: count }, (_, i) => ['Infinity', 'NaN', '-Infinity'][i % 3]).join(',')}]${after}}` });

test('more than 1,000 bare NaN and Infinity values: Python accepts the body as it does 999 of them; the others still reject it', () => {
  for (const count of [999, 1000, 1001, 3000]) {
    const verdicts = consumerVerdicts(nonFinite(count));
    const python = verdicts.find((verdict) => verdict.sdk === 'python')!;
    assert.equal(python.kind, 'accepts-with-note', `${count}: ${JSON.stringify(python.reasons)}`);
    assert.match(python.reasons[0].message, /non-finite float/);
    for (const sdk of ['php', 'node', 'go', 'java']) {
      const verdict = verdicts.find((v) => v.sdk === sdk)!;
      assert.equal(verdict.kind, 'rejects', `${sdk} ${count}`);
      assert.match(verdict.reasons[0].message, /refuses a bare NaN or Infinity/, `${sdk} ${count}`);
    }
  }
});

test('past the bound, a problem other than NaN or Infinity: Python rejects for it, and the reason says the listing was cut at the bound', () => {
  const python = consumerVerdicts(nonFinite(1001, ',"w":01')).find((verdict) => verdict.sdk === 'python')!;
  assert.equal(python.kind, 'rejects');
  assert.match(python.reasons[0].message, /listing .*cut at 1,000/);
  assert.match(python.reasons[0].message, /other than a bare NaN or Infinity/);
  assert.doesNotMatch(python.reasons[0].message, /More than 1000 syntax problems/);
});

test('more than 1,000 raw tabs: Java reads past those it was told of, and for the rest the verdict says the listing was cut, not that Java rejects', () => {
  const tabs = body({ data: `"data":{"v":[${Array.from({ length: 1001 }, () => '"a\tb"').join(',')}]}` });
  const verdicts = consumerVerdicts(tabs);
  const java = verdicts.find((verdict) => verdict.sdk === 'java')!;
  assert.notEqual(java.kind, 'rejects');
  assert.match(java.reasons[0].message, /listing .*cut at 1,000/);
  assert.equal(verdicts.find((verdict) => verdict.sdk === 'python')!.kind, 'rejects', 'json.loads refuses a raw tab');
});
