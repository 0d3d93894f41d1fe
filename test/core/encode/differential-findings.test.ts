/**
 * The differences the runtime differential (test/oracle/runtimes.test.ts) found between the
 * preview and the real runtimes, each held here without any runtime installed, so that they stay
 * fixed where PHP, Go or a JDK is missing. docs/differential-findings.md lists them with their
 * causes; the expected outcomes are the runtimes' (measured), written out by hand.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encodeEnvelope, SDK_NAMES, type SdkName } from '../../../core/encode';
import { consumerVerdicts } from '../../../core/message/acceptance';
import { parseJson } from '../../../core/parse/parser';

const META = '"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"php","schema_version":1,"created_at":1749132727000}';
const envelope = (data: string, extra = '') => `{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":${data},${META},"attempts":0${extra}}`;
const relay = (text: string, sdk: SdkName) => encodeEnvelope(parseJson(text), sdk);
const decodeFails = (text: string, sdk: SdkName) => consumerVerdicts(text).find((v) => v.sdk === sdk)!.reasons.some((reason) => reason.stage === 'decode');

describe('PHP: json_decode refuses the whole document for an unpaired surrogate escape anywhere', () => {
  test('in a value a later duplicate key replaces', () => {
    const text = envelope('{"a":"\\ud800","a":"x"}');
    const php = relay(text, 'php');
    assert.ok(!php.ok, 'PHP writes nothing: its decode fails (JSON_ERROR_UTF16)');
    assert.ok(decodeFails(text, 'php'));
    // The others decode it, and keep the last copy.
    for (const sdk of ['python', 'node', 'java'] as const) assert.match((relay(text, sdk) as { text: string }).text, /"data":\{"a":"x"\}/, sdk);
  });
  test('in a key, and outside data', () => {
    assert.ok(!relay(envelope('{"\\udc00":1}'), 'php').ok);
    assert.ok(!relay(envelope('{"a":1}', ',"x_note":"\\ud83d"'), 'php').ok);
    assert.ok(relay(envelope('{"a":"\\ud83d\\ude00"}'), 'php').ok, 'a paired escape is a character');
  });
});

describe('Go: json.Unmarshal fails on a number beyond float64 anywhere below data', () => {
  test('in a value a later duplicate key replaces', () => {
    const text = envelope('{"a":1e400,"a":1}');
    assert.ok(!relay(text, 'go').ok);
    assert.ok(decodeFails(text, 'go'));
    // PHP, Python, Node and Java read the last copy, 1.
    assert.match((relay(text, 'node') as { text: string }).text, /"data":\{"a":1\}/);
  });
  test('in a repeated data object, matched case-insensitively; not in a key Go skips unread', () => {
    assert.ok(!relay(envelope('{"a":1}', ',"Data":{"b":[2e308]}'), 'go').ok);
    const outside = envelope('{"a":1}', ',"x_note":1e400');
    assert.ok(relay(outside, 'go').ok, 'an unknown key is skipped without converting its number');
    assert.ok(!decodeFails(outside, 'go'));
  });
});

describe('Go: its decoder fails on a dead_letter field of another type (the acceptance model said it accepts)', () => {
  for (const block of ['{"reason":5}', '{"failed_at":"x"}', '{"attempts":1.5}', '{"exception":[]}']) {
    test(block, () => {
      const text = envelope('{"a":1}', `,"dead_letter":${block}`);
      assert.ok(!relay(text, 'go').ok, 'the relay gets no envelope');
      assert.ok(decodeFails(text, 'go'), 'and the model says the decode fails');
    });
  }
  test('null fields are left as they are', () => {
    const text = envelope('{"a":1}', ',"dead_letter":{"reason":"failed","error":null,"exception":null}');
    assert.ok(relay(text, 'go').ok);
    assert.ok(!decodeFails(text, 'go'));
  });
});

describe('a body that is not JSON: some decoders tolerate it, the preview refuses it for every SDK', () => {
  const cases: readonly [string, string, readonly SdkName[]][] = [
    ['a bare NaN', envelope('{"a":NaN}'), ['python']],
    ['a raw TAB in a string', envelope('{"a":"x\ty"}'), ['java']],
    ['a leading zero', envelope('{"a":00}'), ['java']],
  ];
  for (const [label, text, tolerant] of cases) {
    test(`${label}: ${tolerant.join(', ')} decode${tolerant.length === 1 ? 's' : ''} it; no encoder writes it`, () => {
      for (const sdk of SDK_NAMES) assert.ok(!relay(text, sdk).ok, `${sdk} must not write a body from text that is not JSON`);
      for (const sdk of ['php', 'python', 'node', 'go', 'java'] as const) assert.equal(decodeFails(text, sdk), !tolerant.includes(sdk), `${sdk}'s decoder`);
    });
  }
});

test('Java: Double.toString as JDK 17 writes it, in the relayed bytes', () => {
  assert.match((relay(envelope('{"x":1e23,"y":2.82879384806159E17}'), 'java') as { text: string }).text, /"data":\{"x":9\.999999999999999E22,"y":2\.82879384806159008E17\}/);
});
