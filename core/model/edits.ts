/**
 * Text edits in core's own terms (UTF-16 offsets, `end` exclusive), so formatting and quick fixes
 * can be computed and tested without the LSP types; the server converts them to ranges.
 */

/** Replaces `[offset, end)` of the original text with `newText` (an insertion when offset === end). */
export interface TextEdit {
  readonly offset: number;
  readonly end: number;
  readonly newText: string;
}

/**
 * Applies edits that refer to the original text and do not overlap; insertions at one offset keep
 * the order given and go before a replacement starting there. Throws on overlap (a caller bug).
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  // Insertions first at equal offsets: otherwise one given after a replacement there would overlap.
  const rank = (edit: TextEdit): number => (edit.end === edit.offset ? 0 : 1);
  const sorted = edits
    .map((edit, index) => ({ edit, index }))
    .sort((a, b) => a.edit.offset - b.edit.offset || rank(a.edit) - rank(b.edit) || a.index - b.index);
  const parts: string[] = [];
  let position = 0;
  for (const { edit } of sorted) {
    if (edit.offset < position || edit.end < edit.offset || edit.end > text.length) {
      throw new RangeError(`Edit [${edit.offset}, ${edit.end}) overlaps another edit or lies outside the text (length ${text.length}).`);
    }
    parts.push(text.slice(position, edit.offset), edit.newText);
    position = edit.end;
  }
  parts.push(text.slice(position));
  return parts.join('');
}
