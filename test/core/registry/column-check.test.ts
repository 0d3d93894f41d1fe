/**
 * The column check (core/registry/column-check.ts) answers "surely valid" without ajv. Held here
 * against ajv itself (through compileSchema, so with the same options and pattern engine) on
 * seeded random schemas of the supported keywords and random payloads: it must never call an
 * invalid payload valid, and on payloads without duplicate keys it must agree exactly (or the
 * fast path would silently never be taken).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseText } from '../../../core/parse/parser';
import { compileColumnCheck } from '../../../core/registry/column-check';
import { compileSchema } from '../../../core/registry/schema-compiler';
import { resolveLocalRef } from '../../../core/registry/schema-walk';

const SEED = 20261130;

const KEYS = ['a', 'b', 'c', 'é'];
const scalar = fc.oneof(
  fc.constantFrom('', 'a', 'ab', 'abc', 'é', 'x😀', '😀😀', 'A1', '0'),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, -1.25, 2.0, 1e21),
  fc.boolean(),
  fc.constant(null),
);

const { schema } = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(true),
    // One to three keywords, so that most schemas can be met and each keyword decides often.
    fc
      .uniqueArray(
        fc.oneof(
          fc.tuple(fc.constant('type'), fc.oneof(fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'object', 'array'), fc.uniqueArray(fc.constantFrom('string', 'integer', 'null', 'number'), { minLength: 1, maxLength: 2 }))),
          fc.tuple(fc.constant('enum'), fc.uniqueArray(scalar, { minLength: 1, maxLength: 4 })),
          fc.tuple(fc.constant('const'), scalar),
          fc.tuple(fc.constant('minimum'), fc.integer({ min: -2, max: 2 })),
          fc.tuple(fc.constant('maximum'), fc.constantFrom(-1, 0, 1.5, 3)),
          fc.tuple(fc.constant('exclusiveMinimum'), fc.integer({ min: -2, max: 2 })),
          fc.tuple(fc.constant('exclusiveMaximum'), fc.constantFrom(0, 2, 2.5)),
          fc.tuple(fc.constant('minLength'), fc.integer({ min: 0, max: 3 })),
          fc.tuple(fc.constant('maxLength'), fc.integer({ min: 0, max: 3 })),
          fc.tuple(fc.constant('pattern'), fc.constantFrom('^a', 'b$', '^[a-z]+$', '\\d', '^.$', '😀')),
          fc.tuple(fc.constant('title'), fc.constant('annotation')),
          fc.tuple(fc.constant('x-gdpr-sensitive'), fc.constant(true)),
        ),
        { minLength: 1, maxLength: 3, selector: ([keyword]) => keyword },
      )
      .map((entries) => Object.fromEntries(entries) as unknown),
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(fc.constantFrom(...KEYS), tie('schema'), { maxKeys: 3 }),
        required: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
      },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        type: fc.constant('array'),
        items: tie('schema'),
        minItems: fc.integer({ min: 0, max: 2 }),
        maxItems: fc.integer({ min: 0, max: 3 }),
      },
      { requiredKeys: [] },
    ),
  ),
}));

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }),
    fc.array(tie('value'), { maxLength: 4 }),
  ),
}));

function ajvSaysValid(compiledSchema: unknown, payload: unknown): boolean {
  const result = compileSchema(compiledSchema);
  assert.ok('compiled' in result, JSON.stringify(result));
  return result.compiled.validate(payload).length === 0;
}

function columnsSay(compiledSchema: unknown, text: string): boolean | undefined {
  const check = compileColumnCheck(compiledSchema, resolveLocalRef);
  if (!check) return undefined;
  const parsed = parseText(text);
  return check(parsed.columns, text, 0);
}

describe('the column check against ajv', () => {
  test('agrees with ajv on random schemas and payloads (seeded)', () => {
    let valid = 0;
    let invalid = 0;
    fc.assert(
      fc.property(schema.filter((s) => typeof s === 'object'), value, (s, v) => {
        const text = JSON.stringify(v, null, 1);
        const fast = columnsSay(s, text);
        assert.notEqual(fast, undefined, `the subset schema was refused: ${JSON.stringify(s)}`);
        const expected = ajvSaysValid(s, JSON.parse(text));
        assert.equal(fast, expected, `${JSON.stringify(s)} on ${text}`);
        if (expected) valid++;
        else invalid++;
      }),
      { seed: SEED, numRuns: 4000 },
    );
    // Both answers must be common, or the comparison proves little.
    assert.ok(valid > 400 && invalid > 400, `valid ${valid}, invalid ${invalid}`);
  });

  test('never vouches for a payload ajv rejects, even with duplicate keys or odd numbers', () => {
    const cases: [unknown, string][] = [
      [{ type: 'object', properties: { a: { type: 'integer' } } }, '{"a": 1, "a": "x"}'],
      [{ type: 'object', properties: { a: { type: 'integer' } } }, '{"a": "x", "a": 1}'],
      [{ type: 'object', required: ['a'] }, '{"a": 1, "b": 2}'],
      [{ type: 'integer' }, '1.0'],
      [{ type: 'integer' }, '1e2'],
      [{ type: 'integer' }, '1.5'],
      [{ type: 'number', maximum: 1e308 }, '1e400'],
      [{ type: 'integer', minimum: 0 }, '12345678901234567890'],
      [{ enum: [0] }, '-0'],
      [{ const: 'é' }, '"\\u00e9"'],
      [{ maxLength: 1 }, '"😀"'],
      [{ maxLength: 1 }, '"\\ud83d\\ude00"'],
      [{ type: 'object', additionalProperties: false, properties: { a: true } }, '{"a": 1, "b": null}'],
      // A property whose schema is a type alone is decided in the object's loop (kindsPassing): no number there is vouched for unread.
      [{ type: 'object', properties: { a: { type: 'number' } } }, '{"a": 1e400}'],
      [{ type: 'object', properties: { a: { type: ['number', 'null'] } } }, '{"a": -1e999}'],
      [{ type: 'object', properties: { a: { type: 'integer' } } }, '{"a": 2.5}'],
      [{ type: 'object', properties: { a: { type: 'string' } } }, '{"a": "x", "a": 1}'],
      [{ type: 'object', properties: { a: { type: 'string', title: 't' } }, required: ['a', 'b'] }, '{"a": "x"}'],
      [{ definitions: { n: { type: 'number' } }, type: 'array', items: { $ref: '#/definitions/n' } }, '[1, 2.5, "3"]'],
      [{ definitions: { node: { type: 'object', properties: { next: { $ref: '#/definitions/node' } } } }, $ref: '#/definitions/node' }, '{"next": {"next": {"next": 1}}}'],
    ];
    for (const [s, text] of cases) {
      const fast = columnsSay(s, text);
      const expected = ajvSaysValid(s, JSON.parse(text));
      assert.notEqual(fast, undefined, JSON.stringify(s));
      if (fast) assert.equal(expected, true, `${JSON.stringify(s)} on ${text}: the column check said valid, ajv did not`);
    }
    // A number beyond the double range is never vouched for, whatever ajv makes of it (a property of a type alone included).
    assert.equal(columnsSay({ type: 'number' }, '1e400'), false);
    assert.equal(columnsSay({ type: 'object', properties: { a: { type: 'number' } } }, '{"a": 1e400}'), false);
    assert.equal(columnsSay({ type: 'object', properties: { a: { type: ['number', 'null'] } } }, '{"a": -1e999}'), false);
    // And where ajv accepts these, the columns do too (the fast path is taken).
    assert.equal(columnsSay({ type: 'integer' }, '1.0'), true);
    assert.equal(columnsSay({ enum: [0] }, '-0'), true);
    assert.equal(columnsSay({ const: 'é' }, '"\\u00e9"'), true);
    assert.equal(columnsSay({ maxLength: 1 }, '"😀"'), true);
  });

  test('a type of one kind folded into the check of another keyword: the same verdicts for values of every kind', () => {
    const types = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
    const keywords = [{ properties: { a: {} } }, { required: [] }, { items: {} }, { minItems: 0 }, { maxLength: 5 }, { pattern: '^s' }, { minimum: -10 }, { maximum: 10 }, { minimum: 0, maximum: 3 }];
    const values = ['{}', '{"a": 1}', '[]', '[1]', '"s"', '"t"', '1', '2.5', '-2', '0', 'true', 'null', '12345678901234567890'];
    let compared = 0;
    for (const type of types) {
      for (const keyword of keywords) {
        const s = { type, ...keyword };
        for (const text of values) {
          const fast = columnsSay(s, text);
          assert.notEqual(fast, undefined, JSON.stringify(s));
          assert.equal(fast, ajvSaysValid(s, JSON.parse(text)), `${JSON.stringify(s)} on ${text}`);
          compared++;
        }
      }
    }
    assert.equal(compared, types.length * keywords.length * values.length);
  });

  test('a schema ajv refuses is reported when the registry loads, even where the column check could read it', () => {
    // The column check never reads unused definitions; ajv checks every `$id` in the schema when it compiles.
    for (const schema of [
      { type: 'object', definitions: { a: { $id: '#x', type: 'string' }, b: { $id: '#x', type: 'number' } } },
      { type: 'string', $defs: { a: { $id: '#x' }, b: { $id: '#x', type: 'number' } } },
      { type: 'object', definitions: { a: { $id: 'http://json-schema.org/draft-07/schema' } } },
    ]) {
      const result = compileSchema(schema);
      assert.ok('error' in result && /\$id/.test(result.error), `${JSON.stringify(schema)}: ${JSON.stringify(result)}`);
    }
    // A schema the column check covers, compiled by ajv only when a payload needs its errors: they are ajv's own.
    const lazy = compileSchema({ type: 'object', required: ['a'], properties: { a: { type: 'integer', minimum: 1 } } });
    assert.ok('compiled' in lazy && lazy.compiled);
    assert.deepEqual(lazy.compiled.validate({ a: 2 }), []);
    const errors = lazy.compiled.validate({ a: 0 });
    assert.equal(errors.length, 1);
    assert.equal(errors[0].keyword, 'minimum');
  });

  test('names that Object.prototype has are not present in a payload that lacks them, for ajv and the columns alike', () => {
    const result = compileSchema({ type: 'object', required: ['toString', 'constructor', '__proto__'], properties: { toString: { type: 'string' } } });
    assert.ok('compiled' in result);
    for (const text of ['{}', '{"toString": 1}']) {
      const parsed = parseText(text);
      const errors = result.compiled.validateParsed(parsed.columns, text, 0, () => JSON.parse(text));
      assert.deepEqual(errors, result.compiled.validate(JSON.parse(text)));
    }
    const missing = result.compiled.validate({}).filter((error) => error.keyword === 'required').map((error) => error.params.missingProperty);
    assert.deepEqual(missing, ['toString', 'constructor', '__proto__']);
    assert.ok(result.compiled.validate({ toString: 1 }).some((error) => error.keyword === 'type' && error.instancePath === '/toString'));
  });

  test('schemas ajv reads differently from the columns fall back to ajv, which then finds the error', () => {
    const cases: [unknown, string][] = [
      [{ type: 'object', properties: { toString: { type: 'string' } } }, '{"toString": 1}'],
      [{ definitions: { x: { type: 'string' }, a: { $id: 'http://other.example/a.json', definitions: { x: { type: 'number' }, b: { properties: { p: { $ref: '#/definitions/x' } } } } } }, $ref: '#/definitions/a/definitions/b' }, '{"p": "hello"}'],
    ];
    for (const [s, text] of cases) {
      const result = compileSchema(s);
      assert.ok('compiled' in result);
      const parsed = parseText(text);
      const errors = result.compiled.validateParsed(parsed.columns, text, 0, () => JSON.parse(text));
      assert.ok(errors.length > 0, `${JSON.stringify(s)} on ${text}: no error`);
      assert.deepEqual(errors, result.compiled.validate(JSON.parse(text)));
    }
  });

  test('anything outside the subset is left to ajv', () => {
    for (const s of [
      { type: 'string', format: 'email' },
      { anyOf: [{ type: 'string' }] },
      { type: 'object', patternProperties: { '^a': {} } },
      { items: [{ type: 'string' }] },
      { $ref: '#/definitions/x', type: 'object', definitions: { x: {} } },
      { properties: { a: { $id: 'inner', type: 'string' } } },
      { enum: [{ a: 1 }] },
      JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "string"}}}') as unknown,
      { multipleOf: 2 },
      false,
      // ajv validates an inherited member (`{}.toString`) against its property schema; the columns see own keys only.
      { type: 'object', properties: { toString: { type: 'string' } } },
      { properties: { constructor: { type: 'object' } } },
      // `$ref`s inside a subschema with its own `$id` resolve against that `$id`.
      {
        definitions: { x: { type: 'string' }, a: { $id: 'http://other.example/a.json', definitions: { x: { type: 'number' }, b: { properties: { p: { $ref: '#/definitions/x' } } } } } },
        $ref: '#/definitions/a/definitions/b',
      },
    ]) {
      assert.equal(compileColumnCheck(s, resolveLocalRef), undefined, JSON.stringify(s));
    }
  });
});
