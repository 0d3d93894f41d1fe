/**
 * Quick fixes in a schema file of the registry: each finding's own fixes (pii-unmarked marks the
 * property), and for a breaking-change "Register as a new URN…" (core/language/register-new-urn.ts):
 * the schema as typed copied to the next `.vN` file, its entry added to registry.json, the old
 * entry deprecated. That fix creates a file, so it is offered only to a client that can.
 */
import { lstatSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CodeActionKind, type CodeAction, type CodeActionParams, type TextDocumentEdit } from 'vscode-languageserver/node';
import { codeActions } from '../../core/language/code-actions';
import { registerNewUrn } from '../../core/language/register-new-urn';
import { LineIndex } from '../../core/model/positions';
import { isDeprecatedStatus } from '../../core/registry/types';
import { DIAGNOSTIC_SOURCE } from '../../core/rules/diagnostic';
import { schemaFileDiagnostics } from '../../core/rules/schema-file-diagnostics';
import type { ServerContext } from '../context';
import { sameDiagnostic, toLspEdit } from '../convert';
import { isInside } from '../../workspace/registry-loader';
import { toUri } from '../registry';
import type { SchemaFileRequest } from '../request';

export function schemaFileActions(context: ServerContext, request: SchemaFileRequest, params: CodeActionParams, canCreateFiles: boolean): CodeAction[] {
  const { document, parsed, lines, settings } = request;
  const wanted = params.context.diagnostics.filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE);
  const matched = schemaFileDiagnostics(parsed, settings).filter((core) => wanted.some((lsp) => sameDiagnostic(lsp, core, lines)));
  const actions: CodeAction[] = codeActions(parsed, matched, context.fresh).map((action) => ({
    title: action.title,
    kind: CodeActionKind.QuickFix,
    isPreferred: action.isPreferred,
    diagnostics: wanted.filter((lsp) => sameDiagnostic(lsp, action.diagnostic, lines)),
    edit: { changes: { [document.uri]: action.edits.map((edit) => toLspEdit(edit, lines)) } },
  }));
  const breaks = wanted.filter((diagnostic) => diagnostic.code === 'breaking-change');
  if (breaks.length > 0 && canCreateFiles) {
    for (const { registry, entry } of context.registries.schemaOwners(document.uri)) {
      if (isDeprecatedStatus(entry.status)) continue;
      const registration = registerNewUrn(registry.doc, entry, (urn) => registry.byUrn.has(urn));
      if (!registration) continue;
      const schemaPath = resolve(dirname(registry.path), registration.schemaRef);
      // Never outside the registry's folder (the new file's folder resolved too, links and all), and never
      // over anything already there, a dangling link included (the editor would write through it).
      if (!isInside(dirname(registry.path), schemaPath) || !isInside(dirname(registry.path), dirname(schemaPath)) || somethingAt(schemaPath)) continue;
      const registryUri = toUri(registry.path);
      const registryLines = new LineIndex(registry.doc.text);
      const schemaUri = toUri(schemaPath);
      const registryEdit: TextDocumentEdit = {
        textDocument: { uri: registryUri, version: context.documents.get(registryUri)?.version ?? null },
        edits: registration.registryEdits.map((edit) => toLspEdit(edit, registryLines)),
      };
      actions.push({
        title: `Register as a new URN: ${registration.urn} with ${registration.schemaRef} (this shape), ${entry.urn} deprecated`,
        kind: CodeActionKind.QuickFix,
        isPreferred: true,
        diagnostics: breaks,
        edit: {
          documentChanges: [
            { kind: 'create', uri: schemaUri, options: { overwrite: false, ignoreIfExists: false } },
            { textDocument: { uri: schemaUri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: document.getText() }] },
            registryEdit,
          ],
        },
      });
    }
  }
  return actions;
}

/** True when anything is at `path`, a link to nowhere included. */
function somethingAt(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

