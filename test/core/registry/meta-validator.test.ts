/**
 * Payload schemas are checked against the draft-07 meta-schema by a validator generated at build
 * time (core/registry/draft07-meta-validator.js, by scripts/generate-meta-validator.mjs). It must
 * answer exactly as ajv's own validateSchema does.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv from 'ajv';
import validateDraft07 from '../../../core/registry/draft07-meta-validator';

test('it answers as ajv.validateSchema does, errors included', () => {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, logger: false });
  const schemas: unknown[] = [
    { type: 'object', properties: { a: { type: 'string', minLength: 1 } }, required: ['a'] },
    { type: 'strng' },
    { type: 'object', properties: { a: { minLength: -1 } } },
    { required: 'a' },
    { items: [{ type: 'string' }, 5] },
    { enum: 'x', pattern: 12 },
    { $ref: 5, definitions: { x: { type: ['string', 'nope'] } } },
    { additionalProperties: { type: 'integer', maximum: 'ten' } },
  ];
  for (const schema of schemas) {
    const expected = ajv.validateSchema(schema as object) as boolean;
    const actual = validateDraft07(schema);
    assert.equal(actual, expected, JSON.stringify(schema));
    if (expected) continue;
    const shape = (errors: typeof ajv.errors) => (errors ?? []).map((e) => ({ keyword: e.keyword, instancePath: e.instancePath, schemaPath: e.schemaPath, message: e.message }));
    assert.deepEqual(shape(validateDraft07.errors), shape(ajv.errors), JSON.stringify(schema));
  }
});
