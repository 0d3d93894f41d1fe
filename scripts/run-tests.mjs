// Runs every test file under test/ (test/**/*.test.ts) with Node's own test runner; TypeScript is
// loaded through tsx. Extra arguments narrow the run to files whose path contains any of them.
// The spec reporter, not TAP (Node's default without a terminal): it ends with every failing test
// and its error, so a long CI log that is read from its end names what failed.
// Each file is given at most 15 minutes (the slowest takes about 1.5 on a busy machine): a file
// that hangs (a request a server never answers) fails by name and is stopped (a server it started
// ends as its input closes), instead of holding the run until CI's own limit ends it unnamed.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function findTests(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

const FILE_TIMEOUT_MS = 15 * 60 * 1000;

const filters = process.argv.slice(2);
const files = findTests('test')
  .map((file) => relative('.', file))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)));
if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', `--test-timeout=${FILE_TIMEOUT_MS}`, ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
