/**
 * exampleValue: one case per keyword. Each value is checked twice, by a direct assertion on what
 * the keyword demands and by the editor's own ajv validator (compileSchema), so an example that
 * "looks right" but would light up payload-schema fails here.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isUuid } from '../../../core/contract/envelope';
import { EXAMPLE_MAX_DEPTH, EXAMPLE_MAX_VALUES, EXAMPLE_UUID, exampleValue } from '../../../core/registry/example';
import { isMasked } from '../../../core/registry/pii';
import { compileSchema } from '../../../core/registry/schema-compiler';
import { checkIsoTime } from '../../../core/contract/time';

const NOW = Date.UTC(2026, 2, 14, 9, 26, 51, 123);

/** The example for `schema`, asserted valid by ajv. */
function valid(schema: Record<string, unknown>): unknown {
  const value = exampleValue(schema, { now: NOW });
  const result = compileSchema(schema);
  assert.ok('compiled' in result, `schema did not compile: ${'error' in result ? result.error : ''}`);
  assert.deepEqual(result.compiled.validate(value), [], `example ${JSON.stringify(value)} fails ${JSON.stringify(schema)}`);
  return value;
}

/** How many containers deep a value nests, without recursion. */
function nesting(value: unknown): number {
  let deepest = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
  return deepest;
}

describe('exampleValue: enum and const', () => {
  test('enum gives its first value, whatever the type says', () => {
    assert.equal(valid({ type: 'string', enum: ['EUR', 'USD'] }), 'EUR');
    assert.equal(valid({ enum: [3, 1, 2] }), 3);
  });

  test('const gives a copy of the constant', () => {
    const constant = { a: [1, { b: null }] };
    const schema = { const: constant };
    const value = valid(schema);
    assert.deepEqual(value, constant);
    assert.notEqual(value, constant, 'a caller that edits the example must not edit the schema');
  });

  test('const wins over enum and type', () => {
    assert.equal(valid({ type: 'string', enum: ['a', 'b'], const: 'b' }), 'b');
  });
});

describe('exampleValue: numbers', () => {
  const cases: { name: string; schema: Record<string, unknown>; expected: number }[] = [
    { name: 'integer without bounds is 0', schema: { type: 'integer' }, expected: 0 },
    { name: 'minimum above 0', schema: { type: 'integer', minimum: 1 }, expected: 1 },
    { name: 'fractional minimum rounds up for integers', schema: { type: 'integer', minimum: 2.5 }, expected: 3 },
    { name: 'negative minimum keeps 0', schema: { type: 'integer', minimum: -10 }, expected: 0 },
    { name: 'exclusiveMinimum 0 on integer', schema: { type: 'integer', exclusiveMinimum: 0 }, expected: 1 },
    { name: 'exclusiveMinimum on an integer value', schema: { type: 'number', exclusiveMinimum: 5 }, expected: 6 },
    { name: 'maximum below 0', schema: { type: 'integer', maximum: -3 }, expected: -3 },
    { name: 'exclusiveMaximum below 0', schema: { type: 'integer', exclusiveMaximum: -3 }, expected: -4 },
    { name: 'multipleOf with minimum', schema: { type: 'integer', multipleOf: 7, minimum: 10 }, expected: 14 },
    { name: 'fractional multipleOf on integer', schema: { type: 'integer', multipleOf: 2.5, minimum: 1 }, expected: 5 },
    { name: 'multipleOf 0.1 uses ajv arithmetic (0.3 is not a multiple in floats)', schema: { type: 'number', multipleOf: 0.1, minimum: 0.25 }, expected: 0.4 },
    { name: 'number prefers an integer (no float for money-like keys)', schema: { type: 'number', minimum: 0.5 }, expected: 1 },
    { name: 'narrow open range gets a fraction', schema: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }, expected: 0.5 },
    { name: 'bounds inferred without type', schema: { minimum: 4 }, expected: 4 },
  ];
  for (const { name, schema, expected } of cases) {
    test(name, () => assert.equal(valid(schema), expected));
  }

  test('the draft-04 boolean exclusiveMinimum/Maximum is still honoured (ajv refuses it as draft-07)', () => {
    assert.equal(exampleValue({ type: 'integer', minimum: 5, exclusiveMinimum: true }), 6);
    assert.equal(exampleValue({ type: 'integer', maximum: -5, exclusiveMaximum: true }), -6);
  });
});

describe('exampleValue: strings', () => {
  test('without constraints: a plain example', () => {
    assert.equal(valid({ type: 'string' }), 'example');
  });

  test('minLength and maxLength are met', () => {
    assert.equal((valid({ type: 'string', minLength: 12 }) as string).length, 12);
    assert.equal(valid({ type: 'string', maxLength: 3 }), 'exa');
    assert.equal((valid({ type: 'string', minLength: 8, maxLength: 8 }) as string).length, 8);
  });

  test('lengths count code points, as ajv does', () => {
    const value = valid({ type: 'string', pattern: '^€+$', minLength: 3 }) as string;
    assert.equal(Array.from(value).length, 3);
  });

  test('formats: email, date-time (RFC 3339 UTC), date, time, uuid, uri, hostname, ipv4, ipv6', () => {
    assert.equal(valid({ type: 'string', format: 'email' }), 'user@example.com');
    const dateTime = valid({ type: 'string', format: 'date-time' }) as string;
    assert.equal(dateTime, '2026-03-14T09:26:51Z');
    assert.equal(valid({ type: 'string', format: 'date' }), '2026-03-14');
    assert.equal(valid({ type: 'string', format: 'time' }), '09:26:51Z');
    assert.equal(valid({ type: 'string', format: 'uuid' }), EXAMPLE_UUID);
    assert.ok(isUuid(EXAMPLE_UUID));
    assert.doesNotThrow(() => new URL(valid({ type: 'string', format: 'uri' }) as string));
    valid({ type: 'string', format: 'hostname' });
    valid({ type: 'string', format: 'ipv4' });
    valid({ type: 'string', format: 'ipv6' });
  });

  test('formats stretch to a minLength and still parse', () => {
    const dateTime = valid({ type: 'string', format: 'date-time', minLength: 24 }) as string;
    assert.ok(dateTime.length >= 24 && checkIsoTime(dateTime) === 'ok', dateTime);
    assert.ok((valid({ type: 'string', format: 'email', minLength: 30 }) as string).length >= 30);
    assert.equal(valid({ type: 'string', format: 'email', maxLength: 13 }), 'u@example.com');
  });

  test('simple patterns are matched', () => {
    const patterns = ['^[A-Z]{3}-\\d{4}$', '^\\+?[1-9]\\d{1,14}$', '^(foo|bar)-[a-z]+$', '^[^@\\s]+@[^@\\s]+$', '^\\p{Lu}\\p{Ll}+$', 'sku', '^a{2,}b?(?:c|d)*$'];
    for (const pattern of patterns) {
      const value = valid({ type: 'string', pattern }) as string;
      assert.match(value, new RegExp(pattern, 'u'));
    }
  });

  test('a pattern and a minLength together', () => {
    const value = valid({ type: 'string', pattern: '^[a-z0-9_-]+(\\.[a-z0-9_-]+)*$', minLength: 12 }) as string;
    assert.ok(value.length >= 12, value);
  });

  test('a pattern outside the subset (lookahead) falls back to the plain example without throwing', () => {
    assert.equal(exampleValue({ type: 'string', pattern: '^(?=x)y$' }), 'example');
  });

  test('time-like keys get RFC 3339 UTC, id-like keys a UUID, so the data rules stay quiet', () => {
    const value = valid({
      type: 'object',
      required: ['placed_at', 'customer_id', 'valid_until_date'],
      properties: {
        placed_at: { type: 'string', minLength: 20 },
        customer_id: { type: 'string', minLength: 36 },
        valid_until_date: { type: 'string', maxLength: 10 },
      },
    }) as Record<string, string>;
    assert.equal(value.placed_at, '2026-03-14T09:26:51Z');
    assert.equal(checkIsoTime(value.placed_at), 'ok');
    assert.ok(isUuid(value.customer_id));
    assert.equal(value.valid_until_date, '2026-03-14');
  });

  test('x-gdpr-sensitive strings are masked as the registry tool masks them', () => {
    const value = valid({
      type: 'object',
      required: ['email', 'name', 'iban', 'ssn'],
      properties: {
        email: { type: 'string', minLength: 3, 'x-gdpr-sensitive': 'email' },
        name: { type: 'string', 'x-gdpr-sensitive': true },
        iban: { type: 'string', maxLength: 3, 'x-gdpr-sensitive': 'iban' },
        ssn: { type: 'string', 'x-gdpr-sensitive': '' },
      },
    }) as Record<string, string>;
    assert.equal(value.email, 'u***');
    assert.equal(value.name, 'e***');
    assert.equal(value.iban, '***');
    assert.ok(isMasked(value.email) && isMasked(value.name) && isMasked(value.iban));
    assert.equal(value.ssn, 'example', 'an empty category means unmarked');
  });

  test('a sensitive string whose format no mask meets is a made-up value of that format (a mask would fail payload-schema)', () => {
    assert.equal(valid({ type: 'string', format: 'email', 'x-gdpr-sensitive': 'email' }), 'user@example.com');
    assert.equal(valid({ type: 'string', format: 'date', 'x-gdpr-sensitive': 'dob' }), '2026-03-14');
    assert.equal(valid({ type: 'string', format: 'date-time', 'x-gdpr-sensitive': true }), '2026-03-14T09:26:51Z');
    // A format that ajv does not know checks nothing, so the mask stays.
    assert.equal(valid({ type: 'string', format: 'x-national-id', 'x-gdpr-sensitive': true }), 'e***');
  });

  test('a sensitive string with a long minLength stays valid (validity before masking)', () => {
    const value = valid({ type: 'string', minLength: 10, 'x-gdpr-sensitive': true }) as string;
    assert.ok(value.length >= 10 && value.startsWith('e***'), value);
  });
});

describe('exampleValue: other types', () => {
  test('boolean is false, null is null', () => {
    assert.equal(valid({ type: 'boolean' }), false);
    assert.equal(valid({ type: 'null' }), null);
  });

  test('a type array picks its first non-null member', () => {
    assert.equal(valid({ type: ['null', 'integer'], minimum: 2 }), 2);
    assert.equal(valid({ type: ['null'] }), null);
  });

  test('a boolean-like integer key avoids 0 and 1 (the non-json-boolean rule reads them as booleans)', () => {
    const value = valid({ type: 'object', required: ['is_gift'], properties: { is_gift: { type: 'integer', minimum: 0 } } }) as Record<string, number>;
    assert.equal(value.is_gift, 2);
  });

  test('an empty schema, true and a non-schema give null', () => {
    assert.equal(exampleValue({}), null);
    assert.equal(exampleValue(true), null);
    assert.equal(exampleValue('nonsense'), null);
  });
});

describe('exampleValue: objects and arrays', () => {
  test('only required properties, recursively', () => {
    const value = valid({
      type: 'object',
      required: ['order', 'note'],
      properties: {
        order: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer', minimum: 1 }, gift: { type: 'boolean' } },
          additionalProperties: false,
        },
        note: { type: 'string' },
        optional: { type: 'string' },
      },
      additionalProperties: false,
    });
    assert.deepEqual(value, { order: { id: 1 }, note: 'example' });
  });

  test('a required key without a property schema takes additionalProperties, else null', () => {
    assert.deepEqual(valid({ type: 'object', required: ['x'], additionalProperties: { type: 'integer', minimum: 3 } }), { x: 3 });
    assert.deepEqual(valid({ type: 'object', required: ['x'] }), { x: null });
  });

  test('minProperties adds declared optional properties in order', () => {
    assert.deepEqual(valid({ type: 'object', minProperties: 2, properties: { a: { type: 'boolean' }, b: { type: 'integer' }, c: { type: 'string' } } }), { a: false, b: 0 });
  });

  test('a required "__proto__" becomes a key, not a prototype', () => {
    const value = exampleValue({ type: 'object', required: ['__proto__'], properties: { ['__proto__']: { type: 'integer' } } }) as object;
    assert.equal(JSON.stringify(value), '{"__proto__":0}');
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
  });

  test('arrays hold minItems items of their items schema', () => {
    assert.deepEqual(valid({ type: 'array', items: { type: 'object', required: ['sku'], properties: { sku: { type: 'string', minLength: 1 } } }, minItems: 2 }), [{ sku: 'example' }, { sku: 'example' }]);
    assert.deepEqual(valid({ type: 'array', items: { type: 'string' } }), []);
  });

  test('uniqueItems gets distinct scalars', () => {
    assert.deepEqual(valid({ type: 'array', minItems: 3, uniqueItems: true, items: { type: 'integer', minimum: 5 } }), [5, 6, 7]);
    assert.deepEqual(valid({ type: 'array', minItems: 2, uniqueItems: true, items: { enum: ['a', 'b'] } }), ['a', 'b']);
    assert.deepEqual(valid({ type: 'array', minItems: 2, uniqueItems: true, items: { type: 'boolean' } }), [false, true]);
    assert.equal(new Set(valid({ type: 'array', minItems: 3, uniqueItems: true, items: { type: 'string' } }) as string[]).size, 3);
  });

  test('tuple items follow their positions', () => {
    assert.deepEqual(valid({ type: 'array', minItems: 2, items: [{ type: 'integer' }, { type: 'string' }] }), [0, 'example']);
  });

  test('a huge minItems is capped, not honoured', () => {
    const value = exampleValue({ type: 'array', minItems: 10_000_000, items: { type: 'integer' } }) as unknown[];
    assert.ok(value.length <= EXAMPLE_MAX_VALUES, String(value.length));
  });
});

describe('exampleValue: composition and references', () => {
  test('allOf merges properties and required', () => {
    assert.deepEqual(
      valid({ allOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'integer', minimum: 1 } } }, { required: ['b'], properties: { b: { const: 'x' } } }] }),
      { a: 1, b: 'x' },
    );
  });

  test('anyOf and oneOf take the first non-null branch', () => {
    assert.equal(valid({ anyOf: [{ type: 'null' }, { type: 'integer', minimum: 9 }] }), 9);
    assert.equal(valid({ oneOf: [{ type: 'string', maxLength: 2 }, { type: 'integer' }] }), 'ex');
  });

  test('local $refs are followed', () => {
    assert.deepEqual(
      valid({ type: 'object', required: ['address'], properties: { address: { $ref: '#/definitions/address' } }, definitions: { address: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } } } }),
      { address: { city: 'example' } },
    );
  });

  test('an unresolvable $ref gives null', () => {
    assert.deepEqual(exampleValue({ type: 'object', required: ['x'], properties: { x: { $ref: 'https://example.com/other.json' } } }), { x: null });
    assert.deepEqual(exampleValue({ type: 'object', required: ['x'], properties: { x: { $ref: '#/definitions/missing' } } }), { x: null });
  });

  test('a self-$ref is emitted shallow instead of expanded again', () => {
    assert.deepEqual(exampleValue({ type: 'object', required: ['name', 'parent'], properties: { name: { type: 'string' }, parent: { $ref: '#' } } }), { name: 'example', parent: {} });
  });

  test('a cyclic schema object terminates', () => {
    const node: Record<string, any> = { type: 'object', required: ['child', 'tags'], properties: { tags: { type: 'array', minItems: 1, items: { type: 'string' } } } };
    node.properties.child = node;
    node.properties.tags.items = node.properties.tags; // an array whose items are arrays of itself
    const value = exampleValue(node) as Record<string, unknown>;
    assert.deepEqual(value.child, {});
    assert.ok(nesting(value) <= 4, JSON.stringify(value));
  });

  test('a schema nested deeper than the bound is cut at EXAMPLE_MAX_DEPTH', () => {
    let schema: Record<string, unknown> = { type: 'integer' };
    for (let level = 0; level < 500; level++) schema = { type: 'object', required: ['next'], properties: { next: schema } };
    const value = exampleValue(schema);
    assert.equal(nesting(value), EXAMPLE_MAX_DEPTH + 1, 'containers at the bound are emitted, empty');
    let innermost: unknown = value;
    for (let level = 0; level < EXAMPLE_MAX_DEPTH; level++) innermost = (innermost as Record<string, unknown>).next;
    assert.deepEqual(innermost, {});
  });
});
