/**
 * The VS Code extension: starts the bundled language server over IPC, shows its state in a
 * language status item, and logs to one output channel. Validation needs no trust, so it runs in
 * Restricted Mode too (the manifest declares `untrustedWorkspaces: limited`).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, State, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { ENVELOPE_LANGUAGE_ID, REGISTRY_STATUS_METHOD, type RegistryStatusParams } from '../core/language/protocol';
import { EnvelopeCodeLenses, PREVIEW_COMMAND } from './codelens';
import { registerNewEnvelopeCommand } from './commands/new-envelope';
import { registerSendCommands, SEND_COMMAND } from './commands/send';
import { FreshIds } from './fresh-ids';
import { PREVIEW_SCHEME, PreviewProvider, showPreview } from './preview';
import { describeState } from './status';

const CLIENT_ID = 'babelqueue';
const CLIENT_NAME = 'BabelQueue Language Server';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('BabelQueue', { log: true });
  context.subscriptions.push(output);

  const status = vscode.languages.createLanguageStatusItem('babelqueue.server', { language: ENVELOPE_LANGUAGE_ID });
  status.name = 'BabelQueue';
  status.command = { title: 'Show Output', command: 'babelqueue.showOutput' };
  context.subscriptions.push(status);
  context.subscriptions.push(vscode.commands.registerCommand('babelqueue.showOutput', () => output.show(true)));

  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  const clientOptions: LanguageClientOptions = {
    // JSON files are synced too, so registry.json gets its diagnostics and an unsaved schema edit
    // re-validates at once; the server registers its editing features for envelopes only.
    documentSelector: [{ language: ENVELOPE_LANGUAGE_ID }, { language: 'json', scheme: 'file' }],
    outputChannel: output,
    synchronize: { configurationSection: 'babelqueue' },
  };

  client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  const show = (state: State) => {
    const view = describeState(state === State.Running ? 'running' : state === State.Starting ? 'starting' : 'stopped');
    status.text = view.text;
    status.detail = view.detail;
    status.severity = view.severity === 'error' ? vscode.LanguageStatusSeverity.Error : vscode.LanguageStatusSeverity.Information;
    status.busy = view.busy;
  };
  show(State.Starting);
  context.subscriptions.push(client.onDidChangeState((event) => show(event.newState)));
  const registryStatus = new Map<string, RegistryStatusParams>();
  const showRegistry = () => {
    const uri = vscode.window.activeTextEditor?.document.uri.toString();
    const registry = uri ? registryStatus.get(uri) : undefined;
    const view = describeState(client?.state === State.Running ? 'running' : 'stopped', registry);
    status.text = view.text;
    status.detail = view.detail;
    status.severity = view.severity === 'error' ? vscode.LanguageStatusSeverity.Error : view.severity === 'warning' ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
  };
  context.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(showRegistry));
  registerNewEnvelopeCommand(context, client);
  registerBytesCommands(context, output);
  try {
    await client.start();
    client.onNotification(REGISTRY_STATUS_METHOD, (params: RegistryStatusParams) => {
      registryStatus.set(params.uri, params);
      showRegistry();
    });
  } catch (error) {
    show(State.Stopped);
    output.error(`The language server failed to start: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Preview, send and peek: they run in the extension host on core/ and broker/, not in the server. */
function registerBytesCommands(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): void {
  const freshIds = new FreshIds();
  const previews = new PreviewProvider(freshIds);
  context.subscriptions.push(
    previews,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.languages.registerCodeLensProvider({ language: ENVELOPE_LANGUAGE_ID }, new EnvelopeCodeLenses(SEND_COMMAND)),
    vscode.commands.registerCommand(PREVIEW_COMMAND, (uri?: vscode.Uri) => {
      const source = uri ?? vscode.window.activeTextEditor?.document.uri;
      if (source) return showPreview(source);
      return undefined;
    }),
  );
  registerSendCommands({ context, output, freshIds, sent: (source) => previews.refresh(source) });
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
