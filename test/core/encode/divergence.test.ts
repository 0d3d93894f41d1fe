/**
 * encoding-divergence (docs/diagnostics.md): exact ranges, severities and messages that name the
 * SDKs and what each writes (facts §8). Key order alone never yields a finding.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findDivergences, type Divergence } from '../../../core/encode/divergence';
import { parseJson } from '../../../core/parse/parser';

const META = '"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"php","schema_version":1,"created_at":1749132727000}';

function envelope(data: string): string {
  return `{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":${data},${META},"attempts":0}`;
}

function find(text: string): Divergence[] {
  return findDivergences(parseJson(text));
}

/** The single finding in `text`, checked to cover exactly `token` (its first occurrence after `from`). */
function single(text: string, token: string, from = text.indexOf('"data"')): Divergence {
  const found = find(text);
  assert.equal(found.length, 1, `expected one finding, got ${JSON.stringify(found, null, 1)}`);
  const offset = text.indexOf(token, from);
  assert.ok(offset >= 0);
  assert.deepEqual([found[0].offset, found[0].end], [offset, offset + token.length], `range of ${token}`);
  return found[0];
}

describe('numbers inside data', () => {
  test('10.0: information, Python and Java against the rest', () => {
    const d = single(envelope('{"v":10.0}'), '10.0');
    assert.equal(d.severity, 'information');
    assert.equal(d.message, '10.0: Python and Java write 10.0, PHP, Node, Go and .NET write 10');
  });

  test('9007199254740993: a warning, Node and Go round it', () => {
    const d = single(envelope('{"v":9007199254740993}'), '9007199254740993');
    assert.equal(d.severity, 'warning');
    assert.equal(d.message, '9007199254740993: Node and Go write 9007199254740992, PHP, Python, Java and .NET write 9007199254740993. Carry it as a string.');
  });

  test('-0.0: a warning, Node writes 0', () => {
    const d = single(envelope('{"v":-0.0}'), '-0.0');
    assert.equal(d.severity, 'warning');
    assert.equal(d.message, '-0.0: Node writes 0, Python and Java write -0.0, PHP, Go and .NET write -0. Write 0.');
  });

  test('1e21: information, four spellings of one value', () => {
    const d = single(envelope('{"v":1e21}'), '1e21');
    assert.equal(d.severity, 'information');
    assert.equal(d.message, '1e21: PHP writes 1.0e+21, Java writes 1.0E21, .NET writes 1E+21, Python, Node and Go write 1e+21');
  });

  test('1e-5: information', () => {
    const d = single(envelope('{"v":1e-5}'), '1e-5');
    assert.equal(d.severity, 'information');
    assert.match(d.message, /PHP writes 1\.0e-5/);
    assert.match(d.message, /Python writes 1e-05/);
    assert.match(d.message, /Node and Go write 0\.00001/);
  });

  test('18446744073709551616: a warning naming all three readings', () => {
    const d = single(envelope('{"v":18446744073709551616}'), '18446744073709551616');
    assert.equal(d.severity, 'warning');
    assert.equal(
      d.message,
      '18446744073709551616: PHP writes 1.8446744073709552e+19, .NET writes 1.8446744073709552E+19, Python and Java write 18446744073709551616, Node and Go write 18446744073709552000. Carry it as a string.',
    );
  });

  test('1e400: a warning, the Go consumer fails to decode it, three SDKs fail to relay it', () => {
    const d = single(envelope('{"v":1e400}'), '1e400');
    assert.equal(d.severity, 'warning');
    assert.equal(d.message, '1e400: the Go consumer fails to decode the message, Python writes Infinity, Node writes null, PHP, Java and .NET fail to relay it. Carry it as a string.');
  });

  test('values every SDK writes alike give nothing (facts §8 byte-identical subset)', () => {
    assert.deepEqual(find(envelope('{"a":1042,"b":0.5,"c":0.30000000000000004,"d":99.90,"e":-7,"f":true,"g":null,"h":"Café — naïve ☕","i":"</script>&/"}')), []);
  });

  test('inside arrays and nested objects, each value its own range', () => {
    const text = envelope('{"list":[1,2.50,{"x":10.0}],"n":{"m":[1e7]}}');
    const found = find(text);
    assert.deepEqual(
      found.map((d) => text.slice(d.offset, d.end)),
      ['10.0', '1e7'],
    );
  });
});

describe('strings inside data', () => {
  test('"😀": information on the string token, .NET escapes it', () => {
    const d = single(envelope('{"v":"😀"}'), '"😀"');
    assert.equal(d.severity, 'information');
    assert.equal(d.message, 'U+1F600 😀: .NET writes \\uD83D\\uDE00, PHP, Python, Node, Go and Java write it as is');
  });

  test('U+2028 and U+2029: one finding per string, counting the other character', () => {
    const d = single(envelope('{"v":"a\\u2028b\\u2029"}'), '"a\\u2028b\\u2029"');
    assert.equal(d.severity, 'information');
    assert.equal(d.message, 'U+2028: PHP, Go and .NET write \\u2028, Python, Node and Java write it as is (and 1 more character)');
  });

  test('NBSP, DEL, \\b and U+001F each name the SDKs that differ', () => {
    assert.match(single(envelope('{"v":"\\u00a0"}'), '"\\u00a0"').message, /^U\+00A0: \.NET writes \\u00A0, PHP, Python, Node, Go and Java write it as is$/);
    assert.match(single(envelope('{"v":"\\u007f"}'), '"\\u007f"').message, /^U\+007F: \.NET writes \\u007F/);
    assert.match(single(envelope('{"v":"\\b"}'), '"\\b"').message, /^U\+0008: Go writes \\u0008, PHP, Python, Node, Java and \.NET write \\b$/);
    assert.match(single(envelope('{"v":"\\u001f"}'), '"\\u001f"').message, /^U\+001F: \.NET writes \\u001F, PHP, Python, Node, Go and Java write \\u001f$/);
  });

  test('a lone surrogate is a warning: the PHP consumer cannot decode the message, Python cannot relay it, the others replace or escape it', () => {
    const d = single(envelope('{"v":"\\ud800"}'), '"\\ud800"');
    assert.equal(d.severity, 'warning');
    assert.equal(d.message, 'lone surrogate U+D800: the PHP consumer fails to decode the message (json_decode refuses an unpaired surrogate escape), Python fails to relay it, Node writes \\ud800, Go writes U+FFFD (�), Java writes ?, .NET writes \\uFFFD. Remove the lone surrogate, or write its character whole (both halves of the surrogate pair).');
    // After another character the SDKs write otherwise, the PHP consumer's failure is said all the same.
    const later = single(envelope('{"v":"😀\\ud800"}'), '"😀\\ud800"');
    assert.equal(later.severity, 'warning');
    assert.match(later.message, /^U\+1F600 😀: the PHP consumer fails to decode the message \(json_decode refuses an unpaired surrogate escape\), \.NET writes \\uD83D\\uDE00, Python, Node, Go and Java write it as is \(and 1 more character\)\. Remove the lone surrogate, or write its character whole \(both halves of the surrogate pair\)\.$/);
  });

  test('a key with a character the SDKs escape differently: the key token', () => {
    const text = envelope('{"😀":1}');
    const d = single(text, '"😀"');
    assert.match(d.message, /\.NET writes \\uD83D\\uDE00/);
  });
});

describe('keys, empty and list-like objects', () => {
  test('key order only gives nothing: Go sorts {"b":1,"a":2}, nobody is told', () => {
    assert.deepEqual(find(envelope('{"b":1,"a":2,"c":{"z":1,"y":2}}')), []);
  });

  test('an integer-like key already first and ascending gives nothing', () => {
    assert.deepEqual(find(envelope('{"2":"x","10":"y","b":1}')), []);
  });

  test('an integer-like key that Node moves: information on that key token', () => {
    const text = envelope('{"b":1,"a":2,"10":3}');
    const d = single(text, '"10"');
    assert.equal(d.severity, 'information');
    assert.equal(d.message, '"10": Node writes integer-like keys first, in ascending order, PHP, Python, Java and .NET keep the written order (Go sorts every data key)');
  });

  test('integer-like keys out of ascending order: the smaller one is reported', () => {
    const text = envelope('{"10":1,"2":2}');
    single(text, '"2"');
  });

  test('empty data: information on the opening brace (PHP\'s departure, not the author\'s), PHP writes []', () => {
    const text = envelope('{}');
    const d = single(text, '{', text.indexOf('"data":') + 7);
    assert.equal(d.severity, 'information');
    assert.match(d.message, /^empty data: PHP writes \[\], Python, Node, Go, Java and \.NET write \{\} \(/);
  });

  test('a nested empty object: information on its brace', () => {
    const text = envelope('{"a":{}}');
    const d = single(text, '{', text.indexOf('"a":') + 4);
    assert.equal(d.severity, 'information');
    assert.match(d.message, /^\{\}: PHP writes \[\], Python, Node, Go, Java and \.NET write \{\}/);
  });

  test('list-like data: a warning on the first key, PHP writes a JSON array', () => {
    const text = envelope('{"0":"a","1":"b"}');
    const d = single(text, '"0"');
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /^data has the keys "0", "1", …: PHP writes it as a JSON array, Python, Node, Go, Java and \.NET write an object/);
  });
});

describe('keys the typed SDKs drop', () => {
  test('x_extra and an unknown dead_letter key: warnings naming Go, Java and .NET; meta.ext and an extra meta key, which the contract lets producers add: information', () => {
    const text = `{"job":"urn:babel:orders:created","x_extra":1,"trace_id":"t","data":{"a":1},"meta":{"id":"m","queue":"q","ext":{"acme":{}},"tenant_id":"t-42","lang":"php","schema_version":1,"created_at":1},"attempts":0,"dead_letter":{"reason":"failed","note":1}}`;
    const found = find(text);
    assert.deepEqual(
      found.map((d) => [text.slice(d.offset, d.end), d.severity]),
      [
        ['"x_extra"', 'warning'],
        ['"ext"', 'information'],
        // PHP writes the empty vendor block as [], where Python and Node keep {}.
        ['{', 'information'],
        ['"tenant_id"', 'information'],
        ['"note"', 'warning'],
      ],
    );
    assert.equal(found[0].message, 'x_extra: Go, Java and .NET drop this key when they relay the message, PHP, Python and Node keep it. Move it into data, which every SDK relays, or under meta.ext.<vendor>, where the contract puts vendor keys.');
    assert.equal(found[4].message, "dead_letter.note: Go, Java and .NET drop this key when they relay the message, PHP, Python and Node keep it. Remove it: the contract's dead_letter block holds reason, error, exception, failed_at, original_queue, attempts and lang.");
    assert.equal(found[1].message, "meta.ext, the contract's place for vendor keys: Go, Java and .NET drop it when they relay the message (the contract says a relay keeps it: nothing to change in the fixture), PHP, Python and Node keep it");
    assert.equal(found[2].message, '{}: PHP writes [], Python and Node write {} (PHP arrays cannot tell {} from [])');
    assert.equal(found[3].message, 'meta.tenant_id: Go, Java and .NET drop extra meta keys when they relay the message (the contract says a relay keeps them), PHP, Python and Node keep it');
  });

  test('a meta key Go reads as a core field (its case differs): still a warning', () => {
    const text = `{"job":"urn:babel:orders:created","trace_id":"t","data":{"a":1},"meta":{"id":"m","queue":"q","Queue":"r","lang":"php","schema_version":1,"created_at":1},"attempts":0}`;
    const found = find(text);
    assert.deepEqual(found.map((d) => [text.slice(d.offset, d.end), d.severity]), [['"Queue"', 'warning']]);
    assert.match(found[0].message, /^meta\.Queue: Go reads it as "queue"/);
  });

  test('forbidden keys, urn and __bq_frame are left to their own rules', () => {
    const text = `{"urn":"urn:babel:orders:created","timestamp":1,"__bq_frame":1,"trace_id":"t","data":{"a":1},"meta":{"id":"m","queue":"q","ts":1,"lang":"php","schema_version":1,"created_at":1},"attempts":0}`;
    assert.deepEqual(find(text), []);
  });

  test('a case variant of a core key: Go reads it (the last of them wins), Java and .NET drop it', () => {
    const text = envelope('{"a":1}').replace('"attempts":0}', '"attempts":0,"Attempts":2}');
    const d = single(text, '"Attempts"', 0);
    assert.equal(d.message, 'Attempts: Go reads it as "attempts" (its decoder matches field names case-insensitively), and as it comes last Go takes it instead of the "attempts" before it; Java and .NET drop it on relay, PHP, Python and Node keep it');
    const first = envelope('{"a":1}').replace('"attempts":0}', '"Attempts":2,"attempts":0}');
    assert.match(single(first, '"Attempts"', 0).message, /but the "attempts" after it wins there/);
  });
});

describe('the whole document', () => {
  test('the conformance fixtures (inside the byte-identical subset) give nothing', () => {
    assert.deepEqual(find(envelope('{"title":"Café — naïve ☕","qty":7,"price_cents":1299,"ratio":0.5,"active":true,"note":null}')), []);
  });

  test('not an object, or data not an object: nothing', () => {
    assert.deepEqual(find('[1.0]'), []);
    assert.deepEqual(find(envelope('[1.0, 10.0]')), []);
  });

  test('a 1 MB payload: one finding per 10.0, nothing else (a plain run, linear)', () => {
    const items: string[] = [];
    let size = 0;
    while (size < 1_000_000) {
      const item = `{"id":${items.length},"name":"item ${items.length} café","price_cents":1299,"weight":10.0,"tags":["a","b"]}`;
      items.push(item);
      size += item.length;
    }
    const found = find(envelope(`{"items":[${items.join(',')}]}`));
    assert.equal(found.length, items.length);
    assert.ok(found.every((d) => d.message.startsWith('10.0: ')));
  });

  test('nesting 100,000 levels inside data does not overflow', () => {
    const deep = envelope(`{"a":${'['.repeat(100_000)}10.0${']'.repeat(100_000)}}`);
    // 10.0, and the nesting that no SDK reads and relays (below).
    assert.deepEqual(find(deep).map((d) => d.message.slice(0, 24)), ['The envelope nests 100,0', '10.0: Python and Java wr']);
  });
});

describe('nesting deeper than an SDK reads or relays (facts part 2: nesting depth 600 and 20,000; the encoders\' limits)', () => {
  // `data` holds `{"x": [[…[0]…]]}`: the envelope is level 1, data 2, x's outermost array 3.
  const nested = (arrays: number) => envelope(`{"x":${'['.repeat(arrays)}0${']'.repeat(arrays)}}`);
  const levelOf = (text: string, level: number) => text.indexOf('[') + level - 3;

  test('at .NET\'s 64 levels: nothing; one more: a warning on the opening bracket of level 65, naming .NET', () => {
    assert.deepEqual(find(nested(62)), []);
    const text = nested(63);
    const found = find(text);
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.deepEqual([found[0].offset, found[0].end, found[0].severity], [levelOf(text, 65), levelOf(text, 65) + 1, 'warning']);
    assert.equal(found[0].message, "The envelope nests 65 levels deep, and this value is level 65: the .NET SDK cannot decode or relay it beyond 64 levels (JsonDocument's default MaxDepth). Keep the envelope within 64 levels.");
  });

  test('PHP from 512 levels on (json_decode reads 511 at its default depth of 512, measured), still one finding at level 65', () => {
    assert.doesNotMatch(find(nested(509))[0].message, /PHP/);
    const found = find(nested(510));
    assert.equal(found.length, 1);
    assert.match(found[0].message, /^The envelope nests 512 levels deep, and this value is level 65: the \.NET SDK .*; the PHP consumer rejects the message beyond 511 levels \(json_decode at its default depth of 512\), and PHP cannot relay it\. Keep the envelope within 64 levels\.$/);
  });

  test('deeper still: one finding, still at level 65, naming every SDK that cannot read or relay it', () => {
    const found = find(nested(12_000));
    assert.equal(found.length, 1);
    assert.match(found[0].message, /^The envelope nests 12,002 levels deep, and this value is level 65: the \.NET SDK/);
    assert.match(found[0].message, /PHP .* the Python consumer crashes beyond 990 levels .* the Java consumer crashes beyond 3,000 levels .* the Node consumer reads it but cannot relay it beyond 4,000 levels .* the Go consumer rejects it beyond 10,000 levels/);
    const text = nested(2000);
    assert.equal(find(text)[0].offset, levelOf(text, 65));
    assert.doesNotMatch(find(text)[0].message, /Java|Node|Go/);
  });

  test('the tree without columns (the reference parser) finds the same place', async () => {
    const { parseJson: referenceParse } = await import('../../oracle/reference-parser');
    for (const arrays of [62, 63, 1500]) {
      const text = nested(arrays);
      assert.deepEqual(findDivergences(referenceParse(text)), find(text), `${arrays} arrays`);
    }
  });
});

describe('values of the keys only PHP, Python and Node keep', () => {
  test('inside meta.ext and an extra top-level key: what those three write differently, naming those three only', () => {
    const text =
      '{"job":"urn:babel:orders:created","trace_id":"t","data":{"a":1},"meta":{"id":"m","queue":"q","lang":"node","schema_version":1,"created_at":1,' +
      '"ext":{"acme":{"ratio":1.0,"big":9007199254740993,"flags":{},"list":{"0":"x","1":"y"},"note":"a\\u2028b"}}},"attempts":0,"x_extra":{"10":1,"b":2,"2":3}}';
    const found = find(text).filter((d) => !/ drop /.test(d.message));
    assert.deepEqual(
      found.map((d) => [text.slice(d.offset, d.end), d.severity, d.message]),
      [
        ['1.0', 'information', '1.0: Python writes 1.0, PHP and Node write 1'],
        ['9007199254740993', 'warning', '9007199254740993: Node writes 9007199254740992, PHP and Python write 9007199254740993. Carry it as a string.'],
        ['{', 'information', '{}: PHP writes [], Python and Node write {} (PHP arrays cannot tell {} from [])'],
        ['"0"', 'warning', 'this object has the keys "0", "1", …: PHP writes it as a JSON array, Python and Node write an object. Write a JSON array, or keys that are names.'],
        ['"a\\u2028b"', 'information', 'U+2028: PHP writes \\u2028, Python and Node write it as is'],
        ['"2"', 'information', '"2": Node writes integer-like keys first, in ascending order, PHP and Python keep the written order'],
      ],
    );
  });

  test('a value the three write alike has no finding, though Go, Java or .NET would write it otherwise', () => {
    const text = envelope('{"a":1}').replace('"created_at":1749132727000', '"created_at":1749132727000,"ext":{"acme":{"emoji":"😀","nbsp":"\u00a0","e":0.0001}}');
    assert.deepEqual(find(text).map((d) => text.slice(d.offset, d.end)), ['"ext"']);
  });
});

describe('long literals', () => {
  test('an integer of 300 or 5,000 digits is quoted shortened, as every other finding quotes a number', () => {
    for (const digits of [300, 5000]) {
      const integer = '7'.repeat(digits);
      const d = single(envelope(`{"v":${integer}}`), integer);
      assert.ok(d.message.length < 400, `${digits} digits: a message of ${d.message.length} characters`);
      assert.ok(d.message.startsWith(`${'7'.repeat(57)}…: `), d.message.slice(0, 100));
    }
  });
});

describe('the strings of the core fields, which every SDK writes back', () => {
  test('dead_letter.error and trace_id: what the six write differently, a lone surrogate a warning (the PHP consumer cannot decode it); the urn alias is left to its rule', () => {
    const text =
      '{"job":"urn:babel:orders:created","urn":"urn:babel:orders:created😀","trace_id":"7b3f9c2a\\ud800","data":{"a":1},' + META + ',"attempts":0,' +
      '"dead_letter":{"reason":"failed","error":"gateway\\u2028down 😀","exception":null,"failed_at":1,"original_queue":"orders","attempts":3,"lang":"go"}}';
    const found = find(text);
    assert.deepEqual(
      found.map((d) => [text.slice(d.offset, d.end), d.severity, d.message]),
      [
        ['"7b3f9c2a\\ud800"', 'warning', 'lone surrogate U+D800: the PHP consumer fails to decode the message (json_decode refuses an unpaired surrogate escape), Python fails to relay it, Node writes \\ud800, Go writes U+FFFD (�), Java writes ?, .NET writes \\uFFFD. Remove the lone surrogate, or write its character whole (both halves of the surrogate pair).'],
        ['"gateway\\u2028down 😀"', 'information', 'U+2028: PHP, Go and .NET write \\u2028, Python, Node and Java write it as is (and 1 more character)'],
      ],
    );
  });
});

describe('a core field of another type written as a string', () => {
  test('attempts, meta.schema_version, meta.created_at and dead_letter.failed_at as strings: no finding on how the six write the string (the typed SDKs do not read it as one)', () => {
    const text =
      '{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":"x\\u2028",' +
      '"meta":{"id":"3aee8c1b-f93c-4aaa-954d-879a240b142e","queue":"orders","lang":"go","schema_version":"1\\u2028","created_at":"1\\u2028"},"attempts":"0\\u2028",' +
      '"dead_letter":{"reason":"failed","error":null,"failed_at":"1\\u2028","original_queue":"orders","attempts":"3\\u2028"}}';
    assert.deepEqual(find(text).map((d) => text.slice(d.offset, d.end)), []);
  });
});

describe('a warning says what to write instead', () => {
  test('-0.0 and -0: write 0', () => {
    assert.match(single(envelope('{"v":-0.0}'), '-0.0').message, /\. Write 0\.$/);
    assert.match(single(envelope('{"v":-0}'), '-0').message, /^-0: Go writes -0, .*\. Write 0\.$/);
  });

  test('a float no double holds: the integer it means, as a string', () => {
    const d = single(envelope('{"v":9007199254740993.0}'), '9007199254740993.0');
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /^9007199254740993\.0: no double holds it, so every SDK reads it as 9007199254740992; .*\. Carry it as a string \("9007199254740993"\)\.$/);
  });

  test('a lone surrogate: remove it, or write the character whole', () => {
    assert.match(single(envelope('{"v":"\\ud800"}'), '"\\ud800"').message, /\.NET writes \\uFFFD\. Remove the lone surrogate, or write its character whole \(both halves of the surrogate pair\)\.$/);
    // After another character the SDKs write otherwise, the advice is about the surrogate all the same.
    assert.match(single(envelope('{"v":"😀\\ud800"}'), '"😀\\ud800"').message, /\(and 1 more character\)\. Remove the lone surrogate, or write its character whole \(both halves of the surrogate pair\)\.$/);
  });

  test('an unknown dead_letter key: remove it, naming the fields the block has', () => {
    const text = `{"job":"urn:babel:orders:created","trace_id":"t","data":{"a":1},${META},"attempts":0,"dead_letter":{"reason":"failed","note":1}}`;
    assert.equal(
      single(text, '"note"', 0).message,
      "dead_letter.note: Go, Java and .NET drop this key when they relay the message, PHP, Python and Node keep it. Remove it: the contract's dead_letter block holds reason, error, exception, failed_at, original_queue, attempts and lang.",
    );
  });

  test('an object keyed "0", "1", …: a JSON array, or named keys; data itself: named keys', () => {
    assert.match(single(envelope('{"a":1,"list":{"0":"x","1":"y"}}'), '"0"').message, /^this object has the keys "0", "1", …: .*\. Write a JSON array, or keys that are names\.$/);
    assert.match(single(envelope('{"0":"x","1":"y"}'), '"0"').message, /^data has the keys "0", "1", …: .*\. Give data keys that are names\.$/);
  });

  test('nesting beyond an SDK\'s limit: how deep to keep it', () => {
    const text = envelope(`${'['.repeat(70)}1${']'.repeat(70)}`);
    const found = find(text);
    assert.equal(found.length, 1);
    assert.match(found[0].message, /^The envelope nests 71 levels deep, .*\. Keep the envelope within 64 levels\.$/);
  });
});
