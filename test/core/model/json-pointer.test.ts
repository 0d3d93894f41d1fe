/** The JSON Pointer of the value or key at an offset. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodePointerToken, pointerAt } from '../../../core/model/json-pointer';
import { parseText } from '../../../core/parse/parser';

const TEXT = '{"data": {"items": [1, {"a/b~c": true}]}, "meta": {"id": "x"}}';
const doc = parseText(TEXT);
const at = (needle: string, shift = 0) => pointerAt(doc, TEXT.indexOf(needle) + shift);

test('a value, an array item, a key with / and ~, and the root', () => {
  assert.equal(at('"x"'), '/meta/id');
  assert.equal(at('1,'), '/data/items/0');
  assert.equal(at('true'), '/data/items/1/a~1b~0c');
  assert.equal(at('"a/b~c"', 1), '/data/items/1/a~1b~0c', 'inside a key: the property it names');
  assert.equal(at('{"a'), '/data/items/1');
  assert.equal(pointerAt(doc, 0), '');
  assert.equal(pointerAt(parseText(''), 0), '');
});

test('tokens are escaped as RFC 6901 says, ~ before /', () => {
  assert.equal(encodePointerToken('~1/'), '~01~1');
});
