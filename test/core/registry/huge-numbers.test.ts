/**
 * holdsHugeNumber after a keystroke reads only the edited value when the previous version held no
 * number beyond float64; each answer here is checked against a scan of the whole payload.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reparse } from '../../../core/parse/incremental';
import type { ParsedText } from '../../../core/parse/document';
import { parseText } from '../../../core/parse/parser';
import { holdsHugeNumber } from '../../../core/registry/validators/huge-numbers';

const template = (a: string, b: string, note: string) => `{"n": ${a}, "list": [1, ${b}, 3], "note": "${note}", "deep": {"x": 2.5}}`;

/** The answer after the edit from `previous`, and the answer of a scan without the edit. */
function answers(previous: ParsedText, text: string): { incremental: boolean; scanned: boolean; next: ParsedText } {
  const next = reparse(previous, text);
  assert.ok(next?.edit, `an edit of one value: ${text}`);
  const incremental = holdsHugeNumber(next.columns, next.text, 0, { previous: previous.columns, edited: next.edit.slot });
  const scanned = holdsHugeNumber(parseText(text).columns, text, 0);
  return { incremental, scanned, next };
}

test('a number typed past float64 is found, and typed back is not', () => {
  const first = parseText(template('1e30', '2', 'a'));
  assert.equal(holdsHugeNumber(first.columns, first.text, 0), false);
  const huge = answers(first, template('1e300', '2', 'a'));
  assert.deepEqual([huge.incremental, huge.scanned], [false, false]);
  const past = answers(huge.next, template('1e3000', '2', 'a'));
  assert.deepEqual([past.incremental, past.scanned], [true, true]);
  const back = answers(past.next, template('1e300', '2', 'a'));
  assert.deepEqual([back.incremental, back.scanned], [false, false]);
});

test('typing in a string or in another number keeps the answer of a payload that holds one', () => {
  const start = parseText(template('1e999', '2', 'a'));
  assert.equal(holdsHugeNumber(start.columns, start.text, 0), true);
  const typed = answers(start, template('1e999', '2', 'ab'));
  assert.deepEqual([typed.incremental, typed.scanned], [true, true]);
  const other = answers(typed.next, template('1e999', '27', 'ab'));
  assert.deepEqual([other.incremental, other.scanned], [true, true]);
});

test('a sequence of edits across the values: every answer is the scan\'s', () => {
  const numbers = ['1', '1e400', '-1e309', '2.5', '1e308', '17', '-2e308'];
  let a = '1';
  let b = '2';
  let note = 'a';
  let previous = parseText(template(a, b, note));
  holdsHugeNumber(previous.columns, previous.text, 0);
  for (let step = 0; step < 60; step++) {
    const which = step % 3;
    // Each step edits one value to something it was not, so that every step is an edit.
    if (which === 0) a = numbers.find((candidate, index) => candidate !== a && index >= step % numbers.length) ?? (a === '1' ? '3' : '1');
    else if (which === 1) b = numbers.find((candidate, index) => candidate !== b && index >= (step * 5) % numbers.length) ?? (b === '1' ? '3' : '1');
    else note = `${note}x`;
    const { incremental, scanned, next } = answers(previous, template(a, b, note));
    assert.equal(incremental, scanned, `after step ${step}: n=${a}, list[1]=${b}`);
    previous = next;
  }
});
