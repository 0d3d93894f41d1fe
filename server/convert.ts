/**
 * Core's plain types ↔ LSP types. Core speaks UTF-16 offsets; LSP speaks line/character.
 * Positions come from core's LineIndex so the server reports exactly what the CLI reports.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  DiagnosticSeverity,
  DiagnosticTag,
  type CodeAction,
  type Diagnostic,
  type Location,
  type Range,
  type TextEdit,
} from 'vscode-languageserver/node';
import { DIAGNOSTIC_SOURCE, type CoreDiagnostic, type Severity } from '../core/rules/diagnostic';
import type { CoreCodeAction } from '../core/language/code-actions';
import type { FileLocation } from '../core/language/registry-navigation';
import type { TextEdit as CoreTextEdit } from '../core/model/edits';
import { LineIndex } from '../core/model/positions';
import { toUri } from './registry';

const SEVERITIES: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/**
 * The diagnostic catalogue shipped beside the server bundle (docs/diagnostics.md one folder above
 * dist/, in the .vsix and the npm package alike), as a file: URI whose anchors are the codes;
 * undefined when the bundle was copied without it, and then diagnostics carry no link.
 */
const CATALOGUE_URI = ((path) => (existsSync(path) ? pathToFileURL(path).href : undefined))(join(__dirname, '..', 'docs', 'diagnostics.md'));

/** An offset range as an LSP range. */
export function toRange(lines: LineIndex, offset: number, end: number): Range {
  return lines.rangeAt(offset, end);
}

/** A place in another file, given with its text, as an LSP location. */
export function toLocation(location: FileLocation): Location {
  return { uri: toUri(location.path), range: toRange(new LineIndex(location.text), location.offset, location.end) };
}

/** A core diagnostic as an LSP diagnostic with `source: "babelqueue"` and its code. */
export function toLspDiagnostic(diagnostic: CoreDiagnostic, lines: LineIndex, uri?: string): Diagnostic {
  const result: Diagnostic = {
    range: toRange(lines, diagnostic.offset, diagnostic.end),
    severity: SEVERITIES[diagnostic.severity],
    code: diagnostic.code,
    source: DIAGNOSTIC_SOURCE,
    message: diagnostic.message,
  };
  // The Problems panel and hovers link the code to its entry in the catalogue.
  if (CATALOGUE_URI) result.codeDescription = { href: `${CATALOGUE_URI}#${diagnostic.code}` };
  if (diagnostic.tags?.length) {
    result.tags = diagnostic.tags.map((tag) => (tag === 'deprecated' ? DiagnosticTag.Deprecated : DiagnosticTag.Unnecessary));
  }
  // The same cause's other finding on this token (core/rules/same-cause.ts), shown beneath it.
  if (diagnostic.related?.length && uri) {
    result.relatedInformation = diagnostic.related.map((related) => ({ location: { uri, range: toRange(lines, related.offset, related.end) }, message: `${related.code}: ${related.message}` }));
  }
  return result;
}

/** A core edit as an LSP text edit. */
export function toLspEdit(edit: CoreTextEdit, lines: LineIndex): TextEdit {
  return { range: toRange(lines, edit.offset, edit.end), newText: edit.newText };
}

/** A quick fix of this document as an LSP code action, for the client's diagnostics it fixes. */
export function toLspCodeAction(action: CoreCodeAction, uri: string, lines: LineIndex, diagnostics: Diagnostic[]): CodeAction {
  return {
    title: action.title,
    kind: CodeActionKind.QuickFix,
    isPreferred: action.isPreferred,
    diagnostics,
    edit: { changes: { [uri]: action.edits.map((edit) => toLspEdit(edit, lines)) } },
  };
}

/** True when an LSP diagnostic sent back by the client is this core diagnostic. */
export function sameDiagnostic(lsp: Diagnostic, core: CoreDiagnostic, lines: LineIndex): boolean {
  if (lsp.code !== core.code) return false;
  const range = toRange(lines, core.offset, core.end);
  return (
    range.start.line === lsp.range.start.line &&
    range.start.character === lsp.range.start.character &&
    range.end.line === lsp.range.end.line &&
    range.end.character === lsp.range.end.character
  );
}
