/**
 * Diagnostics, pulled when the client supports `textDocument/diagnostic`, pushed with a debounce
 * otherwise. A push is never sent for a stale document version, and a closed document's
 * diagnostics are cleared. registry.json's own problems reach the client unopened: in the
 * workspace's report, or pushed (server/registry-file-reports.ts), for the registries of the open
 * fixtures and those the workspace's report lists. The files nobody has open are pushed from the
 * workspace's report (server/pushed-workspace-fixtures.ts).
 */
import {
  CancellationToken,
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  type DiagnosticServerCancellationData,
  type DocumentDiagnosticParams,
  type Diagnostic,
  type DocumentDiagnosticReport,
  type ResultProgressReporter,
  type WorkspaceDiagnosticParams,
  type WorkspaceDiagnosticReportPartialResult,
} from 'vscode-languageserver/node';
import type { WorkspaceFixtures } from '../workspace-diagnostics';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from '../context';
import { toLspDiagnostic } from '../convert';
import { guard } from '../guard';
import { malformedWorkspaceDiagnosticParams } from '../request-shape';
import { envelopesAndRegistryFiles, refuseMalformed, requestHandler, type DocumentRequest, type Gate } from '../request';
import type { SchemaCompat } from '../schema-compat';
import { compareDiagnostics } from '../../core/rules/diagnostic';
import { fileDiagnostics } from '../../core/rules/file-diagnostics';
import { openEnvelopeFindings, projectFileDiagnostics } from '../project-files';
import { toPath } from '../registry';
import type { PushedRegistryFiles } from '../registry-file-reports';

/**
 * How long typing must pause before a pushed validation runs: one validation for a burst of
 * changes sent faster than this. Short, because the editor has waited already (Neovim 0.7 sends a
 * change 150 ms after typing stops, eglot 0.5 s after) and a keystroke's validation costs
 * milliseconds even on a 5 MB fixture; what the user waits for is both pauses and the validation.
 */
export const PUSH_DEBOUNCE_MS = 50;

/**
 * Envelope fixtures get the envelope rules (less what babelq-suppressions.json hides); registry.json
 * its registry problems; a schema file its keywords; babelq.json and the suppressions file their
 * own findings (other JSON never gets here).
 */
function diagnosticsOf(context: ServerContext, request: DocumentRequest): Diagnostic[] {
  if (request.kind === 'envelope') {
    context.registryStatus.report(request.document.uri, request.registry, request.registry.kind === 'loaded' ? context.registries.passedOverBelow(request.document.uri, request.settings) : undefined);
    const { findings } = openEnvelopeFindings(context, request.document, request.settings, request.registry);
    return findings.map((diagnostic) => toLspDiagnostic(diagnostic, request.lines, request.document.uri));
  }
  if (request.kind === 'project file') return projectFileDiagnostics(request.file, request.document.getText(), request.settings, request.judged, toPath(request.document.uri), context.byteOrderMarks.foreignMarkOf(request.document.uri)).map((diagnostic) => toLspDiagnostic(diagnostic, request.lines));
  if (request.kind === 'schema file') return [...fileDiagnostics('schemaFile', request.parsed, request.settings), ...(request.breaks ?? [])].sort(compareDiagnostics).map((diagnostic) => toLspDiagnostic(diagnostic, request.lines));
  return fileDiagnostics('registryFile', request.registry, request.settings).map((diagnostic) => toLspDiagnostic(diagnostic, request.lines));
}

/** Every document diagnostics answer for, a schema file with its breaking changes against the compat base. */
function diagnosed(compat: SchemaCompat): Gate<DocumentRequest> {
  return async (context, document, token) => {
    const request = await envelopesAndRegistryFiles(context, document, token);
    if (request?.kind !== 'schema file') return request;
    return { ...request, breaks: await compat.breaks(request) };
  };
}

/** Registers pull diagnostics: per document, and for the whole workspace (`workspace/diagnostic`). */
export function registerPullDiagnostics(context: ServerContext, workspace: WorkspaceFixtures, compat: SchemaCompat): void {
  const empty: DocumentDiagnosticReport = { kind: DocumentDiagnosticReportKind.Full, items: [] };
  const answer = requestHandler(context, 'diagnostics', diagnosed(compat), empty, (request): DocumentDiagnosticReport => ({
    kind: DocumentDiagnosticReportKind.Full,
    items: diagnosticsOf(context, request),
  }));
  context.connection.languages.diagnostics.on(async (params: DocumentDiagnosticParams, token: CancellationToken = CancellationToken.None) => {
    const document = context.documents.get(params.textDocument?.uri);
    const version = document?.version;
    const report = await answer(params, token);
    if (report !== empty) return report;
    return emptyOrCancelled(context, document, version, token, report);
  });
  const answerWorkspace = guard(context.connection.console, 'workspace diagnostics', (params: WorkspaceDiagnosticParams, token: CancellationToken = CancellationToken.None, _work?: unknown, progress?: ResultProgressReporter<WorkspaceDiagnosticReportPartialResult>) =>
    workspace.answer(new Map(params.previousResultIds.map((previous) => [previous.uri, previous.value])), token, progress),
  { items: [] });
  context.connection.languages.diagnostics.onWorkspace((params: WorkspaceDiagnosticParams, token: CancellationToken, work?: unknown, progress?: ResultProgressReporter<WorkspaceDiagnosticReportPartialResult>) => {
    const problem = malformedWorkspaceDiagnosticParams(params);
    if (problem === undefined) return answerWorkspace(params, token, work, progress);
    return refuseMalformed(context, 'workspace/diagnostic', problem);
  });
}

/**
 * A pull given up is refused, not answered with an empty report: an empty full report says the
 * file has no problems, and a client that did not cancel the pull (only VS Code cancels one when
 * the file changes) would show that in place of the file's findings until the next answer came.
 * The LSP: a cancelled request is answered RequestCancelled; a pull the server gave up because its
 * document has a newer version (a suppressions file's judging stops then) is ServerCancelled,
 * asking to be pulled again (VS Code's client drops the pull it had queued for the newer version
 * on `retriggerRequest: false`). A closed document, or one the diagnostics do not cover, is empty.
 */
function emptyOrCancelled(context: ServerContext, document: TextDocument | undefined, version: number | undefined, token: CancellationToken, empty: DocumentDiagnosticReport): DocumentDiagnosticReport {
  if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'The diagnostics pull was cancelled.');
  if (document && context.documents.get(document.uri) === document && document.version !== version) {
    const data: DiagnosticServerCancellationData = { retriggerRequest: true };
    throw new ResponseError(LSPErrorCodes.ServerCancelled, 'The document changed while its diagnostics were worked out: pull them again.', data);
  }
  return empty;
}

/**
 * Pushes diagnostics after a pause in typing, and tells `published` of each document whose
 * diagnostics went out; an open fixture's registry.json goes to `registryFiles`, which the
 * workspace's push feeds too. Returns a function that re-validates every open document.
 */
export function registerPushDiagnostics(context: ServerContext, compat: SchemaCompat, registryFiles: PushedRegistryFiles, published: (document: TextDocument) => void = () => undefined): () => void {
  const timers = new Map<string, NodeJS.Timeout>();
  const publish = guard(context.connection.console, 'diagnostics', async ({ textDocument: document }: { textDocument: TextDocument }) => {
    // The document object is updated in place by later changes: remember which version this run is for.
    const version = document.version;
    const request = await diagnosed(compat)(context, document, CancellationToken.None);
    const diagnostics = request ? diagnosticsOf(context, request) : [];
    // The document may have changed or closed while settings were being fetched. Changes update
    // it in place (a new version); a reopening is a new document, which may have this version too.
    const current = context.documents.get(document.uri);
    if (current !== document || current.version !== version) return;
    await context.connection.sendDiagnostics({ uri: document.uri, version, diagnostics });
    published(document);
    if (request?.kind === 'envelope') await registryFiles.publish(document.uri, request.registry, request.settings);
  }, undefined);
  const schedule = (document: TextDocument) => {
    clearTimeout(timers.get(document.uri));
    timers.set(
      document.uri,
      setTimeout(() => {
        timers.delete(document.uri);
        void publish({ textDocument: document });
      }, PUSH_DEBOUNCE_MS),
    );
  };
  context.documents.onDidChangeContent((event) => schedule(event.document));
  context.documents.onDidClose((event) => {
    clearTimeout(timers.get(event.document.uri));
    timers.delete(event.document.uri);
    context.connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] }).catch(() => undefined);
    void registryFiles.closed(event.document.uri).catch(() => undefined);
  });
  return () => {
    for (const document of context.documents.all()) schedule(document);
  };
}
