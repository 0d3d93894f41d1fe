#!/usr/bin/env node
// The BabelQueue language server for any editor: over stdio unless the editor names another
// transport (--node-ipc, --socket=<port>, --pipe=<name>). The same server as `babelq lsp`.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const server = join(__dirname, '..', 'dist', 'server.js');
if (!existsSync(server)) {
  process.stderr.write(`babelq-language-server: ${server} is missing: run \`npm run build\` in ${join(__dirname, '..')} first.\n`);
  process.exitCode = 2;
} else {
  const transports = ['--stdio', '--node-ipc'];
  const named = process.argv.slice(2).some((arg) => transports.includes(arg) || arg.startsWith('--socket=') || arg.startsWith('--pipe='));
  if (!named) process.argv.push('--stdio');
  require(server);
}
