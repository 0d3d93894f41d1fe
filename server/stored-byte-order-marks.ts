/**
 * Which open documents are stored with a byte-order mark. The editor decodes the mark away (VS
 * Code, Neovim and Emacs alike), so the document's text cannot say; the file's first three bytes
 * do. An envelope's mark is its json-syntax error; a registry.json or schema file with one is
 * refused by bqschema (Go's JSON decoder), so the registry is loaded from its text with the mark.
 * The bytes are looked at when the document opens, when it is saved (VS Code's "Save with
 * Encoding" removes or adds the mark without changing the text) and when a file event names it,
 * never per keystroke; the look is bounded (readFileStart: no pipe or device is waited on).
 */
import { readFileStart } from '../workspace/bounded-read';
import { toPath } from './registry';

const UTF8_BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

export class StoredByteOrderMarks {
  private readonly marked = new Set<string>();

  /** Looks at the file behind `uri` again; true when whether it starts with the mark changed. */
  look(uri: string): boolean {
    const marked = this.storedWithMark(uri);
    if (marked === this.marked.has(uri)) return false;
    if (marked) this.marked.add(uri);
    else this.marked.delete(uri);
    return true;
  }

  /**
   * As of the last look: does the document's file start with a UTF-8 byte-order mark its text does
   * not hold? (An editor that keeps the mark in the text has it reported by the parser itself.)
   */
  hiddenIn(document: { readonly uri: string; getText(): string }): boolean {
    return this.marked.has(document.uri) && document.getText().charCodeAt(0) !== 0xfeff;
  }

  forget(uri: string): void {
    this.marked.delete(uri);
  }

  private storedWithMark(uri: string): boolean {
    const path = toPath(uri);
    // An untitled document, or one of another scheme, has no file of its own to look at.
    if (path === undefined) return false;
    try {
      const start = readFileStart(path, UTF8_BYTE_ORDER_MARK.length);
      return start.length === UTF8_BYTE_ORDER_MARK.length && UTF8_BYTE_ORDER_MARK.every((byte, index) => start[index] === byte);
    } catch {
      // Gone, not a regular file or unreadable: the document's text is all there is to judge.
      return false;
    }
  }
}
