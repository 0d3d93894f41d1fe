/**
 * `babelq lsp`: the language server, for editors that start one command for both the CLI and the
 * server. It loads the server bundle that ships beside the CLI's (dist/server.js) into this
 * process, so `babelq lsp --stdio` is exactly `babelq-language-server --stdio`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CliEnvironment, Command, CommandResult } from './command';
import { CliError, quoted } from './errors';

export const LSP_USAGE = `Usage: babelq lsp [--stdio | --node-ipc]

Runs the BabelQueue language server (the same server as babelq-language-server).

Options:
  --stdio       speak LSP over standard input and output (the default)
  --node-ipc    speak LSP over Node's IPC channel (for a client that forks the server)
  -h, --help    show this help
`;

/** The lsp command for the command table. */
export const lspCommand: Command = {
  synopsis: 'lsp [--stdio|--node-ipc]',
  summary: 'run the language server for an editor (stdio by default)',
  run: (args, environment) => runLsp(args, environment),
};

/**
 * The server bundle: beside the CLI's bundle in dist/, or in dist/ when the CLI runs from its
 * source (tests). Loading it starts the server; it reads the transport from process.argv.
 */
export function serverBundle(from: string = __dirname): string | undefined {
  return [join(from, 'server.js'), join(from, '..', 'dist', 'server.js')].find((path) => existsSync(path));
}

export function runLsp(args: readonly string[], _environment: CliEnvironment, start: (bundle: string, transport: string) => void = startServerBundle): CommandResult {
  if (args.includes('-h') || args.includes('--help')) return { stdout: LSP_USAGE, stderr: '', exitCode: 0 };
  const unknown = args.find((arg) => arg !== '--stdio' && arg !== '--node-ipc');
  if (unknown !== undefined) throw new CliError(`lsp takes --stdio or --node-ipc, not '${quoted(unknown)}'`, true);
  if (args.length > 1) throw new CliError('lsp takes one transport: --stdio or --node-ipc', true);
  const transport = args[0] ?? '--stdio';
  if (transport === '--node-ipc' && typeof process.send !== 'function') {
    throw new CliError('--node-ipc needs a parent process that started babelq with an IPC channel; use --stdio from a terminal or an editor that pipes', true);
  }
  const bundle = serverBundle();
  if (!bundle) throw new CliError(`the language server bundle (server.js) is not beside the CLI in ${__dirname}: run \`npm run build\``);
  start(bundle, transport);
  // The server keeps the process alive; nothing may go to stdout besides the protocol.
  return { stdout: '', stderr: '', exitCode: 0 };
}

function startServerBundle(bundle: string, transport: string): void {
  // vscode-languageserver and server/main.ts read the transport from the command line.
  process.argv = [process.argv[0], bundle, transport];
  // A path known only at run time: esbuild leaves this require to Node.
  require(bundle);
}
