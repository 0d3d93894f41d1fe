/**
 * cli/fix.ts writes a fixed fixture only over the bytes the fixes were made from: a file saved by
 * someone else (an editor) between lint's read and its write keeps what they saved.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CliError } from '../../cli/errors';
import { fixFile } from '../../cli/fix';
import { lintContext } from '../../cli/lint-file';
import { FORBIDDEN_TIMESTAMP } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'babelq-fix-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a fixture changed on disk after it was read is not written over: its new text stays, and the run says why', () => {
  const path = join(dir, 'a.babel.json');
  const file = { path: 'a.babel.json', absolute: path };
  const context = lintContext({ cwd: dir, config: undefined, registry: undefined });
  writeFileSync(path, FORBIDDEN_TIMESTAMP);
  const read = readFileSync(path);
  const saved = FORBIDDEN_TIMESTAMP.replace('"timestamp"', '"timestamp_saved_by_the_editor"');
  writeFileSync(path, saved);
  assert.throws(() => fixFile(file, read, context, 'fix'), (error: unknown) => error instanceof CliError && /'a\.babel\.json' changed after it was read; it was not written/.test(error.message));
  assert.equal(readFileSync(path, 'utf8'), saved);
  assert.deepEqual(readdirSync(dir).filter((name) => name.includes('babelq-tmp')), [], 'no temporary file is left');
  // Unchanged since the read: written.
  writeFileSync(path, FORBIDDEN_TIMESTAMP);
  const outcome = fixFile(file, readFileSync(path), context, 'fix');
  assert.ok(outcome.applied > 0);
  assert.ok(!readFileSync(path, 'utf8').includes('"timestamp"'));
});
