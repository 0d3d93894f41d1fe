/**
 * The per-SDK relay encoders (core/encode): what each SDK writes when it decodes an envelope and
 * encodes it again. Expected bytes are written out by hand from the facts (babelqueue-facts.md
 * §1.5, §3 and §8), never produced by the code under test. The .NET column of §8 is UNVERIFIED
 * in the facts themselves, and so are these .NET expectations.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { encodeEnvelope, SDK_NAMES, type EncodeResult, type SdkName } from '../../../core/encode';
import { parseJson } from '../../../core/parse/parser';

const TRACE = '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b';
const META = '"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"php","schema_version":1,"created_at":1749132727000}';

/** A canonical compact envelope around `data` (every SDK writes this frame the same way). */
function envelope(data: string): string {
  return `{"job":"urn:babel:orders:created","trace_id":"${TRACE}","data":${data},${META},"attempts":0}`;
}

function relay(text: string, sdk: SdkName): EncodeResult {
  return encodeEnvelope(parseJson(text), sdk);
}

function bytes(text: string, sdk: SdkName): string {
  const result = relay(text, sdk);
  assert.ok(result.ok, `${sdk} failed: ${result.ok ? '' : result.error}`);
  return result.text;
}

function failure(text: string, sdk: SdkName): string {
  const result = relay(text, sdk);
  assert.ok(!result.ok, `${sdk} should fail but wrote ${result.ok ? result.text : ''}`);
  return result.error;
}

/** What one SDK writes for a value: its text, or a failure whose message matches. */
type Expected = string | { readonly error: RegExp };
type Row = readonly [label: string, input: string, expected: Readonly<Record<SdkName, Expected>>];

// Facts §8, one row per case that a relay can produce (native-only rows such as Java's 0.1f and
// BigDecimal are not reachable from JSON). Columns: PHP, Python, Node, Go, Java, .NET.
const ROWS: readonly Row[] = [
  ['float 99.90', '99.90', { php: '99.9', python: '99.9', node: '99.9', go: '99.9', java: '99.9', dotnet: '99.9' }],
  ['float 10.0', '10.0', { php: '10', python: '10.0', node: '10', go: '10', java: '10.0', dotnet: '10' }],
  ['relay 1.0', '1.0', { php: '1', python: '1.0', node: '1', go: '1', java: '1.0', dotnet: '1' }],
  ['1e21', '1e21', { php: '1.0e+21', python: '1e+21', node: '1e+21', go: '1e+21', java: '1.0E21', dotnet: '1E+21' }],
  ['1e20', '1e20', { php: '1.0e+20', python: '1e+20', node: '100000000000000000000', go: '100000000000000000000', java: '1.0E20', dotnet: '1E+20' }],
  ['1e16', '1e16', { php: '10000000000000000', python: '1e+16', node: '10000000000000000', go: '10000000000000000', java: '1.0E16', dotnet: '1E+16' }],
  ['1e15', '1e15', { php: '1000000000000000', python: '1000000000000000.0', node: '1000000000000000', go: '1000000000000000', java: '1.0E15', dotnet: '1E+15' }],
  ['1e7', '1e7', { php: '10000000', python: '10000000.0', node: '10000000', go: '10000000', java: '1.0E7', dotnet: '10000000' }],
  ['0.0001', '0.0001', { php: '0.0001', python: '0.0001', node: '0.0001', go: '0.0001', java: '1.0E-4', dotnet: '0.0001' }],
  ['1e-5', '1e-5', { php: '1.0e-5', python: '1e-05', node: '0.00001', go: '0.00001', java: '1.0E-5', dotnet: '1E-05' }],
  ['1e-7', '1e-7', { php: '1.0e-7', python: '1e-07', node: '1e-7', go: '1e-7', java: '1.0E-7', dotnet: '1E-07' }],
  ['0.1+0.2', '0.30000000000000004', {
    php: '0.30000000000000004', python: '0.30000000000000004', node: '0.30000000000000004', go: '0.30000000000000004', java: '0.30000000000000004', dotnet: '0.30000000000000004',
  }],
  ['-0.0', '-0.0', { php: '-0', python: '-0.0', node: '0', go: '-0', java: '-0.0', dotnet: '-0' }],
  // Java: JDK 17, which the SDK runs on (facts §8); JDK 19+ writes 1.0E23 (a note says so, tested below).
  ['1e23', '1e23', { php: '1.0e+23', python: '1e+23', node: '1e+23', go: '1e+23', java: '9.999999999999999E22', dotnet: '1E+23' }],
  ['NaN / ±Inf (relay of 1e400)', '1e400', {
    php: { error: /INF/ },
    python: 'Infinity',
    node: 'null',
    go: { error: /float64/ },
    java: { error: /non-finite/ },
    dotnet: { error: /FormatException/ },
  }],
  ['relay of 9007199254740993', '9007199254740993', {
    php: '9007199254740993', python: '9007199254740993', node: '9007199254740992', go: '9007199254740992', java: '9007199254740993', dotnet: '9007199254740993',
  }],
  ['relay of 18446744073709551616', '18446744073709551616', {
    php: '1.8446744073709552e+19', python: '18446744073709551616', node: '18446744073709552000', go: '18446744073709552000', java: '18446744073709551616', dotnet: '1.8446744073709552E+19',
  }],
  ['"Café — naïve ☕"', '"Café — naïve ☕"', {
    php: '"Café — naïve ☕"', python: '"Café — naïve ☕"', node: '"Café — naïve ☕"', go: '"Café — naïve ☕"', java: '"Café — naïve ☕"', dotnet: '"Café — naïve ☕"',
  }],
  ['"😀" (non-BMP)', '"😀"', { php: '"😀"', python: '"😀"', node: '"😀"', go: '"😀"', java: '"😀"', dotnet: '"\\uD83D\\uDE00"' }],
  ['"</script>&<>\'" and /', '"</script>&<>\'/"', {
    php: '"</script>&<>\'/"', python: '"</script>&<>\'/"', node: '"</script>&<>\'/"', go: '"</script>&<>\'/"', java: '"</script>&<>\'/"', dotnet: '"</script>&<>\'/"',
  }],
  ['U+2028 / U+2029', '"\\u2028\\u2029"', {
    php: '"\\u2028\\u2029"', python: '"\u2028\u2029"', node: '"\u2028\u2029"', go: '"\\u2028\\u2029"', java: '"\u2028\u2029"', dotnet: '"\\u2028\\u2029"',
  }],
  ['U+00A0 NBSP / U+3000', '"\\u00a0\\u3000"', {
    php: '"\u00a0\u3000"', python: '"\u00a0\u3000"', node: '"\u00a0\u3000"', go: '"\u00a0\u3000"', java: '"\u00a0\u3000"', dotnet: '"\\u00A0\\u3000"',
  }],
  ['DEL U+007F', '"\\u007f"', { php: '"\u007f"', python: '"\u007f"', node: '"\u007f"', go: '"\u007f"', java: '"\u007f"', dotnet: '"\\u007F"' }],
  ['\\b \\f', '"\\b\\f"', { php: '"\\b\\f"', python: '"\\b\\f"', node: '"\\b\\f"', go: '"\\u0008\\u000c"', java: '"\\b\\f"', dotnet: '"\\b\\f"' }],
  ['U+001F', '"\\u001f"', { php: '"\\u001f"', python: '"\\u001f"', node: '"\\u001f"', go: '"\\u001f"', java: '"\\u001f"', dotnet: '"\\u001F"' }],
  ['other controls (\\n \\r \\t U+0001)', '"\\n\\r\\t\\u0001"', {
    php: '"\\n\\r\\t\\u0001"', python: '"\\n\\r\\t\\u0001"', node: '"\\n\\r\\t\\u0001"', go: '"\\n\\r\\t\\u0001"', java: '"\\n\\r\\t\\u0001"', dotnet: '"\\n\\r\\t\\u0001"',
  }],
  // Go's decoder turns the unpaired escape into U+FFFD, which its encoder writes as the
  // character itself (bytes EF BF BD; facts §8 "\ufffd"). Java writes '?' after UTF-8 encoding.
  ['lone surrogate U+D800', '"a\\ud800b"', {
    php: { error: /JSON_ERROR_UTF16/ },
    python: { error: /UnicodeEncodeError/ },
    node: '"a\\ud800b"',
    go: '"a\ufffdb"',
    java: '"a?b"',
    dotnet: '"a\\uFFFDb"',
  }],
];

describe('facts §8 table: one value inside data, per SDK', () => {
  for (const [label, input, expected] of ROWS) {
    for (const sdk of SDK_NAMES) {
      test(`${label} → ${sdk}`, () => {
        const want = expected[sdk];
        const text = envelope(`{"v":${input}}`);
        if (typeof want === 'string') assert.equal(bytes(text, sdk), envelope(`{"v":${want}}`));
        else assert.match(failure(text, sdk), want.error);
      });
    }
  }
});

describe('key order (facts §8)', () => {
  const ORDER: Readonly<Record<SdkName, string>> = {
    php: '{"b":1,"a":2,"10":3}',
    python: '{"b":1,"a":2,"10":3}',
    // Integer-like keys first, ascending (JavaScript own-key order).
    node: '{"10":3,"b":1,"a":2}',
    // encoding/json sorts map keys.
    go: '{"10":3,"a":2,"b":1}',
    java: '{"b":1,"a":2,"10":3}',
    dotnet: '{"b":1,"a":2,"10":3}',
  };
  for (const sdk of SDK_NAMES) {
    test(`{"b":1,"a":2,"10":3} → ${sdk}`, () => {
      assert.equal(bytes(envelope('{"b":1,"a":2,"10":3}'), sdk), envelope(ORDER[sdk]));
    });
  }

  test('Go sorts nested maps too, by UTF-8 bytes (U+FFFF before U+1F600, unlike UTF-16 order)', () => {
    assert.equal(bytes(envelope('{"z":{"😀":1,"\uffff":2,"y":3}}'), 'go'), envelope('{"z":{"y":3,"\uffff":2,"😀":1}}'));
  });

  test('Node orders integer-like keys first in nested objects and only up to 2^32−2', () => {
    assert.equal(bytes(envelope('{"o":{"b":1,"4294967295":2,"7":3,"1":4}}'), 'node'), envelope('{"o":{"1":4,"7":3,"b":1,"4294967295":2}}'));
  });

  test('the top-level, meta and dead_letter order is fixed in Go, Java and .NET', () => {
    const scrambled =
      '{"attempts":3,"meta":{"created_at":1749132727000,"schema_version":1,"lang":"php","queue":"orders","id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567"},"data":{"order_id":1042},"trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","job":"urn:babel:orders:created","dead_letter":{"lang":"php","attempts":3,"original_queue":"orders","failed_at":1749132730000,"exception":null,"error":null,"reason":"failed"}}';
    const canonical = `{"job":"urn:babel:orders:created","trace_id":"${TRACE}","data":{"order_id":1042},${META},"attempts":3,"dead_letter":{"reason":"failed","error":null,"exception":null,"failed_at":1749132730000,"original_queue":"orders","attempts":3,"lang":"php"}}`;
    for (const sdk of ['go', 'java', 'dotnet'] as const) assert.equal(bytes(scrambled, sdk), canonical, sdk);
    for (const sdk of ['php', 'python'] as const) assert.equal(bytes(scrambled, sdk), scrambled, sdk);
  });
});

describe('empty and list-like data (facts §3, §8)', () => {
  for (const sdk of SDK_NAMES) {
    test(`empty data → ${sdk}`, () => {
      const result = relay(envelope('{}'), sdk);
      assert.ok(result.ok);
      assert.equal(result.text, envelope(sdk === 'php' ? '[]' : '{}'));
      // Only PHP departs from the contract here, and says so.
      assert.equal(result.notes.some((note) => note.kind === 'contract' && note.path === 'data'), sdk === 'php');
    });
  }

  test('absent data: PHP, Python and Node write no data key; Go, Java and .NET write "data":null', () => {
    const text = `{"job":"urn:babel:orders:created","trace_id":"${TRACE}",${META},"attempts":0}`;
    for (const sdk of ['php', 'python', 'node'] as const) assert.equal(bytes(text, sdk), text, sdk);
    for (const sdk of ['go', 'java', 'dotnet'] as const) assert.equal(bytes(text, sdk), envelope('null'), sdk);
  });

  test('list-like data {"0":"a","1":"b"}: PHP writes ["a","b"], the others an object', () => {
    assert.equal(bytes(envelope('{"0":"a","1":"b"}'), 'php'), envelope('["a","b"]'));
    for (const sdk of ['python', 'node', 'go', 'java', 'dotnet'] as const) assert.equal(bytes(envelope('{"0":"a","1":"b"}'), sdk), envelope('{"0":"a","1":"b"}'), sdk);
  });

  test('PHP: nested {} becomes [], keys out of order stay an object, [] stays []', () => {
    assert.equal(bytes(envelope('{"a":{},"b":{"1":"x","0":"y"},"c":[],"d":{"0":1}}'), 'php'), envelope('{"a":[],"b":{"1":"x","0":"y"},"c":[],"d":[1]}'));
  });
});

describe('urn-only relay (facts §1.5, §8)', () => {
  const inbound = `{"urn":"urn:babel:orders:created","trace_id":"${TRACE}","data":{"order_id":1042},${META},"attempts":0}`;
  const jobOnly = `{"job":"urn:babel:orders:created","trace_id":"${TRACE}","data":{"order_id":1042},${META},"attempts":0}`;
  const EXPECTED: Readonly<Record<SdkName, string>> = {
    php: inbound,
    python: inbound,
    node: `${inbound.slice(0, -1)},"job":"urn:babel:orders:created"}`,
    go: jobOnly,
    java: jobOnly,
    dotnet: jobOnly,
  };
  for (const sdk of SDK_NAMES) {
    test(`urn only → ${sdk}`, () => {
      const result = relay(inbound, sdk);
      assert.ok(result.ok);
      assert.equal(result.text, EXPECTED[sdk]);
      // Keeping urn breaks the contract's re-emit rule (write job, never urn); Go, Java and .NET follow it.
      assert.equal(result.notes.some((note) => note.kind === 'contract'), ['php', 'python', 'node'].includes(sdk));
    });
  }

  test('a padded urn: Go trims it into job, Java and .NET copy it as is, Node copies it as is', () => {
    const padded = inbound.replace('"urn:babel:orders:created"', '"  urn:babel:orders:created "');
    assert.match(bytes(padded, 'go'), /^\{"job":"urn:babel:orders:created","trace_id"/);
    assert.match(bytes(padded, 'java'), /^\{"job":" {2}urn:babel:orders:created ","trace_id"/);
    assert.match(bytes(padded, 'dotnet'), /^\{"job":" {2}urn:babel:orders:created ","trace_id"/);
    assert.match(bytes(padded, 'node'), /"attempts":0,"job":" {2}urn:babel:orders:created "\}$/);
  });

  test('"job":"" beside urn: Node fills job in place and keeps urn; PHP keeps both as written; Go, Java and .NET write job only', () => {
    const text = `{"job":"","urn":"urn:babel:orders:created","trace_id":"${TRACE}","data":{"order_id":1042},${META},"attempts":0}`;
    assert.equal(bytes(text, 'node'), text.replace('"job":""', '"job":"urn:babel:orders:created"'));
    assert.equal(bytes(text, 'php'), text);
    for (const sdk of ['go', 'java', 'dotnet'] as const) assert.equal(bytes(text, sdk), jobOnly, sdk);
  });
});

describe('unknown and forbidden keys on relay (facts §1.4, §1.6)', () => {
  const text =
    `{"job":"urn:babel:orders:created","x_extra":true,"timestamp":1749132727,"trace_id":"${TRACE}","data":{"order_id":1042},` +
    '"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","ext":{"acme":{"tenant":"t1"}},"lang":"php","schema_version":1,"ts":1749132727,"created_at":1749132727000},"attempts":0}';
  const typed = envelope('{"order_id":1042}');
  for (const sdk of SDK_NAMES) {
    test(`meta.ext, x_extra, timestamp, meta.ts → ${sdk}`, () => {
      const result = relay(text, sdk);
      assert.ok(result.ok);
      if (sdk === 'php' || sdk === 'python' || sdk === 'node') {
        assert.equal(result.text, text);
        const forbidden = result.notes.find((note) => note.kind === 'contract' && note.message.includes('forbidden'));
        assert.ok(forbidden, 'keeping forbidden keys is a contract departure');
        assert.match(forbidden.message, /timestamp, meta\.ts/);
      } else {
        assert.equal(result.text, typed);
        const dropped = result.notes.find((note) => note.kind === 'contract');
        assert.ok(dropped, 'dropping unknown keys is a contract departure');
        assert.match(dropped.message, /x_extra, meta\.ext/);
        assert.doesNotMatch(dropped.message, /timestamp|meta\.ts/);
      }
    });
  }

  test('dead_letter extras are dropped by the typed SDKs and kept by the others', () => {
    const dl = envelope('{"a":1}').slice(0, -1) + ',"dead_letter":{"reason":"failed","error":null,"exception":null,"failed_at":1,"original_queue":"orders","attempts":1,"lang":"go","host":"w1"}}';
    assert.equal(bytes(dl, 'php'), dl);
    assert.equal(bytes(dl, 'java'), dl.replace(',"host":"w1"', ''));
    assert.match(relay(dl, 'go').notes.map((note) => note.message).join('\n'), /dead_letter\.host/);
  });

  test('Go matches field names case-insensitively: "Attempts" fills attempts; Java and .NET drop it', () => {
    const text2 = envelope('{"a":1}').replace('"attempts":0}', '"Attempts":5}');
    assert.match(bytes(text2, 'go'), /"attempts":5\}$/);
    assert.match(bytes(text2, 'java'), /"attempts":0\}$/);
    assert.match(bytes(text2, 'dotnet'), /"attempts":0\}$/);
    assert.ok(bytes(text2, 'php').endsWith('"Attempts":5}'));
  });
});

describe('typed fields that do not decode (facts §1.5)', () => {
  const withAttempts = (value: string) => envelope('{"a":1}').replace('"attempts":0}', `"attempts":${value}}`);
  const withSchema = (value: string) => envelope('{"a":1}').replace('"schema_version":1', `"schema_version":${value}`);

  test('attempts: 1.0 → Go fails, .NET writes 0, Java 1, PHP 1, Python 1.0, Node 1', () => {
    assert.match(failure(withAttempts('1.0'), 'go'), /cannot unmarshal number 1\.0 into Go struct field Envelope\.attempts of type int/);
    const dotnet = relay(withAttempts('1.0'), 'dotnet');
    assert.ok(dotnet.ok);
    assert.ok(dotnet.text.endsWith('"attempts":0}'));
    assert.ok(dotnet.notes.some((note) => note.kind === 'lossy' && note.path === 'attempts'), '.NET reading 1.0 as 0 is lossy');
    assert.ok(bytes(withAttempts('1.0'), 'java').endsWith('"attempts":1}'));
    assert.ok(bytes(withAttempts('1.0'), 'php').endsWith('"attempts":1}'));
    assert.ok(bytes(withAttempts('1.0'), 'python').endsWith('"attempts":1.0}'));
    assert.ok(bytes(withAttempts('1.0'), 'node').endsWith('"attempts":1}'));
  });

  test('schema_version: 1.0 → Go fails, .NET reads 0, Java 1; 1.5 → Java truncates to 1', () => {
    assert.match(failure(withSchema('1.0'), 'go'), /Meta\.meta\.schema_version of type int/);
    assert.match(bytes(withSchema('1.0'), 'dotnet'), /"schema_version":0,/);
    assert.match(bytes(withSchema('1.0'), 'java'), /"schema_version":1,/);
    assert.match(bytes(withSchema('1.5'), 'java'), /"schema_version":1,/);
  });

  test('attempts: "0" → Go fails; Java and .NET read 0', () => {
    assert.match(failure(withAttempts('"0"'), 'go'), /cannot unmarshal string/);
    assert.ok(bytes(withAttempts('"0"'), 'java').endsWith('"attempts":0}'));
    assert.ok(bytes(withAttempts('"0"'), 'dotnet').endsWith('"attempts":0}'));
  });

  test('data: [] → Go fails, Java and .NET write null, PHP/Python/Node keep []', () => {
    assert.match(failure(envelope('[]'), 'go'), /cannot unmarshal array/);
    assert.equal(bytes(envelope('[]'), 'java'), envelope('null'));
    assert.equal(bytes(envelope('[]'), 'dotnet'), envelope('null'));
    for (const sdk of ['php', 'python', 'node'] as const) assert.equal(bytes(envelope('[]'), sdk), envelope('[]'), sdk);
  });

  test('a 5,000-digit attempts or data number: Go fails, and the reason quotes the number shortened, not whole', () => {
    const digits = '9'.repeat(5000);
    const attempts = failure(withAttempts(digits), 'go');
    assert.match(attempts, /cannot unmarshal number 9{57}… into Go struct field Envelope\.attempts of type int/);
    assert.ok(attempts.length < 400, `${attempts.length} characters`);
    const data = failure(envelope(`{"a":1${digits}e999}`), 'go');
    assert.match(data, /cannot unmarshal number 19{56}… into Go/);
    assert.ok(data.length < 400, `${data.length} characters`);
  });

  test('job: 123 → Go fails', () => {
    assert.match(failure(envelope('{}').replace('"urn:babel:orders:created"', '123'), 'go'), /cannot unmarshal number into Go struct field Envelope\.job of type string/);
  });

  test('a missing meta: Java writes {}, .NET nulls and zeros, Go empty strings and zeros', () => {
    const text = `{"job":"urn:babel:orders:created","trace_id":"${TRACE}","data":{"a":1},"attempts":0}`;
    assert.match(bytes(text, 'java'), /"meta":\{\},/);
    assert.match(bytes(text, 'dotnet'), /"meta":\{"id":null,"queue":null,"lang":null,"schema_version":0,"created_at":0\},/);
    assert.match(bytes(text, 'go'), /"meta":\{"id":"","queue":"","lang":"","schema_version":0,"created_at":0\},/);
  });
});

describe('integers, numbers and escapes outside the table', () => {
  test('-0 as an integer literal: Go keeps the sign (float64), every other SDK writes 0', () => {
    for (const sdk of SDK_NAMES) assert.equal(bytes(envelope('{"v":-0}'), sdk), envelope(`{"v":${sdk === 'go' ? '-0' : '0'}}`), sdk);
  });

  test('int64 bounds: PHP and .NET keep −2^63 and switch to a double one past 2^63−1', () => {
    assert.equal(bytes(envelope('{"v":-9223372036854775808}'), 'php'), envelope('{"v":-9223372036854775808}'));
    assert.equal(bytes(envelope('{"v":9223372036854775808}'), 'php'), envelope('{"v":9.223372036854776e+18}'));
    assert.equal(bytes(envelope('{"v":9223372036854775808}'), 'dotnet'), envelope('{"v":9.223372036854776E+18}'));
  });

  test('Python refuses integers longer than 4,300 digits (ValueError), the others do not fail on them', () => {
    const huge = '9'.repeat(4301);
    assert.match(failure(envelope(`{"v":${huge}}`), 'python'), /4301 digits/);
    assert.equal(bytes(envelope(`{"v":${huge}}`), 'java'), envelope(`{"v":${huge}}`));
  });

  test('Java writes 1e23 as JDK 17 does and notes the JDK 19+ text', () => {
    const result = relay(envelope('{"v":1e23}'), 'java');
    assert.ok(result.ok);
    assert.equal(result.text, envelope('{"v":9.999999999999999E22}'));
    assert.ok(result.notes.some((note) => note.message.includes('JDK 19+ writes 1.0E23') && note.path === 'data.v'));
  });

  test('Java writes Double.MIN_VALUE as 4.9E-324 (two digits, JDK 19+ rule and JDK 17 alike)', () => {
    assert.equal(bytes(envelope('{"v":5e-324}'), 'java'), envelope('{"v":4.9E-324}'));
  });

  test('Python writes bare Infinity and notes it is not JSON', () => {
    const result = relay(envelope('{"v":-1e400}'), 'python');
    assert.ok(result.ok);
    assert.equal(result.text, envelope('{"v":-Infinity}'));
    assert.ok(result.notes.some((note) => note.kind === 'lossy' && /not JSON/.test(note.message)));
  });

  test('keys are escaped like values (.NET escapes a non-BMP key)', () => {
    assert.equal(bytes(envelope('{"😀":1}'), 'dotnet'), envelope('{"\\uD83D\\uDE00":1}'));
    assert.equal(bytes(envelope('{"\\u2028":1}'), 'go'), envelope('{"\\u2028":1}'));
  });

  test('precision loss is a lossy note, a new spelling a representation note', () => {
    const node = relay(envelope('{"big":9007199254740993,"f":1.50}'), 'node');
    assert.ok(node.ok);
    assert.deepEqual(
      node.notes.map((note) => [note.kind, note.path]),
      [
        ['lossy', 'data.big'],
        ['representation', 'data.f'],
      ],
    );
  });
});

describe('repeated keys: the note says what each SDK writes', () => {
  const duplicateNotes = (text: string, sdk: SdkName) => relay(text, sdk).notes.filter((note) => note.message.includes('appears more than once')).map((note) => note.message);

  test('a job whose last copy is null: Go writes the value before it, the map relays the null', () => {
    const text = envelope('{"order_id":1}').replace('"job":"urn:babel:orders:created"', '"job":"urn:babel:orders:created","job":null');
    assert.match(bytes(text, 'go'), /^\{"job":"urn:babel:orders:created",/);
    assert.deepEqual(duplicateNotes(text, 'go'), ['the key "job" appears more than once: the last copy is a null, which sets nothing in Go: the value before it is kept.']);
    assert.match(bytes(text, 'node'), /^\{"job":null,/);
    assert.deepEqual(duplicateNotes(text, 'node'), ['the key "job" appears more than once: the last value is kept, at the first key\'s place.']);
    assert.deepEqual(duplicateNotes(text, 'java'), ['the key "job" appears more than once: the last value is kept.']);
  });

  test('two meta objects: Go merges them, key by key; a null meta after them changes nothing', () => {
    const text = envelope('{"order_id":1}').replace('"attempts":0', '"attempts":0,"meta":{"queue":"billing"}');
    assert.match(bytes(text, 'go'), /"meta":\{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"billing","lang":"php"/);
    assert.deepEqual(duplicateNotes(text, 'go'), ['the key "meta" appears more than once: Go decodes the 2 objects into one, key by key.']);
    const nulled = text.replace('"meta":{"queue":"billing"}', '"meta":{"queue":"billing"},"meta":null');
    assert.match(bytes(nulled, 'go'), /"queue":"billing","lang":"php"/);
    assert.deepEqual(duplicateNotes(nulled, 'go'), Array(2).fill('the key "meta" appears more than once: Go decodes the 2 objects into one, key by key, and the null after them changes nothing.'));
  });

  test('two dead_letter objects merge in Go unless a null comes between; a key Go drops gets no repeat note', () => {
    const first = '"dead_letter":{"reason":"failed","original_queue":"orders"}';
    const text = envelope('{"order_id":1}').replace('"attempts":0', `"attempts":0,${first},"dead_letter":{"attempts":3},"x":1,"x":2`);
    assert.match(bytes(text, 'go'), /"dead_letter":\{"reason":"failed","error":null,"exception":null,"failed_at":0,"original_queue":"orders","attempts":3/);
    assert.deepEqual(duplicateNotes(text, 'go'), ['the key "dead_letter" appears more than once: Go decodes the 2 objects into one, key by key.']);
    const reset = text.replace(`${first},`, `${first},"dead_letter":null,`);
    assert.deepEqual(duplicateNotes(reset, 'go'), Array(2).fill('the key "dead_letter" appears more than once: the last value is kept.'));
    assert.ok(duplicateNotes(text, 'node').some((note) => note.includes('"x"')));
  });
});

describe('a case variant of job in Go\'s preview notes', () => {
  const variantNotes = (text: string) => relay(text, 'go').notes.filter((note) => note.message.startsWith('Go reads "JOB"')).map((note) => note.message);

  test('after job, the note names the URN Go routes on and the one the others route on', () => {
    const text = envelope('{"order_id":1}').replace('"attempts":0', '"attempts":0,"JOB":"urn:babel:orders:updated"');
    assert.match(bytes(text, 'go'), /^\{"job":"urn:babel:orders:updated",/);
    assert.deepEqual(variantNotes(text), [
      'Go reads "JOB" as "job": encoding/json matches field names case-insensitively, and, as it comes after "job", Go routes on "urn:babel:orders:updated" where the other SDKs route on "urn:babel:orders:created".',
    ]);
  });

  test('before a null job, the note says Go routes on it where the others read null; before job, or the same URN, it says no more', () => {
    const nulled = envelope('{"order_id":1}').replace('"job":"urn:babel:orders:created"', '"JOB":"urn:babel:orders:updated","job":null');
    assert.match(bytes(nulled, 'go'), /^\{"job":"urn:babel:orders:updated",/);
    assert.deepEqual(variantNotes(nulled), [
      'Go reads "JOB" as "job": encoding/json matches field names case-insensitively, and, as "job" is null, which sets nothing in Go, Go routes on "urn:babel:orders:updated" where the other SDKs read job as null.',
    ]);
    for (const job of ['"JOB":"urn:babel:orders:updated","job":"urn:babel:orders:created"', '"job":"urn:babel:orders:created","JOB":"urn:babel:orders:created"']) {
      const text = envelope('{"order_id":1}').replace('"job":"urn:babel:orders:created"', job);
      assert.deepEqual(variantNotes(text), ['Go reads "JOB" as "job": encoding/json matches field names case-insensitively.'], job);
    }
  });
});

describe('the whole document', () => {
  test('syntax errors and non-object roots are refused before any SDK runs', () => {
    for (const sdk of SDK_NAMES) {
      const broken = relay('{"job": "urn:babel:a:b",}', sdk);
      assert.ok(!broken.ok);
      assert.match(broken.error, /syntax/);
      const list = relay('[1,2]', sdk);
      assert.ok(!list.ok);
      assert.match(list.error, /not a JSON object/);
    }
  });

  test('output is compact with no trailing newline, even for an indented input', () => {
    const pretty = JSON.stringify(JSON.parse(envelope('{"a":[1,2],"b":{"c":null}}')), null, 2) + '\n';
    for (const sdk of SDK_NAMES) assert.equal(bytes(pretty, sdk), envelope('{"a":[1,2],"b":{"c":null}}'), sdk);
  });

  test('overrides replace meta.id and meta.created_at in every SDK; a missing meta.id is appended', () => {
    const doc = parseJson(envelope('{"a":1}'));
    for (const sdk of SDK_NAMES) {
      const result = encodeEnvelope(doc, sdk, { overrides: { metaId: 'fresh-id', createdAt: 1800000000000 } });
      assert.ok(result.ok);
      assert.match(result.text, /"meta":\{"id":"fresh-id","queue":"orders","lang":"php","schema_version":1,"created_at":1800000000000\}/, sdk);
    }
    const noId = parseJson(envelope('{"a":1}').replace('"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567",', ''));
    const php = encodeEnvelope(noId, 'php', { overrides: { metaId: 'fresh-id' } });
    assert.ok(php.ok);
    assert.match(php.text, /"created_at":1749132727000,"id":"fresh-id"\}/);
  });

  test('depth: PHP stops past 511 levels (json_decode at its default depth of 512, measured), .NET past 64, every SDK refuses 100,000 levels without overflowing', () => {
    // The root object is level 1, so data holds levels − 1 nested arrays.
    const nested = (levels: number) => envelope(`${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}`);
    assert.ok(relay(nested(511), 'php').ok);
    assert.match(failure(nested(512), 'php'), /PHP.*at most 511 nested arrays and objects \(its default depth of 512/);
    assert.ok(relay(nested(64), 'dotnet').ok);
    assert.match(failure(nested(65), 'dotnet'), /\.NET.*64/);
    const deep = nested(100_000);
    for (const sdk of SDK_NAMES) assert.match(failure(deep, sdk), /100,000 levels deep/, sdk);
  });
});

// The three conformance fixtures every SDK accepts, as stored in the suite (pretty-printed).
const ORDER_CREATED = `{
  "job": "urn:babel:orders:created",
  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
  "data": {
    "order_id": 1042
  },
  "meta": {
    "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567",
    "queue": "orders",
    "lang": "php",
    "schema_version": 1,
    "created_at": 1749132727000
  },
  "attempts": 0
}
`;

const UNICODE_AND_NUMBERS = `{
  "job": "urn:babel:catalog:item.indexed",
  "trace_id": "3f7a1d2e-9b4c-4a8d-bc1e-0f5a6b7c8d90",
  "data": {
    "title": "Café — naïve ☕",
    "qty": 7,
    "price_cents": 1299,
    "ratio": 0.5,
    "active": true,
    "note": null
  },
  "meta": {
    "id": "b2c3d4e5-f607-4890-a1b2-c3d4e5f60718",
    "queue": "catalog",
    "lang": "python",
    "schema_version": 1,
    "created_at": 1749132727000
  },
  "attempts": 2
}
`;

const DEAD_LETTERED = `{
  "job": "urn:babel:orders:created",
  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
  "data": {
    "order_id": 1042
  },
  "meta": {
    "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567",
    "queue": "orders",
    "lang": "php",
    "schema_version": 1,
    "created_at": 1749132727000
  },
  "attempts": 3,
  "dead_letter": {
    "reason": "failed",
    "error": "Payment gateway timeout",
    "exception": "App\\\\Exceptions\\\\GatewayTimeout",
    "failed_at": 1749132730000,
    "original_queue": "orders",
    "attempts": 3,
    "lang": "php"
  }
}
`;

/** Fixture → the bytes PHP, Python, Node and Java write, and Go's (sorted data keys). */
const CONFORMANCE: readonly (readonly [name: string, text: string, shared: string, go: string])[] = [
  [
    'order-created',
    ORDER_CREATED,
    '{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{"order_id":1042},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"php","schema_version":1,"created_at":1749132727000},"attempts":0}',
    '{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{"order_id":1042},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"php","schema_version":1,"created_at":1749132727000},"attempts":0}',
  ],
  [
    'unicode-and-numbers',
    UNICODE_AND_NUMBERS,
    '{"job":"urn:babel:catalog:item.indexed","trace_id":"3f7a1d2e-9b4c-4a8d-bc1e-0f5a6b7c8d90","data":{"title":"Café — naïve ☕","qty":7,"price_cents":1299,"ratio":0.5,"active":true,"note":null},"meta":{"id":"b2c3d4e5-f607-4890-a1b2-c3d4e5f60718","queue":"catalog","lang":"python","schema_version":1,"created_at":1749132727000},"attempts":2}',
    '{"job":"urn:babel:catalog:item.indexed","trace_id":"3f7a1d2e-9b4c-4a8d-bc1e-0f5a6b7c8d90","data":{"active":true,"note":null,"price_cents":1299,"qty":7,"ratio":0.5,"title":"Café — naïve ☕"},"meta":{"id":"b2c3d4e5-f607-4890-a1b2-c3d4e5f60718","queue":"catalog","lang":"python","schema_version":1,"created_at":1749132727000},"attempts":2}',
  ],
  [
    'dead-lettered',
    DEAD_LETTERED,
    '{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{"order_id":1042},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"php","schema_version":1,"created_at":1749132727000},"attempts":3,"dead_letter":{"reason":"failed","error":"Payment gateway timeout","exception":"App\\\\Exceptions\\\\GatewayTimeout","failed_at":1749132730000,"original_queue":"orders","attempts":3,"lang":"php"}}',
    '{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{"order_id":1042},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"php","schema_version":1,"created_at":1749132727000},"attempts":3,"dead_letter":{"reason":"failed","error":"Payment gateway timeout","exception":"App\\\\Exceptions\\\\GatewayTimeout","failed_at":1749132730000,"original_queue":"orders","attempts":3,"lang":"php"}}',
  ],
];

describe('conformance fixtures re-encode to the same bytes (facts §3 "Check", §8 byte-identical subset)', () => {
  for (const [name, text, shared, go] of CONFORMANCE) {
    test(`${name}: PHP, Python, Node and Java agree; Go differs only by sorted data keys`, () => {
      for (const sdk of ['php', 'python', 'node', 'java'] as const) {
        const result = relay(text, sdk);
        assert.ok(result.ok);
        assert.equal(result.text, shared, sdk);
        assert.deepEqual(result.notes, [], `${sdk} has nothing to remark on a fixture inside the byte-identical subset`);
      }
      assert.equal(bytes(text, 'go'), go);
      assert.deepEqual(JSON.parse(go), JSON.parse(shared), 'Go writes the same JSON value');
      assert.equal(bytes(text, 'dotnet'), shared, '.NET (unverified) keeps data in insertion order');
    });
  }
});

const ENV_VAR = 'BABELQ_CONFORMANCE_DIR';
const configured = process.env[ENV_VAR];

test('conformance suite files re-encode like the inline fixtures', (t) => {
  if (!configured) {
    console.log(`SKIPPED: ${ENV_VAR} is not set: the suite's own fixture files were not re-encoded (the inline copies above were).`);
    t.skip(`${ENV_VAR} is not set`);
    return;
  }
  const dir = isAbsolute(configured) ? configured : resolve(configured);
  const fixtures = existsSync(join(dir, 'fixtures')) ? join(dir, 'fixtures') : dir;
  for (const [name, , shared, go] of CONFORMANCE) {
    const path = join(fixtures, `${name}.json`);
    assert.ok(existsSync(path), `${path} does not exist`);
    const text = readFileSync(path, 'utf8');
    for (const sdk of ['php', 'python', 'node', 'java'] as const) assert.equal(bytes(text, sdk), shared, `${name} ${sdk}`);
    assert.equal(bytes(text, 'go'), go, `${name} go`);
  }
});
