#!/usr/bin/env node
// The BabelQueue language server for any editor: over stdio unless the editor names another
// transport (--node-ipc, --socket=<port>, --pipe=<name>). The same server as `babelq lsp`.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const server = join(__dirname, '..', 'dist', 'server.js');
if (!existsSync(server)) {
  process.stderr.write(`babelq-language-server: ${server} is missing: run \`npm run build\` in ${join(__dirname, '..')} first.\n`);
  process.exitCode = 2;
} else if (process.argv.includes('--node-ipc') && typeof process.send !== 'function') {
  // As `babelq lsp` says it: without the channel the server would have nothing to talk over.
  // npx starts the bin in a shell of its own and does not pass the channel on.
  process.stderr.write('babelq-language-server: --node-ipc needs a parent process that started it with an IPC channel (npx does not pass one on: fork the installed bin itself); use --stdio from a terminal or an editor that pipes\n');
  process.exitCode = 2;
} else {
  const transports = ['--stdio', '--node-ipc'];
  const named = process.argv.slice(2).some((arg) => transports.includes(arg) || arg.startsWith('--socket=') || arg.startsWith('--pipe='));
  if (!named) process.argv.push('--stdio');
  require(server);
}
