/**
 * Integer literals beyond ±(2^53−1) against a registered schema's numeric keywords: the verdict is
 * the one of the literal's digits against the schema's number as written, not of two doubles.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseJson, parseText } from '../../../core/parse/parser';
import { analyze, analyzeDocument } from '../../../core/rules/analyze';
import { reparse } from '../../../core/parse/incremental';
import { DEFAULT_SETTINGS, type Settings } from '../../../core/rules/settings/settings';
import { hover } from '../../../core/language/hover';
import { loadRegistry } from '../../../workspace/registry-loader';

const SCHEMAS: Record<string, string> = {
  max: '{"type":"object","properties":{"n":{"type":"integer","maximum":9007199254740992}}}',
  exclusiveMax: '{"type":"object","properties":{"n":{"type":"integer","exclusiveMaximum":9007199254740993}}}',
  min: '{"type":"object","properties":{"n":{"type":"integer","minimum":-9007199254740992}}}',
  constant: '{"type":"object","properties":{"n":{"const":9007199254740993}}}',
  choices: '{"type":"object","properties":{"n":{"enum":[9007199254740993, 18014398509481985]}}}',
  multiple: '{"type":"object","properties":{"n":{"multipleOf":3}}}',
  nested: '{"type":"object","properties":{"list":{"type":"array","items":{"$ref":"#/definitions/big"}}},"definitions":{"big":{"maximum":12345678901234567890}}}',
  branch: '{"type":"object","properties":{"n":{"anyOf":[{"maximum":9007199254740992},{"type":"string"}]}}}',
};

describe('integers beyond 2^53 against numeric keywords', () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-big-integers-'));
  mkdirSync(join(root, 'schemas'), { recursive: true });
  for (const [name, schema] of Object.entries(SCHEMAS)) writeFileSync(join(root, 'schemas', `${name}.json`), schema);
  writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: Object.keys(SCHEMAS).map((name) => ({ urn: `urn:babel:big:${name.toLowerCase()}`, schema: `schemas/${name}.json` })) }));
  const state = loadRegistry(join(root, 'registry.json'), root).state;
  rmSync(root, { recursive: true, force: true });

  const findings = (name: string, data: string) => {
    const text = `{"job":"urn:babel:big:${name.toLowerCase()}","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":${data},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"q","lang":"go","schema_version":1,"created_at":1749132727000},"attempts":0}`;
    return analyze(parseJson(text), DEFAULT_SETTINGS, state).filter((d) => d.code === 'payload-schema');
  };
  const fails = (name: string, data: string) => findings(name, data).length > 0;

  test('the registry loads', () => assert.equal(state.kind, 'loaded'));
  test('maximum: one past fails, equal passes', () => {
    assert.equal(fails('max', '{"n":9007199254740993}'), true);
    assert.equal(fails('max', '{"n":9007199254740992}'), false);
    assert.equal(fails('max', '{"n":9007199254740991}'), false);
    const [finding] = findings('max', '{"n":9007199254740993}');
    assert.match(finding.message, /9007199254740992; found 9007199254740993/);
  });
  test('exclusiveMaximum and minimum', () => {
    assert.equal(fails('exclusiveMax', '{"n":9007199254740993}'), true);
    assert.equal(fails('exclusiveMax', '{"n":9007199254740992}'), false);
    assert.equal(fails('min', '{"n":-9007199254740993}'), true);
    assert.equal(fails('min', '{"n":-9007199254740992}'), false);
  });
  test('const and enum compare the digits', () => {
    assert.equal(fails('constant', '{"n":9007199254740993}'), false);
    assert.equal(fails('constant', '{"n":9007199254740992}'), true);
    assert.equal(fails('choices', '{"n":18014398509481985}'), false);
    assert.equal(fails('choices', '{"n":18014398509481984}'), true);
    assert.equal(fails('choices', '{"n":9007199254740992}'), true);
  });
  test('multipleOf', () => {
    assert.equal(fails('multiple', '{"n":9007199254740993}'), false);
    assert.equal(fails('multiple', '{"n":9007199254740994}'), true);
  });
  test('through items and a $ref, with the schema\'s own number read as written', () => {
    assert.equal(fails('nested', '{"list":[1, 12345678901234567890]}'), false);
    assert.equal(fails('nested', '{"list":[1, 12345678901234567891]}'), true);
  });
  test('typed: a digit that makes an integer one past maximum, in a payload that held no long integer, fails as a fresh analysis says', () => {
    const text = (n: string) => `{"job":"urn:babel:big:max","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{"m":1,"n":${n}},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"q","lang":"go","schema_version":1,"created_at":1749132727000},"attempts":0}`;
    // 900719925474099 (15 digits) → 9007199254740993, one digit at a time: each version from the previous.
    const steps = ['900719925474099', '9007199254740993', '900719925474099'];
    let previousDoc = parseText(text(steps[0]));
    let previous = analyzeDocument(previousDoc, DEFAULT_SETTINGS, state);
    for (const n of steps.slice(1)) {
      const doc = reparse(previousDoc, text(n));
      assert.ok(doc, 'a digit typed into a number is reparsed from the previous version');
      const typed = analyzeDocument(doc, DEFAULT_SETTINGS, state, previous);
      const fresh = analyze(parseText(text(n)), DEFAULT_SETTINGS, state);
      assert.deepEqual(typed.diagnostics, fresh);
      assert.equal(typed.diagnostics.some((d) => d.code === 'payload-schema'), n === '9007199254740993', n);
      [previousDoc, previous] = [doc, typed];
    }
  });
  test('under a branch the verdict is not claimed: a note says it is not exact', () => {
    const found = findings('branch', '{"n":9007199254740993}');
    assert.equal(found.length, 1);
    assert.equal(found[0].severity, 'information');
    assert.match(found[0].message, /not exact/);
  });
});

describe('a bound a double does not hold is named as the schema file writes it', () => {
  const WRITTEN: Record<string, string> = {
    max: '{"type":"object","properties":{"n":{"type":"number","maximum":9007199254740993}}}',
    exclusiveMin: '{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":-9007199254740993}}}',
    multiple: '{"type":"object","properties":{"n":{"type":"number","multipleOf":9007199254740993}}}',
    fraction: '{"type":"object","properties":{"n":{"type":"number","maximum":1.00000000000000000001}}}',
    referenced: '{"type":"object","properties":{"n":{"$ref":"#/definitions/big"}},"definitions":{"big":{"maximum":12345678901234567891}}}',
    exact: '{"type":"object","properties":{"n":{"type":"number","maximum":1e2,"minimum":-12345678901234.5}}}',
    minimum: '{"type":"object","properties":{"n":{"type":"integer","minimum":9007199254740993}}}',
    // 23 significant digits, no 16 of them in a row: the double is 1234567890.1234567.
    split: '{"type":"object","properties":{"n":{"type":"number","maximum":1234567890.1234567890123}}}',
    // Below the smallest double: read as 0 (and 3e-324 as 5e-324, the smallest there is).
    tiny: '{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":1e-400,"maximum":3e-324}}}',
  };
  const root = mkdtempSync(join(tmpdir(), 'babelq-written-bounds-'));
  mkdirSync(join(root, 'schemas'), { recursive: true });
  for (const [name, schema] of Object.entries(WRITTEN)) writeFileSync(join(root, 'schemas', `${name}.json`), schema);
  writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: Object.keys(WRITTEN).map((name) => ({ urn: `urn:babel:written:${name.toLowerCase()}`, schema: `schemas/${name}.json` })) }));
  const state = loadRegistry(join(root, 'registry.json'), root).state;
  rmSync(root, { recursive: true, force: true });
  const envelope = (name: string, data: string) => `{"job":"urn:babel:written:${name.toLowerCase()}","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":${data},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"q","lang":"go","schema_version":1,"created_at":1749132727000},"attempts":0}`;
  const messages = (name: string, data: string, settings: Settings = DEFAULT_SETTINGS) => analyze(parseJson(envelope(name, data)), settings, state).filter((d) => d.code === 'payload-schema').map((d) => d.message);

  test('in the message of a value the validator compared as a double: 1e16, 9007199254740995.0, -1e16, 2', () => {
    assert.deepEqual(messages('max', '{"n":1e16}'), ['"n" must be ≤ 9007199254740993; found 1e16 (schema of urn:babel:written:max)']);
    assert.deepEqual(messages('max', '{"n":9007199254740995.0}'), ['"n" must be ≤ 9007199254740993; found 9007199254740995.0 (schema of urn:babel:written:max)']);
    assert.deepEqual(messages('exclusivemin', '{"n":-1e16}'), ['"n" must be > -9007199254740993; found -1e16 (schema of urn:babel:written:exclusivemin)']);
    assert.deepEqual(messages('multiple', '{"n":2}'), ['"n" must be a multiple of 9007199254740993; found 2 (schema of urn:babel:written:multiple)']);
    assert.deepEqual(messages('fraction', '{"n":2}'), ['"n" must be ≤ 1.00000000000000000001; found 2 (schema of urn:babel:written:fraction)']);
    assert.deepEqual(messages('referenced', '{"n":1e20}'), ['"n" must be ≤ 12345678901234567891; found 1e20 (schema of urn:babel:written:referenced)']);
  });
  test('in the message of an integer beyond 2^53, judged by its digits', () => {
    assert.deepEqual(messages('max', '{"n":9007199254740994}'), ['"n" must be ≤ 9007199254740993; found 9007199254740994 (schema of urn:babel:written:max)']);
    assert.deepEqual(messages('max', '{"n":9007199254740993}'), []);
    assert.deepEqual(messages('fraction', '{"n":9007199254740993}'), ['"n" must be ≤ 1.00000000000000000001; found 9007199254740993 (schema of urn:babel:written:fraction)']);
  });
  test('with bqschema followed, whose minimum compares doubles: the bound as written, the verdict as bqschema makes it', () => {
    const bqschema: Settings = { ...DEFAULT_SETTINGS, registryValidator: 'bqschema' };
    assert.deepEqual(messages('minimum', '{"n":1}', bqschema).map((message) => message.replace(/ \(.*$/, '')), ['"n" must be ≥ 9007199254740993; found 1']);
    // As a float64, 9007199254740992 is the bound itself: bqschema (and Go, PHP, Python, Node, Java) accepts it.
    assert.deepEqual(messages('minimum', '{"n":9007199254740992}', bqschema), []);
  });
  test('a number a double holds is worded as before: 1e2 is 100', () => {
    assert.deepEqual(messages('exact', '{"n":101}'), ['"n" must be ≤ 100; found 101 (schema of urn:babel:written:exact)']);
    assert.deepEqual(messages('exact', '{"n":-1e14}'), ['"n" must be ≥ -12345678901234.5; found -1e14 (schema of urn:babel:written:exact)']);
  });
  test('in the hovers on the URN and on the data key', () => {
    const text = envelope('max', '{"n":1}');
    const onUrn = hover(parseJson(text), text.indexOf('urn:babel:written:max') + 3, state)!.contents;
    assert.match(onUrn, /number ≤ 9007199254740993/);
    const onKey = hover(parseJson(text), text.indexOf('"n"') + 1, state)!.contents;
    assert.match(onKey, /number ≤ 9007199254740993/);
    const fraction = envelope('fraction', '{"n":1}');
    assert.match(hover(parseJson(fraction), fraction.indexOf('"n"') + 1, state)!.contents, /number ≤ 1\.00000000000000000001/);
  });
  test('a bound too small for a double, which reads it as 0 or as the smallest double, is named as written', () => {
    assert.deepEqual(messages('tiny', '{"n":0}'), ['"n" must be > 1e-400; found 0 (schema of urn:babel:written:tiny)']);
    assert.deepEqual(messages('tiny', '{"n":1e-300}'), ['"n" must be ≤ 3e-324; found 1e-300 (schema of urn:babel:written:tiny)']);
    const text = envelope('tiny', '{"n":1}');
    assert.match(hover(parseJson(text), text.indexOf('"n"') + 1, state)!.contents, /number &gt; 1e-400 and ≤ 3e-324/);
  });
  test('in the hovers and the message alike where the digits a double drops lie on both sides of the point', () => {
    assert.deepEqual(messages('split', '{"n":1234567891}'), ['"n" must be ≤ 1234567890.1234567890123; found 1234567891 (schema of urn:babel:written:split)']);
    const text = envelope('split', '{"n":1}');
    assert.match(hover(parseJson(text), text.indexOf('"n"') + 1, state)!.contents, /number ≤ 1234567890\.1234567890123/);
  });
});
