/**
 * breaking-change (core/rules/registry/breaking-change.ts): bqschema compat's rules, one case per
 * row of its table (measured from bqschema's compat code), each break on the NEW schema's key with bqschema's words.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseText } from '../../../../core/parse/parser';
import { compatibilityBreaks } from '../../../../core/rules/registry/breaking-change';
import { nextVersion } from '../../../../core/contract/urn';

function breaks(before: unknown, after: unknown): { path: string; reason: string; at: string }[] {
  const oldText = JSON.stringify(before, null, 2);
  const newText = JSON.stringify(after, null, 2);
  return compatibilityBreaks(parseText(oldText).root, parseText(newText).root).map((found) => ({ path: found.path, reason: found.reason, at: newText.slice(found.offset, found.end) }));
}

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

describe('bqschema compat, row by row', () => {
  test('a changed type is breaking, and nothing below it is compared', () => {
    assert.deepEqual(breaks(object({ id: { type: 'integer', minimum: 1 } }), object({ id: { type: 'string', minLength: 3 } })), [{ path: 'id', reason: 'type changed "integer" → "string"', at: '"type"' }]);
  });

  test('an enum added where any value was allowed; a value removed (as printed: 1 and 1.0 differ)', () => {
    assert.deepEqual(breaks(object({ c: { type: 'string' } }), object({ c: { type: 'string', enum: ['EUR'] } })), [{ path: 'c', reason: 'enum constraint added where any value was allowed', at: '"enum"' }]);
    const oldText = '{"properties": {"n": {"enum": [1, 2, "x"]}}}';
    const newText = '{"properties": {"n": {"enum": [1.0, 2, "x", "y"]}}}';
    const found = compatibilityBreaks(parseText(oldText).root, parseText(newText).root);
    assert.deepEqual(found.map((b) => b.reason), ['enum value 1 removed']);
  });

  test('minLength and minimum tightened (added, or raised); loosened is compatible', () => {
    assert.deepEqual(breaks(object({ s: { type: 'string', minLength: 1 }, n: { type: 'integer' } }), object({ s: { type: 'string', minLength: 2 }, n: { type: 'integer', minimum: 0 } })).map((b) => `${b.path}: ${b.reason}`).sort(), ['n: minimum tightened', 's: minLength tightened']);
    assert.deepEqual(breaks(object({ s: { type: 'string', minLength: 3 } }), object({ s: { type: 'string', minLength: 1 } })), []);
  });

  test('a newly required name, on that name in "required"; nested properties and items have paths a.b and a[]', () => {
    assert.deepEqual(breaks(object({ a: object({ b: { type: 'string' } }) }, { required: ['a'] }), object({ a: object({ b: { type: 'string' } }, { required: ['b'] }) }, { required: ['a'] })), [{ path: 'a', reason: 'property "b" is now required', at: '"b"' }]);
    assert.deepEqual(breaks(object({ list: { type: 'array', items: { type: 'integer' } } }), object({ list: { type: 'array', items: { type: 'number' } } })), [{ path: 'list[]', reason: 'type changed "integer" → "number"', at: '"type"' }]);
  });

  test('additionalProperties closed; a property removed while closed; removed while open is compatible', () => {
    assert.deepEqual(breaks(object({ a: { type: 'string' }, b: { type: 'string' } }), object({ a: { type: 'string' } }, { additionalProperties: false })).map((b) => b.reason).sort(), ['additionalProperties tightened to false', 'property "b" removed while additionalProperties is false']);
    assert.deepEqual(breaks(object({ a: { type: 'string' }, b: { type: 'string' } }), object({ a: { type: 'string' } })), []);
  });

  test('compatible: a new optional property, an enum value added, a type added where there was none, a keyword outside the subset (pattern, maxLength)', () => {
    assert.deepEqual(breaks(object({ a: { enum: ['x'] } }), object({ a: { type: 'string', enum: ['x', 'y'], pattern: '^[a-z]$', maxLength: 1 }, b: { type: 'integer' } })), []);
  });

  test('the URN to mint', () => {
    assert.equal(nextVersion('urn:babel:orders:created'), 'urn:babel:orders:created.v2');
    assert.equal(nextVersion('urn:babel:orders:created.v2'), 'urn:babel:orders:created.v3');
  });
});

/** The breaks between two schema texts as written (formatting kept), as `path: reason`, in order. */
function textBreaks(oldText: string, newText: string): string[] {
  return compatibilityBreaks(parseText(oldText).root, parseText(newText).root).map((found) => (found.path ? `${found.path}: ${found.reason}` : found.reason));
}

describe('bqschema compat on the validator subset: each row against the cases the table implies', () => {
  test('nested properties inside an array of objects have the path a[].b, at every depth', () => {
    const before = object({ lines: { type: 'array', items: object({ sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 }, tags: { type: 'array', items: { enum: ['a', 'b'] } } }) } });
    const after = object({ lines: { type: 'array', items: object({ sku: { type: 'integer' }, qty: { type: 'integer', minimum: 2 }, tags: { type: 'array', items: { enum: ['a'] } } }, { required: ['sku'] }) } });
    assert.deepEqual(breaks(before, after).map((b) => `${b.path}: ${b.reason}`).sort(), ['lines[].qty: minimum tightened', 'lines[].sku: type changed "string" → "integer"', 'lines[].tags[]: enum value "b" removed', 'lines[]: property "sku" is now required']);
  });

  test('items as a tuple (an array) is outside the subset: nothing in it is compared, whichever side has it', () => {
    const tuple = { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] };
    assert.deepEqual(breaks(object({ pair: tuple }), object({ pair: { type: 'array', items: [{ type: 'integer', minimum: 9 }] } })), []);
    assert.deepEqual(breaks(object({ pair: tuple }), object({ pair: { type: 'array', items: { type: 'boolean' } } })), []);
    assert.deepEqual(breaks(object({ pair: { type: 'array', items: { type: 'boolean' } } }), object({ pair: tuple })), []);
  });

  test('$ref is not followed and definitions are not compared (a $ref cycle is no loop); the properties beside a $ref are', () => {
    const before = { definitions: { node: { type: 'object', properties: { next: { $ref: '#/definitions/node' } } } }, type: 'object', properties: { head: { $ref: '#/definitions/node' } } };
    const after = { definitions: { node: { type: 'string', minLength: 5, properties: { next: { $ref: '#' } } } }, type: 'object', properties: { head: { $ref: '#/definitions/other', minLength: 1 } } };
    assert.deepEqual(breaks(before, after), [{ path: 'head', reason: 'minLength tightened', at: '"minLength"' }]);
  });

  test('a type given as an array is no type: not compared, and what is below it still is', () => {
    assert.deepEqual(breaks(object({ a: { type: 'string' } }), object({ a: { type: ['string', 'null'] } })), []);
    assert.deepEqual(breaks(object({ a: { type: ['integer', 'string'] } }), object({ a: { type: 'boolean' } })), []);
    assert.deepEqual(breaks(object({ a: { type: ['string', 'null'] } }), object({ a: { type: ['number'], minLength: 2 } })).map((b) => b.reason), ['minLength tightened']);
  });

  test('integer and number are different types, either way (bqschema compares the names)', () => {
    assert.deepEqual(breaks(object({ n: { type: 'integer' } }), object({ n: { type: 'number' } })).map((b) => b.reason), ['type changed "integer" → "number"']);
    assert.deepEqual(breaks(object({ n: { type: 'number' } }), object({ n: { type: 'integer' } })).map((b) => b.reason), ['type changed "number" → "integer"']);
    // A type name the validators do not know is still a name that changed.
    assert.deepEqual(breaks(object({ n: { type: 'int' } }), object({ n: { type: 'integer' } })).map((b) => b.reason), ['type changed "int" → "integer"']);
  });

  test('a type changed at the root: the message has no path, and nothing below is compared', () => {
    assert.deepEqual(textBreaks('{"type": "object", "properties": {"a": {"type": "string"}}}', '{"type": "array", "required": ["a"], "properties": {"a": {"type": "integer"}}}'), ['type changed "object" → "array"']);
  });

  test('enum with mixed types: each value compared as printed, a string "1" is not the number 1', () => {
    assert.deepEqual(textBreaks('{"enum": [1, "1", true, null, "x"]}', '{"enum": ["x", 1, "true"]}'), ['enum value "1" removed', 'enum value true removed', 'enum value null removed']);
    assert.deepEqual(textBreaks('{"enum": [1, "1", true, null]}', '{"enum": [null, true, "1", 1, 2]}'), []);
  });

  test('enum values that are objects or arrays are compared as printed, not as the file lays them out', () => {
    const oldText = '{"enum": [{"a": 1, "b": [1, 2]}, [1, "x"]]}';
    const newText = '{\n  "enum": [\n    {\n      "a": 1,\n      "b": [\n        1,\n        2\n      ]\n    },\n    [ 1, "x" ]\n  ]\n}';
    assert.deepEqual(textBreaks(oldText, newText), []);
    assert.deepEqual(textBreaks(oldText, '{"enum": [{"a": 1, "b": [1, 3]}, [1, "x"]]}'), ['enum value {"a":1,"b":[1,2]} removed']);
    // Printing a value nested past any call stack's depth still finishes.
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    assert.deepEqual(textBreaks(`{"enum": [${deep}]}`, `{"enum": [ ${deep.replace('[]', '[ ]')} ]}`), []);
  });

  test('an enum object is the same value whatever the order of its keys, and a repeated key is its last copy, as bqschema decodes it into a map', () => {
    // A schema whose keys were sorted anew (jq -S, a formatter): nothing removed.
    assert.deepEqual(textBreaks('{"enum": [{"b": 2, "a": {"d": 1, "c": [{"f": 1, "e": 2}]}}]}', '{"enum": [{"a": {"c": [{"e": 2, "f": 1}], "d": 1}, "b": 2}]}'), []);
    assert.deepEqual(textBreaks('{"enum": [{"a": 1, "a": 2}]}', '{"enum": [{"a": 2}]}'), []);
    assert.deepEqual(textBreaks('{"enum": [{"a": 1, "b": 2}]}', '{"enum": [{"b": 2}]}'), ['enum value {"a":1,"b":2} removed']);
  });

  test('an enum that is not an array is no enum: neither added nor compared', () => {
    assert.deepEqual(textBreaks('{"type": "string"}', '{"type": "string", "enum": "a"}'), []);
    assert.deepEqual(textBreaks('{"enum": "a"}', '{"enum": ["b"]}'), ['enum constraint added where any value was allowed']);
    assert.deepEqual(textBreaks('{"enum": []}', '{"enum": []}'), []);
  });

  test('const is not one of the rules: added, changed or removed, it is compatible', () => {
    assert.deepEqual(breaks(object({ k: { type: 'string' } }), object({ k: { type: 'string', const: 'x' } })), []);
    assert.deepEqual(breaks(object({ k: { const: 1 } }), object({ k: { const: 2 } })), []);
  });

  test('bounds turned exclusive (draft-07 numeric exclusiveMinimum) are outside the subset; only minimum counts', () => {
    assert.deepEqual(breaks(object({ n: { type: 'number', minimum: 5 } }), object({ n: { type: 'number', exclusiveMinimum: 5 } })), []);
    assert.deepEqual(breaks(object({ n: { type: 'number', minimum: 5 } }), object({ n: { type: 'number', minimum: 5, exclusiveMinimum: 5, maximum: 6, exclusiveMaximum: 6 } })), []);
    assert.deepEqual(breaks(object({ n: { type: 'number', exclusiveMinimum: 5 } }), object({ n: { type: 'number', minimum: 5 } })).map((b) => b.reason), ['minimum tightened']);
    assert.deepEqual(breaks(object({ n: { type: 'number', minimum: 5 } }), object({ n: { type: 'number', minimum: 5.5 } })).map((b) => b.reason), ['minimum tightened']);
  });

  test('bounds the validators ignore (a string "5") are no bound on either side', () => {
    assert.deepEqual(breaks(object({ n: { type: 'integer' } }), object({ n: { type: 'integer', minimum: '5', minLength: '3' } })), []);
    assert.deepEqual(breaks(object({ n: { type: 'integer', minimum: '5' } }), object({ n: { type: 'integer', minimum: 1 } })).map((b) => b.reason), ['minimum tightened']);
  });

  test('minLength is read as the validators read it, truncated to a whole number: 1 → 1.5 is no tightening, 1 → 2.5 is', () => {
    assert.deepEqual(breaks(object({ s: { type: 'string', minLength: 1 } }), object({ s: { type: 'string', minLength: 1.5 } })), []);
    assert.deepEqual(breaks(object({ s: { type: 'string', minLength: 2.9 } }), object({ s: { type: 'string', minLength: 2 } })), []);
    assert.deepEqual(breaks(object({ s: { type: 'string', minLength: 1.2 } }), object({ s: { type: 'string', minLength: 2.5 } })).map((b) => b.reason), ['minLength tightened']);
    assert.deepEqual(breaks(object({ s: { type: 'string' } }), object({ s: { type: 'string', minLength: 0.5 } })).map((b) => b.reason), ['minLength tightened']);
  });

  test('required inside a nested object is reported at that object; a name dropped from required, or one already required, is compatible', () => {
    const before = object({ customer: object({ id: { type: 'string' }, name: { type: 'string' } }, { required: ['id'] }) });
    assert.deepEqual(breaks(before, object({ customer: object({ id: { type: 'string' }, name: { type: 'string' } }, { required: ['name', 'id'] }) })), [{ path: 'customer', reason: 'property "name" is now required', at: '"name"' }]);
    assert.deepEqual(breaks(before, object({ customer: object({ id: { type: 'string' }, name: { type: 'string' } }) })), []);
    // required and properties count without "type": "object", as bqschema reads them.
    assert.deepEqual(textBreaks('{"properties": {"a": {}}}', '{"required": ["a"], "properties": {"a": {}}}'), ['property "a" is now required']);
  });

  test('additionalProperties: false added, nested; already false is no new break; a schema in OLD is open (the subset ignores it), so false in NEW closes it', () => {
    assert.deepEqual(breaks(object({ meta: object({ k: { type: 'string' } }) }), object({ meta: object({ k: { type: 'string' } }, { additionalProperties: false }) })), [{ path: 'meta', reason: 'additionalProperties tightened to false', at: '"additionalProperties"' }]);
    assert.deepEqual(breaks(object({ k: { type: 'string' } }, { additionalProperties: false }), object({ k: { type: 'string' } }, { additionalProperties: false })), []);
    assert.deepEqual(breaks(object({ k: { type: 'string' } }, { additionalProperties: { type: 'string' } }), object({ k: { type: 'string' } }, { additionalProperties: false })).map((b) => b.reason), ['additionalProperties tightened to false']);
    assert.deepEqual(breaks(object({ k: { type: 'string' } }, { additionalProperties: 'false' }), object({ k: { type: 'string' } }, { additionalProperties: false })).map((b) => b.reason), ['additionalProperties tightened to false']);
    // NEW's schema-valued additionalProperties is open too: nothing closed.
    assert.deepEqual(breaks(object({ k: { type: 'string' }, j: {} }), object({ k: { type: 'string' } }, { additionalProperties: { type: 'string' } })), []);
  });

  test('a property renamed: compatible while additionalProperties is open (removed, and a new optional one), breaking when closed or the new name required', () => {
    assert.deepEqual(breaks(object({ order_id: { type: 'integer' } }), object({ order_ref: { type: 'integer' } })), []);
    assert.deepEqual(breaks(object({ order_id: { type: 'integer' } }, { additionalProperties: false }), object({ order_ref: { type: 'integer' } }, { additionalProperties: false })).map((b) => b.reason), ['property "order_id" removed while additionalProperties is false']);
    assert.deepEqual(breaks(object({ order_id: { type: 'integer' } }, { required: ['order_id'] }), object({ order_ref: { type: 'integer' } }, { required: ['order_ref'] })).map((b) => b.reason), ['property "order_ref" is now required']);
  });

  test('a draft other than 07 is read the same way: $schema is not looked at, and the newer keywords are outside the subset', () => {
    const before = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'string' }] } }, $defs: { x: { type: 'string' } } };
    const after = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'integer' }], minLength: 1 } }, $defs: { x: { type: 'integer' } }, dependentRequired: { t: ['u'] } };
    assert.deepEqual(breaks(before, after).map((b) => `${b.path}: ${b.reason}`), ['t: minLength tightened']);
  });
});
