/**
 * Core's plain types ↔ LSP types. Core speaks UTF-16 offsets; LSP speaks line/character.
 * Positions come from core's LineIndex so the server reports exactly what the CLI reports.
 */
import { readFileSync } from 'node:fs';
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
import { CATALOGUE_PATH, codeEntries } from '../core/language/catalogue-links';
import { showOnOneLine } from '../core/language/markdown';
import { DIAGNOSTIC_SOURCE, type CoreDiagnostic, type Severity } from '../core/rules/diagnostic';
import type { CoreCodeAction } from '../core/language/code-actions';
import type { FileLocation } from '../core/language/registry-navigation';
import type { TextEdit as CoreTextEdit } from '../core/model/edits';
import { LineIndex } from '../core/model/positions';
import { toUri } from './registry';
import { messageWithRelated } from '../core/rules/same-cause';

const SEVERITIES: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/**
 * The diagnostic catalogue shipped beside the server bundle (docs/diagnostics.md one folder above
 * dist/, in the .vsix and the npm package alike): each code's link is a file: URI at the line of
 * its heading (`#L<line>`, which VS Code opens at that line; it does not follow a Markdown anchor),
 * read from the catalogue once. Without the catalogue (a bundle copied without it) diagnostics
 * carry no link; a code it has no entry for links to the file's top.
 */
const CATALOGUE_FILE = join(__dirname, '..', CATALOGUE_PATH);
let catalogueLinks: { readonly uri: string; readonly byCode: ReadonlyMap<string, string> } | null | undefined;

/** The catalogue link of a code, undefined when no catalogue is shipped. */
export function codeDescriptionHref(code: string): string | undefined {
  if (catalogueLinks === undefined) {
    try {
      const uri = pathToFileURL(CATALOGUE_FILE).href;
      const entries = codeEntries(readFileSync(CATALOGUE_FILE, 'utf8'));
      catalogueLinks = { uri, byCode: new Map([...entries].map(([name, heading]) => [name, `${uri}#L${heading.line}`])) };
    } catch {
      catalogueLinks = null;
    }
  }
  return catalogueLinks === null ? undefined : (catalogueLinks.byCode.get(code) ?? catalogueLinks.uri);
}

/** An offset range as an LSP range. */
export function toRange(lines: LineIndex, offset: number, end: number): Range {
  return lines.rangeAt(offset, end);
}

/** A place in another file, given with its text, as an LSP location. */
export function toLocation(location: FileLocation): Location {
  return { uri: toUri(location.path), range: toRange(new LineIndex(location.text), location.offset, location.end) };
}

/**
 * Whether the client shows a diagnostic's relatedInformation (its publishDiagnostics capability,
 * read at initialize). One that does not (eglot, which declares it false) would show the finding
 * alone and lose the same cause's other one on its token, so that one is folded into the message
 * instead, as `babelq lint`'s one-line formats write it.
 */
let relatedInformationShown = true;

/** Set from the client's `textDocument.publishDiagnostics.relatedInformation` at initialize. */
export function setRelatedInformationShown(shown: boolean): void {
  relatedInformationShown = shown;
}

/**
 * Whether the client takes a diagnostic's codeDescription (`publishDiagnostics.codeDescriptionSupport`,
 * read at initialize): LSP has a server send it only then, and the catalogue's file: link means
 * nothing to a client that does not open it (eglot declares it false, Neovim 0.7 does not declare it).
 */
let codeDescriptionTaken = true;

/** Set from the client's `textDocument.publishDiagnostics.codeDescriptionSupport` at initialize. */
export function setCodeDescriptionTaken(taken: boolean): void {
  codeDescriptionTaken = taken;
}

/**
 * The diagnostic tags the client takes (`publishDiagnostics.tagSupport.valueSet`, read at
 * initialize): LSP has a server send `tags` only to a client that declares them, and only those
 * in its value set. VS Code, Neovim 0.7 and eglot declare both (Unnecessary, Deprecated).
 */
let tagsTaken: ReadonlySet<DiagnosticTag> = new Set([DiagnosticTag.Unnecessary, DiagnosticTag.Deprecated]);

/** Set from the client's `textDocument.publishDiagnostics.tagSupport.valueSet` at initialize (none when it is not a list). */
export function setDiagnosticTagsTaken(valueSet: unknown): void {
  tagsTaken = new Set(Array.isArray(valueSet) ? valueSet.filter((tag): tag is DiagnosticTag => tag === DiagnosticTag.Unnecessary || tag === DiagnosticTag.Deprecated) : []);
}

/** A core diagnostic's message as the client is sent it: with its related findings when they cannot go as relatedInformation. */
function sentMessage(diagnostic: CoreDiagnostic): string {
  return publishedMessage(relatedInformationShown ? diagnostic.message : messageWithRelated(diagnostic));
}

/** A core diagnostic as an LSP diagnostic with `source: "babelqueue"` and its code. */
export function toLspDiagnostic(diagnostic: CoreDiagnostic, lines: LineIndex, uri?: string): Diagnostic {
  const result: Diagnostic = {
    range: toRange(lines, diagnostic.offset, diagnostic.end),
    severity: SEVERITIES[diagnostic.severity],
    code: diagnostic.code,
    source: DIAGNOSTIC_SOURCE,
    message: sentMessage(diagnostic),
  };
  // The Problems panel and hovers link the code to its entry in the catalogue.
  const href = codeDescriptionTaken ? codeDescriptionHref(diagnostic.code) : undefined;
  if (href) result.codeDescription = { href };
  if (diagnostic.tags?.length) {
    const tags = diagnostic.tags.map((tag) => (tag === 'deprecated' ? DiagnosticTag.Deprecated : DiagnosticTag.Unnecessary)).filter((tag) => tagsTaken.has(tag));
    if (tags.length > 0) result.tags = tags;
  }
  // The same cause's other finding on this token (core/rules/same-cause.ts), shown beneath it.
  if (diagnostic.related?.length && uri && relatedInformationShown) {
    result.relatedInformation = diagnostic.related.map((related) => ({ location: { uri, range: toRange(lines, related.offset, related.end) }, message: publishedMessage(`${related.code}: ${related.message}`) }));
  }
  return result;
}

/**
 * A finding's message as the editor is sent it: on one line, a line break and the control and
 * bidirectional characters a fixture's key or a registry's text may carry written as `\n` and
 * `\uXXXX` (core's showOnOneLine), as `babelq` prints them, so no key can reorder, hide or split
 * the rest of the line in the Problems panel. Written twice it stays the same, so a message the
 * client sends back matches.
 */
export function publishedMessage(message: string): string {
  return showOnOneLine(message);
}

/** A core edit as an LSP text edit. */
export function toLspEdit(edit: CoreTextEdit, lines: LineIndex): TextEdit {
  return { range: toRange(lines, edit.offset, edit.end), newText: edit.newText };
}

/**
 * A quick fix's title as the editor is sent it: on one line, as a finding's message (publishedMessage),
 * since it names a fixture's keys and a registry's (a line break or a bidirectional override in one
 * would split or reorder the menu's line).
 */
export function actionTitle(title: string): string {
  return showOnOneLine(title);
}

/** A quick fix of this document as an LSP code action, for the client's diagnostics it fixes. */
export function toLspCodeAction(action: CoreCodeAction, uri: string, lines: LineIndex, diagnostics: Diagnostic[]): CodeAction {
  return {
    title: actionTitle(action.title),
    kind: CodeActionKind.QuickFix,
    isPreferred: action.isPreferred,
    diagnostics,
    edit: { changes: { [uri]: action.edits.map((edit) => toLspEdit(edit, lines)) } },
  };
}

/**
 * One action for the same fix offered by several findings (each field missing from one payload
 * offers "Add the missing required data fields"), listing every finding it fixes: the first
 * action's findings as it listed them, then each other finding once, in the order they come. A
 * set per fix tells which are listed, so one fix offered by thousands of findings is one pass.
 */
export function mergeSameActions(actions: readonly CodeAction[]): CodeAction[] {
  const byFix = new Map<string, { action: CodeAction; listed: Set<Diagnostic> }>();
  for (const action of actions) {
    const key = JSON.stringify([action.title, action.kind, action.edit]);
    const same = byFix.get(key);
    if (!same) {
      const diagnostics = [...(action.diagnostics ?? [])];
      byFix.set(key, { action: { ...action, diagnostics }, listed: new Set(diagnostics) });
      continue;
    }
    for (const diagnostic of action.diagnostics ?? []) {
      if (same.listed.has(diagnostic)) continue;
      same.listed.add(diagnostic);
      same.action.diagnostics!.push(diagnostic);
    }
  }
  return [...byFix.values()].map(({ action }) => action);
}

/**
 * The diagnostics sent back by the client that are each finding (sameDiagnostic), by finding. A
 * code action over a whole document sends back every finding in it: each finding is looked up by
 * its code, message and columns among those sent, not compared with every one sent (every pair of
 * 3,000 held the server for over a minute); only a finding none was sent for at its exact columns
 * is looked up again at its columns in UTF-8 bytes (they may come back so), which are counted
 * along each line once, not from its start for each finding.
 */
export function matchDiagnostics(sent: readonly Diagnostic[], found: readonly CoreDiagnostic[], lines: LineIndex, text: string): Map<CoreDiagnostic, Diagnostic[]> {
  // The key holds everything sameDiagnostic compares: a diagnostic listed under a finding's key is that finding.
  const exact = new Map<string, Diagnostic[]>();
  for (const lsp of sent) {
    const message: unknown = lsp.message;
    const key = JSON.stringify([lsp.code, typeof message === 'string' ? message : (message as { value?: unknown } | undefined)?.value, lsp.range.start.line, lsp.range.end.line, lsp.range.start.character, lsp.range.end.character]);
    const list = exact.get(key);
    if (list) list.push(lsp);
    else exact.set(key, [lsp]);
  }
  // Findings come sorted by start: one cursor for starts, one for ends, each moving along its line.
  const startBytes = utf8Columns(text, lines);
  const endBytes = utf8Columns(text, lines);
  const matches = new Map<CoreDiagnostic, Diagnostic[]>();
  for (const core of found) {
    const range = toRange(lines, core.offset, core.end);
    const place = [core.code, sentMessage(core), range.start.line, range.end.line];
    let same = exact.get(JSON.stringify([...place, range.start.character, range.end.character]));
    if (!same) {
      const start = startBytes(range.start.line, core.offset);
      const end = endBytes(range.end.line, core.end);
      if (start !== range.start.character || end !== range.end.character) same = exact.get(JSON.stringify([...place, start, end]));
    }
    if (same) matches.set(core, same);
  }
  return matches;
}

/**
 * The UTF-8 byte column of an offset on a line (the bytes of the line before it), counted on from
 * the offset asked for before when it is on the same line and not after this one, else from the
 * line's start: offsets asked for in order cost one pass over each line. Counted as
 * Buffer.byteLength counts (a lone surrogate is three bytes), so an offset between the two halves
 * of a pair is never counted on from (there, each half would count as lone).
 */
function utf8Columns(text: string, lines: LineIndex): (line: number, offset: number) => number {
  let line = -1;
  let at = 0;
  let bytes = 0;
  return (onLine, offset) => {
    const onward = onLine === line && offset >= at;
    const counted = (onward ? bytes : 0) + Buffer.byteLength(text.slice(onward ? at : lines.lineStart(onLine), offset), 'utf8');
    if (!splitsPair(text, offset)) {
      line = onLine;
      at = offset;
      bytes = counted;
    }
    return counted;
  };
}

/** True when `offset` falls between a high and a low surrogate. */
function splitsPair(text: string, offset: number): boolean {
  const before = text.charCodeAt(offset - 1);
  const after = text.charCodeAt(offset);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/**
 * True when an LSP diagnostic sent back by the client is this core diagnostic: the same code,
 * range and message (one key can carry several findings of one code, such as the fields missing
 * from one object, and each must get its own fixes). The range is taken in UTF-16 code units, as
 * it was sent, or in UTF-8 bytes: Neovim 0.7 keeps a diagnostic's columns in bytes and sends them
 * back as characters (what vim.lsp.buf.code_action() sends), so on a line with a non-ASCII
 * character before the finding its quick fixes would otherwise never be offered.
 */
export function sameDiagnostic(lsp: Diagnostic, core: CoreDiagnostic, lines: LineIndex, text: string): boolean {
  if (lsp.code !== core.code) return false;
  const message: unknown = lsp.message;
  if ((typeof message === 'string' ? message : (message as { value?: unknown } | undefined)?.value) !== sentMessage(core)) return false;
  const range = toRange(lines, core.offset, core.end);
  if (range.start.line !== lsp.range.start.line || range.end.line !== lsp.range.end.line) return false;
  if (range.start.character === lsp.range.start.character && range.end.character === lsp.range.end.character) return true;
  const byteColumn = (line: number, offset: number) => Buffer.byteLength(text.slice(lines.lineStart(line), offset), 'utf8');
  return byteColumn(range.start.line, core.offset) === lsp.range.start.character && byteColumn(range.end.line, core.end) === lsp.range.end.character;
}
