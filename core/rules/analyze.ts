/**
 * The linter's entry point: parsed document + settings → diagnostics, sorted by position.
 * The editor and the CLI both call this, so they report exactly the same thing.
 */
import { recycleColumns } from '../parse/column-storage';
import { Flag, stringValue } from '../parse/columns';
import { columnsOf, ParsedText } from '../parse/document';
import { parseText } from '../parse/parser';
import type { ParsedDocument } from '../model/tree';
import { NO_REGISTRY, type RegistryState } from '../registry/types';
import { definitionOf } from './catalogue';
import type { Code } from './code-names';
import { createCollector, keptUnderCap, MAX_FINDINGS_PER_DOCUMENT, type RuleContext } from './context';
import { foldIntoEarlyClose, foldSameCause } from './same-cause';
import { compareDiagnostics, type CoreDiagnostic, type Severity } from './diagnostic';
import type { EditedValue } from './edited-value';
import { RULE_MODULES } from './modules';
import { capNoteMessage } from './structure/too-many-findings';
import { DEFAULT_SETTINGS, type Settings } from './settings/settings';

const defaultSeverity = (code: Code): Severity => definitionOf(code).severity;

/** Runs every rule on a parsed document (with its registry, if any) and applies the user's severity overrides. */
export function analyze(doc: ParsedDocument, settings: Settings = DEFAULT_SETTINGS, registry: RegistryState = NO_REGISTRY): CoreDiagnostic[] {
  return analyzeDocument(doc, settings, registry).diagnostics;
}

/** One analysis, kept so that the next version of the document can reuse parts of it. */
export interface Analysis {
  readonly doc: ParsedDocument;
  readonly settings: Settings;
  readonly registry: RegistryState;
  readonly diagnostics: CoreDiagnostic[];
  /** What each module of RULE_MODULES reported, before the settings applied. */
  readonly byRule: readonly (readonly CoreDiagnostic[])[];
}

/**
 * `analyze` with its intermediate results. Given the analysis of the previous version of a
 * document that `reparse` made from it (an edit inside one string value or number literal), the
 * value-local rules reuse the previous findings and check only the edited value; every other rule
 * runs again.
 * The diagnostics are the same as a fresh analysis gives (test/oracle/differential.ts checks it).
 */
export function analyzeDocument(doc: ParsedDocument, settings: Settings = DEFAULT_SETTINGS, registry: RegistryState = NO_REGISTRY, previous?: Analysis): Analysis {
  if (!settings.validationEnabled) return { doc, settings, registry, diagnostics: [], byRule: [] };
  const { context, diagnostics, over } = createCollector(doc, settings, registry, defaultSeverity);
  const edit = editSince(doc, settings, registry, previous, context);
  const keep = (diagnostic: CoreDiagnostic) => {
    if (keptUnderCap(diagnostics.length, settings.severityOverrides.get(diagnostic.code) ?? diagnostic.severity)) diagnostics.push(diagnostic);
    else over.count++;
  };
  const byRule: CoreDiagnostic[][] = [];
  for (let index = 0; index < RULE_MODULES.length; index++) {
    const module = RULE_MODULES[index];
    const before = diagnostics.length;
    if (edit && module.afterEdit) module.afterEdit(context, previous!.byRule[index], edit, keep);
    else module.check?.(context);
    byRule.push(diagnostics.slice(before));
  }
  // Reused findings fill the cap before the edited value's: past the cap (an error is kept beyond
  // it, and a fresh analysis, reaching it in document order, would leave out a later finding
  // instead), a fresh analysis decides which are kept.
  if (edit && (over.count > 0 || diagnostics.length > MAX_FINDINGS_PER_DOCUMENT)) return analyzeDocument(doc, settings, registry);
  if (over.count > 0) {
    // Past the cap itself: the note is the one finding always kept.
    diagnostics.push({ code: 'too-many-findings', severity: defaultSeverity('too-many-findings'), message: capNoteMessage(diagnostics.length, over.count), offset: 0, end: Math.min(1, doc.text.length) });
  }
  // A capped analysis is not reused by the next version: which findings fit under the cap depends on all of them.
  return { doc, settings, registry, diagnostics: foldIntoEarlyClose(foldSameCause(applySettings(diagnostics, settings).sort(compareDiagnostics), (code) => settings.severityOverrides.has(code)), doc.text, doc.root?.offset), byRule: over.count > 0 ? [] : byRule };
}

/** The edit since `previous`, when `doc` was reparsed from exactly that analysed document under the same settings and registry. */
function editSince(doc: ParsedDocument, settings: Settings, registry: RegistryState, previous: Analysis | undefined, context: RuleContext): EditedValue | undefined {
  if (!previous || !(doc instanceof ParsedText) || !doc.edit) return undefined;
  const { previous: before, slot, threshold, delta, kind } = doc.edit;
  if (previous.doc !== before || previous.settings !== settings || previous.registry !== registry || previous.byRule.length !== RULE_MODULES.length) return undefined;
  const { info, start, end, next, keys } = doc.columns;
  const offset = start[slot];
  const tokenEnd = end[slot];
  const data = context.envelope.data && columnsOf(context.envelope.data);
  const inData = data !== undefined && data.document === doc && data.slot < slot && slot < next[data.slot];
  // An offset at the edit's end moves with the text after it, except where the edit starts at the
  // token's first character (a digit typed before a number): the token stays where it was
  // (core/parse/incremental.ts), and a finding that ends there (on the bracket before it) or
  // starts there stays too, as a fresh analysis has it.
  const after = (at: number) => at > threshold || (at === threshold && threshold > offset);
  const shift = (at: number) => (after(at) ? at + delta : at);
  return {
    kind,
    offset,
    end: tokenEnd,
    value: kind === 'string' ? stringValue(doc.columns, doc.text, slot) : doc.text.slice(offset, tokenEnd),
    isIntegerLiteral: kind === 'number' && (info[slot] & Flag.Integer) !== 0,
    key: info[slot] & Flag.Keyed ? keys[slot] : undefined,
    inData,
    lengthBefore: doc.text.length - delta,
    // On the edited value or inside it (a finding about one of a string's characters).
    wasAt: (diagnostic) => diagnostic.offset >= offset && diagnostic.end <= tokenEnd - delta && diagnostic.end > offset,
    moved: (diagnostic) => (after(diagnostic.offset) || after(diagnostic.end) ? { ...diagnostic, offset: shift(diagnostic.offset), end: shift(diagnostic.end) } : diagnostic),
  };
}

/** Applies the on/off switch and the per-code severity overrides to findings made elsewhere too. */
export function applySettings(diagnostics: readonly CoreDiagnostic[], settings: Settings): CoreDiagnostic[] {
  if (!settings.validationEnabled) return [];
  const result: CoreDiagnostic[] = [];
  for (const diagnostic of diagnostics) {
    const override = settings.severityOverrides.get(diagnostic.code);
    if (override === 'off') continue;
    result.push(override ? { ...diagnostic, severity: override } : diagnostic);
  }
  return result;
}

/** Parses and analyzes text in one call (for the CLI and tests). */
export function analyzeText(text: string, settings: Settings = DEFAULT_SETTINGS, registry: RegistryState = NO_REGISTRY): CoreDiagnostic[] {
  const doc = parseText(text);
  const diagnostics = analyze(doc, settings, registry);
  // Nothing keeps the document (diagnostics are plain data), so its columns serve the next parse.
  recycleColumns(doc.columns);
  return diagnostics;
}
