#!/usr/bin/env node
// The babelq command: runs the bundled CLI (build it with `npm run build`).
require('../dist/cli.js');
