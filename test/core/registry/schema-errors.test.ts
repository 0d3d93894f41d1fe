/**
 * Payload-schema errors land on the exact token a user has to change.
 *
 * Each row is a schema and a fixture whose expected ranges are written inline as ⟦…⟧; the markers
 * are stripped before parsing, so a row reads like the squiggle it expects.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJson } from '../../../core/parse/parser';
import { toJsValue } from '../../../core/model/js-value';
import type { ValidateFunction } from 'ajv';
import { compiledSchema } from '../../../core/registry/compiled-schema';
import { compileSchema } from '../../../core/registry/schema-compiler';
import { compileFailureMessage } from '../../../core/registry/schema-problems';
import { mapSchemaErrors, type MappedSchemaError } from '../../../core/registry/schema-errors';
import type { CompiledSchema, SchemaError } from '../../../core/registry/types';
import { asObject, getProperty, type PropertyNode, type ValueNode } from '../../../core/model/tree';

const OPEN = '⟦';
const CLOSE = '⟧';

/** Strips the ⟦…⟧ markers and returns the clean text with the marked ranges, in order. */
function unmark(marked: string): { text: string; ranges: [number, number][] } {
  let text = '';
  const ranges: [number, number][] = [];
  let start = -1;
  for (const char of marked) {
    if (char === OPEN) {
      assert.equal(start, -1, `nested ${OPEN} in fixture`);
      start = text.length;
    } else if (char === CLOSE) {
      assert.notEqual(start, -1, `${CLOSE} without ${OPEN} in fixture`);
      ranges.push([start, text.length]);
      start = -1;
    } else {
      text += char;
    }
  }
  assert.equal(start, -1, `unclosed ${OPEN} in fixture`);
  return { text, ranges };
}

function compiled(schema: unknown): CompiledSchema {
  const result = compileSchema(schema);
  if ('error' in result) assert.fail(`schema should compile: ${result.error}`);
  return result.compiled;
}

function dataOf(text: string): { node: ValueNode; property: PropertyNode } {
  const doc = parseJson(text);
  assert.deepEqual(doc.syntaxProblems, [], 'fixture must be valid JSON');
  const property = getProperty(asObject(doc.root), 'data');
  assert.ok(property?.value, 'fixture needs a "data" property');
  return { node: property.value, property };
}

function check(schema: unknown, text: string): MappedSchemaError[] {
  const { node, property } = dataOf(text);
  return mapSchemaErrors(node, property, compiled(schema).validate(toJsValue(node)));
}

interface Row {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  /** The envelope text (only `data` matters) with every expected range marked. */
  readonly fixture: string;
  /** Per marked range, in text order: the keyword and what the message must mention. */
  readonly expect: readonly { readonly keyword: string; readonly mentions: readonly string[]; readonly excludes?: readonly string[] }[];
}

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

const ROWS: readonly Row[] = [
  {
    name: 'type: a quoted number',
    schema: obj({ amount: { type: 'number', minimum: 0 } }),
    fixture: '{"data": {"amount": ⟦"99.90"⟧}}',
    expect: [{ keyword: 'type', mentions: ['"amount" must be a number', 'not the string "99.90"', 'write 99.90 without quotes'] }],
  },
  {
    name: 'type: integer given a fraction',
    schema: obj({ order_id: { type: 'integer' } }),
    fixture: '{"data": {"order_id": ⟦1.5⟧}}',
    expect: [{ keyword: 'type', mentions: ['"order_id" must be an integer', 'the number 1.5'] }],
  },
  {
    name: 'type: string given a number',
    schema: obj({ customer_id: { type: 'string' } }),
    fixture: '{"data": {"customer_id": ⟦42⟧}}',
    expect: [{ keyword: 'type', mentions: ['"customer_id" must be a string', 'the number 42', 'write "42" in quotes'] }],
  },
  {
    name: 'type: a union of types',
    schema: obj({ note: { type: ['string', 'null'] } }),
    fixture: '{"data": {"note": ⟦true⟧}}',
    expect: [{ keyword: 'type', mentions: ['"note" must be a string or null, not the boolean true'], excludes: ['quotes'] }],
  },
  {
    name: 'type: data itself is not an object',
    schema: { type: 'object' },
    fixture: '{"data": ⟦[1]⟧}',
    expect: [{ keyword: 'type', mentions: ['"data" must be an object', 'an array'] }],
  },
  {
    name: 'enum',
    schema: obj({ currency: { enum: ['USD', 'EUR', 'TRY'] } }),
    fixture: '{"data": {"currency": ⟦"GBP"⟧}}',
    expect: [{ keyword: 'enum', mentions: ['"currency" must be one of "USD", "EUR", "TRY"; found "GBP"'] }],
  },
  {
    name: 'const',
    schema: obj({ kind: { const: 'order' } }),
    fixture: '{"data": {"kind": ⟦"ordr"⟧}}',
    expect: [{ keyword: 'const', mentions: ['"kind" must be "order"', 'found "ordr"'] }],
  },
  {
    name: 'minimum',
    schema: obj({ order_id: { type: 'integer', minimum: 1 } }),
    fixture: '{"data": {"order_id": ⟦0⟧}}',
    expect: [{ keyword: 'minimum', mentions: ['"order_id" must be ≥ 1; found 0'] }],
  },
  {
    name: 'maximum',
    schema: obj({ qty: { type: 'integer', maximum: 10 } }),
    fixture: '{"data": {"qty": ⟦11⟧}}',
    expect: [{ keyword: 'maximum', mentions: ['"qty" must be ≤ 10; found 11'] }],
  },
  {
    name: 'exclusiveMinimum',
    schema: obj({ price: { type: 'number', exclusiveMinimum: 0 } }),
    fixture: '{"data": {"price": ⟦0.0⟧}}',
    expect: [{ keyword: 'exclusiveMinimum', mentions: ['"price" must be > 0; found 0.0'] }],
  },
  {
    name: 'exclusiveMaximum',
    schema: obj({ ratio: { type: 'number', exclusiveMaximum: 1 } }),
    fixture: '{"data": {"ratio": ⟦1e0⟧}}',
    expect: [{ keyword: 'exclusiveMaximum', mentions: ['"ratio" must be < 1; found 1e0'] }],
  },
  {
    name: 'multipleOf',
    schema: obj({ pack: { type: 'integer', multipleOf: 6 } }),
    fixture: '{"data": {"pack": ⟦8⟧}}',
    expect: [{ keyword: 'multipleOf', mentions: ['"pack" must be a multiple of 6; found 8'] }],
  },
  {
    name: 'minLength',
    schema: obj({ email: { type: 'string', minLength: 3 } }),
    fixture: '{"data": {"email": ⟦"ab"⟧}}',
    expect: [{ keyword: 'minLength', mentions: ['"email" must be at least 3 characters long; found 2'] }],
  },
  {
    name: 'maxLength counts code points, as ajv does',
    schema: obj({ code: { type: 'string', maxLength: 2 } }),
    fixture: '{"data": {"code": ⟦"😀😀😀"⟧}}',
    expect: [{ keyword: 'maxLength', mentions: ['"code" must be at most 2 characters long; found 3'] }],
  },
  {
    name: 'pattern',
    schema: obj({ sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' } }),
    fixture: '{"data": {"sku": ⟦"abc-1"⟧}}',
    expect: [{ keyword: 'pattern', mentions: ['"sku" must match the pattern ^[A-Z]{3}-\\d+$', 'found "abc-1"'] }],
  },
  {
    name: 'format: email, date-time, date, uuid, uri',
    schema: obj({
      email: { type: 'string', format: 'email' },
      at: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      id: { type: 'string', format: 'uuid' },
      link: { type: 'string', format: 'uri' },
    }),
    fixture: '{"data": {"email": ⟦"not-an-email"⟧, "at": ⟦"2024-13-01 25:00"⟧, "day": ⟦"01/05/2024"⟧, "id": ⟦"1234"⟧, "link": ⟦"no scheme"⟧}}',
    expect: [
      { keyword: 'format', mentions: ['"email" must be a valid email address'] },
      { keyword: 'format', mentions: ['"at" must be a valid date-time', 'RFC 3339'] },
      { keyword: 'format', mentions: ['"day" must be a valid date', 'YYYY-MM-DD'] },
      { keyword: 'format', mentions: ['"id" must be a valid UUID'] },
      { keyword: 'format', mentions: ['"link" must be a valid absolute URI'] },
    ],
  },
  {
    name: 'required on data itself: the "data" key',
    schema: obj({ order_id: { type: 'integer' }, amount: { type: 'number', minimum: 0 } }, { required: ['order_id', 'amount'] }),
    fixture: '{"job": "urn:babel:orders:created:v1", ⟦"data"⟧: {"order_id": 1}}',
    expect: [{ keyword: 'required', mentions: ['missing required field "amount" (number ≥ 0)'] }],
  },
  {
    name: 'required on a nested object: that object\'s key',
    schema: obj({ customer: obj({ email: { type: 'string', format: 'email' } }, { required: ['email'] }) }),
    fixture: '{"data": {⟦"customer"⟧: {"name": "Ada"}}}',
    expect: [{ keyword: 'required', mentions: ['missing required field "email"', 'email address', 'in "customer"'] }],
  },
  {
    name: 'required on an array item: the item',
    schema: obj({ lines: { type: 'array', items: obj({ sku: { type: 'string' } }, { required: ['sku'] }) } }),
    fixture: '{"data": {"lines": [{"sku": "A"}, ⟦{"qty": 1}⟧]}}',
    expect: [{ keyword: 'required', mentions: ['missing required field "sku" (string)', 'in "lines[1]"'] }],
  },
  {
    name: 'additionalProperties: the extra key, with the closest allowed name',
    schema: obj({ order_id: { type: 'integer' }, amount: { type: 'number' } }, { additionalProperties: false }),
    fixture: '{"data": {"order_id": 1, ⟦"amout"⟧: 2}}',
    expect: [{ keyword: 'additionalProperties', mentions: ['"amout" is not a field of "data"', 'did you mean "amount"?', 'allowed: "order_id", "amount"'] }],
  },
  {
    name: 'additionalProperties inside an array of objects',
    schema: obj({ lines: { type: 'array', items: obj({ sku: { type: 'string' } }, { additionalProperties: false }) } }),
    fixture: '{"data": {"lines": [{"sku": "A", ⟦"colour"⟧: "red"}]}}',
    expect: [{ keyword: 'additionalProperties', mentions: ['"colour" is not a field of "lines[0]"', '"sku"'] }],
  },
  {
    name: 'items: each failing item value',
    schema: obj({ tags: { type: 'array', items: { type: 'string' } } }),
    fixture: '{"data": {"tags": ["a", ⟦7⟧, "b", ⟦null⟧]}}',
    expect: [
      { keyword: 'type', mentions: ['"tags[1]" must be a string', 'the number 7'] },
      { keyword: 'type', mentions: ['"tags[3]" must be a string', 'null'] },
    ],
  },
  {
    name: 'items in an array of objects: the nested value',
    schema: obj({ lines: { type: 'array', items: obj({ sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' } }) } }),
    fixture: '{"data": {"lines": [{"sku": "ABC-1"}, {"sku": ⟦"x"⟧}]}}',
    expect: [{ keyword: 'pattern', mentions: ['"sku" must match the pattern'] }],
  },
  {
    name: 'minItems: the array',
    schema: obj({ lines: { type: 'array', minItems: 1 } }),
    fixture: '{"data": {"lines": ⟦[]⟧}}',
    expect: [{ keyword: 'minItems', mentions: ['"lines" must have at least 1 item; found 0'] }],
  },
  {
    name: 'maxItems: the surplus items',
    schema: obj({ tags: { type: 'array', maxItems: 2 } }),
    fixture: '{"data": {"tags": ["a", "b", ⟦"c", "d"⟧]}}',
    expect: [{ keyword: 'maxItems', mentions: ['"tags" must have at most 2 items; found 4, remove the last 2'] }],
  },
  {
    name: 'additionalItems: the items past the tuple',
    schema: obj({ point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false } }),
    fixture: '{"data": {"point": [1, 2, ⟦3⟧]}}',
    expect: [{ keyword: 'additionalItems', mentions: ['"point" takes only the 2 items', 'found 3'] }],
  },
  {
    name: 'uniqueItems: the repeated item',
    schema: obj({ tags: { type: 'array', uniqueItems: true } }),
    fixture: '{"data": {"tags": ["a", "b", ⟦"a"⟧]}}',
    expect: [{ keyword: 'uniqueItems', mentions: ['"tags" must not repeat items: item 2 is the same as item 0'] }],
  },
  {
    name: 'contains: the array, not every item',
    schema: obj({ roles: { type: 'array', contains: { const: 'owner' } } }),
    fixture: '{"data": {"roles": ⟦["viewer", "editor"]⟧}}',
    expect: [{ keyword: 'contains', mentions: ['"roles" must contain at least one item that is "owner"'] }],
  },
  {
    name: '~1 and ~0 in keys',
    schema: obj({ 'a/b': { type: 'string' }, 'c~d': { type: 'integer' } }),
    fixture: '{"data": {"a/b": ⟦1⟧, "c~d": ⟦"x"⟧}}',
    expect: [
      { keyword: 'type', mentions: ['"a/b" must be a string'] },
      { keyword: 'type', mentions: ['"c~d" must be an integer'] },
    ],
  },
  {
    name: 'deep nesting through objects and arrays',
    schema: obj({ order: obj({ lines: { type: 'array', items: obj({ price: obj({ amount: { type: 'number', minimum: 0 } }) }) } }) }),
    fixture: '{"data": {"order": {"lines": [{"price": {"amount": 1}}, {"price": {"amount": ⟦-5⟧}}]}}}',
    expect: [{ keyword: 'minimum', mentions: ['"amount" must be ≥ 0; found -5'] }],
  },
  {
    name: 'several problems at once, in text order',
    schema: obj({ order_id: { type: 'integer', minimum: 1 }, amount: { type: 'number' }, currency: { enum: ['USD', 'EUR'] } }, { additionalProperties: false }),
    fixture: '{"data": {"currency": ⟦"GBP"⟧, "order_id": ⟦0⟧, ⟦"x"⟧: 1, "amount": ⟦"1"⟧}}',
    expect: [
      { keyword: 'enum', mentions: ['"currency"'] },
      { keyword: 'minimum', mentions: ['"order_id"'] },
      { keyword: 'additionalProperties', mentions: ['"x"'] },
      { keyword: 'type', mentions: ['"amount"'] },
    ],
  },
  {
    name: 'if/then: the then-error only, not the "if" wrapper',
    schema: { if: obj({ kind: { const: 'refund' } }, { required: ['kind'] }), then: { required: ['reason'] } },
    fixture: '{⟦"data"⟧: {"kind": "refund"}}',
    expect: [{ keyword: 'required', mentions: ['missing required field "reason"'] }],
  },
  {
    name: 'anyOf where no alternative fits: one summary',
    schema: obj({ ref: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'integer', minimum: 1 }] } }),
    fixture: '{"data": {"ref": ⟦true⟧}}',
    expect: [{ keyword: 'anyOf', mentions: ['"ref" must be a non-empty string or an integer ≥ 1; found true'] }],
  },
  {
    name: 'anyOf where one alternative has the right shape: its errors',
    schema: obj({ payer: { anyOf: [{ type: 'string' }, obj({ iban: { type: 'string' } }, { required: ['iban'] })] } }),
    fixture: '{"data": {⟦"payer"⟧: {"name": "Ada"}}}',
    expect: [{ keyword: 'required', mentions: ['missing required field "iban"', 'in "payer"'] }],
  },
  {
    name: 'oneOf matched by more than one alternative',
    schema: obj({ n: { oneOf: [{ type: 'number' }, { type: 'integer' }] } }),
    fixture: '{"data": {"n": ⟦3⟧}}',
    expect: [{ keyword: 'oneOf', mentions: ['"n" matches 2 alternatives of "oneOf"', 'exactly one'] }],
  },
  {
    name: 'propertyNames: the offending key',
    schema: { type: 'object', propertyNames: { pattern: '^[a-z_]+$' } },
    fixture: '{"data": {"order_id": 1, ⟦"OrderId"⟧: 2}}',
    expect: [{ keyword: 'propertyNames', mentions: ['"OrderId" is not allowed', 'match the pattern ^[a-z_]+$'] }],
  },
  {
    name: 'dependencies: the key that needs the missing one',
    schema: { type: 'object', dependencies: { discount: ['discount_reason'] } },
    fixture: '{"data": {⟦"discount"⟧: 5}}',
    expect: [{ keyword: 'dependencies', mentions: ['"discount" requires "discount_reason"'] }],
  },
  {
    name: 'minProperties on a nested object: its key',
    schema: obj({ attributes: { type: 'object', minProperties: 1 } }),
    fixture: '{"data": {⟦"attributes"⟧: {}}}',
    expect: [{ keyword: 'minProperties', mentions: ['"attributes" must have at least 1 field; found 0'] }],
  },
  {
    name: 'not',
    schema: obj({ status: { type: 'string', not: { const: 'deleted' } } }),
    fixture: '{"data": {"status": ⟦"deleted"⟧}}',
    expect: [{ keyword: 'not', mentions: ['"status" must not be "deleted"'], excludes: ['found'] }],
  },
  {
    name: 'a false schema: the key of the field that must not exist',
    schema: obj({ legacy_id: false }),
    fixture: '{"data": {⟦"legacy_id"⟧: 7}}',
    expect: [{ keyword: 'false schema', mentions: ['"legacy_id" is not allowed here'] }],
  },
  {
    name: 'identical errors from two constraints are reported once',
    schema: obj({ qty: { allOf: [{ minimum: 1 }, { minimum: 1 }] } }),
    fixture: '{"data": {"qty": ⟦0⟧}}',
    expect: [{ keyword: 'minimum', mentions: ['"qty" must be ≥ 1'] }],
  },
  {
    name: 'duplicate keys: the last one is what was validated',
    schema: obj({ amount: { type: 'number' } }),
    fixture: '{"data": {"amount": 1, "amount": ⟦"1"⟧}}',
    expect: [{ keyword: 'type', mentions: ['"amount" must be a number'] }],
  },
];

for (const row of ROWS) {
  test(`range and message: ${row.name}`, () => {
    const { text, ranges } = unmark(row.fixture);
    const mapped = check(row.schema, text);
    const shown = mapped.map((m) => `${JSON.stringify(text.slice(m.offset, m.end))} ${m.keyword}: ${m.message}`).join('\n  ');
    assert.deepEqual(
      mapped.map((m) => [m.offset, m.end]),
      ranges,
      `ranges differ; got\n  ${shown}`,
    );
    assert.deepEqual(
      mapped.map((m) => m.keyword),
      row.expect.map((e) => e.keyword),
      `keywords differ; got\n  ${shown}`,
    );
    mapped.forEach((m, i) => {
      for (const mention of row.expect[i].mentions) assert.ok(m.message.includes(mention), `message ${JSON.stringify(m.message)} should mention ${JSON.stringify(mention)}`);
      for (const absent of row.expect[i].excludes ?? []) assert.ok(!m.message.includes(absent), `message ${JSON.stringify(m.message)} should not say ${JSON.stringify(absent)}`);
    });
  });
}

test('every keyword the issue lists has a row', () => {
  const covered = new Set(ROWS.flatMap((row) => row.expect.map((e) => e.keyword)));
  const listed = ['required', 'type', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'format', 'multipleOf', 'additionalProperties', 'minItems', 'maxItems', 'uniqueItems', 'additionalItems'];
  assert.deepEqual(listed.filter((k) => !covered.has(k)), []);
});

test('a valid payload maps to nothing', () => {
  const schema = obj({ order_id: { type: 'integer', minimum: 1 }, lines: { type: 'array', items: obj({ sku: { type: 'string' } }, { required: ['sku'] }) } }, { required: ['order_id'] });
  assert.deepEqual(check(schema, '{"data": {"order_id": 1.0, "lines": [{"sku": "A"}]}}'), []);
});

test('without the data property, a problem of data itself covers the data value', () => {
  const text = '{"order_id": 1}';
  const root = parseJson(text).root!;
  const errors = compiled(obj({}, { required: ['amount'] })).validate(toJsValue(root));
  const mapped = mapSchemaErrors(root, undefined, errors);
  assert.deepEqual(mapped.map((m) => [m.offset, m.end, m.keyword]), [[0, text.length, 'required']]);
  assert.match(mapped[0].message, /missing required field "amount"/);
});

test('a path that cannot be followed falls back to the nearest existing node', () => {
  const { text } = unmark('{"data": {"lines": [1, 2]}}');
  const { node, property } = dataOf(text);
  const lines = asObject(node)!.properties[0].value!;
  const error = (instancePath: string): SchemaError => ({ keyword: 'type', instancePath, params: { type: 'string' }, message: 'must be string' });
  const mapped = mapSchemaErrors(node, property, [error('/nope/deeper'), error('/lines/9'), error('/lines/01')]);
  // Two of them land on the same node with the same message: reported once.
  assert.deepEqual(
    mapped.map((m) => [m.offset, m.end]),
    [
      [node.offset, node.end],
      [lines.offset, lines.end],
    ],
  );
});

test('an unknown keyword still gets a range and ajv\'s own words', () => {
  const { node, property } = dataOf('{"data": {"x": 1}}');
  const x = asObject(node)!.properties[0].value!;
  const mapped = mapSchemaErrors(node, property, [{ keyword: 'somethingNew', instancePath: '/x', params: {}, message: 'must be shiny' }]);
  assert.deepEqual(mapped, [{ offset: x.offset, end: x.end, keyword: 'somethingNew', message: '"x" must be shiny' }]);
});

// ---------------------------------------------------------------------------------------------
// toJsValue

test('toJsValue agrees with JSON.parse, duplicates and number spellings included', () => {
  const text = '{"a": 1.0, "b": -0, "c": 1e2, "d": [true, null, "\\u00e9\\n"], "a": {"x": [[]]}, "e": 12345678901234567890, "f": {}}';
  const value = toJsValue(parseJson(text).root!);
  assert.deepEqual(value, JSON.parse(text));
  assert.deepEqual(Object.keys(value as object), Object.keys(JSON.parse(text)), 'key order as JSON.parse: first occurrence keeps its place');
  assert.ok(Object.is((value as { b: number }).b, -0));
});

test('toJsValue keeps "__proto__" as an own key instead of setting the prototype', () => {
  const value = toJsValue(parseJson('{"__proto__": {"polluted": true}}').root!) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.ok(Object.prototype.hasOwnProperty.call(value, '__proto__'));
  assert.equal((value as { polluted?: unknown }).polluted, undefined);
});

test('toJsValue handles nesting far beyond the call stack', () => {
  const depth = 100_000;
  const value = toJsValue(parseJson('['.repeat(depth) + ']'.repeat(depth)).root!);
  let level = 0;
  for (let current = value; Array.isArray(current) && current.length > 0; current = current[0]) level++;
  assert.equal(level, depth - 1);
});

// ---------------------------------------------------------------------------------------------
// compileSchema

const COMPILE_ERRORS: readonly { name: string; schema: unknown; mentions: readonly string[]; absent?: readonly string[] }[] = [
  { name: 'an array', schema: [], mentions: ['must be a JSON object', 'an array'] },
  { name: 'null', schema: null, mentions: ['must be a JSON object', 'null'] },
  { name: 'a boolean schema', schema: true, mentions: ['must be a JSON object'] },
  { name: 'a misspelt type name', schema: obj({ amount: { type: 'integr' } }), mentions: ['"type" at /properties/amount must be a JSON type name', 'found "integr"', 'did you mean "integer"?'] },
  { name: 'a misspelt type in a type array', schema: obj({ note: { type: ['string', 'nul'] } }), mentions: ['"type" at /properties/note', '"nul"', 'did you mean "null"?'] },
  { name: 'a property named "type" is not the keyword', schema: obj({ type: { type: 'strng' } }), mentions: ['"type" at /properties/type must be a JSON type name', '"strng"'] },
  { name: 'required as a string', schema: { type: 'object', required: 'order_id' }, mentions: ['"required" at the schema root must be an array', 'found "order_id"'] },
  { name: 'a draft-04 boolean exclusiveMinimum', schema: obj({ n: { type: 'number', exclusiveMinimum: true } }), mentions: ['"exclusiveMinimum" at /properties/n must be a number'] },
  { name: 'an invalid regex', schema: obj({ sku: { type: 'string', pattern: '^[A-Z' } }), mentions: ['"pattern" at /properties/sku is not a valid regular expression: ^[A-Z'] },
  { name: 'a regex only Unicode mode rejects', schema: obj({ sku: { type: 'string', pattern: '^A\\-1$' } }), mentions: ['"pattern" at /properties/sku', 'Unicode mode'] },
  { name: 'an invalid patternProperties key', schema: { type: 'object', patternProperties: { '(': { type: 'string' } } }, mentions: ['"patternProperties" key', 'not a valid regular expression: ('] },
  { name: 'an unresolvable local $ref', schema: obj({ address: { $ref: '#/definitions/address' } }), mentions: ['"$ref" "#/definitions/address" at /properties/address cannot be resolved', 'define it'] },
  { name: 'a $ref to another file', schema: obj({ address: { $ref: 'common.json#/address' } }), mentions: ['"common.json#/address"', 'other files are not loaded'] },
  {
    name: 'a $ref that climbs out of the registry folder is quoted as written, not as resolved against the private base',
    schema: obj({ a: { $ref: '../../outside/s.json' } }),
    mentions: ['"$ref" "../../outside/s.json" at /properties/a cannot be resolved', 'other files are not loaded'],
    absent: ['"outside/s.json"', 'babelqueue.invalid'],
  },
  {
    name: "a $ref resolved against the schema's own $id says where it resolves",
    schema: { $id: 'https://example.com/schemas/orders.json', ...obj({ a: { $ref: '../common/s.json' } }) },
    mentions: ['"$ref" "../common/s.json" at /properties/a', 'resolves to "https://example.com/common/s.json"', 'other files are not loaded'],
  },
  {
    name: "a local $ref under the schema's own $id gets the local hint",
    schema: { $id: 'https://example.com/schemas/orders.json', ...obj({ a: { $ref: '#/definitions/none' } }) },
    mentions: ['"$ref" "#/definitions/none" at /properties/a cannot be resolved', 'define it'],
    absent: ['other files'],
  },
  { name: 'a nested $id used twice', schema: obj({ a: { $id: 'https://example.com/x.json', type: 'string' }, b: { $id: 'https://example.com/x.json', type: 'number' } }), mentions: ['"$id" "https://example.com/x.json"', 'distinct'] },
  { name: 'another draft', schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' }, mentions: ['"$schema"', 'must be draft-07'] },
];

for (const row of COMPILE_ERRORS) {
  test(`compile error: ${row.name}`, () => {
    const result = compileSchema(row.schema);
    assert.ok('error' in result, 'the schema must be refused');
    for (const mention of row.mentions) assert.ok(result.error.includes(mention), `${JSON.stringify(result.error)} should mention ${JSON.stringify(mention)}`);
    for (const word of row.absent ?? []) assert.ok(!result.error.includes(word), `${JSON.stringify(result.error)} should not mention ${JSON.stringify(word)}`);
  });
}

test('x-gdpr-sensitive, unknown keywords and the https draft-07 URI compile', () => {
  const schema = {
    $schema: 'https://json-schema.org/draft-07/schema',
    'x-owner': 'payments',
    ...obj({
      email: { type: 'string', 'x-gdpr-sensitive': 'email' },
      phone: { type: 'string', 'x-gdpr-sensitive': true },
      locale: { type: 'string', 'x-gdpr-sensitive': false },
      note: { type: 'string', 'x-gdpr-sensitive': '' },
    }),
  };
  const validator = compiled(schema);
  assert.deepEqual(validator.validate({ email: 'a@b.co', phone: '1' }), []);
  assert.deepEqual(validator.validate({ email: 5 }).map((e) => [e.keyword, e.instancePath]), [['type', '/email']]);
});

test('formats come from ajv-formats and are enforced', () => {
  const cases: [format: string, good: string, bad: string][] = [
    ['date-time', '2024-05-01T09:30:00Z', '2024-05-01 09:30'],
    ['date', '2024-02-29', '2023-02-29'],
    ['email', 'ada@example.com', 'ada@'],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', '123e4567'],
    ['uri', 'https://example.com/x', '/relative'],
    ['ipv4', '10.0.0.1', '10.0.0.256'],
  ];
  for (const [format, good, bad] of cases) {
    const validator = compiled({ type: 'string', format });
    assert.deepEqual(validator.validate(good), [], `${format}: ${good} is valid`);
    assert.deepEqual(validator.validate(bad).map((e) => e.keyword), ['format'], `${format}: ${bad} is invalid`);
  }
});

test('errors carry the failing subschema (verbose), so messages can describe it', () => {
  const errors = compiled(obj({ amount: { type: 'number', minimum: 0 } }, { required: ['amount'] })).validate({});
  assert.equal(errors.length, 1);
  assert.deepEqual(errors[0].parentSchema?.required, ['amount']);
});

test('a schema compiles once: by identity and by content', () => {
  const schema = obj({ cache_probe_a: { type: 'string' } });
  const first = compileSchema(schema);
  assert.equal(compileSchema(schema), first, 'same object: the very same result');
  const twin = JSON.parse(JSON.stringify(schema));
  assert.equal(compileSchema(twin), first, 'equal content: the same result');
  const other = compileSchema(obj({ cache_probe_a: { type: 'number' } }));
  assert.notEqual(other, first);
  const failing = compileSchema({ type: 'strnig', cache_probe: 1 });
  assert.equal(compileSchema(JSON.parse(JSON.stringify({ type: 'strnig', cache_probe: 1 }))), failing, 'errors are cached too');
});

test('mutating a schema object after compiling does not change its validator', () => {
  const schema = obj({ n: { type: 'integer' } });
  const validator = compiled(schema);
  (schema.properties.n as { type: string }).type = 'string';
  assert.deepEqual(validator.validate({ n: 1 }), []);
});

test('two schemas with the same $id (root or nested) both compile and keep their own rules', () => {
  const a = compiled({ $id: 'https://example.com/order.json', ...obj({ n: { $id: 'https://example.com/n.json', type: 'integer' } }) });
  const b = compiled({ $id: 'https://example.com/order.json', ...obj({ n: { $id: 'https://example.com/n.json', type: 'string' } }) });
  assert.deepEqual(a.validate({ n: 1 }), []);
  assert.equal(a.validate({ n: 'x' }).length, 1);
  assert.deepEqual(b.validate({ n: 'x' }), []);
  assert.equal(b.validate({ n: 1 }).length, 1);
});

test('a schema claiming the draft-07 meta-schema $id does not break later compiles', () => {
  const claim = compiled({ $id: 'http://json-schema.org/draft-07/schema#', type: 'object' });
  assert.deepEqual(claim.validate(5).map((e) => e.keyword), ['type']);
  const later = compileSchema(obj({ meta_probe: { type: 'integr' } }));
  assert.ok('error' in later && later.error.includes('"integr"'), 'the meta-schema still checks schemas');
  assert.deepEqual(compiled(obj({ meta_probe: { type: 'integer' } })).validate({ meta_probe: 2 }), []);
});

test('validators stay usable after many compiles (the shared ajv instance is renewed)', () => {
  const first = compiled(obj({ renew_probe: { type: 'integer', minimum: 10 } }));
  for (let i = 0; i < 450; i++) compiled(obj({ [`renew_${i}`]: { type: 'integer', minimum: i } }));
  assert.deepEqual(first.validate({ renew_probe: 10 }), []);
  assert.deepEqual(first.validate({ renew_probe: 9 }).map((e) => e.keyword), ['minimum']);
  const again = compiled(obj({ renew_probe: { type: 'integer', minimum: 10 } }));
  assert.deepEqual(again.validate({ renew_probe: 'x' }).map((e) => e.keyword), ['type']);
});

test('local $refs to definitions work', () => {
  const validator = compiled({ definitions: { money: { type: 'number', minimum: 0 } }, ...obj({ amount: { $ref: '#/definitions/money' } }) });
  assert.deepEqual(validator.validate({ amount: 1 }), []);
  const { node, property } = dataOf('{"data": {"amount": -1}}');
  const mapped = mapSchemaErrors(node, property, validator.validate(toJsValue(node)));
  assert.deepEqual(mapped.map((m) => m.message), ['"amount" must be ≥ 0; found -1']);
});

// A RangeError out of ajv is nesting only when it is the call stack running out.

const throwing = (error: Error) => compiledSchema((() => { throw error; }) as unknown as ValidateFunction, () => { throw error; }, () => { throw error; }, undefined, String);

test('a RangeError while validating: the call stack running out is worded as nesting, any other by its own message', () => {
  const overflow = throwing(new RangeError('Maximum call stack size exceeded')).validate({ a: 1 });
  assert.equal(overflow.length, 1);
  assert.match(overflow[0].message, /nested too deeply/);
  for (const message of ['Invalid array length', 'Invalid string length']) {
    const [error] = throwing(new RangeError(message)).validate({ a: 1 });
    assert.doesNotMatch(error.message, /nested|deep/, message);
    assert.match(error.message, new RegExp(`could not be validated.*${message}`), message);
  }
});

test('a RangeError while compiling: the call stack running out is worded as nesting or a $ref cycle, any other by its own message', () => {
  assert.match(compileFailureMessage(new RangeError('Maximum call stack size exceeded'), {}), /nested too deeply/);
  const other = compileFailureMessage(new RangeError('Invalid array length'), {});
  assert.doesNotMatch(other, /nested|cycle/);
  assert.match(other, /Invalid array length/);
});

test('a list of allowed names or values hides only a rest worth hiding: up to three more are named, a longer rest is counted', () => {
  const names = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`field_${i}`, { type: 'integer' }]));
  const extra = (count: number) => check(obj(names(count), { additionalProperties: false }), '{"data": {"other": 1}}')[0].message;
  // Ten names: the eight shown and two more, named rather than counted.
  assert.match(extra(10), /"field_8", "field_9"/);
  assert.doesNotMatch(extra(10), /more\)/);
  assert.match(extra(11), /"field_10"/);
  // Twelve: a rest of four is counted.
  assert.match(extra(12), /"field_7", … \(4 more\)/);
  assert.doesNotMatch(extra(12), /"field_8"/);
  const values = (count: number) => Array.from({ length: count }, (_, i) => `v${i}`);
  const enumMessage = (count: number) => check(obj({ kind: { enum: values(count) } }), '{"data": {"kind": "x"}}')[0].message;
  assert.match(enumMessage(13), /"v12"/);
  assert.doesNotMatch(enumMessage(13), /more\)/);
  assert.match(enumMessage(14), /"v9", … \(4 more\)/);
});
