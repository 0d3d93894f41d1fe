/** "Did you mean": the candidates closest to a typed word (a URN, a JSON type name), by edit distance. */

/** Levenshtein distance, with an early exit once it exceeds `limit` (the answer is then > limit). */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  // Only cells within `limit` of the diagonal can stay within the limit (Ukkonen's band), and two
  // reused rows keep a registry of 100,000 URNs from allocating a row per character per URN.
  const band = Number.isFinite(limit) ? limit : Math.max(a.length, b.length);
  const outside = band + 1;
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
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
