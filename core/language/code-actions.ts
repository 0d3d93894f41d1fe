/**
 * Quick fixes for diagnostics, as each code's definition offers them (core/rules/<family>/). Each
 * fix is a list of non-overlapping text edits whose result is valid JSON; `isPreferred` marks the
 * one obvious fix, which `babelq lint --fix` may apply too.
 */
import type { TextEdit } from '../model/edits';
import type { Fresh } from '../model/fresh';
import type { ParsedDocument } from '../model/tree';
import type { RegistryState } from '../registry/types';
import { definitionOf } from '../rules/catalogue';
import type { OtherFileChange, SchemaOwner } from '../rules/definition';
import type { CoreDiagnostic } from '../rules/diagnostic';
import { fixContext } from '../rules/fix-context';

export interface CoreCodeAction {
  readonly title: string;
  readonly kind: 'quickfix';
  readonly isPreferred: boolean;
  /** The diagnostic this action fixes. */
  readonly diagnostic: CoreDiagnostic;
  readonly edits: readonly TextEdit[];
  /** Files the fix creates or edits besides this document (see Fix.otherFiles). */
  readonly otherFiles?: readonly OtherFileChange[];
}

/**
 * The quick fixes for the given diagnostics of a document. `owners`: for a schema file, the
 * registry entries it is the schema of (breaking-change's fix registers the next URN in them).
 */
export function codeActions(doc: ParsedDocument, diagnostics: readonly CoreDiagnostic[], fresh: Fresh, registry?: RegistryState, owners: readonly SchemaOwner[] = []): CoreCodeAction[] {
  const actions: CoreCodeAction[] = [];
  for (const diagnostic of diagnostics) {
    // A finding folded into this one (the same cause on the same token) keeps its fixes.
    for (const finding of [diagnostic, ...(diagnostic.related ?? [])]) {
      const fixes = definitionOf(finding.code).fixes?.(fixContext(doc, finding === diagnostic ? diagnostic : { ...finding }, fresh, registry, owners)) ?? [];
      for (const fix of fixes) {
        // Unless the definition says, a fix is the obvious one exactly when it is the only one.
        actions.push({ title: fix.title, kind: 'quickfix', isPreferred: fix.preferred ?? fixes.length === 1, diagnostic, edits: fix.edits, ...(fix.otherFiles ? { otherFiles: fix.otherFiles } : {}) });
      }
    }
  }
  return actions;
}
