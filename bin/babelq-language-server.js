#!/usr/bin/env node
// The BabelQueue language server for any editor: over stdio unless the editor names another
// transport (--node-ipc, --socket=<port>, --pipe=<name>). The same server as `babelq lsp`.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const USAGE = `Usage: babelq-language-server [--stdio | --node-ipc | --socket=<port> | --pipe=<name>]

Runs the BabelQueue language server (the same server as \`babelq lsp\`) for an editor.

Options:
  --stdio            speak LSP over standard input and output (the default)
  --node-ipc         speak LSP over Node's IPC channel (for a client that forks the server)
  --socket=<port>    connect to the editor's socket on this port
  --pipe=<name>      connect to the editor's named pipe
  -h, --help         show this help
  -v, --version      show the version
`;

const server = join(__dirname, '..', 'dist', 'server.js');
const args = process.argv.slice(2);
// Asked in a terminal, these answer and end; started as a server, the process would wait on stdin.
if (args.includes('-h') || args.includes('--help')) {
  process.stdout.write(USAGE);
} else if (args.includes('-v') || args.includes('--version')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else if (!existsSync(server)) {
  process.stderr.write(`babelq-language-server: ${server} is missing: run \`npm run build\` in ${join(__dirname, '..')} first.\n`);
  process.exitCode = 2;
} else if (process.argv.includes('--node-ipc') && typeof process.send !== 'function') {
  // As `babelq lsp` says it: without the channel the server would have nothing to talk over.
  // npx starts the bin in a shell of its own and does not pass the channel on.
  process.stderr.write('babelq-language-server: --node-ipc needs a parent process that started it with an IPC channel (npx does not pass one on: fork the installed bin itself); use --stdio from a terminal or an editor that pipes\n');
  process.exitCode = 2;
} else {
  // The server reads its transport from the command line (stdio when none is named) and refuses
  // one it cannot use with a sentence (server/transport.ts).
  require(server);
}
