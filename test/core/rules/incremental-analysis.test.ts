/**
 * A string edit reuses the previous findings of the value-local rules (analyzeDocument in
 * core/rules/analyze.ts). Where another rule's verdict depends on the edited string, the reuse must
 * give way: these are the cases found so far, each checked against a fresh analysis.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeDocument, analyzeText } from '../../../core/rules/analyze';
import { reparse } from '../../../core/parse/incremental';
import { parseText } from '../../../core/parse/parser';
import { GOOD_ENVELOPE } from '../../support/envelopes';
import { CONSUMER_CHECK_LIMIT } from '../../../core/rules/contract/consumer-rejects';

function assertAsFresh(before: string, after: string): string[] {
  const previous = parseText(before);
  const next = reparse(previous, after);
  assert.ok(next, 'the edit is a string edit, reparsed incrementally');
  const incremental = analyzeDocument(next, undefined, undefined, analyzeDocument(previous)).diagnostics;
  const fresh = analyzeText(after);
  assert.deepEqual(incremental, fresh);
  return fresh.map((diagnostic) => diagnostic.code);
}

test('typing in meta.lang moves the finding on PHP\'s data array between encoding-divergence and consumer-rejects', () => {
  const php = GOOD_ENVELOPE.replace('{ "order_id": 1042 }', '{ "0": "first", "1": "second" }').replace(/"lang": "[a-z]+"/, '"lang": "php"');
  assert.ok(php.includes('"lang": "php"') && php.includes('"0": "first"'));
  const other = php.replace('"lang": "php"', '"lang": "phép"');
  // With PHP as the fixture's own encoder the consumers' rejection is the one finding; with an unknown lang, the divergence is.
  assert.ok(assertAsFresh(php, other).includes('encoding-divergence'));
  assert.ok(!assertAsFresh(other, php).includes('encoding-divergence'));
});

test('a keystroke that takes the document across the size consumer-rejects judges up to: the same findings as a fresh analysis', () => {
  const make = (pad: number) => GOOD_ENVELOPE.replace('{ "order_id": 1042 }', '{}').replace(/"lang": "[a-z]+"/, '"lang": "php"').replace('"queue": "orders"', `"queue": "orders", "note": "${'x'.repeat(pad)}"`);
  const pad = CONSUMER_CHECK_LIMIT - make(0).length;
  const [at, over] = [make(pad), make(pad + 1)];
  assert.equal(at.length, CONSUMER_CHECK_LIMIT);
  // At the limit consumer-rejects names who rejects PHP's data array; one past it, encoding-divergence does.
  const atLimit = assertAsFresh(over, at);
  const pastIt = assertAsFresh(at, over);
  assert.ok(atLimit.includes('consumer-rejects') && !pastIt.includes('consumer-rejects'));
  const divergences = (codes: string[]) => codes.filter((code) => code === 'encoding-divergence').length;
  assert.equal(divergences(pastIt), divergences(atLimit) + 1);
  // PHP is the fixture's own encoder: its empty data written as [] is a warning, as consumer-rejects' is below the limit.
  const emptyData = analyzeText(over).filter((d) => d.code === 'encoding-divergence' && d.message.startsWith('empty data'));
  assert.deepEqual(emptyData.map((d) => d.severity), ['warning']);
  assert.deepEqual(analyzeText(over.replace('"lang": "php"', '"lang": "node"')).filter((d) => d.message.startsWith('empty data')).map((d) => d.severity), ['information']);
});

test('an empty object inside data: information, a warning when PHP, which writes it as [], is the fixture\'s own encoder', () => {
  const nested = (lang: string) => GOOD_ENVELOPE.replace('{ "order_id": 1042 }', '{ "order_id": 1042, "attributes": {} }').replace(/"lang": "[a-z]+"/, `"lang": "${lang}"`);
  const severities = (text: string) => analyzeText(text).filter((d) => d.code === 'encoding-divergence' && d.message.startsWith('{}: PHP writes []')).map((d) => d.severity);
  assert.deepEqual(severities(nested('node')), ['information']);
  assert.deepEqual(severities(nested('php')), ['warning']);
});

test('a digit typed into a number reuses the value-local findings and checks the number: money, precision, SDK text, typed fields', () => {
  const base = GOOD_ENVELOPE.replace('{ "order_id": 1042 }', '{ "order_id": 1042, "price": 12, "ratio": 1, "ids": [7] }');
  const cases: [string, string, string][] = [
    ['"price": 12', '"price": 12.5', 'float-currency'],
    ['"ids": [7]', '"ids": [9007199254740993]', 'unsafe-integer'],
    ['"ratio": 1', '"ratio": 1.0', 'encoding-divergence'],
    // Outside data, a typed field: the rules run again (what the typed SDKs read is not local to the value).
    ['"attempts": 0', '"attempts": 0.5', 'wrong-type'],
  ];
  for (const [from, to, code] of cases) {
    assert.ok(base.includes(from), from);
    const edited = base.replace(from, to);
    const codes = assertAsFresh(base, edited);
    assert.ok(codes.includes(code), `${to}: ${codes.join(', ')}`);
    assert.ok(!assertAsFresh(edited, base).includes(code), `${from} again`);
  }
});

test('typing in a string whose encoding-divergence sits on one of its characters: the finding moves with the character, or goes, as a fresh analysis has it', () => {
  const withNote = (note: string) => GOOD_ENVELOPE.replace('{ "order_id": 1042 }', `{ "order_id": 1042, "note": "${note}" }`);
  // A character typed before it, it deleted, another one (NBSP, which .NET escapes) typed, then it again.
  const steps = ['ok 😀 end', 'ok x😀 end', 'ok x end', 'ok x\u00a0 end', 'ok x\u00a0 😀 end'];
  for (let i = 1; i < steps.length; i++) assertAsFresh(withNote(steps[i - 1]), withNote(steps[i]));
  const [finding] = analyzeText(withNote(steps[1])).filter((d) => d.code === 'encoding-divergence');
  assert.equal(withNote(steps[1]).slice(finding.offset, finding.end), '😀', 'the finding is on the character');
});

test('typing in "job" or in a "JOB" beside it: the finding on the case variant names the URNs Go and the other SDKs route on, as a fresh analysis has them', () => {
  const withVariant = (job: string, variant: string) => GOOD_ENVELOPE.replace('"job": "urn:babel:orders:created",', `"job": "${job}",\n  "JOB": "${variant}",`);
  const [job, variant] = ['urn:babel:orders:created', 'urn:babel:orders:shipped'];
  assert.ok(withVariant(job, variant).includes('"JOB"'));
  const steps = [withVariant(job, variant), withVariant(`${job}x`, variant), withVariant(`${job}x`, `${variant}x`), withVariant(job, `${variant}x`), withVariant(job, variant)];
  for (let i = 1; i < steps.length; i++) assertAsFresh(steps[i - 1], steps[i]);
  const [finding] = analyzeText(steps[2]).filter((d) => d.code === 'encoding-divergence');
  assert.match(finding.message, /Go routes on "urn:babel:orders:shippedx" where the other SDKs route on "urn:babel:orders:createdx"/);
});

test('typing in a string inside meta.ext, whose value PHP, Python and Node keep: the same findings as a fresh analysis', () => {
  const withNote = (note: string) => GOOD_ENVELOPE.replace('"created_at": 1749132727000', `"created_at": 1749132727000,\n    "ext": { "acme": { "note": "${note}" } }`);
  assert.ok(withNote('ab').includes('"ext"'));
  const steps = ['ab', 'a\u2028b', 'a\u2028bc', 'ab'];
  for (let i = 1; i < steps.length; i++) assertAsFresh(withNote(steps[i - 1]), withNote(steps[i]));
  assert.ok(analyzeText(withNote(steps[1])).some((d) => d.code === 'encoding-divergence' && d.message.startsWith('U+2028')));
});

test('typing in dead_letter.error, a string every SDK writes back: the same findings as a fresh analysis', () => {
  const withError = (error: string) => GOOD_ENVELOPE.replace('"attempts": 0\n', `"attempts": 0,\n  "dead_letter": { "reason": "failed", "error": "${error}", "exception": null, "failed_at": 1749132730000, "original_queue": "orders", "attempts": 3, "lang": "php" }\n`);
  assert.ok(withError('down').includes('"dead_letter"'));
  const steps = ['down', 'do\u2028wn', 'do\u2028wn!', 'down'];
  for (let i = 1; i < steps.length; i++) assertAsFresh(withError(steps[i - 1]), withError(steps[i]));
  assert.ok(analyzeText(withError(steps[1])).some((d) => d.code === 'encoding-divergence' && d.message.startsWith('U+2028')));
});

test('an edit outside data keeps data\'s findings and finds every other one again: the same findings as a fresh analysis', () => {
  // Data with findings before and after the edited places: SDK number text, an exponent, an
  // integer-like key, an empty object, and nesting past .NET's 64 levels (the depth finding in data).
  const deep = `${'['.repeat(70)}1${']'.repeat(70)}`;
  const data = `{ "a": 10.0, "0": "zero", "big": 1e21, "empty": {}, "deep": ${deep}, "z": -0.0 }`;
  const make = (job: string, variant: string, note: string, count: string, attempts: string, extra: string) =>
    GOOD_ENVELOPE.replace('"job": "urn:babel:orders:created",', `"job": "${job}",\n  "JOB": "${variant}",\n  "extra": "${extra}",`)
      .replace('{ "order_id": 1042 }', data)
      .replace('"created_at": 1749132727000', `"created_at": 1749132727000,\n    "ext": { "acme": { "note": "${note}", "count": ${count} } }`)
      .replace('"attempts": 0', `"attempts": ${attempts}`);
  const start = make('urn:babel:orders:created', 'urn:babel:orders:shipped', 'ab', '1', '0', 'x');
  assert.ok(start.includes('"deep"') && start.includes('"ext"') && start.includes('"JOB"') && start.includes('"extra"'));
  const inData = (text: string) => {
    const from = text.indexOf(data);
    return analyzeText(text).filter((d) => d.code === 'encoding-divergence' && d.offset >= from && d.offset < from + data.length);
  };
  assert.ok(inData(start).length >= 5, `data's own findings: ${inData(start).map((d) => d.message.slice(0, 30)).join(' | ')}`);
  assert.ok(inData(start).some((d) => d.message.startsWith('The envelope nests')), 'the depth finding lies in data');
  // One value edited at a time (as a keystroke is), there and back.
  const values: Parameters<typeof make> = ['urn:babel:orders:created', 'urn:babel:orders:shipped', 'ab', '1', '0', 'x'];
  const edits: [number, string][] = [[0, 'urn:babel:orders:createdx'], [1, 'urn:babel:orders:shippedx'], [2, 'a\u2028b'], [3, '1.0'], [4, '0.5'], [5, 'x\u00a0y'], [0, 'urn:babel:orders:created']];
  const steps = [start];
  for (const [index, value] of edits) {
    values[index] = value;
    steps.push(make(...values));
  }
  for (let i = 1; i < steps.length; i++) {
    assertAsFresh(steps[i - 1], steps[i]);
    assertAsFresh(steps[i], steps[i - 1]);
  }
  // The edits outside data changed findings outside it (the case variant, meta.ext's U+2028, the extra key's NBSP).
  const outside = (text: string) => analyzeText(text).filter((d) => d.code === 'encoding-divergence').length - inData(text).length;
  assert.notEqual(outside(steps[3]), outside(start));
});
