/**
 * `resolveInputs` (cli/paths.ts): the paths a lint reports are the inputs joined with the files
 * found under them, however the input is written, and each file's absolute path is where it is.
 * `namedFromCwd`: how a message names a file from the run's folder.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { after, test } from 'node:test';
import { namedFromCwd, resolveInputs } from '../../cli/paths';

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

test('a walk follows links to files inside the folder it walks, not to files outside it; a link named as such is taken', { skip: process.platform === 'win32' && 'needs symbolic links' }, () => {
  const folder = join(root, 'linked');
  mkdirSync(join(folder, 'shared'), { recursive: true });
  writeFileSync(join(folder, 'shared/base.babel.json'), '{}');
  writeFileSync(join(root, 'secret.env'), 'DB_PASSWORD=hunter2\n');
  symlinkSync(join(folder, 'shared/base.babel.json'), join(folder, 'inside.babel.json'));
  symlinkSync(join(root, 'secret.env'), join(folder, 'outside.babel.json'));
  assert.deepEqual(resolveInputs(['.'], folder).map((file) => file.path), ['inside.babel.json', join('shared', 'base.babel.json')]);
  assert.deepEqual(resolveInputs(['*.babel.json'], folder).map((file) => file.path), ['inside.babel.json']);
  assert.deepEqual(resolveInputs(['outside.babel.json'], folder).map((file) => file.path), ['outside.babel.json'], 'named, it is the user\'s choice');
  // A link into a sibling folder of the project (the current folder) is followed when walking a subfolder.
  mkdirSync(join(folder, 'orders'));
  symlinkSync(join(folder, 'shared/base.babel.json'), join(folder, 'orders/linked.babel.json'));
  assert.deepEqual(resolveInputs(['orders'], folder).map((file) => file.path), [join('orders', 'linked.babel.json')]);
  // A folder or pattern whose only fixtures are links leading out finds nothing, and says why.
  mkdirSync(join(folder, 'out'));
  symlinkSync(join(root, 'secret.env'), join(folder, 'out/first.babel.json'));
  assert.throws(() => resolveInputs(['out'], folder), { message: `no *.babel.json files in directory 'out' ('${join('out', 'first.babel.json')}' links to a file outside the folder walked and the current folder, and is not followed; name it to lint it)` });
  assert.throws(() => resolveInputs(['out/*.babel.json'], folder), { message: /^no files match the pattern 'out\/\*\.babel\.json' \('out\/first\.babel\.json' links to a file outside/ });
  symlinkSync(join(root, 'secret.env'), join(folder, 'out/second.babel.json'));
  assert.throws(() => resolveInputs(['out'], folder), { message: `no *.babel.json files in directory 'out' (2 links to files outside the folder walked and the current folder, such as '${join('out', 'first.babel.json')}', are not followed; name one to lint it)` });
  // Beside a fixture found, a link leading out stays quiet: the walk lints what it found.
  writeFileSync(join(folder, 'out/found.babel.json'), '{}');
  assert.deepEqual(resolveInputs(['out'], folder).map((file) => file.path), [join('out', 'found.babel.json')]);
});

test('a folder whose fixtures lie behind a symbolic link to a folder finds nothing and says the link is not followed; named, the link is walked', { skip: process.platform === 'win32' && 'needs symbolic links' }, () => {
  const folder = join(root, 'folder-link');
  mkdirSync(join(root, 'shared-fixtures'), { recursive: true });
  writeFileSync(join(root, 'shared-fixtures/a.babel.json'), '{}');
  mkdirSync(join(folder, 'fixtures'), { recursive: true });
  symlinkSync(join(root, 'shared-fixtures'), join(folder, 'fixtures/shared'));
  assert.throws(() => resolveInputs(['fixtures'], folder), { message: `no *.babel.json files in directory 'fixtures' ('${join('fixtures', 'shared')}' is a symbolic link to a folder, which a walk does not follow; name it to lint the fixtures in it)` });
  assert.deepEqual(resolveInputs([join('fixtures', 'shared')], folder).map((file) => file.path), [join('fixtures', 'shared', 'a.babel.json')]);
});

test('a message names a file from the run\'s folder, one above it with ../, and the folder itself by the path given', () => {
  assert.equal(namedFromCwd(cwd, join(cwd, 'sub', 'a.babel.json')), join('sub', 'a.babel.json'));
  assert.equal(namedFromCwd(cwd, join(root, 'registry.json')), join('..', 'registry.json'));
  // relative() of the folder itself is '', which would name no file at all.
  assert.equal(namedFromCwd(cwd, cwd), cwd);
  assert.equal(namedFromCwd(cwd, `${cwd}/`), `${cwd}/`);
});
