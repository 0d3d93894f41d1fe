import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixtureFileName, formattedMessage, withRenewedIds } from '../../../core/language/message-text';

const BODY = '{"job":"urn:babel:orders:created","trace_id":"t","data":{"a":2.0,"n":9007199254740993,"s":"\\u00e9"},"meta":{"id":"old","created_at":1}}';

test('a message is pretty-printed with its number text and escapes as they came; a broken body is shown as is', () => {
  const text = formattedMessage(BODY);
  assert.match(text, /^\{\n  "job": "urn:babel:orders:created",\n/);
  assert.match(text, /"a": 2\.0,/);
  assert.match(text, /"n": 9007199254740993,/);
  assert.match(text, /"s": "\\u00e9"/);
  assert.ok(text.endsWith('}\n'));
  assert.equal(formattedMessage('{"job": oops'), '{"job": oops');
});

test('the fixture name comes from the URN', () => {
  assert.equal(fixtureFileName('urn:babel:orders:created'), 'orders-created.babel.json');
  assert.equal(fixtureFileName('urn:babel:billing:invoice.paid'), 'billing-invoice-paid.babel.json');
  assert.equal(fixtureFileName('(no URN)'), 'message.babel.json');
});

test('renewing replaces meta.id and created_at only', () => {
  const renewed = withRenewedIds(formattedMessage(BODY), { uuid: () => 'new-id', now: () => 42 });
  assert.match(renewed, /"id": "new-id"/);
  assert.match(renewed, /"created_at": 42/);
  assert.match(renewed, /"trace_id": "t"/);
  assert.match(renewed, /"a": 2\.0/);
});
