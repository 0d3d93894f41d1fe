/**
 * `babelq lint` parses thousands of small files in one process, so the parser's scan runs as V8's
 * optimized code for most of them only if that code, once made, is kept. V8 compiles `charCodeAt`
 * as a read within bounds and throws the compiled function away the first time a read is not;
 * every file's last whitespace run used to read one past the end, so the scan was compiled twice
 * (about 80 ms of compiling each, while the files went on through the slower tiers).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(__dirname, '../../..');

// Envelopes as fixtures are written: ending in a newline, and (as some editors save them) not.
const SCRIPT = `
const { parseText } = require(${JSON.stringify(resolve(ROOT, 'core/parse/parser.ts'))});
const { envelopeText } = require(${JSON.stringify(resolve(ROOT, 'bench/generate.ts'))});
const texts = [1, 2, 3, 4].map((seed) => envelopeText(3_000, seed));
for (let i = 0; i < 2_000; i++) {
  const text = texts[i % 4];
  parseText(i % 2 === 0 ? text + '\\n' : text.trimEnd());
}
`;

test('the parser scan, once optimized, is not thrown away at the end of a file', () => {
  // Compiled on the main thread, so the scan is optimized after as many parses on a busy machine as on a quiet one.
  const flags = ['--trace-opt', '--trace-deopt', '--no-concurrent-recompilation', '--no-concurrent-osr'];
  const result = spawnSync(process.execPath, ['--import', 'tsx', ...flags, '-e', SCRIPT], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  const scan = /<JSFunction scan \(/;
  const lines = result.stdout.split('\n').filter((line) => scan.test(line));
  // The test means something only if V8 did optimize the scan within the loop.
  assert.ok(lines.some((line) => line.startsWith('[completed compiling')), 'the scan was never optimized');
  const deoptimized = lines.filter((line) => line.includes('deoptimizing'));
  assert.deepEqual(deoptimized, []);
});
