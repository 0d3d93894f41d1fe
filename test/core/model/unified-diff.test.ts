/** core/model/unified-diff.ts: the diff `git apply` turns into the new text, on seeded random edits. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { unifiedDiff } from '../../../core/model/unified-diff';

/** A small seeded generator, so a failure reproduces. */
function random(seed: number): () => number {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}

test('git apply of the diff gives the new text (200 seeded cases: removals, insertions, changes, a missing final newline)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'babelq-diff-'));
  const next = random(42);
  try {
    for (let round = 0; round < 200; round++) {
      const before = Array.from({ length: Math.floor(next() * 40) }, () => `line ${Math.floor(next() * 6)}\n`);
      const after = before.flatMap((line) => (next() < 0.15 ? [] : next() < 0.15 ? [line, `new ${Math.floor(next() * 3)}\n`] : next() < 0.1 ? ['changed\n'] : [line]));
      if (next() < 0.3 && after.length > 0) after[after.length - 1] = after[after.length - 1].slice(0, -1);
      const a = before.join('');
      const b = after.join('');
      const diff = unifiedDiff(a, b, 'f.babel.json');
      if (a === b) {
        assert.equal(diff, '');
        continue;
      }
      writeFileSync(join(dir, 'f.babel.json'), a);
      writeFileSync(join(dir, 'p.diff'), diff);
      execFileSync('git', ['apply', '--unidiff-zero', 'p.diff'], { cwd: dir });
      assert.equal(readFileSync(join(dir, 'f.babel.json'), 'utf8'), b, `round ${round}:\n${diff}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a one-line change in a 200,000-line text is one small hunk, found fast', () => {
  const lines = Array.from({ length: 200_000 }, (_, i) => `  "k${i}": ${i},\n`);
  const before = lines.join('');
  lines[100_000] = '  "changed": true,\n';
  const started = performance.now();
  const diff = unifiedDiff(before, lines.join(''), 'big.babel.json');
  assert.ok(performance.now() - started < 2_000);
  assert.equal(diff.split('\n').filter((line) => line.startsWith('@@')).length, 1);
  assert.match(diff, /^-  "k100000": 100000,$/m);
  assert.match(diff, /^\+  "changed": true,$/m);
});

test('a file name with a tab, a line break, a quote or a backslash is quoted in the headers as git quotes it', () => {
  const diff = unifiedDiff('a\n', 'b\n', 'x\ty\n+++ b/evil"\\.babel.json');
  const headers = diff.split('\n').slice(0, 2);
  assert.deepEqual(headers, ['--- "a/x\\ty\\n+++ b/evil\\"\\\\.babel.json"', '+++ "b/x\\ty\\n+++ b/evil\\"\\\\.babel.json"']);
  assert.equal(diff.split('\n').filter((line) => line.startsWith('+++')).length, 1, 'the name starts no line of its own');
  assert.ok(unifiedDiff('a\n', 'b\n', 'plain name.babel.json').startsWith('--- a/plain name.babel.json\n+++ b/plain name.babel.json\n'));
});
