/**
 * A fixture stored with a byte-order mark. Editors hide the mark: VS Code, Neovim and Emacs decode
 * it away, so an open document's text does not start with U+FEFF though its file still does, and
 * every SDK consumer rejects that file's bytes (facts part 2 §2). Every reader therefore tells the
 * mark apart from the text before analysis: `babelq lint` and the server's report of the files on
 * disk split it off the decoded text (splitByteOrderMark), the server asks the disk about an open
 * document. The rest is analysed as an editor shows it, so line 1's columns are the editor's, and
 * the mark is this one json-syntax finding, empty, at the start of the file. A message's body
 * read from a queue (peek, dead letters) is judged the same way, so its verdict is lint's.
 */
import { BYTE_ORDER_MARK_MESSAGE } from '../parse/parser';
import { NO_REGISTRY, type RegistryState } from '../registry/types';
import { analyzeText, applySettings } from './analyze';
import { definitionOf } from './catalogue';
import type { CoreDiagnostic } from './diagnostic';
import { DEFAULT_SETTINGS, type Settings } from './settings/settings';

const BYTE_ORDER_MARK = 0xfeff;

/** A file's decoded text as an editor shows it, and whether the file starts with a byte-order mark. */
export function splitByteOrderMark(stored: string): { readonly text: string; readonly byteOrderMark: boolean } {
  return stored.charCodeAt(0) === BYTE_ORDER_MARK ? { text: stored.slice(1), byteOrderMark: true } : { text: stored, byteOrderMark: false };
}

/**
 * `findings` of a text, after the json-syntax finding for the byte-order mark its file is stored
 * with when `stored` says so: the analysed text does not hold the mark, so analyze() never saw it,
 * and the settings' switch and severity are applied here. Empty and at offset 0: the mark takes no
 * column in the editor.
 */
export function withByteOrderMark(stored: boolean, findings: readonly CoreDiagnostic[], settings: Settings): readonly CoreDiagnostic[] {
  if (!stored) return findings;
  return [...applySettings([{ code: 'json-syntax', severity: definitionOf('json-syntax').severity, message: BYTE_ORDER_MARK_MESSAGE, offset: 0, end: 0 }], settings), ...findings];
}

/**
 * Parses and analyses a text as stored (a file's, a message body's) as lint does: a byte-order mark
 * split off and reported, the rest analysed. The findings' offsets are in the returned `text`.
 */
export function analyzeStoredText(stored: string, settings: Settings = DEFAULT_SETTINGS, registry: RegistryState = NO_REGISTRY): { readonly text: string; readonly diagnostics: readonly CoreDiagnostic[] } {
  const { text, byteOrderMark } = splitByteOrderMark(stored);
  return { text, diagnostics: withByteOrderMark(byteOrderMark, analyzeText(text, settings, registry), settings) };
}
