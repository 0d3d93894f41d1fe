/**
 * A copy of a string that keeps nothing else alive. V8 makes a slice of 13 or more characters a
 * view into the string it was cut from, so a key sliced from a document's text and kept in a
 * table that outlives the document (the parser's shared keys, the rules' caches) kept the whole
 * text in memory. Joining one character makes a new string that V8 flattens into a fresh copy when
 * it is sliced again; only that copy (one character longer) stays behind the result.
 */
export function detachedString(value: string): string {
  if (value.length < 13) return value;
  if (value.length > MAX_SHARED_COPY) return (value + ' ').slice(0, -1);
  let copy = copies.get(value);
  if (copy === undefined) {
    if (copies.size >= MAX_SHARED_COPIES) copies.clear();
    copy = (value + ' ').slice(0, -1);
    copies.set(copy, copy);
  }
  return copy;
}

/**
 * One copy per key, handed to every caller: the parser's shared keys and the rules' caches of key
 * sequences then hold the very same string, so a cached sequence is matched against the next
 * parse's keys by identity. Two copies of a key are equal only character by character, which for
 * every long key of every object of a large payload cost about a millisecond of the analysis.
 * Keys are short; a longer string is copied apart alone. Bounded: a miss only costs that compare.
 */
const copies = new Map<string, string>();
const MAX_SHARED_COPY = 64;
const MAX_SHARED_COPIES = 4096;
