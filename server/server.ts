/**
 * Wires the LSP connection to the handlers: capabilities, open documents, the parse cache,
 * settings, and pull or push diagnostics depending on what the client supports.
 */
import { randomUUID } from 'node:crypto';
import {
  DidChangeConfigurationNotification,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context';
import { ParseCache } from './documents';
import { registerPullDiagnostics, registerPushDiagnostics } from './handlers/diagnostics';
import { registerLanguageFeatures } from './handlers/language';
import { registerStructureFeatures } from './handlers/structure';
import { SettingsStore } from './settings';

export const SERVER_NAME = 'babelqueue-language-server';

/** Starts serving on a connection; returns when the handlers are registered. */
export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  let canPullConfiguration = false;
  let canRegisterConfiguration = false;
  let pullDiagnostics = false;
  let canRefreshDiagnostics = false;

  const context: ServerContext = {
    connection,
    documents,
    cache: new ParseCache(),
    settings: new SettingsStore(connection, () => canPullConfiguration),
    fresh: { uuid: randomUUID, now: Date.now },
  };

  let revalidateAll: () => void = () => undefined;

  connection.onInitialize((params): InitializeResult => {
    const capabilities = params.capabilities;
    canPullConfiguration = capabilities.workspace?.configuration === true;
    canRegisterConfiguration = capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true;
    pullDiagnostics = capabilities.textDocument?.diagnostic !== undefined;
    canRefreshDiagnostics = capabilities.workspace?.diagnostics?.refreshSupport === true;
    if (pullDiagnostics) registerPullDiagnostics(context);
    else revalidateAll = registerPushDiagnostics(context);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        ...(pullDiagnostics ? { diagnosticProvider: { identifier: 'babelqueue', interFileDependencies: false, workspaceDiagnostics: false } } : {}),
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['"', ':'], resolveProvider: false },
        codeActionProvider: { codeActionKinds: ['quickfix'] },
        documentFormattingProvider: true,
        foldingRangeProvider: true,
        documentSymbolProvider: true,
        selectionRangeProvider: true,
      },
      serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
    };
  });

  connection.onInitialized(() => {
    if (canRegisterConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'babelqueue' });
  });

  connection.onDidChangeConfiguration((change) => {
    const section = (change.settings as { babelqueue?: unknown } | undefined)?.babelqueue;
    context.settings.changed(section);
    if (pullDiagnostics) {
      if (canRefreshDiagnostics) void connection.languages.diagnostics.refresh();
    } else {
      revalidateAll();
    }
  });

  documents.onDidClose((event) => {
    context.cache.delete(event.document.uri);
    context.settings.forget(event.document.uri);
  });

  registerLanguageFeatures(context);
  registerStructureFeatures(context);
  documents.listen(connection);
  connection.listen();
}

declare const __SERVER_VERSION__: string | undefined;
const SERVER_VERSION = typeof __SERVER_VERSION__ === 'string' ? __SERVER_VERSION__ : '0.0.0-dev';
