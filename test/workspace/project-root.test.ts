/**
 * The root of a file opened without any workspace folder or root URI: the nearest .git above it,
 * else the nearest babelq.json, else the nearest registry.json, else its own folder.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { projectRootOf, repositoryTopOf } from '../../workspace/project-root';

const having = (...paths: string[]) => (path: string) => paths.includes(path);

test('the nearest folder holding .git (a folder or a worktree file) is the root', () => {
  const gits = having('/home/me/shop/.git', '/home/me/.git');
  assert.equal(projectRootOf('/home/me/shop/fixtures/orders/a.babel.json', gits), '/home/me/shop');
  assert.equal(projectRootOf('/home/me/shop/a.babel.json', gits), '/home/me/shop');
  assert.equal(projectRootOf('/home/me/notes/a.babel.json', gits), '/home/me');
});

test('.git wins over a nearer babelq.json or registry.json', () => {
  const exists = having('/repo/.git', '/repo/fixtures/babelq.json', '/repo/fixtures/orders/registry.json');
  assert.equal(projectRootOf('/repo/fixtures/orders/a.babel.json', exists), '/repo');
});

test('without .git: the nearest babelq.json, which wins over a nearer registry.json', () => {
  const exists = having('/srv/babelq.json', '/srv/project/babelq.json', '/srv/project/fixtures/registry.json', '/registry.json');
  assert.equal(projectRootOf('/srv/project/fixtures/deep/a.babel.json', exists), '/srv/project');
  assert.equal(projectRootOf('/srv/other/a.babel.json', exists), '/srv');
});

test('without .git or babelq.json: the nearest registry.json, so a registry in a parent folder is found', () => {
  const exists = having('/tmp/x/registry.json', '/tmp/registry.json');
  assert.equal(projectRootOf('/tmp/x/bad/a.babel.json', exists), '/tmp/x');
  assert.equal(projectRootOf('/tmp/x/registry.json', exists), '/tmp/x');
});

test('with no marker above it, a file is its own folder\'s root', () => {
  assert.equal(projectRootOf('/tmp/x/y/a.babel.json', () => false), '/tmp/x/y');
});

test('the walk up stops after 64 folders', () => {
  const deep = `/${Array.from({ length: 80 }, (_, i) => `d${i}`).join('/')}/a.babel.json`;
  const asked = new Set<string>();
  assert.equal(projectRootOf(deep, (path) => (asked.add(path.slice(0, path.lastIndexOf('/'))), path === '/.git')), deep.slice(0, deep.lastIndexOf('/')));
  assert.equal(asked.size, 64, 'folders looked at');
});

test('the CLI\'s repository: the nearest folder holding .git, but a home folder kept in Git only from the home folder itself', () => {
  const gits = having('/home/me/shop/.git', '/home/me/.git');
  assert.equal(repositoryTopOf('/home/me/shop/packages/a', gits, '/home/me'), '/home/me/shop');
  assert.equal(repositoryTopOf('/home/me/shop', gits, '/home/me'), '/home/me/shop');
  // A tarball unpacked under a home folder whose dotfiles are in Git is no part of that repository.
  assert.equal(repositoryTopOf('/home/me/Downloads/fixtures', gits, '/home/me'), undefined);
  assert.equal(repositoryTopOf('/home/me', gits, '/home/me'), '/home/me');
  assert.equal(repositoryTopOf('/srv/app/sub', having('/srv/app/.git'), '/home/me'), '/srv/app');
  assert.equal(repositoryTopOf('/srv/app/sub', () => false, '/home/me'), undefined);
});
