/** "Did you mean": the registered URNs closest to a typed one, by edit distance. */

/** Levenshtein distance, with an early exit once it exceeds `limit` (the answer is then > limit). */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      rowMinimum = Math.min(rowMinimum, current[j]);
    }
    if (rowMinimum > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length];
}

/** Up to `count` candidates within a distance that grows with the URN's length, closest first. */
export function closest(target: string, candidates: Iterable<string>, count = 3): string[] {
  const limit = Math.max(3, Math.floor(target.length / 3));
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    const distance = editDistance(target, candidate, limit);
    if (distance <= limit) scored.push({ candidate, distance });
  }
  return scored
    .sort((x, y) => x.distance - y.distance || (x.candidate < y.candidate ? -1 : 1))
    .slice(0, count)
    .map((entry) => entry.candidate);
}
