/** A count in words, for every message that counts: `1 file`, `2 files`, `0 errors`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
