/**
 * The linter's entry point: parsed document + settings → diagnostics, sorted by position.
 * The editor and the CLI both call this, so they report exactly the same thing.
 */
import { CODES, type Code, type Severity } from './codes';
import { compareDiagnostics, type CoreDiagnostic } from './diagnostic';
import { parseJson } from './parse/parser';
import { createCollector, type Rule } from './rules/context';
import { checkData } from './rules/data';
import { checkEncodingDivergence } from './rules/encoding';
import { checkForbiddenKeys, checkIdentifiers, checkKeyNames, checkLang, checkSchemaVersion, checkTimestamps } from './rules/contract';
import { checkCoreFields, checkDuplicateKeys, checkMissingFields, checkRoot } from './rules/structure';
import { checkRegistry } from './rules/registry';
import { checkUrn } from './rules/urn';
import type { RegistryState } from './registry/types';
import { DEFAULT_SETTINGS, type Settings } from './settings';
import type { ParsedDocument } from './tree';

/** Every rule, by catalogue family. */
const RULES: readonly Rule[] = [
  checkRoot,
  checkDuplicateKeys,
  checkMissingFields,
  checkCoreFields,
  checkForbiddenKeys,
  checkUrn,
  checkSchemaVersion,
  checkIdentifiers,
  checkLang,
  checkTimestamps,
  checkKeyNames,
  checkData,
  checkEncodingDivergence,
  checkRegistry,
];

const NO_REGISTRY: RegistryState = { kind: 'none' };

const defaultSeverity = (code: Code): Severity => CODES[code].severity;

/** Runs every rule on a parsed document (with its registry, if any) and applies the user's severity overrides. */
export function analyze(doc: ParsedDocument, settings: Settings = DEFAULT_SETTINGS, registry: RegistryState = NO_REGISTRY): CoreDiagnostic[] {
  if (!settings.validationEnabled) return [];
  const { context, diagnostics } = createCollector(doc, settings, registry, defaultSeverity);
  for (const problem of doc.syntaxProblems) context.report('json-syntax', problem, problem.message);
  for (const rule of RULES) rule(context);
  return applySettings(diagnostics, settings).sort(compareDiagnostics);
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
  return analyze(parseJson(text), settings, registry);
}
