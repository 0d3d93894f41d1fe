/**
 * The published diagnostic shape of `babelq lint --format json` (docs/diagnostics.md, "Machine-readable
 * output"): zero-based lines, UTF-16 characters, exactly the positions the language server publishes.
 * One conversion function, so a parity test can hold the server to it.
 */
import type { Code } from '../core/rules/code-names';
import type { Severity } from '../core/rules/diagnostic';
import type { CoreDiagnostic } from '../core/rules/diagnostic';
import type { LineIndex } from '../core/model/positions';
import { showInvisible, showOnOneLine } from '../core/language/markdown';
import { messageWithRelated } from '../core/rules/same-cause';

export interface OutputPosition {
  readonly line: number;
  readonly character: number;
}

export interface OutputDiagnostic {
  readonly code: Code;
  readonly severity: Severity;
  readonly message: string;
  readonly range: { readonly start: OutputPosition; readonly end: OutputPosition };
  /** Only when present: findings of the same cause on the same token, folded into this one (LSP's relatedInformation). */
  readonly related?: readonly OutputRelated[];
}

export interface OutputRelated {
  readonly code: Code;
  /** Its own severity, as settings made it: a carried finding can be a warning under a shown error, or a hint. */
  readonly severity: Severity;
  readonly message: string;
  readonly range: { readonly start: OutputPosition; readonly end: OutputPosition };
}

export interface OutputEdit {
  readonly range: { readonly start: OutputPosition; readonly end: OutputPosition };
  readonly newText: string;
}

/** What SARIF says about a finding beyond this shape (cli/finding-details.ts makes it). */
export interface FindingDetail {
  /** The JSON Pointer of the value or key the finding starts at (`""`: the root). */
  readonly pointer: string;
  /** The preferred quick fix, when the code offers one for this finding. */
  readonly fix?: { readonly title: string; readonly edits: readonly OutputEdit[] };
}

/** One linted file: the path as given or found, and its diagnostics sorted by position. */
export interface FileReport {
  readonly file: string;
  readonly diagnostics: readonly OutputDiagnostic[];
  /** For SARIF only (not part of the published shape): one entry per diagnostic, in the same order. */
  readonly details?: readonly FindingDetail[];
}

/** Converts a core diagnostic (UTF-16 offsets) into the published shape, with exactly these keys in this order. */
export function toOutputDiagnostic(diagnostic: CoreDiagnostic, lineIndex: LineIndex): OutputDiagnostic {
  // Built field by field: core diagnostics carry extra fields (tags, rule internals) that are not part of the contract.
  const output: OutputDiagnostic = {
    code: diagnostic.code,
    severity: diagnostic.severity,
    message: diagnostic.message,
    range: outputRange(diagnostic.offset, diagnostic.end, lineIndex),
  };
  if (!diagnostic.related?.length) return output;
  return { ...output, related: diagnostic.related.map((related) => ({ code: related.code, severity: related.severity, message: related.message, range: outputRange(related.offset, related.end, lineIndex) })) };
}

function outputRange(offset: number, endOffset: number, lineIndex: LineIndex): OutputDiagnostic['range'] {
  const start = lineIndex.positionAt(offset);
  const end = lineIndex.positionAt(endOffset);
  return { start: { line: start.line, character: start.character }, end: { line: end.line, character: end.character } };
}

/** The message with the findings folded into it, for the one-line formats: "… (also unknown-urn: …)". */
export function withRelated(diagnostic: OutputDiagnostic): string {
  return messageWithRelated(diagnostic);
}

/** Counts the diagnostics of all reports per severity. */
export function countBySeverity(reports: readonly FileReport[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const report of reports) for (const diagnostic of report.diagnostics) counts[diagnostic.severity]++;
  return counts;
}

/** A message on one line, for line-based formats: a line break would start a new row (core's showOnOneLine). */
export function singleLine(message: string): string {
  return showOnOneLine(message);
}

/**
 * Text from a file (its name, its keys inside a message) made safe for a terminal: control
 * characters, line and paragraph separators and bidirectional marks and overrides become visible
 * `\uXXXX` (core's showInvisible, as the editor shows them), so no name can move the cursor,
 * retitle or clear the terminal, forge a result line or reorder one.
 */
export function printable(text: string, keepLineBreaks = false): string {
  return showInvisible(text, keepLineBreaks);
}

/**
 * Text read from a broker (a message's body, URN, meta.id, dead-letter error), made safe for a
 * terminal as `printable` makes a name: anyone who can publish to a queue writes it. Its line
 * breaks stay (a pretty-printed body keeps its lines); a carriage return that ends no line, which
 * would move the cursor back over what the line said, is written `\r`.
 */
export function printableLines(text: string): string {
  return printable(text.replace(/\r(?!\n)/g, '\\r'), true);
}
