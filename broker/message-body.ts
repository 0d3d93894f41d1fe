/**
 * A message's bytes as read from a queue, decoded as `babelq lint` decodes a file's (core's
 * decodeAsLint), so a peek's verdict, the CLI's and the editor's alike, is lint's: a BOM kept in
 * the text (lint's json-syntax error), and bytes that are not UTF-8 judged as that one finding,
 * their text shown with U+FFFD for the bad bytes but never linted as if it were the message.
 */
import type { ReadBody } from '../core/language/message-rows';
import { decodeAsLint, type LintDecoders } from '../core/rules/not-utf8';

const DECODERS: LintDecoders = {
  strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }),
  lenient: new TextDecoder('utf-8', { ignoreBOM: true }),
};

export function messageBody(body: Uint8Array): ReadBody {
  const decoded = decodeAsLint(body, DECODERS);
  if (decoded.ok) return { text: decoded.text, bytes: body.byteLength };
  return { text: DECODERS.lenient.decode(body), bytes: body.byteLength, notUtf8: { message: decoded.message, before: decoded.before } };
}
