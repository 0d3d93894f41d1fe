/**
 * One-shot callers hand a parse's column storage back for the next parse (core/parse/column-storage.ts).
 * A parse into reused storage must be exactly a parse into fresh memory.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyze, analyzeText } from '../../../core/rules/analyze';
import { parseText } from '../../../core/parse/parser';
import { recycleColumns } from '../../../core/parse/column-storage';
import type { Columns } from '../../../core/parse/columns';

const big = JSON.stringify({ job: 'urn:babel:orders:created', data: { items: Array.from({ length: 300 }, (_, i) => ({ id: i, name: `n${i}`, tags: ['a', 'b'] })) } }, null, 2);
const small = '{"job": "urn:babel:orders:created", "trace_id": "x", "data": [1, "two", {"three": 3}], "meta": {}, "attempts": 0}';

/** Every column up to the storage's capacity, and the keys of every slot, as plain arrays. */
function snapshot(columns: Columns, slots: number): unknown {
  const up = <T>(column: ArrayLike<T>) => Array.from({ length: slots }, (_, i) => column[i]);
  return {
    count: columns.count,
    info: up(columns.info),
    start: up(columns.start),
    end: up(columns.end),
    parent: up(columns.parent),
    next: up(columns.next),
    keyStart: up(columns.keyStart),
    keyEnd: up(columns.keyEnd),
    colon: up(columns.colon),
    values: up(columns.values),
    keys: up(columns.keys),
    decoded: [...columns.decoded],
  };
}

describe('column storage reuse', () => {
  test('a parse into recycled storage equals a parse into fresh memory, stale slots cleared', () => {
    const fresh = parseText(small);
    const freshSnapshot = snapshot(fresh.columns, fresh.columns.count);
    const first = parseText(big);
    assert.ok(first.columns.count > fresh.columns.count * 10);
    recycleColumns(first.columns);
    const reused = parseText(small);
    assert.equal(reused.columns.info.buffer, first.columns.info.buffer, 'the recycled storage is taken');
    assert.deepStrictEqual(snapshot(reused.columns, reused.columns.count), freshSnapshot);
    // Beyond the small document's slots, what the big one wrote there is gone.
    const beyond = snapshot(reused.columns, first.columns.count) as Record<string, unknown[]>;
    for (const name of ['info', 'start', 'end', 'parent', 'next', 'keyStart', 'keyEnd', 'colon', 'values']) {
      assert.ok(beyond[name].slice(reused.columns.count).every((value) => value === 0), name);
    }
    assert.ok(beyond.keys.slice(reused.columns.count).every((value) => value === undefined));
  });

  test('recycled storage is taken by one parse only', () => {
    const first = parseText(big);
    recycleColumns(first.columns);
    const a = parseText(small);
    const b = parseText(small);
    assert.equal(a.columns.info.buffer, first.columns.info.buffer);
    assert.notEqual(b.columns.info.buffer, a.columns.info.buffer);
    assert.deepStrictEqual(snapshot(a.columns, a.columns.count), snapshot(b.columns, b.columns.count));
  });

  test('a parse that outgrows recycled storage grows into new memory and stays correct', () => {
    recycleColumns(parseText(small).columns);
    const grown = parseText(big);
    const reference = JSON.parse(big) as { data: { items: unknown[] } };
    assert.equal(grown.syntaxProblems.length, 0);
    assert.equal(grown.columns.keys[1], 'job');
    assert.ok(grown.columns.count > reference.data.items.length * 5);
  });

  test('analyzeText, which recycles, reports what analyze of a fresh parse reports, run after run', () => {
    const texts = [big, small, big.replace('"job"', '"jbo"'), '{"job": 1,}', small];
    const expected = texts.map((text) => analyze(parseText(text)));
    for (let round = 0; round < 3; round++) {
      texts.forEach((text, index) => assert.deepStrictEqual(analyzeText(text), expected[index], `round ${round}, text ${index}`));
    }
  });
});
