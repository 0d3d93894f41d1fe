/**
 * Which open documents are stored with a byte-order mark. The editor decodes the mark away (VS
 * Code, Neovim and Emacs alike), so the document's text cannot say; the file's first three bytes
 * do. An envelope's mark is its json-syntax error; a registry.json or schema file with one is
 * refused by bqschema (Go's JSON decoder), so the registry is loaded from its text with the mark.
 * The bytes are looked at when the document opens, when it is saved (VS Code's "Save with
 * Encoding" removes or adds the mark without changing the text) and when a file event names it,
 * never per keystroke; the look is bounded (readFileStart: no pipe or device is waited on).
 *
 * A UTF-16 mark (FF FE, FE FF; a UTF-32 little-endian one starts as FF FE too) is kept as well:
 * VS Code decodes such a file itself, so its text holds no replacement character to tell the
 * server the bytes are not UTF-8, yet `babelq lint` refuses a project file saved so.
 */
import { firstInvalidUtf8 } from '../core/model/utf8';
import { readFileStart } from '../workspace/bounded-read';
import { toPath } from './registry';

const UTF8_BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/** What a file starts with: a UTF-8 mark, or a mark of another encoding (in lint's words for it). */
type StoredMark = { readonly kind: 'utf8' } | { readonly kind: 'foreign'; readonly words: string };

export class StoredByteOrderMarks {
  private readonly marks = new Map<string, StoredMark>();

  /** Looks at the file behind `uri` again; true when the mark it starts with (or its having none) changed. */
  look(uri: string): boolean {
    const mark = this.storedMark(uri);
    const before = this.marks.get(uri);
    if (sameMark(mark, before)) return false;
    if (mark) this.marks.set(uri, mark);
    else this.marks.delete(uri);
    return true;
  }

  /**
   * As of the last look: does the document's file start with a UTF-8 byte-order mark its text does
   * not hold? (An editor that keeps the mark in the text has it reported by the parser itself.)
   */
  hiddenIn(document: { readonly uri: string; getText(): string }): boolean {
    return this.marks.get(document.uri)?.kind === 'utf8' && document.getText().charCodeAt(0) !== 0xfeff;
  }

  /**
   * As of the last look: the words for the byte-order mark of another encoding than UTF-8 the
   * document's file starts with ("it starts with a UTF-16 byte-order mark"), or undefined.
   */
  foreignMarkOf(uri: string): string | undefined {
    const mark = this.marks.get(uri);
    return mark?.kind === 'foreign' ? mark.words : undefined;
  }

  forget(uri: string): void {
    this.marks.delete(uri);
  }

  private storedMark(uri: string): StoredMark | undefined {
    const path = toPath(uri);
    // An untitled document, or one of another scheme, has no file of its own to look at.
    if (path === undefined) return undefined;
    let start: Uint8Array;
    try {
      start = readFileStart(path, UTF8_BYTE_ORDER_MARK.length);
    } catch {
      // Gone, not a regular file or unreadable: the document's text is all there is to judge.
      return undefined;
    }
    if (start.length === UTF8_BYTE_ORDER_MARK.length && UTF8_BYTE_ORDER_MARK.every((byte, index) => start[index] === byte)) return { kind: 'utf8' };
    // Only a mark at the very start: other bytes that are not UTF-8 reach the text as U+FFFD.
    const invalid = start.length >= 2 ? firstInvalidUtf8(start.subarray(0, 2)) : undefined;
    return invalid?.at === 0 && isUtf16Mark(start) ? { kind: 'foreign', words: invalid.words } : undefined;
  }
}

function isUtf16Mark(start: Uint8Array): boolean {
  return (start[0] === 0xff && start[1] === 0xfe) || (start[0] === 0xfe && start[1] === 0xff);
}

function sameMark(one: StoredMark | undefined, other: StoredMark | undefined): boolean {
  if (one === undefined || other === undefined) return one === other;
  return one.kind === other.kind && (one.kind === 'utf8' || one.words === (other as typeof one).words);
}
