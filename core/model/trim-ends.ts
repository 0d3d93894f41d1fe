/**
 * A string without the characters `isSpace` accepts at either end, in one pass from each end. A
 * regular expression such as `\s+$` tries every start inside a run of such characters, so a value
 * with a long run in its middle took time growing with the square of the run.
 */
export function trimEnds(value: string, isSpace: (code: number) => boolean): string {
  let start = 0;
  let end = value.length;
  while (start < end && isSpace(value.charCodeAt(start))) start++;
  while (end > start && isSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}
