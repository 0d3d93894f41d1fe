/**
 * The rows of a message list (peek, dead letters): each body read as UTF-8, linted with the same
 * engine as a fixture, and described by core/message/dead-letter.ts. Here rather than there
 * because the lint verdict needs the rules, which sit above the message layer.
 */
import { messageRow, type MessageRow } from '../message/dead-letter';
import { analyzeText } from './analyze';
import type { CoreDiagnostic } from './diagnostic';

/** A row and the diagnostics behind its verdict. */
export interface LintedRow {
  readonly row: MessageRow;
  readonly diagnostics: readonly CoreDiagnostic[];
}

const UTF8 = new TextDecoder('utf-8');

/** The rows of bodies read from a queue, in the order given (position 0 = the first body). */
export function lintedRows(bodies: readonly Uint8Array[]): LintedRow[] {
  return bodies.map((body, position) => {
    const text = UTF8.decode(body);
    const diagnostics = analyzeText(text);
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
    return { row: messageRow(text, body.byteLength, position, { errors, warnings }), diagnostics };
  });
}
