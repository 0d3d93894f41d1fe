/**
 * server/folder-events.ts on its own: how many paths created in one batch of file events are
 * looked at (a stat each) to find the folders made or moved into the workspace, counted through
 * the injected test for a folder.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { foldersMadeAmong } from '../../server/folder-events';
import { SKIPPED_DIRECTORIES } from '../../workspace/fixture-files';

const ROOT = join('/', 'work', 'space');
const at = (...names: string[]) => join(ROOT, ...names);

/** A test for a folder that counts its calls, true for `folders`. */
function counted(folders: readonly string[]) {
  const set = new Set(folders);
  const calls = { count: 0 };
  return { calls, isDirectory: (path: string) => (calls.count++, set.has(path)) };
}

test('50,000 files created in one batch below a folder made in it: the folder alone is looked at', () => {
  const created = [at('generated')];
  const folders = [at('generated')];
  for (let p = 0; p < 500; p++) {
    created.push(at('generated', `pkg${p}`));
    folders.push(at('generated', `pkg${p}`));
    for (let f = 0; f < 100; f++) created.push(at('generated', `pkg${p}`, `file${f}.js`));
  }
  const { calls, isDirectory } = counted(folders);
  const made = foldersMadeAmong(created, new Set(), [ROOT], SKIPPED_DIRECTORIES, isDirectory);
  assert.deepEqual(made, [at('generated')]);
  // Each of the 50,501 paths was looked at before (50,501 stats); now the folder made alone.
  console.log(`${calls.count} stat(s) for ${created.length} paths created`);
  assert.ok(calls.count <= 10, `${calls.count} stats for ${created.length} paths created`);
});

test('a folder renamed into the workspace holding a file read is found, its paths reported too or not', () => {
  const above = new Set([at('team'), ROOT]);
  for (const created of [[at('team')], [at('team'), at('team', 'deep'), at('team', 'deep', 'notes.txt')], [at('team', 'deep', 'notes.txt'), at('team', 'deep'), at('team')]]) {
    const { calls, isDirectory } = counted([at('team'), at('team', 'deep')]);
    assert.deepEqual(foldersMadeAmong(created, above, [ROOT], SKIPPED_DIRECTORIES, isDirectory), [at('team')]);
    assert.equal(calls.count, 1);
  }
});

test('paths in node_modules and .git are not looked at, unless a file read lies below them', () => {
  const created = [at('node_modules', 'left-pad'), at('node_modules', 'left-pad', 'index.js'), at('.git', 'objects', 'ab'), at('packages', 'node_modules', 'x')];
  const { calls, isDirectory } = counted(created);
  assert.deepEqual(foldersMadeAmong(created, new Set(), [ROOT], SKIPPED_DIRECTORIES, isDirectory), []);
  assert.equal(calls.count, 0);
  const withRead = counted(created);
  assert.deepEqual(foldersMadeAmong(created, new Set([at('node_modules', 'left-pad'), at('node_modules'), ROOT]), [ROOT], SKIPPED_DIRECTORIES, withRead.isDirectory), [at('node_modules', 'left-pad')]);
  assert.equal(withRead.calls.count, 1);
});

test('paths below a created path that is not a folder are not looked at, and are not folders made', () => {
  const { calls, isDirectory } = counted([]);
  assert.deepEqual(foldersMadeAmong([at('build'), at('build', 'out'), at('other')], new Set(), [ROOT], SKIPPED_DIRECTORIES, isDirectory), []);
  assert.equal(calls.count, 2);
});

test('folders made side by side are each found', () => {
  const { calls, isDirectory } = counted([at('a'), at('b'), at('a', 'inner')]);
  assert.deepEqual(foldersMadeAmong([at('a'), at('a', 'inner'), at('b'), at('c.txt')], new Set(), [ROOT], SKIPPED_DIRECTORIES, isDirectory), [at('a'), at('b')]);
  assert.equal(calls.count, 3);
});

test('outside every workspace folder a path is looked at only when a file read lies below it; a workspace folder inside a node_modules is walked', () => {
  const outside = join('/', 'elsewhere', 'made');
  const { calls, isDirectory } = counted([outside]);
  assert.deepEqual(foldersMadeAmong([outside], new Set(), [ROOT], SKIPPED_DIRECTORIES, isDirectory), []);
  assert.equal(calls.count, 0);
  assert.deepEqual(foldersMadeAmong([outside], new Set([outside]), [ROOT], SKIPPED_DIRECTORIES, isDirectory), [outside]);
  const inner = join('/', 'vendor', 'node_modules', 'project');
  const made = counted([join(inner, 'fixtures')]);
  assert.deepEqual(foldersMadeAmong([join(inner, 'fixtures')], new Set(), [inner], SKIPPED_DIRECTORIES, made.isDirectory), [join(inner, 'fixtures')]);
});
