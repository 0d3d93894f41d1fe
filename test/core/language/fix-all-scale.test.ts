/**
 * Fix all picks, each round, the fixes whose edits touch no edit of a fix picked before it
 * (nonOverlapping in core/language/fix-all.ts). Every fix was compared with every edit taken so
 * far: a document of 10,000 fixable findings spent most of its fix all there. The picks must stay
 * those of that comparison, kept below as the oracle, and their cost grow with the fixes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { nonOverlapping } from '../../../core/language/fix-all';
import type { TextEdit } from '../../../core/model/edits';
import { fastestMs } from '../../support/fastest';

/** The comparison nonOverlapping always made: the oracle. */
function compared(fixes: readonly (readonly TextEdit[])[]): (readonly TextEdit[])[] {
  const touches = (a: { offset: number; end: number }, b: { offset: number; end: number }) =>
    a.offset === a.end || b.offset === b.end ? a.offset <= b.end && b.offset <= a.end : a.offset < b.end && b.offset < a.end;
  const start = (edits: readonly TextEdit[]) => Math.min(...edits.map((edit) => edit.offset));
  const taken: { offset: number; end: number }[] = [];
  const chosen: (readonly TextEdit[])[] = [];
  const sorted = [...fixes].filter((edits) => edits.length > 0).sort((a, b) => start(a) - start(b));
  for (const edits of sorted) {
    if (edits.some((edit) => taken.some((range) => touches(edit, range)))) continue;
    chosen.push(edits);
    for (const edit of edits) taken.push({ offset: edit.offset, end: edit.end });
  }
  return chosen;
}

const edit = fc.tuple(fc.nat(40), fc.constantFrom(0, 0, 1, 2, 3, 7)).map(([offset, length]) => ({ offset, end: offset + length, newText: 'x' }));
const fixes = fc.array(fc.array(edit, { maxLength: 3 }), { maxLength: 14 });

test('the fixes picked are those every edit compared with every edit taken picked: insertions, replacements, edges that meet, fixes of several edits', () => {
  fc.assert(
    fc.property(fixes, (list) => assert.deepEqual(nonOverlapping(list), compared(list))),
    { seed: 20261207, numRuns: 30000 },
  );
});

test('picking among many fixes: four times the fixes cost about four times the time, not sixteen', () => {
  // A fix per value, each replacing the value and inserting after its line, some far ahead (a key moved).
  const list = (count: number) =>
    Array.from({ length: count }, (_, i) => [
      { offset: i * 40, end: i * 40 + 7, newText: 'false' },
      { offset: i * 40 + 30, end: i * 40 + 30, newText: ',' },
      ...(i % 7 === 0 ? [{ offset: count * 40 + i, end: count * 40 + i, newText: '"k"' }] : []),
    ]);
  const time = (count: number) => {
    const fixes = list(count);
    return fastestMs(3, () => nonOverlapping(fixes));
  };
  time(1_000);
  const small = time(5_000);
  const large = time(20_000);
  assert.ok(large <= 8 * small + 30, `5,000 fixes ${small.toFixed(0)} ms, 20,000 fixes ${large.toFixed(0)} ms`);
});
