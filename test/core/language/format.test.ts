import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyEdits as jsoncApplyEdits, format as jsoncFormat } from 'jsonc-parser';
import { applyEdits, type TextEdit } from '../../../core/model/edits';
import { formatDocument, type FormatOptions } from '../../../core/language/format';
import { parseJson } from '../../../core/parse/parser';

const SPACES_2: FormatOptions = { tabSize: 2, insertSpaces: true };

function format(text: string, options: FormatOptions = SPACES_2): string {
  return applyEdits(text, formatDocument(parseJson(text), options));
}

const ENVELOPE =
  '{"job":"urn:babel:orders:order-placed:v1","id":"0190b7e2-7c1a-7cc3-9a7e-2f1f8e4d1a01","meta":{"lang":"en","tags":[]},' +
  '"data":{"amount":"12.50","weight":1.0,"big":1e21,"name":"Caf\\u00e9 \\"X\\"","lines":[{"sku":"A-1","qty":2},{}],"ok":true,"note":null}}';

const ENVELOPE_FORMATTED = `{
  "job": "urn:babel:orders:order-placed:v1",
  "id": "0190b7e2-7c1a-7cc3-9a7e-2f1f8e4d1a01",
  "meta": {
    "lang": "en",
    "tags": []
  },
  "data": {
    "amount": "12.50",
    "weight": 1.0,
    "big": 1e21,
    "name": "Caf\\u00e9 \\"X\\"",
    "lines": [
      {
        "sku": "A-1",
        "qty": 2
      },
      {}
    ],
    "ok": true,
    "note": null
  }
}`;

describe('formatDocument', () => {
  test('pretty-prints an envelope exactly like VS Code', () => {
    assert.equal(format(ENVELOPE), ENVELOPE_FORMATTED);
  });

  test('keeps number literals and string escapes exactly as written', () => {
    const formatted = format(ENVELOPE);
    assert.ok(formatted.includes('"weight": 1.0,'));
    assert.ok(formatted.includes('"big": 1e21,'));
    assert.ok(formatted.includes('"name": "Caf\\u00e9 \\"X\\""'));
    assert.ok(format('[-0,0.10,1E+2,"\\/\\ud83d\\ude00"]').includes('"\\/\\ud83d\\ude00"'));
  });

  test('the output parses to the same value and formatting it again changes nothing', () => {
    const samples = [ENVELOPE, '[1,[2,[3,{"a":[]}]],{"b":{"c":"d"}}]', '  "just a string"  ', '{ "a" : { } , "b" : [ ] }', '0'];
    for (const sample of samples) {
      const once = format(sample);
      assert.deepEqual(JSON.parse(once), JSON.parse(sample));
      assert.equal(format(once), once);
      assert.deepEqual(formatDocument(parseJson(once), SPACES_2), []);
    }
  });

  test('matches jsonc-parser (the formatter behind VS Code JSON) for every option combination', () => {
    const samples = [ENVELOPE, '{\n\t"a" :1,\n\n\n"b":[1,\n2]}\n', '[[],{},[{}],{"x":[[]]}]', '\r\n{"a":\r\n1}\r\n\r\n'];
    for (const sample of samples) {
      for (const insertSpaces of [true, false]) {
        for (const tabSize of [2, 4]) {
          for (const insertFinalNewline of [true, false]) {
            const options = { tabSize, insertSpaces, finalNewline: insertFinalNewline };
            const expected = jsoncApplyEdits(sample, jsoncFormat(sample, undefined, { tabSize, insertSpaces, insertFinalNewline }));
            assert.equal(format(sample, options), expected, JSON.stringify({ sample, options }));
          }
        }
      }
    }
  });

  test('empty containers stay compact even when written across lines', () => {
    assert.equal(format('{"a":{\n\n},"b":[\n  ]}'), '{\n  "a": {},\n  "b": []\n}');
    assert.equal(format('[ ]'), '[]');
    assert.equal(format('{ }'), '{}');
  });

  test('indents with tabs or with the given number of spaces', () => {
    const text = '{"a":{"b":[1]}}';
    assert.equal(format(text, { tabSize: 4, insertSpaces: false }), '{\n\t"a": {\n\t\t"b": [\n\t\t\t1\n\t\t]\n\t}\n}');
    assert.equal(format(text, { tabSize: 4, insertSpaces: true }), '{\n    "a": {\n        "b": [\n            1\n        ]\n    }\n}');
  });

  test('keeps the line breaks of a CRLF document unless told otherwise', () => {
    const text = '{\r\n"a":1,"b":[true]}\r\n';
    assert.equal(format(text), '{\r\n  "a": 1,\r\n  "b": [\r\n    true\r\n  ]\r\n}\r\n');
    assert.equal(format(text, { ...SPACES_2, eol: '\n' }), '{\n  "a": 1,\n  "b": [\n    true\n  ]\n}\n');
    assert.equal(format('{"a":1}', { ...SPACES_2, eol: '\r\n' }), '{\r\n  "a": 1\r\n}');
    assert.equal(format('{"a":1}'), '{\n  "a": 1\n}', 'a text without line breaks gets \\n');
  });

  test('final newline: true adds exactly one, false removes it, omitted keeps what was there', () => {
    assert.equal(format('{}', { ...SPACES_2, finalNewline: true }), '{}\n');
    assert.equal(format('{}\n\n\n', { ...SPACES_2, finalNewline: true }), '{}\n');
    assert.equal(format('{}\n', { ...SPACES_2, finalNewline: false }), '{}');
    assert.equal(format('{}  \n \n'), '{}\n');
    assert.equal(format('{}   '), '{}');
    assert.equal(format('\n\n  {}'), '{}');
  });

  test('returns only the whitespace edits that change something', () => {
    const text = '{\n  "a": 1,\n  "b":2\n}';
    assert.deepEqual(formatDocument(parseJson(text), SPACES_2), [{ offset: 18, end: 18, newText: ' ' }]);
    const wrongIndent = '{\n    "a": 1\n}';
    assert.deepEqual(formatDocument(parseJson(wrongIndent), SPACES_2), [{ offset: 1, end: 6, newText: '\n  ' }]);
    assert.deepEqual(formatDocument(parseJson(ENVELOPE_FORMATTED), SPACES_2), []);
  });

  test('every edit replaces whitespace only', () => {
    const edits = formatDocument(parseJson(ENVELOPE), SPACES_2);
    assert.ok(edits.length > 10);
    for (const edit of edits) assert.match(ENVELOPE.slice(edit.offset, edit.end), /^[ \t\r\n]*$/);
    for (const edit of edits) assert.match(edit.newText, /^[ \t\r\n]*$/);
  });

  test('a huge number of changes collapses into one edit with the same result', () => {
    const items = Array.from({ length: 30_000 }, (_, i) => i);
    const text = JSON.stringify({ items });
    const edits = formatDocument(parseJson(text), SPACES_2);
    assert.equal(edits.length, 1);
    assert.equal(applyEdits(text, edits), JSON.stringify({ items }, null, 2));
  });

  test('never touches a document with syntax problems', () => {
    const broken = [
      '{"a":1,}',
      '{"a":1 // note\n}',
      '{"a":[1,2}',
      '{"a":',
      '{"a":"unterminated}',
      "{'a':1}",
      '{"a":1}{"b":2}',
      '\ufeff{"a":1}',
      '',
      '   ',
      '{"a":01}',
      '[1 2]',
    ];
    for (const text of broken) assert.deepEqual(formatDocument(parseJson(text), SPACES_2), [], JSON.stringify(text));
  });

  test('100,000 levels of nesting neither throw nor produce a quadratic-size result', () => {
    const depth = 100_000;
    const arrays = '['.repeat(depth) + ']'.repeat(depth);
    const objects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    for (const text of [arrays, objects]) {
      const doc = parseJson(text);
      assert.equal(doc.syntaxProblems.length, 0);
      // Indentation grows with depth: the formatted text would be billions of characters long.
      assert.deepEqual(formatDocument(doc, SPACES_2), []);
    }
  });

  test('deep but formattable nesting formats correctly and respects maxOutputLength', () => {
    const depth = 2_000;
    const text = '['.repeat(depth) + ']'.repeat(depth);
    const formatted = format(text, { tabSize: 1, insertSpaces: false });
    const lines = formatted.split('\n');
    assert.equal(lines.length, 2 * depth - 1);
    assert.equal(lines[depth - 1], '\t'.repeat(depth - 1) + '[]');
    assert.equal(format(formatted, { tabSize: 1, insertSpaces: false }), formatted);
    assert.deepEqual(formatDocument(parseJson(text), { tabSize: 1, insertSpaces: false, maxOutputLength: formatted.length - 1 }), []);
    assert.equal(applyEdits(text, formatDocument(parseJson(text), { tabSize: 1, insertSpaces: false, maxOutputLength: formatted.length })), formatted);
  });
});

describe('applyEdits', () => {
  const edit = (offset: number, end: number, newText: string): TextEdit => ({ offset, end, newText });

  test('applies edits given in any order against the original offsets', () => {
    assert.equal(applyEdits('abcdef', [edit(4, 5, 'E'), edit(0, 1, 'A'), edit(2, 2, '+')]), 'Ab+cdEf');
    assert.equal(applyEdits('abc', []), 'abc');
    assert.equal(applyEdits('abc', [edit(0, 3, '')]), '');
    assert.equal(applyEdits('abc', [edit(3, 3, '!')]), 'abc!');
  });

  test('insertions at one offset keep their order and go before a replacement starting there', () => {
    assert.equal(applyEdits('abc', [edit(1, 2, 'X'), edit(1, 1, '1'), edit(1, 1, '2')]), 'a12Xc');
    assert.equal(applyEdits('abc', [edit(0, 1, 'X'), edit(1, 1, '!')]), 'X!bc');
  });

  test('rejects overlapping or out-of-range edits', () => {
    assert.throws(() => applyEdits('abcdef', [edit(0, 3, 'x'), edit(2, 4, 'y')]), RangeError);
    assert.throws(() => applyEdits('abc', [edit(2, 5, 'x')]), RangeError);
    assert.throws(() => applyEdits('abc', [edit(2, 1, 'x')]), RangeError);
  });
});
