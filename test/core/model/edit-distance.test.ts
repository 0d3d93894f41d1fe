/**
 * "Did you mean" (core/model/edit-distance.ts) against a plain Levenshtein table: the banded
 * distance with its reused rows, and `closest` with its narrowing limit and its count of letters,
 * give what comparing every candidate in full gives, on random words (ASCII and beyond, so letters
 * that share a count bucket are covered) and on a registry's worth of URNs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { closest, editDistance, MAX_SUGGESTION_DISTANCE } from '../../../core/model/edit-distance';

function levenshtein(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) rows[i]![j] = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  }
  return rows[a.length]![b.length]!;
}

/** closest as its contract says, by brute force: every candidate within the length-based limit (at most MAX_SUGGESTION_DISTANCE), closest first, ties by name. */
function closestByHand(target: string, candidates: readonly string[], count = 3): string[] {
  const limit = Math.min(MAX_SUGGESTION_DISTANCE, Math.max(3, Math.floor(target.length / 3)));
  return candidates
    .map((candidate) => ({ candidate, distance: levenshtein(target, candidate) }))
    .filter((entry) => entry.distance <= limit)
    .sort((x, y) => x.distance - y.distance || (x.candidate < y.candidate ? -1 : x.candidate > y.candidate ? 1 : 0))
    .slice(0, count)
    .map((entry) => entry.candidate);
}

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

// 'a' and 'á' (U+00E1 = 0xE1, 0xE1 & 127 = 'a') share a bucket of the letter count.
const ALPHABET = ['a', 'b', 'c', ':', '.', '-', 'á', 'é', 'x', 'y'];

function word(next: () => number, maxLength: number): string {
  let text = '';
  const length = Math.floor(next() * (maxLength + 1));
  for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return text;
}

/** `text` after `edits` random insertions, deletions and substitutions. */
function edited(next: () => number, text: string, edits: number): string {
  let result = text;
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * (result.length + 1));
    const letter = ALPHABET[Math.floor(next() * ALPHABET.length)];
    const kind = next();
    result = kind < 0.34 ? result.slice(0, at) + letter + result.slice(at) : kind < 0.67 ? result.slice(0, at) + result.slice(at + 1) : result.slice(0, at) + letter + result.slice(at + 1);
  }
  return result;
}

describe('edit distance', () => {
  test('the banded distance equals the full table within the limit, and says "beyond" past it, call after call', () => {
    const next = random(7);
    for (let round = 0; round < 4000; round++) {
      const a = word(next, 14);
      const b = word(next, 14);
      const full = levenshtein(a, b);
      assert.equal(editDistance(a, b), full, `${a} / ${b}`);
      const limit = Math.floor(next() * 8);
      const banded = editDistance(a, b, limit);
      assert.equal(banded, full <= limit ? full : limit + 1, `${a} / ${b} within ${limit}`);
    }
    // A long word grows the shared rows; shorter ones after it still get their own answer.
    assert.equal(editDistance('x'.repeat(300), 'y'.repeat(300)), 300);
    assert.equal(editDistance('kitten', 'sitting'), 3);
  });

  test('closest gives the brute force\'s candidates, in its order, on random words and on words a few edits from the one typed', () => {
    const next = random(11);
    for (let round = 0; round < 600; round++) {
      // Long words too: their limit (a third of the length) is wide enough for the count of letters to be used.
      const target = word(next, 40);
      const near = () => edited(next, target, 1 + Math.floor(next() * 14));
      const candidates = Array.from({ length: 1 + Math.floor(next() * 60) }, () => (next() < 0.6 ? near() : word(next, 40)));
      const count = 1 + Math.floor(next() * 4);
      assert.deepEqual(closest(target, candidates, count), closestByHand(target, candidates, count), `${target} among ${JSON.stringify(candidates)}`);
    }
  });

  test('closest on a registry of 5,000 URNs: a typo finds its URNs, a URN like none finds none, as the brute force does', () => {
    const areas = ['orders', 'billing', 'identity', 'payments', 'shipping', 'inventory', 'catalog', 'users', 'notifications', 'analytics'];
    const verbs = ['created', 'updated', 'deleted', 'cancelled', 'shipped', 'paid', 'refunded', 'registered', 'archived', 'restored'];
    const urns = Array.from({ length: 5000 }, (_, i) => `urn:babel:${areas[i % 10]}-${Math.floor(i / 100)}:${verbs[Math.floor(i / 10) % 10]}.v${i % 7}`);
    for (const typed of ['urn:babel:orders-3:creted.v1', 'urn:babel:biling-12:paid.v4', 'urn:babel:zzz:nothing-like-it', 'urn:babel:o', 'urn:babel:ördérs-3:created.v1']) {
      assert.deepEqual(closest(typed, urns), closestByHand(typed, urns), typed);
    }
    assert.deepEqual(closest('urn:babel:orders-3:creted.v1', urns), ['urn:babel:orders-32:created.v1', 'urn:babel:orders-39:created.v1', 'urn:babel:orders-3:created.v6']);
    assert.deepEqual(closest('urn:babel:zzz:nothing-like-it', urns), []);
  });

  test('a URN of 100,000 characters is compared within a band of MAX_SUGGESTION_DISTANCE, not a third of its length: its typo is still found', () => {
    const long = `urn:babel:orders:${'a'.repeat(100_000)}`;
    const started = performance.now();
    // Its own typo, a far candidate of the same length and one beyond the limit: a band of a third of
    // the length (33,000) made each comparison some 6.6e9 steps, minutes for one keystroke in job.
    const found = closest(long, [`${long}b`, `urn:babel:orders:${'b'.repeat(100_000)}`, `${long.slice(0, -MAX_SUGGESTION_DISTANCE - 1)}${'c'.repeat(MAX_SUGGESTION_DISTANCE + 1)}`]);
    const elapsed = performance.now() - started;
    assert.deepEqual(found, [`${long}b`]);
    assert.ok(elapsed < 2_000, `${Math.round(elapsed)} ms`);
    assert.ok(MAX_SUGGESTION_DISTANCE >= 8 && MAX_SUGGESTION_DISTANCE <= 64, `${MAX_SUGGESTION_DISTANCE}`);
  });
});
