/**
 * `resolveInputs` (cli/paths.ts): the paths a lint reports are the inputs joined with the files
 * found under them, however the input is written, and each file's absolute path is where it is.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { after, test } from 'node:test';
import { resolveInputs } from '../../cli/paths';

const root = mkdtempSync(join(tmpdir(), 'babelq-paths-'));
after(() => rmSync(root, { recursive: true, force: true }));
const cwd = join(root, 'project');
for (const file of ['sub/a.babel.json', 'sub/deeper/b.babel.json', 'top.babel.json']) {
  mkdirSync(join(cwd, file, '..'), { recursive: true });
  writeFileSync(join(cwd, file), '{}');
}

test('every spelling of a directory input reports the paths join() gives, with the right absolute paths', () => {
  for (const input of ['.', './', 'sub', 'sub/', './sub', 'sub/../sub', 'sub//deeper', '../project/sub', join(cwd, 'sub')]) {
    const files = resolveInputs([input], cwd);
    assert.ok(files.length > 0, input);
    for (const file of files) {
      assert.equal(file.absolute, resolve(cwd, file.path), input);
      assert.equal(file.path, join(input, relative(resolve(cwd, input), file.absolute)), input);
    }
  }
  assert.deepEqual(resolveInputs(['.'], cwd).map((file) => file.path), ['sub/a.babel.json', 'sub/deeper/b.babel.json', 'top.babel.json'].map((path) => join(path)));
});
