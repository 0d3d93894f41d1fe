/** Documents written inline with a `|` cursor marker, and completion items applied as an editor does. */
import assert from 'node:assert/strict';
import type { CoreCompletionItem } from '../../core/language/completion-item';
import { applyEdits } from '../../core/model/edits';

/** Splits `marked` at its `|` marker into the text and the cursor offset. */
export function withCursor(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('|');
  assert.ok(offset >= 0, 'the test text needs a | marker');
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}

/** Applies an item the way the editor does, resolving snippet placeholders to their defaults, with its additional edits. */
export function applyItem(text: string, item: CoreCompletionItem): string {
  const plain = item.isSnippet
    ? item.insertText
        .replace(/\$\{\d+:([^}]*)\}/g, '$1')
        .replace(/\$\d+/g, '')
        .replace(/\\([\\$}])/g, '$1')
    : item.insertText;
  return applyEdits(text, [{ offset: item.offset, end: item.end, newText: plain }, ...(item.additionalEdits ?? [])]);
}
