/**
 * The parse cache: one parse per document URI and version, bounded so a workspace of thousands
 * of open fixtures cannot grow memory without limit. Every handler reads documents through it,
 * so a keystroke costs one parse however many requests follow it.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { analyze } from '../core/analyze';
import type { CoreDiagnostic } from '../core/diagnostic';
import { parseJson } from '../core/parse/parser';
import { LineIndex } from '../core/positions';
import type { RegistryState } from '../core/registry/types';
import type { Settings } from '../core/settings';
import type { ParsedDocument } from '../core/tree';

const NO_REGISTRY: RegistryState = { kind: 'none' };

export interface CachedDocument {
  readonly uri: string;
  readonly version: number;
  readonly parsed: ParsedDocument;
  readonly lines: LineIndex;
  /** Diagnostics for the settings and registry values they were computed with. */
  analysis?: { settings: Settings; registry: RegistryState; diagnostics: CoreDiagnostic[] };
}

export class ParseCache {
  private readonly entries = new Map<string, CachedDocument>();

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
    const entry: CachedDocument = { uri: document.uri, version: document.version, parsed: parseJson(text), lines: new LineIndex(text) };
    this.entries.delete(document.uri);
    this.entries.set(document.uri, entry);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  /** The diagnostics of a document version under `settings` and a registry, computed at most once. */
  diagnostics(document: TextDocument, settings: Settings, registry: RegistryState = NO_REGISTRY): { entry: CachedDocument; diagnostics: CoreDiagnostic[] } {
    const entry = this.get(document);
    // Settings and registries are immutable values swapped on change, so identity says "unchanged".
    if (!entry.analysis || entry.analysis.settings !== settings || entry.analysis.registry !== registry) {
      entry.analysis = { settings, registry, diagnostics: analyze(entry.parsed, settings, registry) };
    }
    return { entry, diagnostics: entry.analysis.diagnostics };
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }

  get size(): number {
    return this.entries.size;
  }
}
