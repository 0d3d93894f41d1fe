/** A count in words, for every message that counts: `1 file`, `2 files`, `0 errors`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * A whole number with its digits in groups of three, as messages write counts and limits:
 * `50,000`, `-1,234`. What `toLocaleString('en-US')` writes for a whole number, without it: that
 * call pages in Node's ICU data, some 5 MB more memory for every `babelq` run and the language
 * server, spent on commas. A number that is not a whole number is written as JavaScript writes it.
 */
export function digitGroups(count: number): string {
  if (!Number.isSafeInteger(count)) return String(count);
  const digits = String(Math.abs(count));
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return count < 0 ? `-${grouped}` : grouped;
}
