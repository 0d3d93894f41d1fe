/**
 * The language server started in this process (`startServer` over a pair of streams), for a test
 * that counts what the server does by patching a prototype before the start: initialized for one
 * workspace folder as VS Code's client would be (pulled diagnostics, configuration, file events),
 * and handed over once the server's watchers are registered.
 */
import { PassThrough } from 'node:stream';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from '../../server/server';
import type { ScratchFolder } from './scratch-folder';

export interface InProcessServer {
  /** The client's side of the connection. */
  readonly client: ProtocolConnection;
  /** Shuts the server down and closes the streams. */
  stop(): Promise<void>;
}

export async function startInProcessServer(folder: ScratchFolder, name: string): Promise<InProcessServer> {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const client = createProtocolConnection(new StreamMessageReader(fromServer), new StreamMessageWriter(toServer));
  let registered!: () => void;
  const watchersRegistered = new Promise<void>((done) => (registered = done));
  client.onRequest('client/registerCapability', (params: { registrations: { method: string }[] }) => {
    if (params.registrations.some((registration) => registration.method === 'workspace/didChangeWatchedFiles')) setImmediate(registered);
    return null;
  });
  client.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
  client.onRequest('workspace/diagnostic/refresh', () => null);
  client.onNotification('window/logMessage', () => undefined);
  client.listen();
  startServer(createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(fromServer)));
  const stop = async (): Promise<void> => {
    await client.sendRequest('shutdown').catch(() => undefined);
    client.dispose();
    toServer.end();
    fromServer.end();
  };
  try {
    await client.sendRequest('initialize', {
      processId: null,
      rootUri: folder.uriOf(''),
      workspaceFolders: [{ uri: folder.uriOf(''), name }],
      capabilities: {
        workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true }, diagnostics: { refreshSupport: true } },
        textDocument: { diagnostic: { dynamicRegistration: false } },
      },
    });
    await client.sendNotification('initialized', {});
    await watchersRegistered;
  } catch (error) {
    await stop();
    throw error;
  }
  return { client, stop };
}
