/**
 * The encoders write a plain subtree from the document's text (core/encode/plain-subtree.ts).
 * The claim is checked against the value-by-value writer itself: the reference parser's tree has
 * no columns, so the same text encoded from it never takes the fast path. Bytes, notes, failures
 * and the consumers' verdicts must be the same for every SDK, on random envelopes of mostly plain
 * values with the odd value that is not (an escape, a long number, a repeated or digit key, an
 * empty object), laid out with any whitespace; on every example and fixture; and on the bench's
 * generated payload.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { encodeEnvelope, SDK_NAMES } from '../../../core/encode';
import { plainSubtreeText } from '../../../core/encode/plain-subtree';
import { consumerVerdicts } from '../../../core/message/acceptance';
import { asObject } from '../../../core/model/tree';
import { parseJson } from '../../../core/parse/parser';
import { envelopeText as benchEnvelope } from '../../../bench/generate';
import { parseJson as referenceParse } from '../../oracle/reference-parser';
import { envelopeText as randomEnvelope } from '../../oracle/envelope-texts';
import { loadSeeds } from '../../fuzz/harness';

/** Encodes `text` with every SDK from both parsers and asserts the same results. */
function assertSameEncodings(text: string, what: string): void {
  const fast = parseJson(text);
  const reference = referenceParse(text);
  for (const sdk of SDK_NAMES) {
    const viaColumns = encodeEnvelope(fast, sdk);
    assert.deepEqual(viaColumns, encodeEnvelope(reference, sdk), `${what}: ${sdk}`);
    if (viaColumns.ok) assert.deepEqual(consumerVerdicts(viaColumns.text), consumerVerdicts(referenceParse(viaColumns.text)), `${what}: ${sdk}'s consumers`);
  }
}

const plainString = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9 _.:/@-]{0,12}$/),
  fc.constantFrom('Łukasz Müller', 'Matcha 抹茶 30 g', 'café', '2026-12-01T10:00:00Z'),
);
const plainNumber = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }).map(String), fc.constantFrom('0.5', '19.99', '-0.001', '123456789012345', '52.2297'));
/** A value an SDK may write otherwise, or a key it reorders or merges: the fast path must stop at it. */
const oddLeaf = fc.constantFrom('"a\\"b"', '"\\u00e9"', '"line\\nbreak"', '"\u2028"', '"\\ud800"', '1e400', '10.0', '-0', '9007199254740993', '1E5', '{}', '"</script>"');

const json = (value: string) => JSON.stringify(value);
/** Mostly plain JSON, with an odd leaf, a repeated key or a digit key now and then. */
const mostlyPlain: fc.Arbitrary<string> = fc.letrec((tie) => ({
  value: fc.oneof(
    { weight: 4, arbitrary: plainString.map(json) },
    { weight: 4, arbitrary: plainNumber },
    { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null', '[]') },
    { weight: 1, arbitrary: oddLeaf },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`) },
    { weight: 3, arbitrary: tie('object') },
  ),
  object: fc
    .array(
      fc.tuple(
        fc.oneof({ weight: 12, arbitrary: fc.stringMatching(/^[a-z_][a-z0-9_]{0,7}$/) }, { weight: 1, arbitrary: fc.constantFrom('0', '1', '42', 'Ärger', 'a"b') }),
        tie('value'),
      ),
      { minLength: 1, maxLength: 5 },
    )
    .chain((members) => fc.boolean().map((repeat) => (repeat && members.length > 1 ? [...members, [members[0][0], members[1][1]] as [string, string]] : members)))
    .map((members) => `{${members.map(([key, value]) => `${json(key)}: ${value}`).join(', ')}}`),
})).value as fc.Arbitrary<string>;

/** Whitespace between tokens as a fixture may have it (CRLF, tabs, none). */
const layout = fc.constantFrom(' ', '\n  ', '\r\n\t', '');

function envelopeWith(data: string, space: string): string {
  const meta = `{"id": "2f0c8a8e-6a8b-4c1a-9d3e-7b5a4c3d2e1f", "queue": "orders", "lang": "php", "created_at": 1749132727000, "schema_version": 1}`;
  const text = `{"job": "urn:babel:orders:created", "trace_id": "5b1f4c3a-2d6e-4f7a-8b9c-0d1e2f3a4b5c", "data": ${data}, "meta": ${meta}, "attempts": 0}`;
  return text.replace(/, /g, `,${space}`).replace(/": /g, `":${space === '' ? '' : ' '}`);
}

describe('plain subtrees written from the text', () => {
  test('the same bytes, notes and verdicts as the value-by-value writer: mostly plain data, any layout (seeded)', () => {
    let fast = 0;
    fc.assert(
      fc.property(mostlyPlain, layout, (data, space) => {
        const text = envelopeWith(data, space);
        const payload = asObject(parseJson(text).root)?.properties.find((property) => property.key === 'data')?.value;
        if (payload && plainSubtreeText(payload, false) !== undefined) fast++;
        assertSameEncodings(text, text);
      }),
      { seed: 20261201, numRuns: 1500, includeErrorInReport: true },
    );
    // The property must have exercised the fast path, not only the fallback.
    assert.ok(fast > 150, `data was plain in only ${fast} of 1500 envelopes`);
  });

  test('the same on random envelopes of every shape, broken ones included (seeded)', () => {
    fc.assert(
      fc.property(randomEnvelope, (text) => assertSameEncodings(text, text)),
      { seed: 20261202, numRuns: 800, includeErrorInReport: true },
    );
  });

  test('the same on every example and fixture, and on the bench payload', () => {
    for (const seed of loadSeeds()) assertSameEncodings(seed.text, seed.name);
    assertSameEncodings(benchEnvelope(200_000), 'bench payload');
  });

  test('plain data is written compactly in the written order, and sorted for Go', () => {
    const text = envelopeWith('{ "b": 1, "a": { "d": [1, 2.5, "x y"], "c": true } }', '\n  ');
    const data = asObject(parseJson(text).root)!.properties.find((property) => property.key === 'data')!.value!;
    assert.equal(plainSubtreeText(data, false), '{"b":1,"a":{"d":[1,2.5,"x y"],"c":true}}');
    assert.equal(plainSubtreeText(data, true), '{"a":{"c":true,"d":[1,2.5,"x y"]},"b":1}');
    const go = encodeEnvelope(parseJson(text), 'go');
    assert.ok(go.ok && go.text.includes('"data":{"a":{"c":true,"d":[1,2.5,"x y"]},"b":1}'), go.ok ? go.text : go.error);
  });

  test('not plain: a digit key, a repeated key, an empty object, an escape, a number an SDK respells', () => {
    for (const data of ['{ "0": 1 }', '{ "a": 1, "a": 2 }', '{ "a": {} }', '{ "a": "\\n" }', '{ "a": 10.0 }', '{ "a": 1e400 }', '{ "a": "\u2028" }']) {
      const value = asObject(parseJson(envelopeWith(data, ' ')).root)!.properties.find((property) => property.key === 'data')!.value!;
      assert.equal(plainSubtreeText(value, false), undefined, data);
    }
  });

  test('a repeated key is found in an object of any size (compared directly up to 16 keys, through a set above)', () => {
    const keys = (count: number) => Array.from({ length: count }, (_, i) => `k${i}`);
    const dataOf = (names: string[]) => asObject(parseJson(envelopeWith(`{ ${names.map((name, i) => `"${name}": ${i}`).join(', ')} }`, ' ')).root)!.properties.find((property) => property.key === 'data')!.value!;
    for (const count of [2, 15, 16, 17, 40]) assert.equal(plainSubtreeText(dataOf(keys(count)), false), `{${keys(count).map((name, i) => `"${name}":${i}`).join(',')}}`, `${count} distinct keys`);
    // The repeat before the switch to a set, at it, and after it; its first use early and late.
    for (const [count, first, again] of [[5, 1, 4], [17, 0, 16], [17, 15, 16], [20, 2, 18], [40, 30, 39], [40, 16, 17]]) {
      const names = keys(count);
      names[again] = names[first];
      assert.equal(plainSubtreeText(dataOf(names), false), undefined, `${count} keys, key ${again} repeats key ${first}`);
    }
  });
});
