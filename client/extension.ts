/**
 * The VS Code extension: starts the bundled language server over IPC, shows its state in a
 * language status item, and logs to one output channel. Validation needs no trust, so it runs in
 * Restricted Mode too (the manifest declares `untrustedWorkspaces: limited`).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DidChangeConfigurationNotification, LanguageClient, State, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { ENVELOPE_LANGUAGE_ID, MESSAGE_SCHEME, REGISTRY_STATUS_METHOD, WORKSPACE_TRUSTED_METHOD, type RegistryStatusParams, type ServerInitializationOptions } from '../core/language/protocol';
import { EnvelopeCodeLenses, PREVIEW_COMMAND } from './codelens';
import { registerNewEnvelopeCommand } from './commands/new-envelope';
import { registerMessageCommands } from './commands/messages';
import { REDRIVE_COMMAND, registerRedriveCommands } from './commands/redrive';
import { registerSendCommands, SEND_COMMAND } from './commands/send';
import { FreshIds } from './fresh-ids';
import { SavedBytesCheck } from './file-bytes';
import { ClosedViewProblems, MessageViews, registerMessageViews } from './message-view';
import { PREVIEW_SCHEME, PreviewProvider, previewSource, showPreview } from './preview';
import { PreviewRenderer } from './preview-renderer';
import { serverPreview } from './server-preview';
import { serverJudge } from './server-judgement';
import { SERVER_EXEC_ARGV, serverEnvironment } from './server-process';
import { describeState, VALIDATION_SETTING, type ServerState, type StatusView } from './status';
import { explicitSettings } from './explicit-settings';
import { registerLintTasks } from './tasks';
import { registerWholeEnvelopeCompletion } from './whole-envelope-completion';
import { quotedName } from './quoted-text';

const CLIENT_ID = 'babelqueue';
const CLIENT_NAME = 'BabelQueue Language Server';

const STATUS_SEVERITIES: Record<StatusView['severity'], vscode.LanguageStatusSeverity> = {
  information: vscode.LanguageStatusSeverity.Information,
  warning: vscode.LanguageStatusSeverity.Warning,
  error: vscode.LanguageStatusSeverity.Error,
};

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('BabelQueue', { log: true });
  context.subscriptions.push(output);
  // The language client traces the LSP traffic only while this output's log level is Trace (the
  // setting then says how much): a trace asked for in the setting alone showed nothing, unexplained.
  const traceHint = () => {
    const traced = vscode.workspace.getConfiguration().get('babelqueue.trace.server');
    if (typeof traced !== 'string' || traced === 'off' || output.logLevel === vscode.LogLevel.Trace) return;
    // A workspace may set it to any text: quoted cut and on one line, so it cannot begin a line of the output.
    output.info(`babelqueue.trace.server is "${quotedName(traced)}", but the LSP traffic is traced only while this output's log level is Trace: run "Developer: Set Log Level…", choose BabelQueue, then Trace.`);
  };
  traceHint();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('babelqueue.trace.server')) traceHint();
    }),
  );

  const status = vscode.languages.createLanguageStatusItem('babelqueue.server', { language: ENVELOPE_LANGUAGE_ID });
  status.name = 'BabelQueue';
  status.command = { title: 'Show Output', command: 'babelqueue.showOutput' };
  context.subscriptions.push(status);
  context.subscriptions.push(vscode.commands.registerCommand('babelqueue.showOutput', () => output.show(true)));

  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  // The server's code cache lives in the extension's own storage, never in a workspace.
  const codeCache = path.join(context.globalStorageUri.fsPath, 'code-cache');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: [...SERVER_EXEC_ARGV], env: serverEnvironment(process.env, codeCache) } },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011', ...SERVER_EXEC_ARGV], env: serverEnvironment(process.env) } },
  };
  // The byte preview's prompt render after an edit goes once the server has been sent that edit (below).
  const { previews, settingsScope } = registerBytesCommands(context, output);
  const closedViewProblems = new ClosedViewProblems(MESSAGE_SCHEME);
  context.subscriptions.push(closedViewProblems);
  // The client these options belong to, set once it is made (the middleware below runs only after its start).
  let languageClient: LanguageClient | undefined;
  const clientOptions: LanguageClientOptions = {
    // JSON files are synced too, so registry.json gets its diagnostics and an unsaved schema edit
    // re-validates at once; the server registers its editing features for envelopes only.
    // babelq.json and babelq-suppressions.json are JSON with comments (contributed as jsonc).
    documentSelector: [{ language: ENVELOPE_LANGUAGE_ID }, { language: 'json', scheme: 'file' }, { language: 'jsonc', scheme: 'file', pattern: '**/{babelq.json,babelq-suppressions.json}' }],
    outputChannel: output,
    // In Restricted Mode the server runs no git (a checkout's git config could run commands).
    // Asked at each start: the client starts a crashed server again with these options, and the
    // workspace may have been trusted since the first start.
    initializationOptions: (): ServerInitializationOptions => ({ workspaceTrusted: vscode.workspace.isTrusted, registryStatus: true, sourceActionsByKindOnly: true }),
    synchronize: { configurationSection: 'babelqueue' },
    middleware: {
      // A message view's problems leave Problems with its tab, through the workspace report's
      // sink (client/message-view.ts says why the client would keep them otherwise).
      provideWorkspaceDiagnostics: (resultIds, token, resultReporter, next) => {
        closedViewProblems.useSink(resultReporter);
        return next(resultIds, token, resultReporter);
      },
      didChange: async (event, next) => {
        await next(event);
        previews.changeSent(event.document.uri);
      },
      workspace: {
        // A change is pushed with what the server is asked for (the server's keys, as the user set
        // them): the whole section would carry the broker URL, and with it any password in it, into
        // the traced LSP traffic of the output channel. It is sent through this client, never handed
        // on to the library: a stop during the start lets the start finish (and send its first
        // configuration) after the extension has let go of its client.
        didChangeConfiguration: async (sections, next) => {
          if (!sections?.includes('babelqueue')) return next(sections);
          if (!languageClient) return;
          const configuration = vscode.workspace.getConfiguration('babelqueue');
          await languageClient.sendNotification(DidChangeConfigurationNotification.type, { settings: { babelqueue: explicitSettings((key) => configuration.inspect(key)) } });
        },
        // Only what the user set goes to the server, so babelq.json decides everything else (client/explicit-settings.ts).
        configuration: (params, token, next) => {
          if (!params.items.every((item) => item.section === 'babelqueue')) return next(params, token);
          return params.items.map((item) => {
            const configuration = vscode.workspace.getConfiguration('babelqueue', item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined);
            return explicitSettings((key) => configuration.inspect(key));
          });
        },
      },
    },
  };

  languageClient = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  client = languageClient;
  // The status item shows one view of three facts: the server's state, what the server last said
  // about the active envelope's registry, and whether babelqueue.validation.enable turns validation
  // off for it. Every change of any of them renders it here, and only here.
  let serverState: ServerState = 'starting';
  const registryStatus = new Map<string, RegistryStatusParams>();
  const render = () => {
    const active = vscode.window.activeTextEditor?.document.uri;
    const uri = active?.toString();
    // The setting is read where the active envelope's settings are (a message view's: those it was read with).
    const validating = vscode.workspace.getConfiguration(undefined, active && settingsScope(active)).get(VALIDATION_SETTING) !== false;
    const view = describeState(serverState, uri ? registryStatus.get(uri) : undefined, validating);
    status.text = view.text;
    status.detail = view.detail;
    status.severity = STATUS_SEVERITIES[view.severity];
    status.busy = view.busy;
  };
  render();
  context.subscriptions.push(
    client.onDidChangeState((event) => {
      serverState = event.newState === State.Running ? 'running' : event.newState === State.Starting ? 'starting' : 'stopped';
      render();
    }),
    vscode.window.onDidChangeActiveTextEditor(render),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(VALIDATION_SETTING)) render();
    }),
  );
  registerNewEnvelopeCommand(context, client);
  registerLintTasks(context);
  registerWholeEnvelopeCompletion(context);
  // Listened for before the start: the server sends each status once, and the first ones answer
  // the pulls the client makes for the files already open while it starts.
  context.subscriptions.push(
    client.onNotification(REGISTRY_STATUS_METHOD, (params: RegistryStatusParams) => {
      registryStatus.set(params.uri, params);
      render();
    }),
  );
  // Listened for before the start too: trust is often granted in the first seconds, while the
  // server starts, and a notification sent then waits for the start. A server that is gone
  // (stopped after crashing) has nothing to be told: one started again asks at its start.
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void client?.sendNotification(WORKSPACE_TRUSTED_METHOD).catch(() => undefined)));
  try {
    await client.start();
  } catch (error) {
    serverState = 'stopped';
    render();
    output.error(`The language server failed to start: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Preview, send, peek, dead letters and redrive: they run in the extension host on core/ and broker/ (a large envelope's preview is rendered by the server). */
function registerBytesCommands(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): { previews: PreviewProvider; settingsScope: (uri: vscode.Uri) => vscode.Uri } {
  const freshIds = new FreshIds();
  // The saved file's bytes, checked as lint reads them before a preview or a send (not UTF-8: refused).
  const savedBytes = new SavedBytesCheck({
    stat: async (uri) => vscode.workspace.fs.stat(vscode.Uri.parse(uri)),
    read: async (uri) => vscode.workspace.fs.readFile(vscode.Uri.parse(uri)),
  });
  context.subscriptions.push(vscode.workspace.onDidCloseTextDocument((document) => savedBytes.forget(document.uri.toString())));
  const views = new MessageViews();
  // A message view is in no workspace folder: its preview, lens and send read the settings it was read with, as its redrive does.
  const settingsScope = (uri: vscode.Uri): vscode.Uri => views.messageOf(uri)?.source.settingsUri ?? uri;
  const previews = new PreviewProvider(freshIds, new PreviewRenderer(serverPreview(() => client), (message) => output.warn(message)), savedBytes, settingsScope);
  // Lists and redrives are judged by the server, which holds the workspace's registry and babelq.json.
  const judge = serverJudge(() => client);
  const redrives = registerRedriveCommands({ context, output, views, judge });
  // Above a dead letter, and above its edited copy, the lens is Redrive: a send would publish a
  // second message with the dead_letter block and leave the stored one in the DLQ.
  const isDeadLetter = (uri: vscode.Uri): boolean => views.messageOf(uri)?.source.deadLetters === true || redrives.isEditedCopy(uri);
  const lenses = new EnvelopeCodeLenses(SEND_COMMAND, { command: REDRIVE_COMMAND, isDeadLetter }, settingsScope);
  context.subscriptions.push(
    previews,
    lenses,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.languages.registerCodeLensProvider({ language: ENVELOPE_LANGUAGE_ID }, lenses),
    vscode.commands.registerCommand(PREVIEW_COMMAND, (argument?: unknown) => {
      const source = previewSource(argument);
      if (!source) {
        void vscode.window.showInformationMessage('Open a *.babel.json envelope to preview its published bytes.');
        return undefined;
      }
      // The render starts on the click and runs while VS Code opens the preview's editor.
      previews.startRender(source);
      return showPreview(source);
    }),
  );
  registerSendCommands({ context, output, freshIds, savedBytes, sent: (source) => previews.refresh(source), settingsScope, redriveInstead: { command: REDRIVE_COMMAND, isDeadLetter } });
  registerMessageViews(context, views);
  registerMessageCommands({ context, output, views, judge });
  return { previews, settingsScope };
}

export async function deactivate(): Promise<void> {
  const stopping = client;
  client = undefined;
  if (!stopping) return;
  // The language client refuses to stop a server still starting: its start is waited for, so the
  // server it brings up is stopped, not left behind. A start that failed left nothing to stop.
  if (stopping.state === State.Starting) await stopping.start().catch(() => undefined);
  if (stopping.isRunning()) await stopping.stop();
}
