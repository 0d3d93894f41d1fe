/** Whether a field's own schema can hold the registry tool's mask (core/registry/pii.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskFits, maskValue } from '../../../core/registry/pii';

test('the mask is a string: a field that must hold another type cannot hold it', () => {
  assert.equal(maskFits({ type: 'integer' }, '***'), false);
  assert.equal(maskFits({ type: ['integer', 'null'] }, '***'), false);
  assert.equal(maskFits({ type: ['string', 'null'] }, 'a***'), true);
  assert.equal(maskFits({}, '***'), true);
  assert.equal(maskFits(true, '***'), true);
});

test('const, enum, lengths counted in code points, a pattern and a format that payload-schema checks are what a mask can fail', () => {
  assert.equal(maskFits({ enum: ['DE', 'TR'] }, 'D***'), false);
  assert.equal(maskFits({ enum: ['D***', 'x'] }, 'D***'), true);
  assert.equal(maskFits({ const: 'x' }, 'x***'), false);
  assert.equal(maskFits({ type: 'string', minLength: 5 }, 'a***'), false);
  assert.equal(maskFits({ type: 'string', maxLength: 4 }, '😀***'), true);
  assert.equal(maskFits({ type: 'string', maxLength: 3 }, 'a***'), false);
  assert.equal(maskFits({ type: 'string', pattern: '^[0-9]{11}$' }, '1***'), false);
  assert.equal(maskFits({ type: 'string', pattern: '^\\+' }, '+***'), true);
  assert.equal(maskFits({ type: 'string', format: 'uuid' }, '7***'), false);
  // payload-schema follows draft-07 with its formats: "a***" is no e-mail address, no date.
  assert.equal(maskFits({ type: 'string', format: 'email' }, 'a***'), false);
  assert.equal(maskFits({ type: 'string', format: 'date' }, '2***'), false);
  assert.equal(maskFits({ type: 'string', format: 'date-time' }, '2***'), false);
  // A format ajv does not know checks nothing.
  assert.equal(maskFits({ type: 'string', format: 'x-national-id' }, '1***'), true);
});

test('the mask: a string keeps its first character (a whole code point), anything else is "***"', () => {
  assert.equal(maskValue('+90 555'), '+***');
  assert.equal(maskValue('😀 x'), '😀***');
  assert.equal(maskValue(1990), '***');
  assert.equal(maskValue(''), '***');
});
