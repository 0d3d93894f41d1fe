#!/usr/bin/env node
// The babelq command: runs the bundled CLI. A clone has no bundles until it is built, so say how
// to make them instead of failing with a module-not-found stack.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'dist', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write(`babelq: ${cli} is missing: run \`npm run build\` in ${join(__dirname, '..')} first.\n`);
  process.exitCode = 2;
} else {
  require(cli);
}
