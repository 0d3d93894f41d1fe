/**
 * workspace/path-containment.ts: where a file reached through symbolic links really is, including
 * one not written yet (`realPathOfMissing`), and where a watcher of the folder names it (`linkedPlace`).
 */
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { linkedPlace, realPathOfMissing } from '../../workspace/path-containment';
import { scratchFolder } from '../support/scratch-folder';

test('realPathOfMissing: where a file not there would be written, links followed', () => {
  const folder = scratchFolder('babelq-missing-real-');
  const root = folder.base;
  mkdirSync(join(root, 'real'));
  symlinkSync(join(root, 'real'), join(root, 'linked'));
  symlinkSync(join(root, 'real', 'target.json'), join(root, 'dangling.json'));
  symlinkSync(join(root, 'gone'), join(root, 'dangling-folder'));
  symlinkSync(join(root, 'loop.json'), join(root, 'loop.json'));
  assert.equal(realPathOfMissing(join(root, 'real', 'a.json')), join(root, 'real', 'a.json'), 'in a real folder: itself');
  assert.equal(realPathOfMissing(join(root, 'linked', 'a.json')), join(root, 'real', 'a.json'), 'in a linked folder: where the folder really is');
  assert.equal(realPathOfMissing(join(root, 'dangling.json')), join(root, 'real', 'target.json'), 'a link to a file not written yet: that file');
  assert.equal(realPathOfMissing(join(root, 'dangling-folder', 'a.json')), join(root, 'gone', 'a.json'), 'below a link to a folder not made yet: in that folder');
  assert.equal(realPathOfMissing(join(root, 'nowhere', 'deeper', 'a.json')), join(root, 'nowhere', 'deeper', 'a.json'), 'below folders not made yet: as written');
  assert.equal(realPathOfMissing(join(root, 'loop.json')), join(root, 'loop.json'), 'a link to itself ends');
});

test('linkedPlace: a file reached through a link below the folder is named where it really is; one reached through none, or outside the folder, is not', () => {
  const folder = scratchFolder('babelq-linked-place-');
  const root = folder.base;
  assert.equal(linkedPlace(root, join(root, 'pkg', 'registry.json'), root, join(root, 'shared', 'registry.json')), join(root, 'shared', 'registry.json'));
  assert.equal(linkedPlace(root, join(root, 'pkg', 'registry.json'), root, join(root, 'pkg', 'registry.json')), undefined);
  assert.equal(linkedPlace(root, join(root, 'pkg', 'registry.json'), root, '/elsewhere/registry.json'), undefined);
  // A folder opened through a link: its files are named below the folder as it is named.
  assert.equal(linkedPlace('/opened/by/link', '/opened/by/link/pkg/registry.json', root, join(root, 'pkg', 'registry.json')), undefined);
});

test('realPathOfMissing: a path far longer than any a system opens (a setting of 200,000 folders) is answered at once, not by a walk up each of them', () => {
  const { base } = scratchFolder('babelq-long-path-');
  const long = join(base, `${'a/'.repeat(200_000)}registry.json`);
  const started = Date.now();
  assert.equal(realPathOfMissing(long), long);
  assert.ok(Date.now() - started < 1_000, `${Date.now() - started} ms`);
  // Just below the bound, the walk still runs and follows what is there.
  const within = join(base, `${'a/'.repeat(1_000)}registry.json`);
  assert.equal(realPathOfMissing(within), within);
});
