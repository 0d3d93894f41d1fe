/**
 * The edit and filter text of a completion item. A client that declares insertReplaceSupport (VS
 * Code) applies the edit's range as sent: an item replaces the whole token under the cursor, a
 * JSON string quotes and all, and is filtered on that token's text, quotes included. Neovim 0.7's
 * omnifunc applies no range: it inserts the edit's text from where the edit starts only when an
 * item has no filterText, and otherwise from the start of the keyword before the cursor (`or` in
 * `"urn:babel:or|ders"`), so a quoted URN went into the middle of the string, and the items were
 * filtered on that keyword (none matched after `"urn:babel:bil`). A client without
 * insertReplaceSupport therefore gets, for a plain string value replacing a whole string token
 * around the cursor, the edit of the string's content (its quotes stay), and no filterText where
 * it would be the label (the default).
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
  const whole: CompletionEdit = { textEdit: { range: toRange(lines, offset, end), newText }, filterText };
  if (insertReplace) return whole;
  const quotedToken = end - offset >= 2 && text[offset] === '"' && text[end - 1] === '"' && !/[\r\n]/.test(text.slice(offset, end));
  const quotedValue = item.plain && newText.length >= 2 && newText.startsWith('"') && newText.endsWith('"');
  if (quotedToken && quotedValue && cursor > offset && cursor < end) {
    const content = newText.slice(1, -1);
    return { textEdit: { range: toRange(lines, offset + 1, end - 1), newText: content }, ...(content === label ? {} : { filterText: content }) };
  }
  return filterText === label ? { textEdit: whole.textEdit } : whole;
}

function toRange(lines: LineIndex, offset: number, end: number): Range {
  return lines.rangeAt(offset, end);
}
