/**
 * The findings in files other than envelope fixtures: a registry's schema files (and a schema file
 * against its version at a base), registry.json (and its change since a base), babelq.json and
 * babelq-suppressions.json. Every rule module's check for that kind of file runs (`files` in
 * core/rules/definition.ts), so a code found in such a file is defined, checked and worded in its
 * module alone. The user's settings apply as to every other code, and the findings are sorted.
 */
import { applySettings } from './analyze';
import { definitionOf } from './catalogue';
import { compareDiagnostics, type CoreDiagnostic } from './diagnostic';
import type { FileInputs, FileKind } from './definition';
import { RULE_MODULES } from './modules';
import type { Settings } from './settings/settings';

/** Kinds of file whose checks read a parsed JSON document: a document that is not JSON is left to json-syntax's own report. */
const UNREADABLE: { readonly [K in FileKind]?: (input: FileInputs[K]) => boolean } = {
  schemaFile: (doc) => doc.syntaxProblems.length > 0,
  schemaChange: (change) => change.base.syntaxProblems.length > 0 || change.current.syntaxProblems.length > 0,
};

/** The diagnostics of one file of the given kind: every module's check for that kind, with the settings applied. */
export function fileDiagnostics<K extends FileKind>(kind: K, input: FileInputs[K], settings: Settings): CoreDiagnostic[] {
  if ((UNREADABLE[kind] as ((input: FileInputs[K]) => boolean) | undefined)?.(input)) return [];
  const diagnostics: CoreDiagnostic[] = [];
  for (const module of RULE_MODULES) {
    const check = module.files?.[kind];
    check?.(input, (code, range, message) => diagnostics.push({ code, severity: definitionOf(code).severity, message, offset: range.offset, end: range.end }), settings);
  }
  return applySettings(diagnostics, settings).sort(compareDiagnostics);
}
