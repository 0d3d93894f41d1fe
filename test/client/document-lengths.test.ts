/** A previewed document's length carried over its change events (client/document-lengths.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DocumentLengths } from '../../client/document-lengths';

test('the length is measured once, then carried over every change event as the text itself changes', () => {
  const lengths = new DocumentLengths();
  let text = '{\n  "job": "urn:babel:orders:created",\n  "data": { "title": "Łukasz 抹茶 😀" }\n}\n';
  let measured = 0;
  const measure = () => {
    measured++;
    return text.length;
  };
  let version = 1;
  assert.equal(lengths.of('file:///a', version, measure), text.length);
  // Edits as an editor sends them: insertions, deletions, replacements, several in one event.
  let seed = 7;
  const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (let event = 0; event < 200; event++) {
    const count = 1 + random(3);
    // Disjoint ranges, applied from the end so each offset still holds.
    const starts = Array.from({ length: count }, () => random(text.length + 1)).sort((a, b) => b - a);
    const changes: { rangeOffset: number; rangeLength: number; text: string }[] = [];
    let limit = text.length;
    for (const start of starts) {
      const rangeLength = Math.min(random(4), limit - start);
      if (start + rangeLength > limit) continue;
      const inserted = ['', 'x', '€', '😀', 'ab\ncd'][random(5)];
      changes.push({ rangeOffset: start, rangeLength, text: inserted });
      text = text.slice(0, start) + inserted + text.slice(start + rangeLength);
      limit = start;
    }
    lengths.changed('file:///a', ++version, changes);
    assert.equal(lengths.of('file:///a', version, measure), text.length, `after event ${event}`);
  }
  assert.equal(measured, 1, 'measured only the first time');
});

test('a version not after the one known, a version the events skipped, or a forgotten document is measured again', () => {
  const lengths = new DocumentLengths();
  let measured = 0;
  const measure = (length: number) => () => {
    measured++;
    return length;
  };
  assert.equal(lengths.of('a', 5, measure(10)), 10);
  lengths.changed('a', 5, [{ rangeLength: 0, text: 'xy' }]);
  assert.equal(lengths.of('a', 6, measure(12)), 12, 'an event for the known version drops what was known');
  lengths.changed('a', 8, [{ rangeLength: 1, text: '' }]);
  assert.equal(lengths.of('a', 9, measure(20)), 20, 'asked for a version no event made: measured');
  lengths.changed('b', 2, [{ rangeLength: 0, text: 'z' }]);
  assert.equal(lengths.of('b', 2, measure(3)), 3, 'an event for a document never measured carries nothing');
  lengths.forget('a');
  assert.equal(lengths.of('a', 9, measure(21)), 21);
  assert.equal(measured, 5);
});
