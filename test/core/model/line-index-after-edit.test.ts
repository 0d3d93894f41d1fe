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

test('a chain of edits, each index made from the one before: every answer is a fresh scan\'s, and earlier indexes keep theirs', () => {
  let seed = 20261203;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const lineOf = () => Array.from({ length: 4 + Math.floor(rand() * 12) }, () => (rand() < 0.1 ? 'é' : 'a')).join('');
  const breaks = ['\n', '\r\n', '\r\n', '\n', '\r'];
  let text = Array.from({ length: 120 }, () => lineOf() + breaks[Math.floor(rand() * breaks.length)]).join('');
  let index = new LineIndex(text);
  index.positionAt(0);
  const kept: { index: LineIndex; text: string }[] = [];
  let withinLine = 0;
  for (let version = 0; version < 600; version++) {
    // The first 100 versions type within lines only (away from their breaks), on many lines, so
    // the moves pile up past the point where they are copied; then anything goes.
    const within = version < 100;
    const before = new LineIndex(text);
    const line = Math.floor(rand() * 120);
    const content = text.slice(before.lineStart(line), line + 1 < 120 ? before.lineStart(line + 1) : text.length).replace(/[\r\n]+$/, '').length;
    const at = within ? before.lineStart(line) + 1 + Math.floor(rand() * (content - 2)) : Math.floor(rand() * (text.length + 1));
    const roll = within ? 0 : rand();
    // Mostly typing and deleting within a line (spread over many lines, so the moves are copied
    // now and then); now and then a line break typed or deleted.
    const inserted = roll < 0.45 ? 'xy'.slice(0, 1 + Math.floor(rand() * 2)) : roll < 0.9 ? '' : breaks[Math.floor(rand() * breaks.length)];
    const removed = roll >= 0.45 && roll < 0.9 ? 1 + Math.floor(rand() * 2) : 0;
    const next = text.slice(0, at) + inserted + text.slice(Math.min(text.length, at + removed));
    const change = textChange(text, next);
    if (!/[\r\n]/.test(text.slice(Math.max(0, change.from - 1), change.oldEnd + 1) + next.slice(Math.max(0, change.from - 1), change.newEnd + 1))) withinLine++;
    index = LineIndex.afterEdit(index, next, change.from, change.oldEnd, change.newEnd);
    text = next;
    const fresh = new LineIndex(text);
    for (let offset = -1; offset <= text.length + 1; offset++) assert.deepEqual(index.positionAt(offset), fresh.positionAt(offset), `version ${version} at ${offset}`);
    const lines = fresh.positionAt(text.length).line + 1;
    for (let line = -1; line <= lines; line++) {
      assert.equal(index.lineStart(line), fresh.lineStart(line), `version ${version}: line ${line}`);
      const character = Math.floor(rand() * 16) - 1;
      assert.equal(index.offsetAt({ line, character }), fresh.offsetAt({ line, character }), `version ${version}: ${line}:${character}`);
    }
    if (version % 50 === 0) kept.push({ index, text });
  }
  assert.ok(withinLine > 250, `${withinLine} edits within a line`);
  for (const { index: earlier, text: itsText } of kept) {
    const fresh = new LineIndex(itsText);
    for (let offset = 0; offset <= itsText.length; offset++) assert.deepEqual(earlier.positionAt(offset), fresh.positionAt(offset));
  }
});
