/**
 * Bytes that are not UTF-8, which the parser never sees: every reader of a fixture's bytes
 * (`babelq lint`, `preview`, `send`, the language server's report of the files on disk) and of a
 * message's (peek, in the CLI and the editor: messageBody in core/language/message-rows.ts)
 * decodes them strictly (decodeAsLint, with the adapter's decoders) and reports such bytes as
 * this one json-syntax finding where the first invalid byte is, instead of guessing what the
 * text was meant to be.
 */
import { firstInvalidUtf8 } from '../model/utf8';
import { applySettings } from './analyze';
import { splitByteOrderMark } from './byte-order-mark';
import { definitionOf } from './catalogue';
import type { CoreDiagnostic } from './diagnostic';
import type { Settings } from './settings/settings';
import { notUtf8Message } from './structure/json-syntax';

/** A UTF-8 decoder that keeps a byte-order mark in the text (core has none of its own: the adapters pass theirs). */
export interface Utf8Decoder {
  decode(bytes: Uint8Array): string;
}

/** The decoders lint reads bytes with: one strict (an invalid byte throws), one that writes U+FFFD for it. */
export interface LintDecoders {
  readonly strict: Utf8Decoder;
  readonly lenient: Utf8Decoder;
}

/**
 * Bytes as `babelq lint` reads a file's: their text; or, for bytes that are not UTF-8, lint's
 * message for them and the text before the first invalid byte, which says the line and column
 * the finding is put at (notUtf8Diagnostics): without a byte-order mark, which an editor hides.
 */
export function decodeAsLint(bytes: Uint8Array, decoders: LintDecoders): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string; readonly before: string } {
  try {
    return { ok: true, text: decoders.strict.decode(bytes) };
  } catch {
    const invalid = firstInvalidUtf8(bytes);
    return { ok: false, message: notUtf8Message(invalid?.words ?? 'it cannot be decoded'), before: splitByteOrderMark(decoders.lenient.decode(bytes.subarray(0, invalid?.at ?? 0))).text };
  }
}

/**
 * The json-syntax finding for bytes that are not UTF-8, under the settings' switch and severity,
 * where the first invalid byte is: at the end of `before`, the text before it (positions are
 * then taken on `before`).
 */
export function notUtf8Diagnostics(message: string, settings: Settings, before = ''): CoreDiagnostic[] {
  // analyze() never sees this file, so the same on/off switch and severity override apply here.
  return applySettings([{ code: 'json-syntax', severity: definitionOf('json-syntax').severity, message, offset: before.length, end: before.length }], settings);
}
