/** The root of a file opened without any workspace folder: the nearest .git above it, else its folder. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { projectRootOf } from '../../workspace/project-root';

test('the nearest folder holding .git (a folder or a worktree file) is the root', () => {
  const gits = new Set(['/home/me/shop/.git', '/home/me/.git']);
  assert.equal(projectRootOf('/home/me/shop/fixtures/orders/a.babel.json', (path) => gits.has(path)), '/home/me/shop');
  assert.equal(projectRootOf('/home/me/shop/a.babel.json', (path) => gits.has(path)), '/home/me/shop');
  assert.equal(projectRootOf('/home/me/notes/a.babel.json', (path) => gits.has(path)), '/home/me');
});

test('without .git above it, a file is its own folder\'s root', () => {
  assert.equal(projectRootOf('/tmp/x/y/a.babel.json', () => false), '/tmp/x/y');
});

test('the walk up stops after 64 folders', () => {
  const deep = `/${Array.from({ length: 80 }, (_, i) => `d${i}`).join('/')}/a.babel.json`;
  const asked: string[] = [];
  assert.equal(projectRootOf(deep, (path) => (asked.push(path), path === '/.git')), deep.slice(0, deep.lastIndexOf('/')));
  assert.equal(asked.length, 64);
});
