/**
 * A fixture's bytes as text, decoded as `babelq lint` decodes them: strict UTF-8 (an invalid byte
 * is no guess at what was meant) keeping a byte-order mark in the text, so core reports the BOM as
 * json-syntax, as the editor does. `preview`, `send` and the language server's report of the files
 * on disk decode through this too, so they refuse or report what lint does.
 */
import { invalidUtf8At } from '../core/model/utf8';
import { notUtf8Message } from '../core/rules/structure/json-syntax';

/** One decoder for every file: strict (an invalid byte throws) and keeping a BOM in the text. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes' text, or the message lint reports for bytes that are not UTF-8 (core/rules/not-utf8.ts makes it a finding). */
export function decodeStrictly(bytes: Uint8Array): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string } {
  try {
    return { ok: true, text: STRICT_UTF8.decode(bytes) };
  } catch {
    return { ok: false, message: notUtf8Message(invalidUtf8At(bytes) ?? 'it cannot be decoded') };
  }
}
