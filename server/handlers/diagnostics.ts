/**
 * Diagnostics, pulled when the client supports `textDocument/diagnostic`, pushed with a debounce
 * otherwise. A push is never sent for a stale document version, and a closed document's
 * diagnostics are cleared.
 */
import { DocumentDiagnosticReportKind, type Diagnostic, type DocumentDiagnosticParams, type DocumentDiagnosticReport } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from '../context';
import { toLspDiagnostic } from '../convert';
import { guard } from '../guard';
import { sendRegistryStatus } from './registry-requests';
import { registryFileDiagnostics } from '../../core/rules/registry-file-diagnostics';

/** How long typing must pause before a pushed validation runs. */
export const PUSH_DEBOUNCE_MS = 150;

/** Envelope fixtures get the envelope rules; registry.json its registry problems; other JSON nothing. */
export function isEnvelopeDocument(document: TextDocument): boolean {
  return document.languageId === 'babelqueue-envelope' || document.uri.endsWith('.babel.json');
}

/** The LSP diagnostics of a document under its current settings and registry. */
export async function computeDiagnostics(context: ServerContext, document: TextDocument): Promise<Diagnostic[]> {
  const settings = await context.settings.forDocument(document.uri);
  if (isEnvelopeDocument(document)) {
    const registry = context.registries.stateFor(document.uri, settings);
    sendRegistryStatus(context, document.uri, registry);
    const { entry, diagnostics } = context.cache.diagnostics(document, settings, registry);
    return diagnostics.map((diagnostic) => toLspDiagnostic(diagnostic, entry.lines));
  }
  const registryState = context.registries.registryFileState(document.uri);
  if (!registryState) return [];
  const lines = context.cache.get(document).lines;
  return registryFileDiagnostics(registryState, settings).map((diagnostic) => toLspDiagnostic(diagnostic, lines));
}

/** Registers pull diagnostics. */
export function registerPullDiagnostics(context: ServerContext): void {
  const empty: DocumentDiagnosticReport = { kind: DocumentDiagnosticReportKind.Full, items: [] };
  context.connection.languages.diagnostics.on(
    guard(context.connection.console, 'diagnostics', async (params: DocumentDiagnosticParams) => {
      const document = context.documents.get(params.textDocument.uri);
      if (!document) return empty;
      return { kind: DocumentDiagnosticReportKind.Full, items: await computeDiagnostics(context, document) } satisfies DocumentDiagnosticReport;
    }, empty),
  );
}

/** Pushes diagnostics after a pause in typing; returns a function that re-validates every open document. */
export function registerPushDiagnostics(context: ServerContext): () => void {
  const timers = new Map<string, NodeJS.Timeout>();
  const publish = async (document: TextDocument) => {
    // The document object is updated in place by later changes: remember which version this run is for.
    const version = document.version;
    try {
      const diagnostics = await computeDiagnostics(context, document);
      // The document may have changed or closed while settings were being fetched.
      const current = context.documents.get(document.uri);
      if (!current || current.version !== version) return;
      await context.connection.sendDiagnostics({ uri: document.uri, version, diagnostics });
    } catch (error) {
      context.connection.console.error(`[diagnostics] ${document.uri} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };
  const schedule = (document: TextDocument) => {
    clearTimeout(timers.get(document.uri));
    timers.set(
      document.uri,
      setTimeout(() => {
        timers.delete(document.uri);
        void publish(document);
      }, PUSH_DEBOUNCE_MS),
    );
  };
  context.documents.onDidChangeContent((event) => schedule(event.document));
  context.documents.onDidClose((event) => {
    clearTimeout(timers.get(event.document.uri));
    timers.delete(event.document.uri);
    context.connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] }).catch(() => undefined);
  });
  return () => {
    for (const document of context.documents.all()) schedule(document);
  };
}
