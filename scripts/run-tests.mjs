// Runs every test file under test/ (test/**/*.test.ts) with Node's own test runner; TypeScript is
// loaded through tsx. Extra arguments narrow the run to files whose path contains any of them.
// The spec reporter, not TAP (Node's default without a terminal): it ends with every failing test
// and its error, so a long CI log that is read from its end names what failed.
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

const filters = process.argv.slice(2);
const files = findTests('test')
  .map((file) => relative('.', file))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)));
if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
