/**
 * Language server entry point. The transport (stdio, IPC or a socket) comes from the command
 * line (`--stdio`, `--node-ipc`, `--socket=N`), as vscode-languageserver reads it. Over stdio the
 * input passes through FramingRepair, so one broken frame from a client does not leave the server
 * unable to read every later message; on every transport, an `initialize` the library could not
 * read is repaired first (InitializeRepair).
 */
import { format } from 'node:util';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { FramingRepair } from './framing';
import { InitializeRepair } from './initialize-shape';
import { startServer } from './server';

const initializeRepair = new InitializeRepair();
const options = { messageStrategy: initializeRepair.strategy };

if (process.argv.includes('--stdio')) {
  // stdout carries the protocol: anything a dependency prints goes to stderr instead.
  for (const method of ['log', 'info', 'debug', 'warn', 'error'] as const) {
    console[method] = (...args: unknown[]) => void process.stderr.write(`${format(...args)}\n`);
  }
  let report: (reason: string) => void = () => undefined;
  const input = process.stdin.pipe(new FramingRepair((reason) => report(reason)));
  const connection = createConnection(ProposedFeatures.all, input, process.stdout, options);
  report = (reason) => connection.console.warn(`Skipped a malformed message from the client: ${reason}.`);
  startServer(connection, initializeRepair);
} else {
  startServer(createConnection(ProposedFeatures.all, options), initializeRepair);
}
