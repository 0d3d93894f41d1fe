/**
 * Quick fixes in a schema file of the registry: each finding's fixes as its definition offers them
 * (pii-unmarked marks the property; breaking-change registers the next URN). A fix that writes other
 * files (Fix.otherFiles) is offered only to a client that can create files, and only when each file
 * it creates stays inside its registry's folder (links resolved) and replaces nothing there.
 */
import { lstatSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CodeAction, CodeActionParams, CreateFile, TextDocumentEdit } from 'vscode-languageserver/node';
import { codeActions, type CoreCodeAction } from '../../core/language/code-actions';
import { LineIndex } from '../../core/model/positions';
import { definitionOf } from '../../core/rules/catalogue';
import { isCode } from '../../core/rules/code-names';
import type { OtherFileChange } from '../../core/rules/definition';
import { DIAGNOSTIC_SOURCE, type CoreDiagnostic } from '../../core/rules/diagnostic';
import { fileDiagnostics } from '../../core/rules/file-diagnostics';
import type { ServerContext } from '../context';
import { actionTitle, matchDiagnostics, toLspCodeAction, toLspEdit } from '../convert';
import { isInside } from '../../workspace/path-containment';
import { toUri } from '../registry';
import type { SchemaFileRequest } from '../request';

export function schemaFileActions(context: ServerContext, request: SchemaFileRequest, params: CodeActionParams, canCreateFiles: boolean): CodeAction[] {
  const { document, parsed, lines, settings } = request;
  const wanted = params.context.diagnostics.filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE);
  const found = fileDiagnostics('schemaFile', parsed, settings);
  const sent = matchDiagnostics(wanted, found, lines, parsed.text);
  const matched: CoreDiagnostic[] = found.filter((core) => sent.has(core));
  const matchedSent = new Set([...sent.values()].flat());
  // A schema's findings against its compat base (breaking-change) come from git, asynchronously: taken as the client holds them.
  for (const lsp of wanted) {
    const code = String(lsp.code ?? '');
    if (!isCode(code) || matchedSent.has(lsp)) continue;
    const taken: CoreDiagnostic = { code, severity: definitionOf(code).severity, message: typeof lsp.message === 'string' ? lsp.message : lsp.message.value, offset: lines.offsetAt(lsp.range.start), end: lines.offsetAt(lsp.range.end) };
    matched.push(taken);
    sent.set(taken, [lsp]);
  }
  const owners = context.registries.schemaOwners(document.uri);
  const actions: CodeAction[] = [];
  const byTitle = new Map<string, CodeAction>();
  for (const action of codeActions(parsed, matched, context.fresh, undefined, owners)) {
    const diagnostics = sent.get(action.diagnostic) ?? [];
    if (!action.otherFiles) {
      actions.push(toLspCodeAction(action, document.uri, lines, diagnostics));
      continue;
    }
    // One action for every finding it fixes (each breaking change of the file offers the same registration).
    const same = byTitle.get(action.title);
    if (same) {
      same.diagnostics!.push(...diagnostics);
      continue;
    }
    const converted = canCreateFiles ? withOtherFiles(context, action, document.uri, lines, diagnostics) : undefined;
    if (!converted) continue;
    byTitle.set(action.title, converted);
    actions.push(converted);
  }
  return actions;
}

/** A fix that writes other files as LSP document changes, or undefined when one of its files is refused. */
function withOtherFiles(context: ServerContext, action: CoreCodeAction, uri: string, lines: LineIndex, diagnostics: CodeAction['diagnostics']): CodeAction | undefined {
  const changes: (CreateFile | TextDocumentEdit)[] = [];
  for (const change of action.otherFiles!) {
    const converted = fileChange(context, change);
    if (!converted) return undefined;
    changes.push(...converted);
  }
  if (action.edits.length > 0) changes.push({ textDocument: { uri, version: context.documents.get(uri)?.version ?? null }, edits: action.edits.map((edit) => toLspEdit(edit, lines)) });
  return { title: actionTitle(action.title), kind: 'quickfix', isPreferred: action.isPreferred, diagnostics: [...(diagnostics ?? [])], edit: { documentChanges: changes } };
}

function fileChange(context: ServerContext, change: OtherFileChange): (CreateFile | TextDocumentEdit)[] | undefined {
  if (change.kind === 'edit') {
    const target = toUri(change.path);
    return [{ textDocument: { uri: target, version: context.documents.get(target)?.version ?? null }, edits: change.edits.map((edit) => toLspEdit(edit, new LineIndex(change.text))) }];
  }
  const folder = dirname(change.beside);
  const path = resolve(folder, change.ref);
  // Never outside the folder (the new file's folder resolved too, links and all), and never over
  // anything already there, a dangling link included (the editor would write through it).
  if (!isInside(folder, path) || !isInside(folder, dirname(path)) || somethingAt(path)) return undefined;
  const target = toUri(path);
  return [
    { kind: 'create', uri: target, options: { overwrite: false, ignoreIfExists: false } },
    { textDocument: { uri: target, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: change.text }] },
  ];
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
