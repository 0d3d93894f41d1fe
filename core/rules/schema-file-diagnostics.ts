/** Diagnostics for a schema file a registry references: its keywords as BabelQueue's validators read them. */
import type { ParsedDocument } from '../model/tree';
import { applySettings } from './analyze';
import { definitionOf } from './catalogue';
import { compareDiagnostics, type CoreDiagnostic } from './diagnostic';
import { schemaKeywordFindings } from './registry/schema-keywords';
import type { Settings } from './settings';

/** The unenforced-keyword and misread-keyword diagnostics to show in a schema file (none for a file that is not JSON). */
export function schemaFileDiagnostics(doc: ParsedDocument, settings: Settings): CoreDiagnostic[] {
  if (doc.syntaxProblems.length > 0) return [];
  const diagnostics: CoreDiagnostic[] = schemaKeywordFindings(doc).map((finding) => ({
    code: finding.code,
    severity: definitionOf(finding.code).severity,
    message: finding.message,
    offset: finding.offset,
    end: finding.end,
  }));
  return applySettings(diagnostics, settings).sort(compareDiagnostics);
}
