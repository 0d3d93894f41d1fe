/**
 * A message whose bytes are not UTF-8, as its view shows it: the text decoded with U+FFFD for the
 * bad bytes (a byte-order mark split off, as an editor hides it), neither formatted nor judged as
 * JSON (the language server would report the replacement characters' syntax errors, not the
 * bytes'), with lint's one finding where the first invalid byte is: what its row in the list,
 * `babelq peek` and the report of a fixture on disk say (core/rules/not-utf8.ts).
 */
import * as vscode from 'vscode';
import type { MessageRow } from '../core/message/dead-letter';
import { LineIndex } from '../core/model/positions';
import { splitByteOrderMark } from '../core/rules/byte-order-mark';
import { DIAGNOSTIC_SOURCE } from '../core/rules/diagnostic';
import { decodeAsLint, type LintDecoders } from '../core/rules/not-utf8';

/** A message's bytes are read as `babelq lint` reads a file's: strict UTF-8, a BOM kept in the text. */
export const MESSAGE_DECODERS: LintDecoders = {
  strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }),
  lenient: new TextDecoder('utf-8', { ignoreBOM: true }),
};

/** What the view of a message that is not UTF-8 shows: its text, and the finding (none when babelq.json turns it off). */
export interface NotUtf8View {
  readonly text: string;
  /** Lint's words for the bytes (where the first invalid one is), whether or not babelq.json reports them. */
  readonly reason: string;
  readonly problem?: vscode.Diagnostic;
}

/** The view of `body` when its bytes are not UTF-8, else undefined (the view is an envelope the server judges). */
export function notUtf8View(row: MessageRow, body: Uint8Array): NotUtf8View | undefined {
  const decoded = decodeAsLint(body, MESSAGE_DECODERS);
  if (decoded.ok) return undefined;
  const { text } = splitByteOrderMark(MESSAGE_DECODERS.lenient.decode(body));
  // At the severity the list counted it (babelq.json's, as the language server told the list).
  const severity = row.errors > 0 ? vscode.DiagnosticSeverity.Error : row.warnings > 0 ? vscode.DiagnosticSeverity.Warning : undefined;
  if (severity === undefined) return { text, reason: decoded.message };
  // `before` is the text up to the first invalid byte, without a BOM: its end is the byte's place in `text`.
  const { line, character } = new LineIndex(decoded.before).positionAt(decoded.before.length);
  const problem = new vscode.Diagnostic(new vscode.Range(line, character, line, character), decoded.message, severity);
  problem.source = DIAGNOSTIC_SOURCE;
  problem.code = 'json-syntax';
  return { text, reason: decoded.message, problem };
}
