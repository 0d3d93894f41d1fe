/**
 * The parser's columns grow to what the document needs (core/parse/parser.ts `grow`): from the
 * first estimate (a slot per 16 characters), by as much as the text read so far says the rest
 * needs, and at least twice. A document of a different density than the estimate must parse
 * exactly as one that fits, and a dense one must not end up with twice the slots it uses.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { plainValue } from '../../../core/parse/document';
import { parseText } from '../../../core/parse/parser';

function parsed(text: string) {
  const document = parseText(text);
  assert.equal(document.syntaxProblems.length, 0);
  assert.deepStrictEqual(plainValue(document.columns, text, 0), JSON.parse(text));
  return document.columns;
}

describe('column growth', () => {
  test('a dense array (two characters a value) gets about the slots it holds, not twice as many', () => {
    const values = 400_000;
    const text = `[${'0,'.repeat(values - 1)}0]`;
    const columns = parsed(text);
    assert.equal(columns.count, values + 1);
    // Doubling alone from the first estimate (50,000 slots) ends at 800,000.
    assert.ok(columns.info.length < columns.count * 1.3, `capacity ${columns.info.length} for ${columns.count} slots`);
    assert.ok(columns.info.length <= text.length + 2);
  });

  test('sparse text, then dense: the projection is made again at each growth, and the parse is exact', () => {
    const header = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`key_${i}`, `a long value that takes room ${'x'.repeat(60)} ${i}`]));
    const text = JSON.stringify({ header, dense: Array.from({ length: 300_000 }, (_, i) => i % 10) }, null, 1).replace(/\n\s+(\d)/g, '$1');
    const columns = parsed(text);
    assert.ok(columns.count > 300_000);
    assert.ok(columns.info.length >= columns.count && columns.info.length <= text.length + 2);
  });

  test('dense text, then sparse: the growth stops at the text length, and the parse is exact', () => {
    const text = JSON.stringify({ dense: Array.from({ length: 100_000 }, () => 1), tail: Array.from({ length: 5_000 }, (_, i) => ({ [`k${i}`]: 'y'.repeat(200) })) });
    const columns = parsed(text);
    assert.ok(columns.info.length >= columns.count && columns.info.length <= text.length + 2);
  });

  test('keyed slots past a growth keep their keys', () => {
    const text = JSON.stringify(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])));
    const columns = parsed(text);
    assert.equal(columns.keys[columns.count - 1], 'k49999');
  });
});
