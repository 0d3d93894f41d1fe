/**
 * A copy of a string that keeps nothing else alive. V8 makes a slice of 13 or more characters a
 * view into the string it was cut from, so a key sliced from a document's text and kept in a
 * table that outlives the document (the parser's shared keys, the rules' caches) kept the whole
 * text in memory. Joining one character makes a new string that V8 flattens into a fresh copy when
 * it is sliced again; only that copy (one character longer) stays behind the result.
 */
export function detachedString(value: string): string {
  return value.length < 13 ? value : (value + ' ').slice(0, -1);
}
