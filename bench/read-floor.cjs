// The floors of `babelq lint` on a folder: what Node costs to find every *.babel.json below the
// current directory and read each file in turn, doing nothing with the bytes: about what a Node
// tool that reads those files one after another pays before it lints anything. With `--parse`,
// each file's text is also decoded and handed to JSON.parse, Node's fastest JSON parser, and the
// result dropped: what any Node tool that looks inside the files pays at the least, since a lint
// cannot judge a file it has not parsed.
// bench/scenarios/cli.ts times both and reads their peak memory the way it reads babelq's (started
// with --require bench/memory-probe.cjs). Prints how many files it read.
const { closeSync, openSync, readdirSync, readSync } = require('node:fs');
const { join } = require('node:path');

const parse = process.argv.includes('--parse');
const buffer = Buffer.allocUnsafe(1 << 20);
let files = 0;
const walk = (directory) => {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.babel.json')) {
      const fd = openSync(path, 'r');
      const length = readSync(fd, buffer, 0, buffer.length, 0);
      closeSync(fd);
      if (parse) JSON.parse(buffer.toString('utf8', 0, length));
      files++;
    }
  }
};
walk('.');
process.stdout.write(`${files}\n`);
