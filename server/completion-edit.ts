/**
 * The edit and filter text of a completion item. A client that declares insertReplaceSupport (VS
 * Code) applies the edit's range as sent: an item replaces the whole token under the cursor, a
 * JSON string quotes and all, and is filtered on that token's text, quotes included. Neovim 0.7's
 * omnifunc applies no range: it inserts the edit's text from where the edit starts only when an
 * item has no filterText, and otherwise from the start of the keyword before the cursor (`or` in
 * `"urn:babel:or|ders"`), so a quoted URN went into the middle of the string, and the items were
 * filtered on that keyword (none matched after `"urn:babel:bil`). A client without
 * insertReplaceSupport therefore gets an item that replaces a string token around the cursor as
 * the edit of what follows the opening quote (of the content alone, for a string value in a closed
 * string: its quotes stay), filtered on its label (the default, so no filterText), and any other
 * item without a filterText where it would be the label.
 */
import type { Range, TextEdit } from 'vscode-languageserver/node';
import type { LineIndex } from '../core/model/positions';

export interface CompletionEdit {
  readonly textEdit: TextEdit;
  readonly filterText?: string;
}

/**
 * `newText` replacing `text` from `offset` to `end` (the cursor at `cursor`), as sent to a client
 * with (`insertReplace`) or without insertReplaceSupport; `plain` when `newText` is no snippet.
 */
export function completionEdit(text: string, lines: LineIndex, item: { offset: number; end: number; label: string; newText: string; plain: boolean }, cursor: number, insertReplace: boolean): CompletionEdit {
  const { offset, end, label, newText } = item;
  // The editor filters on the text being replaced, quotes included.
  const filterText = text[offset] === '"' ? JSON.stringify(label) : label;
  // A value right after its key's colon (typed `"job":`, the `:` trigger character) is laid out as
  // every other line is, one space after the colon. The space goes in the text alone: the range
  // and the filter text stay those of what is written, which the editor filters on. Not where a
  // value is typed against the colon for a client without insertReplaceSupport: Neovim 0.7's
  // omnifunc keeps the items whose text starts with what is typed (`0` in `"attempts":0`), and ` 0` does not.
  const spaced = text[offset - 1] === ':' && (insertReplace || offset === end) ? ` ${newText}` : newText;
  const whole: CompletionEdit = { textEdit: { range: toRange(lines, offset, end), newText: spaced }, filterText };
  if (insertReplace) return whole;
  const inString = item.plain && text[offset] === '"' && newText.startsWith('"') && cursor > offset && !/[\r\n]/.test(text.slice(offset, end));
  if (!inString) return filterText === label ? { textEdit: whole.textEdit } : whole;
  // A closed string given a string value: its content (the line keeps its quote where it is, after
  // the colon or not). Otherwise (a key being typed, `"da|`, given
  // `"data": {}`) everything after the opening quote.
  const closed = end - offset >= 2 && text[end - 1] === '"' && cursor < end && newText.length >= 2 && newText.endsWith('"');
  const replaced = closed ? newText.slice(1, -1) : newText.slice(1);
  return { textEdit: { range: toRange(lines, offset + 1, closed ? end - 1 : end), newText: replaced } };
}

function toRange(lines: LineIndex, offset: number, end: number): Range {
  return lines.rangeAt(offset, end);
}
