/**
 * The file behind an envelope document, checked as `babelq lint` reads it before the editor
 * previews or sends the document's text. VS Code decodes a file that is not UTF-8 with U+FFFD in
 * place of the bad bytes (or in another encoding the user picked), and a file's byte-order mark
 * away, so its text would be published with bytes the file does not hold; lint reports such a
 * file, and `babelq preview` and `send` refuse it, so the editor refuses it too, with lint's words.
 *
 * Only a saved document is checked: an edited one is published as typed, the text a save would
 * write. No `vscode` import: the extension passes the file system in, the tests a fake one.
 */
import { invalidUtf8At } from '../core/model/utf8';
import { notUtf8Message } from '../core/rules/structure/json-syntax';
import { BYTE_ORDER_MARK_MESSAGE } from '../core/parse/parser';

/**
 * The most bytes read to check a file: lint's limit for an envelope file (MAX_ENVELOPE_FILE_BYTES
 * in workspace/bounded-read.ts, which the client may not import; a test holds them equal). A larger
 * file is not checked.
 */
export const CHECKED_FILE_LIMIT = 64 * 1024 * 1024;

/** The document as the check needs it. */
export interface EnvelopeDocumentState {
  /** The URI, as a string (the cache key). */
  readonly uri: string;
  /** A file on disk: not untitled, not a message opened from a queue. */
  readonly onDisk: boolean;
  readonly isDirty: boolean;
}

/** The file system, as far as the check reads it. */
export interface FileBytesReader {
  stat(uri: string): Promise<{ readonly size: number; readonly mtime: number }>;
  read(uri: string): Promise<Uint8Array>;
}

export class SavedBytesCheck {
  /** Per file, the answer for the size and time it had: a preview asks on every render. */
  private readonly answers = new Map<string, { readonly size: number; readonly mtime: number; readonly refusal: string | undefined }>();

  constructor(private readonly files: FileBytesReader) {}

  /** Lint's message when the saved file is not UTF-8 (nothing may be previewed or sent), else undefined. */
  async refusal(document: EnvelopeDocumentState): Promise<string | undefined> {
    if (!document.onDisk || document.isDirty) return undefined;
    let stat: { readonly size: number; readonly mtime: number };
    try {
      stat = await this.files.stat(document.uri);
    } catch {
      // Gone or unreadable since it was opened: the text is all there is, and the send says what fails.
      return undefined;
    }
    if (stat.size > CHECKED_FILE_LIMIT) return undefined;
    const known = this.answers.get(document.uri);
    if (known && known.size === stat.size && known.mtime === stat.mtime) return known.refusal;
    let bytes: Uint8Array;
    try {
      bytes = await this.files.read(document.uri);
    } catch {
      return undefined;
    }
    const where = invalidUtf8At(bytes);
    // A byte-order mark is hidden by VS Code as well (its text starts after it), and lint, `babelq
    // preview` and `send` refuse the file for it: every SDK consumer rejects those bytes.
    const refusal = where !== undefined ? notUtf8Message(where) : startsWithByteOrderMark(bytes) ? BYTE_ORDER_MARK_MESSAGE : undefined;
    this.answers.set(document.uri, { size: stat.size, mtime: stat.mtime, refusal });
    return refusal;
  }

  /** Forgets a closed document's file. */
  forget(uri: string): void {
    this.answers.delete(uri);
  }
}

function startsWithByteOrderMark(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** What the check needs of an editor document (a VS Code TextDocument has all of it). */
export function envelopeState(document: { readonly uri: { readonly scheme: string; toString(): string }; readonly isUntitled: boolean; readonly isDirty: boolean }): EnvelopeDocumentState {
  return { uri: document.uri.toString(), onDisk: document.uri.scheme === 'file' && !document.isUntitled, isDirty: document.isDirty };
}
