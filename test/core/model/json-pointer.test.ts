/** The JSON Pointer of the value or key at an offset. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodePointerToken, pointerAt } from '../../../core/model/json-pointer';
import { parseText } from '../../../core/parse/parser';
import { locateAtCursor } from '../../../core/model/tree';

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

test('the place of every value of an object of 200,000 keys is found by halving, not by a walk from the start each time', () => {
  const count = 200_000;
  const offsets: number[] = [];
  let text = '{"data": {';
  for (let index = 0; index < count; index++) {
    if (index > 0) text += ', ';
    offsets.push(text.length + 1);
    text += `"k${index}": ${index}`;
  }
  text += '}}';
  const big = parseText(text);
  const started = performance.now();
  let last = '';
  for (const offset of offsets) last = pointerAt(big, offset);
  const elapsed = performance.now() - started;
  assert.equal(last, `/data/k${count - 1}`);
  assert.equal(pointerAt(big, offsets[12_345]), '/data/k12345');
  // A walk from the first key for each would take 2·10^10 steps (minutes); halving takes well under a second here.
  assert.ok(elapsed < 10_000, `${Math.round(elapsed)} ms`);
});

test('the index of every item of an array of 200,000 is found by halving, not by a search from the first item each time', () => {
  const count = 200_000;
  const offsets: number[] = [];
  let text = '{"data": [';
  for (let index = 0; index < count; index++) {
    if (index > 0) text += ', ';
    offsets.push(text.length);
    text += index % 2 ? `"s${index}"` : `{"n": ${index}}`;
  }
  text += ']}';
  const big = parseText(text);
  const started = performance.now();
  const pointers = offsets.map((offset) => pointerAt(big, offset));
  const elapsed = performance.now() - started;
  assert.equal(pointers[count - 1], `/data/${count - 1}`);
  assert.equal(pointers[12_345], '/data/12345');
  assert.equal(pointerAt(big, offsets[12_346] + 2), '/data/12346/n', 'inside an item');
  // A search from the first item for each would take 2·10^10 steps (minutes); halving takes well under a second here.
  assert.ok(elapsed < 10_000, `${Math.round(elapsed)} ms`);
});

test('at the cursor, inside a container of more than 250,000 items the container is the innermost place found; a finding\'s pointer is exact all the same', () => {
  const zeros = `{"data": {"small": [1, 2, 3], "z": [${Array.from({ length: 300_000 }, () => '0').join(',')}]}}`;
  const big = parseText(zeros);
  const itemAt = (index: number) => zeros.indexOf('[', zeros.indexOf('"z"')) + 1 + 2 * index;
  const found = locateAtCursor(big.root, itemAt(5_000));
  assert.equal(found.node?.kind, 'array');
  assert.equal(found.property?.key, 'z');
  // Below the bound, the item itself.
  assert.equal(locateAtCursor(big.root, zeros.indexOf('2, 3')).node?.kind, 'number');
  // Suppressions and fixes match findings by their exact place.
  assert.equal(pointerAt(big, itemAt(5_000)), '/data/z/5000');
});
