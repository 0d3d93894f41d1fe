/**
 * A `.gitignore` that is not a regular file, as git treats it: one that is a symbolic link is not
 * followed (git refuses it, "Too many levels of symbolic links", and applies none of its lines:
 * a link could bring in a file from outside the work tree), one that is a folder holds no lines;
 * each is said, not passed over. An exclude file that is a link is followed, as git follows it.
 * Checked against `git ls-files --others --exclude-standard`.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { findFixtureFiles } from '../../workspace/fixture-files';
import { GitIgnores } from '../../workspace/gitignore';
import { projectIgnores } from '../../workspace/ignores';
import { ProjectConfigs } from '../../workspace/project-config';

const hasGit = spawnSync('git', ['--version']).status === 0;
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const root = mkdtempSync(join(tmpdir(), 'babelq-gitignore-link-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('a .gitignore that is a symbolic link or a folder is not applied, and that is said; a linked exclude file is', { skip: !hasGit && 'git is not installed' }, async () => {
  const top = join(root, 'checkout');
  mkdirSync(top);
  execFileSync('git', ['init', '-q'], { cwd: top, env: gitEnv });
  for (const folder of ['linked', 'folder', 'plain']) mkdirSync(join(top, folder));
  for (const fixture of ['linked/a.babel.json', 'folder/a.babel.json', 'plain/a.babel.json', 'plain/x.babel.json', 'excluded.babel.json']) writeFileSync(join(top, fixture), '{}');
  writeFileSync(join(root, 'all-fixtures'), '*.babel.json\n');
  symlinkSync(join(root, 'all-fixtures'), join(top, 'linked/.gitignore'));
  mkdirSync(join(top, 'folder/.gitignore'));
  writeFileSync(join(top, 'plain/.gitignore'), 'x.babel.json\n');
  writeFileSync(join(root, 'exclude'), 'excluded.babel.json\n');
  unlinkSync(join(top, '.git/info/exclude'));
  symlinkSync(join(root, 'exclude'), join(top, '.git/info/exclude'));

  const listed = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '-z'], { cwd: top, env: gitEnv, encoding: 'utf8' });
  const byGit = listed.split('\0').filter((path) => path.endsWith('.babel.json')).sort();
  assert.deepEqual(byGit, ['folder/a.babel.json', 'linked/a.babel.json', 'plain/a.babel.json'], 'git itself');

  const refused: string[] = [];
  const gitignores = new GitIgnores(undefined, undefined, (path, reason) => refused.push(`${path.slice(top.length + 1)} ${reason}`));
  const found = await findFixtureFiles(top, { ignores: projectIgnores(new ProjectConfigs(), gitignores) });
  assert.deepEqual(found.map((path) => path.slice(top.length + 1)).sort(), byGit);
  assert.deepEqual(refused.sort(), [
    'folder/.gitignore is a directory, not a regular file; it was not read. Nothing it lists is ignored.',
    'linked/.gitignore is a symbolic link; git does not follow one for a .gitignore, and neither does this tool. Nothing it lists is ignored.',
  ]);
});
