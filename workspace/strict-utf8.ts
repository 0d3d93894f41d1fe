/**
 * A fixture's bytes as text, decoded as `babelq lint` decodes them: strict UTF-8 (an invalid byte
 * is no guess at what was meant) keeping a byte-order mark in the text, so it is never lost:
 * lint and the report of the files on disk split it off and report it as the editor does
 * (core/rules/byte-order-mark.ts), `preview` and `send` refuse it. The language server's report of
 * the files on disk decodes through this too, so it reports what lint does.
 */
import { decodeAsLint, type LintDecoders } from '../core/rules/not-utf8';

/** One pair of decoders for every file (and, in the CLI, every message read from a queue), keeping a BOM in the text. */
export const LINT_DECODERS: LintDecoders = {
  strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }),
  lenient: new TextDecoder('utf-8', { ignoreBOM: true }),
};

/**
 * The bytes' text; or, for bytes that are not UTF-8, the message lint reports
 * (core/rules/not-utf8.ts makes it a finding) and the text before the first invalid byte.
 */
export function decodeStrictly(bytes: Uint8Array): ReturnType<typeof decodeAsLint> {
  return decodeAsLint(bytes, LINT_DECODERS);
}
