/**
 * Language server entry point. The transport (stdio, IPC or a socket) comes from the command
 * line (`--stdio`, `--node-ipc`, `--socket=N`), as vscode-languageserver reads it.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

startServer(createConnection(ProposedFeatures.all));
