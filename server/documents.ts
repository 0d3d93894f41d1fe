/**
 * The parse cache: one parse per document URI and version, bounded so a workspace of thousands
 * of open fixtures cannot grow memory without limit. Every handler reads documents through it,
 * so a keystroke costs one parse however many requests follow it. A new version is parsed from
 * the previous one when the edit stays inside a string value or a number (`core/parse/incremental.ts`),
 * its line starts carried over the changed span (`LineIndex.afterEdit`), and
 * then analysed reusing the previous version's analysis (`analyzeDocument` in core/rules/analyze.ts).
 */
import type { Range, TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import type { TextDocumentsConfiguration } from 'vscode-languageserver';
import { asEditable, EditableDocument } from './editable-document';
import { analyzeDocument, type Analysis } from '../core/rules/analyze';
import type { CoreDiagnostic } from '../core/rules/diagnostic';
import type { ParsedText } from '../core/parse/document';
import { reparse, textChange, type TextChange } from '../core/parse/incremental';
import { parseText } from '../core/parse/parser';
import { LineIndex } from '../core/model/positions';
import { NO_REGISTRY, type RegistryState } from '../core/registry/types';
import type { Settings } from '../core/rules/settings/settings';
import type { ParsedDocument } from '../core/model/tree';

/** The span the last change of a document replaced, when that change was one incremental edit. */
interface LastEdit {
  /** The version the span is relative to, and the version it made. */
  readonly fromVersion: number;
  readonly toVersion: number;
  readonly change: TextChange;
}

const lastEdits = new WeakMap<TextDocument, LastEdit>();

/**
 * The documents of the server as vscode-languageserver's TextDocuments keeps them, plus where each
 * keystroke landed: the editor says which span it replaced, so the parse cache need not find it
 * by comparing two versions of a large text (some 2 ms on 5 MB).
 */
export const EDIT_TRACKING_DOCUMENTS: TextDocumentsConfiguration<TextDocument> = {
  create: (uri, languageId, version, content) => new EditableDocument(uri, languageId, version, content),
  update(document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
    const only = changes.length === 1 && 'range' in changes[0] ? (changes[0] as { range: Range; text: string }) : undefined;
    let change: TextChange | undefined;
    if (only) {
      // Offsets in the text before the change; a range given end first means the same span.
      const a = document.offsetAt(only.range.start);
      const b = document.offsetAt(only.range.end);
      change = { from: Math.min(a, b), oldEnd: Math.max(a, b), newEnd: Math.min(a, b) + only.text.length };
    }
    const fromVersion = document.version;
    const updated = asEditable(document);
    updated.update(changes, version);
    if (change) lastEdits.set(updated, { fromVersion, toVersion: version, change });
    else lastEdits.delete(updated);
    return updated;
  },
};

/** The span between the cached version's text and this one, from the editor's change when it is known. */
function changeBetween(old: string, oldVersion: number, document: TextDocument, text: string): TextChange {
  const edit = lastEdits.get(document);
  if (edit && edit.fromVersion === oldVersion && edit.toVersion === document.version && edit.change.newEnd - edit.change.oldEnd === text.length - old.length && edit.change.oldEnd <= old.length) return edit.change;
  return textChange(old, text);
}

export interface CachedDocument {
  readonly uri: string;
  readonly version: number;
  readonly parsed: ParsedDocument;
  readonly lines: LineIndex;
  /** Diagnostics for the settings and registry values they were computed with. */
  analysis?: { settings: Settings; registry: RegistryState; diagnostics: CoreDiagnostic[] };
}

class Entry implements CachedDocument {
  /** Line starts are scanned only when a position is first asked for (a clean file never needs them). */
  readonly lines: LineIndex;
  analysis?: Analysis;

  constructor(
    readonly uri: string,
    readonly version: number,
    readonly parsed: ParsedText,
    /** The previous version's analysis, while this version can still reuse it. */
    public previousAnalysis: Analysis | undefined,
    lines?: LineIndex,
  ) {
    this.lines = lines ?? new LineIndex(parsed.text);
  }
}

export class ParseCache {
  private readonly entries = new Map<string, Entry>();
  /** Called once a document version's diagnostics are computed (server/diagnostics-first.ts listens). */
  onAnalysed: (uri: string, version: number) => void = () => undefined;

  constructor(private readonly capacity = 64) {}

  /** The parse of this exact document version, computed at most once. */
  get(document: TextDocument): CachedDocument {
    const existing = this.entries.get(document.uri);
    if (existing && existing.version === document.version) {
      // Re-insert to mark it most recently used.
      this.entries.delete(document.uri);
      this.entries.set(document.uri, existing);
      return existing;
    }
    const text = document.getText();
    let entry: Entry;
    // The editor's document may know the line starts of this text already (found after it opened).
    const knownLines = () => (document instanceof EditableDocument ? new LineIndex(text, () => document.lineStartsFor(text)) : undefined);
    if (!existing) {
      entry = new Entry(document.uri, document.version, parseText(text), undefined, knownLines());
    } else if (existing.parsed.text === text) {
      // A new version with the same text (an undo back, a save): the same parse, lines and findings.
      entry = new Entry(document.uri, document.version, existing.parsed, undefined, existing.lines);
      entry.analysis = existing.analysis;
    } else {
      // The previous version's parse and line starts, carried over the one span that changed.
      const change = changeBetween(existing.parsed.text, existing.version, document, text);
      const reparsed = reparse(existing.parsed, text, change);
      const lines = LineIndex.afterEdit(existing.lines, text, change.from, change.oldEnd, change.newEnd);
      entry = reparsed ? new Entry(document.uri, document.version, reparsed, existing.analysis, lines) : new Entry(document.uri, document.version, parseText(text), undefined, lines);
    }
    this.entries.delete(document.uri);
    this.entries.set(document.uri, entry);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  /** The diagnostics of a document version under `settings` and a registry, computed at most once. */
  diagnostics(document: TextDocument, settings: Settings, registry: RegistryState = NO_REGISTRY): { entry: CachedDocument; diagnostics: CoreDiagnostic[] } {
    const entry = this.get(document);
    // Settings and registries are immutable values swapped on change, so identity says "unchanged".
    const cached = entry as Entry;
    if (!cached.analysis || cached.analysis.settings !== settings || cached.analysis.registry !== registry) {
      cached.analysis = analyzeDocument(cached.parsed, settings, registry, cached.previousAnalysis);
      cached.previousAnalysis = undefined;
      this.onAnalysed(entry.uri, entry.version);
    }
    return { entry, diagnostics: cached.analysis.diagnostics };
  }

  /** True when this exact version's diagnostics are computed (under whatever settings). */
  isAnalysed(document: TextDocument): boolean {
    const existing = this.entries.get(document.uri);
    return existing !== undefined && existing.version === document.version && existing.analysis !== undefined;
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }

  get size(): number {
    return this.entries.size;
  }
}
