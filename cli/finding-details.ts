/**
 * What SARIF says about a finding beyond the published diagnostic shape: where it is in the
 * document as a JSON Pointer (a name that survives lines moving above it) and the quick fix a
 * dashboard may offer. Only the preferred fix is given: it is the one an automatic fix applies
 * (json-syntax's aside: `--fix` leaves a file with syntax errors to the editor, but the one sure
 * repair of a syntax problem is still the fix to suggest); the others (money to cents, say) rest
 * on assumptions a person has to make.
 */
import { codeActions } from '../core/language/code-actions';
import { pointerAt } from '../core/model/json-pointer';
import { LineIndex } from '../core/model/positions';
import type { ParsedDocument } from '../core/model/tree';
import type { RegistryState } from '../core/registry/types';
import type { CoreDiagnostic } from '../core/rules/diagnostic';
import type { FindingDetail } from './diagnostics';
import { FRESH } from './fresh-values';

/** The details of each diagnostic of one document, in the diagnostics' order. */
export function findingDetails(doc: ParsedDocument, diagnostics: readonly CoreDiagnostic[], registry: RegistryState, lineIndex: LineIndex): FindingDetail[] {
  return diagnostics.map((diagnostic) => {
    const pointer = pointerAt(doc, diagnostic.offset);
    const preferred = codeActions(doc, [diagnostic], FRESH, registry).find((action) => action.isPreferred && !action.otherFiles);
    if (!preferred) return { pointer };
    const edits = preferred.edits.map((edit) => ({ range: { start: lineIndex.positionAt(edit.offset), end: lineIndex.positionAt(edit.end) }, newText: edit.newText }));
    return { pointer, fix: { title: preferred.title, edits } };
  });
}
