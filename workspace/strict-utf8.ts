/**
 * A fixture's bytes as text, decoded as `babelq lint` decodes them: strict UTF-8 (an invalid byte
 * is no guess at what was meant) keeping a byte-order mark in the text, so core reports the BOM as
 * json-syntax, as the editor does. `preview`, `send` and the language server's report of the files
 * on disk decode through this too, so they refuse or report what lint does.
 */
import { firstInvalidUtf8 } from '../core/model/utf8';
import { notUtf8Message } from '../core/rules/structure/json-syntax';

/** One decoder for every file: strict (an invalid byte throws) and keeping a BOM in the text. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** For the bytes before the first invalid one, which are UTF-8 (the BOM kept, as above). */
const PREFIX_UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The bytes' text; or, for bytes that are not UTF-8, the message lint reports
 * (core/rules/not-utf8.ts makes it a finding) and the text before the first invalid byte, which
 * says the line and column the finding is put at.
 */
export function decodeStrictly(bytes: Uint8Array): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string; readonly before: string } {
  try {
    return { ok: true, text: STRICT_UTF8.decode(bytes) };
  } catch {
    const invalid = firstInvalidUtf8(bytes);
    return { ok: false, message: notUtf8Message(invalid?.words ?? 'it cannot be decoded'), before: PREFIX_UTF8.decode(bytes.subarray(0, invalid?.at ?? 0)) };
  }
}
