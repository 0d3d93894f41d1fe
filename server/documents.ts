/**
 * The parse cache: one parse per document URI, version and text, bounded so a workspace of thousands
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

/**
 * Which text a document holds: a number given to each text a document is created with or changed
 * to, never given twice (not even by another document of the same URI). Versions cannot say it: a
 * document opened again restarts them, and a client may change a text without raising its version.
 */
const revisions = new WeakMap<TextDocument, number>();
let lastRevision = 0;

/** The span the last change of a document replaced, when that change was one incremental edit. */
interface LastEdit {
  /** The revision of the text the span is relative to, and the revision it made. */
  readonly fromRevision: number;
  readonly toRevision: number;
  readonly change: TextChange;
}

const lastEdits = new WeakMap<TextDocument, LastEdit>();

/**
 * The documents of the server as vscode-languageserver's TextDocuments keeps them, plus where each
 * keystroke landed: the editor says which span it replaced, so the parse cache need not find it
 * by comparing two versions of a large text (some 2 ms on 5 MB).
 */
export const EDIT_TRACKING_DOCUMENTS: TextDocumentsConfiguration<TextDocument> = {
  create(uri, languageId, version, content) {
    const document = new EditableDocument(uri, languageId, version, content);
    revisions.set(document, ++lastRevision);
    return document;
  },
  update(document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
    const only = changes.length === 1 && 'range' in changes[0] ? (changes[0] as { range: Range; text: string }) : undefined;
    let change: TextChange | undefined;
    if (only) {
      // Offsets in the text before the change; a range given end first means the same span.
      const a = document.offsetAt(only.range.start);
      const b = document.offsetAt(only.range.end);
      change = { from: Math.min(a, b), oldEnd: Math.max(a, b), newEnd: Math.min(a, b) + only.text.length };
    }
    const fromRevision = revisions.get(document);
    const updated = asEditable(document);
    updated.update(changes, version);
    const toRevision = ++lastRevision;
    revisions.set(updated, toRevision);
    if (change && fromRevision !== undefined) lastEdits.set(updated, { fromRevision, toRevision, change });
    else lastEdits.delete(updated);
    return updated;
  },
};

/**
 * The span between the cached entry's text and this one, from the editor's change when that change
 * was made to the very text the entry holds (not to an earlier opening's, nor to a text changed
 * since without a new version).
 */
function changeBetween(cached: Entry, document: TextDocument, text: string): TextChange {
  const old = cached.parsed.text;
  const edit = lastEdits.get(document);
  if (edit && cached.revision !== undefined && edit.fromRevision === cached.revision && edit.toRevision === revisions.get(document) && edit.change.newEnd - edit.change.oldEnd === text.length - old.length && edit.change.oldEnd <= old.length) return edit.change;
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
  readonly uri: string;
  readonly version: number;
  /** Line starts are scanned only when a position is first asked for (a clean file never needs them). */
  readonly lines: LineIndex;
  analysis?: Analysis;
  /**
   * The string the document gave for this text when last looked up: the document gives that same
   * string until its text changes, so telling the text unchanged is a comparison of a string with
   * itself (see ParseCache.get).
   */
  text: string;
  /** Which text of which document this is (see `revisions`), for carrying the document's next edit over. */
  revision: number | undefined;

  constructor(
    document: TextDocument,
    text: string,
    readonly parsed: ParsedText,
    /** The previous version's analysis, while this version can still reuse it. */
    public previousAnalysis: Analysis | undefined,
    lines?: LineIndex,
  ) {
    this.uri = document.uri;
    this.version = document.version;
    this.revision = revisions.get(document);
    this.text = text;
    this.lines = lines ?? new LineIndex(parsed.text);
  }

  /**
   * Whether `document`'s text (`text`) is this entry's. A lookup of the version the entry is for
   * passes the same string, which the comparison settles by identity at once, and a text of another
   * length by the lengths. A string of the same length that is another object (a document opened
   * again at the same version, whatever its text) is compared character by character, some 2–3 ms
   * on 5 MB, and only once: an equal one then stands for the entry's text, and the document's
   * revision for the entry's. Parsing and analysing it again would cost ten times that.
   */
  holds(document: TextDocument, text: string): boolean {
    if (this.text !== text) return false;
    this.text = text;
    this.revision = revisions.get(document);
    return true;
  }
}

export class ParseCache {
  private readonly entries = new Map<string, Entry>();
  /** Called once a document version's diagnostics are computed (server/diagnostics-first.ts listens). */
  onAnalysed: (uri: string, version: number) => void = () => undefined;

  constructor(private readonly capacity = 64) {}

  /** The parse of this exact document version and text, computed at most once. */
  get(document: TextDocument): CachedDocument {
    const text = document.getText();
    const existing = this.entries.get(document.uri);
    // The version alone does not tell the text: a document closed and opened again starts its
    // versions again, and a request still working for the earlier opening may have cached its text.
    if (existing && existing.version === document.version && existing.holds(document, text)) {
      // Re-insert to mark it most recently used.
      this.entries.delete(document.uri);
      this.entries.set(document.uri, existing);
      return existing;
    }
    let entry: Entry;
    // The editor's document may know the line starts of this text already (found after it opened).
    const knownLines = () => (document instanceof EditableDocument ? new LineIndex(text, () => document.lineStartsFor(text)) : undefined);
    if (!existing) {
      entry = new Entry(document, text, parseText(text), undefined, knownLines());
    } else if (existing.parsed.text === text) {
      // A new version with the same text (an undo back, a save): the same parse, lines and findings.
      entry = new Entry(document, text, existing.parsed, undefined, existing.lines);
      entry.analysis = existing.analysis;
    } else {
      // The previous version's parse and line starts, carried over the one span that changed.
      const change = changeBetween(existing, document, text);
      const reparsed = reparse(existing.parsed, text, change);
      const lines = LineIndex.afterEdit(existing.lines, text, change.from, change.oldEnd, change.newEnd);
      entry = reparsed ? new Entry(document, text, reparsed, existing.analysis, lines) : new Entry(document, text, parseText(text), undefined, lines);
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
    return existing !== undefined && existing.version === document.version && existing.analysis !== undefined && existing.holds(document, document.getText());
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }

  get size(): number {
    return this.entries.size;
  }
}
