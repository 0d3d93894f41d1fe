/**
 * Language server entry point. The transport (stdio, IPC, a socket or a pipe) comes from the
 * command line (./transport.ts); a command line that names none usable is refused with a sentence
 * and exit code 2, and a socket or pipe that cannot be reached with one and exit code 1. Over stdio
 * the input passes through FramingRepair, so one broken frame from a client does not leave the
 * server unable to read every later message; on every transport, an `initialize` the library could
 * not read is repaired first (InitializeRepair).
 */
import { format } from 'node:util';
import { createConnection as connectTo } from 'node:net';
import { createConnection, IPCMessageReader, type Message, IPCMessageWriter, ProposedFeatures, SocketMessageReader, SocketMessageWriter } from 'vscode-languageserver/node';
import { FramingRepair } from './framing';
import { AfterShutdown } from './after-shutdown';
import { MessageGate } from './message-gate';
import { InitializeRepair } from './initialize-shape';
import { startServer } from './server';
import { readTransport, type Transport } from './transport';

const initializeRepair = new InitializeRepair();
const afterShutdown = new AfterShutdown();
const gate = new MessageGate();
const options = {
  messageStrategy: {
    handleMessage: (message: Message, next: (message: Message) => void) =>
      gate.handle(message, (gated) => afterShutdown.handle(gated, (passed) => initializeRepair.strategy.handleMessage(passed, next))),
  },
};

const choice = readTransport(process.argv.slice(2));
if ('problem' in choice) {
  process.stderr.write(`babelq-language-server: ${choice.problem}\n`);
  process.exitCode = 2;
} else {
  start(choice.transport);
}

function start(transport: Transport): void {
  if (transport.kind === 'stdio') {
    // stdout carries the protocol: anything a dependency prints goes to stderr instead.
    for (const method of ['log', 'info', 'debug', 'warn', 'error'] as const) {
      console[method] = (...args: unknown[]) => void process.stderr.write(`${format(...args)}\n`);
    }
    let report: (reason: string) => void = () => undefined;
    const input = process.stdin.pipe(new FramingRepair((reason) => report(reason)));
    const connection = createConnection(ProposedFeatures.all, input, process.stdout, options);
    report = (reason) => connection.console.warn(`Skipped a malformed message from the client: ${reason}.`);
    startServer(connection, initializeRepair);
  } else if (transport.kind === 'node-ipc') {
    startServer(createConnection(ProposedFeatures.all, new IPCMessageReader(process), new IPCMessageWriter(process), options), initializeRepair);
  } else {
    // The editor listens; the server connects, as the library would, but says why when it cannot
    // (the library's own socket ends the process quietly, with exit code 0).
    const where = transport.kind === 'socket' ? `the editor's socket on 127.0.0.1:${transport.port}` : `the editor's pipe ${transport.name}`;
    const socket = transport.kind === 'socket' ? connectTo(transport.port, '127.0.0.1') : connectTo(transport.name);
    const unreachable = (error: Error) => {
      process.stderr.write(`babelq-language-server: cannot connect to ${where}: ${error.message}\n`);
      process.exit(1);
    };
    socket.once('error', unreachable);
    socket.once('connect', () => socket.off('error', unreachable));
    startServer(createConnection(ProposedFeatures.all, new SocketMessageReader(socket), new SocketMessageWriter(socket), options), initializeRepair);
  }
}
