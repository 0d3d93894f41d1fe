/** LineIndex.afterEdit: the index of an edited text made from the previous one equals a fresh scan, line breaks of every kind included. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineIndex } from '../../../core/model/positions';
import { textChange } from '../../../core/parse/incremental';

test('after any small edit (CR, LF and CRLF made, split and joined), every offset maps to the position a fresh index gives', () => {
  let seed = 20261201;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pieces = ['a', '\n', '\r', '\r\n', ' ', 'é'];
  const random = (length: number) => Array.from({ length }, () => pieces[Math.floor(rand() * pieces.length)]).join('');
  let derivedFromScanned = 0;
  for (let i = 0; i < 20_000; i++) {
    const old = random(Math.floor(rand() * 16));
    const at = Math.floor(rand() * (old.length + 1));
    const text = old.slice(0, at) + random(Math.floor(rand() * 3)) + old.slice(at + Math.floor(rand() * 3));
    const previous = new LineIndex(old);
    previous.positionAt(0); // scanned: afterEdit derives from it
    const change = textChange(old, text);
    const derived = LineIndex.afterEdit(previous, text, change.from, change.oldEnd, change.newEnd);
    const fresh = new LineIndex(text);
    for (let offset = 0; offset <= text.length; offset++) assert.deepEqual(derived.positionAt(offset), fresh.positionAt(offset), `${JSON.stringify(old)} → ${JSON.stringify(text)} at ${offset}`);
    derivedFromScanned++;
  }
  assert.equal(derivedFromScanned, 20_000);
});

test('a previous index never scanned: the new one scans on first use', () => {
  const previous = new LineIndex('a\nb');
  const derived = LineIndex.afterEdit(previous, 'a\nbc\nd', 3, 3, 6);
  assert.deepEqual(derived.positionAt(5), { line: 2, character: 0 });
});
