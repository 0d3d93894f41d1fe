/** Diagnostics for a schema file a registry references: its keywords as BabelQueue's validators read them. */
import { asObject, type ParsedDocument } from '../model/tree';
import { piiUnmarkedFindings } from './registry/pii-unmarked';
import { applySettings } from './analyze';
import { definitionOf } from './catalogue';
import { compareDiagnostics, type CoreDiagnostic } from './diagnostic';
import { schemaKeywordFindings } from './registry/schema-keywords';
import { compatibilityBreaks } from './registry/breaking-change';
import type { Settings } from './settings/settings';

/** The unenforced-keyword, misread-keyword and pii-unmarked diagnostics to show in a schema file (none for a file that is not JSON). */
export function schemaFileDiagnostics(doc: ParsedDocument, settings: Settings): CoreDiagnostic[] {
  if (doc.syntaxProblems.length > 0) return [];
  const diagnostics: CoreDiagnostic[] = schemaKeywordFindings(doc).map((finding) => ({
    code: finding.code,
    severity: definitionOf(finding.code).severity,
    message: finding.message,
    offset: finding.offset,
    end: finding.end,
  }));
  for (const finding of piiUnmarkedFindings(asObject(doc.root))) diagnostics.push({ code: 'pii-unmarked', severity: definitionOf('pii-unmarked').severity, message: finding.message, offset: finding.offset, end: finding.end });
  return applySettings(diagnostics, settings).sort(compareDiagnostics);
}

/**
 * breaking-change: the schema file against its version at a base, as bqschema compat judges it.
 * `urn` is the registry entry the file is the schema of, when known: the message then names the
 * URN to mint for the new shape.
 */
export function schemaCompatDiagnostics(base: ParsedDocument, current: ParsedDocument, settings: Settings, urn?: string): CoreDiagnostic[] {
  if (base.syntaxProblems.length > 0 || current.syntaxProblems.length > 0) return [];
  const advice = urn ? `Mint a new URN (\`${nextVersion(urn)}\`) for this shape instead of changing ${urn} in place.` : 'A breaking change is not made in place: mint a new URN for this shape.';
  const diagnostics: CoreDiagnostic[] = compatibilityBreaks(base.root, current.root, base.text, current.text).map((found) => ({
    code: 'breaking-change',
    severity: definitionOf('breaking-change').severity,
    message: `${found.reason}${found.path ? ` (at ${found.path})` : ''}: data valid under the base schema can fail now (bqschema compat). ${advice}`,
    offset: found.offset,
    end: found.end,
  }));
  return applySettings(diagnostics, settings).sort(compareDiagnostics);
}

/** The URN of the next version: `…:created` → `…:created.v2`, `…:created.v2` → `…:created.v3`. */
export function nextVersion(urn: string): string {
  const match = /^(.*)\.v(\d+)$/.exec(urn);
  return match ? `${match[1]}.v${Number(match[2]) + 1}` : `${urn}.v2`;
}
