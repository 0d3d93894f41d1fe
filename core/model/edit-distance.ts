/** "Did you mean": the candidates closest to a typed word (a URN, a JSON type name), by edit distance. */

/**
 * The two rows every call computes in, grown to the longest word seen: a registry of 100,000 URNs
 * is compared at each keystroke in `job`, and a pair of arrays per URN was most of the cost. No
 * cell is read that the call has not written (see the band below), so what a call leaves is harmless.
 */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/** Levenshtein distance, with an early exit once it exceeds `limit` (the answer is then > limit). */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (rowA.length <= b.length) {
    rowA = new Int32Array(b.length + 1);
    rowB = new Int32Array(b.length + 1);
  }
  // Only cells within `limit` of the diagonal can stay within the limit (Ukkonen's band); the
  // cell just outside it on either side is written as "too far", so a row reads only what the
  // row before it wrote.
  const band = Number.isFinite(limit) ? limit : Math.max(a.length, b.length);
  const outside = band + 1;
  let previous = rowA;
  let current = rowB;
  for (let j = 0; j <= b.length; j++) previous[j] = j <= band ? j : outside;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - band);
    const to = Math.min(b.length, i + band);
    current[0] = i <= band ? i : outside;
    if (from > 1) current[from - 1] = outside;
    let rowMinimum = current[0];
    const code = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const cost = code === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      current[j] = value > outside ? outside : value;
      if (current[j] < rowMinimum) rowMinimum = current[j];
    }
    if (to < b.length) current[to + 1] = outside;
    if (rowMinimum > limit) return limit + 1;
    [previous, current] = [current, previous];
  }
  return previous[b.length] > limit ? limit + 1 : previous[b.length];
}

/** A candidate and its distance from the word typed. */
interface Scored {
  readonly candidate: string;
  readonly distance: number;
}

/** A limit at which the banded table stops as soon as the counting of letters would. */
const NARROW_LIMIT = 4;

/**
 * The most edits a suggestion may be from the word typed, whatever its length. The band each
 * comparison computes is twice the limit wide, so a limit of a third of the length made a URN of
 * 100,000 characters (a hostile checkout's `job`) cost billions of steps per candidate at each
 * keystroke; a real typo is a few edits, and a URN 24 edits away is no "did you mean".
 */
export const MAX_SUGGESTION_DISTANCE = 24;

/**
 * Up to `count` candidates within a distance that grows with the URN's length (to
 * MAX_SUGGESTION_DISTANCE), closest first (ties by name). Once `count` are found, a candidate must
 * come at least as close as the last of them, so the limit, and with it the band each comparison
 * computes, narrows as the search goes.
 */
export function closest(target: string, candidates: Iterable<string>, count = 3): string[] {
  let limit = Math.min(MAX_SUGGESTION_DISTANCE, Math.max(3, Math.floor(target.length / 3)));
  const best: Scored[] = [];
  const before = (x: Scored, y: Scored) => x.distance < y.distance || (x.distance === y.distance && x.candidate < y.candidate);
  const letters = new LetterCounts(target);
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - target.length) > limit) continue;
    // Letters one word has and the other lacks each cost an edit: while the limit is wide, a far
    // candidate is passed over for the price of counting its letters, without the table (once a
    // close match narrows the limit, the table's own early exit is cheaper than the count).
    if (limit > NARROW_LIMIT && letters.differenceFrom(candidate) > limit) continue;
    const distance = editDistance(target, candidate, limit);
    if (distance > limit) continue;
    const entry = { candidate, distance };
    let at = best.length;
    while (at > 0 && before(entry, best[at - 1])) at--;
    if (at >= count) continue;
    best.splice(at, 0, entry);
    if (best.length > count) best.pop();
    if (best.length === count) limit = best[count - 1].distance;
  }
  return best.map((entry) => entry.candidate);
}

/**
 * A word's letters counted (by code unit, folded into 128 buckets: letters that share one count as
 * alike, so the difference stays a lower bound of the edit distance).
 */
class LetterCounts {
  private readonly counts = new Int32Array(128);

  constructor(private readonly word: string) {
    for (let i = 0; i < word.length; i++) this.counts[word.charCodeAt(i) & 127]++;
  }

  /**
   * At most the edit distance between the word and `other`: the larger of the letters `other` has
   * beyond the word's and the word's beyond `other`'s (each needs an insertion, deletion or substitution).
   */
  differenceFrom(other: string): number {
    const counts = this.counts;
    let extra = 0;
    for (let i = 0; i < other.length; i++) if (--counts[other.charCodeAt(i) & 127] < 0) extra++;
    for (let i = 0; i < other.length; i++) counts[other.charCodeAt(i) & 127]++;
    const missing = this.word.length - (other.length - extra);
    return extra > missing ? extra : missing;
  }
}

/** The candidate within `maxDistance` edits of `word` (compared in lowercase), the first of the closest. */
export function closestWord(word: string, candidates: readonly string[], maxDistance = 2): string | undefined {
  const target = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    const distance = editDistance(target, candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
