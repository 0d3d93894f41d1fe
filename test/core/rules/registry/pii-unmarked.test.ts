/**
 * pii-unmarked (core/rules/registry/pii-unmarked.ts): where `bqschema gdpr --require` fails, as
 * measured from bqschema's audit: its name pattern, case-insensitive, anywhere in the name; every
 * property under `properties` and `items` (the validators' subset: nothing else is seen);
 * containers whose own name matches left alone; marked by `true` or any non-empty category.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { asObject } from '../../../../core/model/tree';
import { parseText } from '../../../../core/parse/parser';
import { piiUnmarkedFindings, sensitiveFields } from '../../../../core/rules/registry/pii-unmarked';

const root = (schema: unknown) => asObject(parseText(JSON.stringify(schema)).root);
const unmarked = (schema: unknown) => piiUnmarkedFindings(root(schema)).map((finding) => finding.path);
const flat = (names: readonly string[], field: unknown = { type: 'string' }) => ({ type: 'object', properties: Object.fromEntries(names.map((name) => [name, field])) });

describe('which names count as personal data', () => {
  test('any case and any separator around the pattern\'s words: a substring match on the name', () => {
    const names = ['EMAIL', 'E-Mail', 'e.mail', 'billingMail', 'PhoneNumber', 'mobile_phone', 'DOB', 'date_of_birth', 'BirthDate', 'ip_address', 'IBAN', 'Passport_No', 'MSISDN', 'tckn', 'National_ID', 'credit_card_no', 'CARD_NUMBER', 'cvv2', 'ssn', 'dobby', 'classname'];
    assert.deepEqual(unmarked(flat(names)), names);
  });

  test('the pattern\'s own separators are part of it: creditCard, credit-card, nationalId, cardNumber are no match', () => {
    assert.deepEqual(unmarked(flat(['creditCard', 'credit-card', 'nationalId', 'national-id', 'cardNumber', 'card-number', 'order_id', 'cv_v'])), []);
  });

  test('case folded as bqschema\'s (?i) folds it: the long s (ſ) matches s and the Kelvin sign (K) matches k', () => {
    assert.deepEqual(unmarked(flat(['ſſn', 'addreſſ', 'tc\u212an'])), ['ſſn', 'addreſſ', 'tc\u212an']);
  });
});

describe('where the audit looks', () => {
  test('nested objects and arrays of objects, at any depth, with the paths a.b and a[].b', () => {
    const schema = { type: 'object', properties: { customer: { type: 'object', properties: { contact: { type: 'object', properties: { email: { type: 'string' } } } } }, lines: { type: 'array', items: { type: 'object', properties: { recipient: { type: 'object', properties: { phone: { type: 'string' } } }, tags: { type: 'array', items: { type: 'array', items: { type: 'object', properties: { iban: {} } } } } } } } } };
    assert.deepEqual(unmarked(schema), ['customer.contact.email', 'lines[].recipient.phone', 'lines[].tags[][].iban']);
  });

  test('a container whose own name matches is not flagged, its fields are; an array of strings named emails is a container', () => {
    const schema = { type: 'object', properties: { address: { type: 'object', properties: { line1: { type: 'string' }, postal_address: { type: 'string' } } }, emails: { type: 'array', items: { type: 'string' } }, mail_settings: { properties: { opt_in: { type: 'boolean' } } }, phones: { items: { type: 'object' } } } };
    assert.deepEqual(unmarked(schema), ['address.postal_address']);
  });

  test('a type list is no type (the validators ignore it): a field typed ["string","null"] is flagged, one typed ["object","null"] too', () => {
    assert.deepEqual(unmarked(flat(['email'], { type: ['string', 'null'] })), ['email']);
    assert.deepEqual(unmarked(flat(['address'], { type: ['object', 'null'] })), ['address']);
  });

  test('items as a tuple and properties that are no object are outside the subset: they make no container', () => {
    assert.deepEqual(unmarked(flat(['emails'], { items: [{ type: 'string' }] })), ['emails']);
    assert.deepEqual(unmarked(flat(['phone'], { type: 'string', properties: 5 })), ['phone']);
  });

  test('properties holding no schema make no container, as bqschema counts only the fields it read: {} or members that are no object', () => {
    assert.deepEqual(unmarked(flat(['email'], { properties: {} })), ['email']);
    assert.deepEqual(unmarked(flat(['phone'], { properties: { a: 1, b: true } })), ['phone']);
    // One member that is a schema makes it a container, as before.
    assert.deepEqual(unmarked(flat(['address'], { properties: { a: 1, line1: { type: 'string' } } })), []);
  });

  test('definitions and $defs are outside the subset: bqschema never reads them, so neither their fields nor their marks count', () => {
    const schema = { type: 'object', definitions: { contact: { type: 'object', properties: { email: { type: 'string' }, phone: { type: 'string', 'x-gdpr-sensitive': true } } } }, $defs: { card: { properties: { iban: { type: 'string' } } } }, properties: { buyer: { $ref: '#/definitions/contact' } } };
    assert.deepEqual(unmarked(schema), []);
    assert.deepEqual(sensitiveFields(root(schema)), []);
  });
});

describe('what marks a field', () => {
  test('true or any non-empty category string (a blank one included); false, "", a number or null leave it unmarked', () => {
    const schema = { type: 'object', properties: { a_email: { type: 'string', 'x-gdpr-sensitive': true }, b_email: { type: 'string', 'x-gdpr-sensitive': 'email' }, c_email: { type: 'string', 'x-gdpr-sensitive': ' ' }, d_email: { type: 'string', 'x-gdpr-sensitive': false }, e_email: { type: 'string', 'x-gdpr-sensitive': '' }, f_email: { type: 'string', 'x-gdpr-sensitive': 1 }, g_email: { type: 'string', 'x-gdpr-sensitive': null } } };
    assert.deepEqual(unmarked(schema), ['d_email', 'e_email', 'f_email', 'g_email']);
    assert.deepEqual(sensitiveFields(root(schema)), [{ path: 'a_email', category: undefined }, { path: 'b_email', category: 'email' }, { path: 'c_email', category: ' ' }]);
  });

  test('the mark counts on the field itself only: a marked container does not mark its fields', () => {
    assert.deepEqual(unmarked({ type: 'object', properties: { contact: { type: 'object', 'x-gdpr-sensitive': true, properties: { email: { type: 'string' } } } } }), ['contact.email']);
  });
});

test('the message says what to write, and what the mark changes: the SDKs encrypt marked fields (ADR-0030), bqschema gdpr --mask masks them', () => {
  const [finding] = piiUnmarkedFindings(root(flat(['buyer_email'])));
  assert.doesNotMatch(finding.message, /SDKs do not mask/);
  assert.match(finding.message, /bqschema gdpr --require fails on it/);
  assert.match(finding.message, /field encryption/);
  assert.match(finding.message, /Mark it "x-gdpr-sensitive": true \(or a category such as "email"\)\.$/);
});
