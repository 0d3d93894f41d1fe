/**
 * The payload handed to the schema validator is built straight from the parser's columns
 * (core/parse/document.ts `plainValue`), with its own number conversion and without copying
 * clean strings at parse time. It must be exactly what `JSON.parse` makes of the same text.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { stringValue } from '../../../core/parse/columns';
import { plainValue } from '../../../core/parse/document';
import { parseText } from '../../../core/parse/parser';

const SEED = 20261130;

/** Deep equality that tells -0 from 0 (assert.deepStrictEqual does too, via Object.is). */
function sameAsJsonParse(text: string): void {
  const parsed = parseText(text);
  assert.equal(parsed.syntaxProblems.length, 0, text);
  assert.deepStrictEqual(plainValue(parsed.columns, text, 0), JSON.parse(text), text);
}

describe('plainValue agrees with JSON.parse', () => {
  test('number literals, one by one (fraction, exponent, sign, long digit runs)', () => {
    const digits = (min: number, max: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
    const whole = fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 20)).map(([a, b]) => a + b));
    const literal = fc
      .tuple(fc.boolean(), whole, fc.option(digits(1, 22), { nil: undefined }), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3)), { nil: undefined }))
      .map(([negative, w, fraction, exponent]) => `${negative ? '-' : ''}${w}${fraction !== undefined ? `.${fraction}` : ''}${exponent ? exponent.join('') : ''}`);
    fc.assert(fc.property(literal, (raw) => sameAsJsonParse(`[${raw}]`)), { seed: SEED, numRuns: 20_000 });
    for (const raw of ['-0.0', '0.1', '0.30000000000000004', '123456789012345.6', '1234567890123456.7', '9007199254740993.5', '0.000001', '5e-324', '1.7976931348623157e308', '-12.50']) {
      sameAsJsonParse(`{"n": ${raw}}`);
    }
  });

  test('malformed number tokens (reported by the parser) are what Number() makes of them', () => {
    for (const raw of ['.', '-', '1.', '.5', '-.5', '1.2.3', '01.5', '-0.', '1e', '0x1F']) {
      const text = `[${raw}]`;
      const parsed = parseText(text);
      assert.ok(parsed.syntaxProblems.length > 0, raw);
      assert.ok(Object.is((plainValue(parsed.columns, text, 0) as unknown[])[0], Number(raw)), raw);
    }
  });

  test('whole documents: objects, arrays, escapes, non-ASCII, duplicate and __proto__ keys', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => sameAsJsonParse(JSON.stringify(value, null, 1))), { seed: SEED, numRuns: 3000 });
    sameAsJsonParse('{"a": 1, "a": 2, "__proto__": {"x": "\\u00e9\\n"}, "s": "Zürich 抹茶 😀", "t": "a\\"b\\\\c"}');
  });

  test('string values: the text between the quotes, or the decoded value where they differ', () => {
    const text = '["plain", "caf\\u00e9", "tab\\tend", "Zürich", ""]';
    const parsed = parseText(text);
    const items: string[] = [];
    for (let slot = 1; slot < parsed.columns.count; slot++) items.push(stringValue(parsed.columns, text, slot));
    assert.deepEqual(items, ['plain', 'café', 'tab\tend', 'Zürich', '']);
  });
});
