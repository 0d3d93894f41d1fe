/**
 * The rows of a message list (peek, dead letters): each body's text linted with the same
 * engine as a fixture, and described by core/message/dead-letter.ts. Here rather than there
 * because the lint verdict needs the rules, which sit above the message layer.
 */
import { messageRow, type MessageRow } from '../message/dead-letter';
import { analyzeText } from '../rules/analyze';
import type { CoreDiagnostic } from '../rules/diagnostic';

/** A row and the diagnostics behind its verdict. */
export interface LintedRow {
  readonly row: MessageRow;
  readonly diagnostics: readonly CoreDiagnostic[];
}

/** A body as read: its UTF-8 text (decoded by the adapter, core has no decoder) and its byte length. */
export interface ReadBody {
  readonly text: string;
  readonly bytes: number;
}

/** The rows of bodies read from a queue, in the order given (position 0 = the first body). */
export function lintedRows(bodies: readonly ReadBody[]): LintedRow[] {
  return bodies.map(({ text, bytes }, position) => {
    const diagnostics = analyzeText(text);
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
    return { row: messageRow(text, bytes, position, { errors, warnings }), diagnostics };
  });
}
