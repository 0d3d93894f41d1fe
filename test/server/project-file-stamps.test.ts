/**
 * server/project-file-stamps.ts on its own: what a look at the disk reports as changed since a
 * project file was read.
 */
import assert from 'node:assert/strict';
import { rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { ProjectFileStamps } from '../../server/project-file-stamps';
import { scratchFolder } from '../support/scratch-folder';

test('a file written again within the modification time it was read at, at the same size, is a change at the next look', async () => {
  const folder = scratchFolder('babelq-stamps-tick-');
  folder.write('registry.json', '{"schemas":[1]}');
  const path = folder.at('registry.json');
  // Written and written again in the same clock tick (a file system keeps its times in ticks of
  // some milliseconds, FAT in two seconds): the same size, the same inode, the same modification time.
  const tick = Math.floor(Date.now() / 1000);
  utimesSync(path, tick, tick);
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  assert.equal(stamps.read(path, 1024), '{"schemas":[1]}');
  const inode = statSync(path).ino;
  writeFileSync(path, '{"schemas":[2]}');
  utimesSync(path, tick, tick);
  assert.equal(statSync(path).ino, inode);
  assert.deepEqual(await stamps.changed(new Set()), [path]);
  // Read again, it is told once.
  assert.equal(stamps.read(path, 1024), '{"schemas":[2]}');
  assert.deepEqual(await stamps.changed(new Set()), []);
});

test('a file read well after its last write, and not written since, is no change', async () => {
  const folder = scratchFolder('babelq-stamps-old-');
  folder.write('registry.json', '{"schemas":[]}');
  const path = folder.at('registry.json');
  const old = new Date(Date.now() - 60_000);
  utimesSync(path, old, old);
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  stamps.read(path, 1024);
  assert.deepEqual(await stamps.changed(new Set()), []);
});

test('a file read within the tick of its last write and not written since is no change: it is read again to tell, not reloaded', async () => {
  const folder = scratchFolder('babelq-stamps-same-');
  folder.write('registry.json', '{"schemas":[]}');
  const path = folder.at('registry.json');
  const tick = Math.floor(Date.now() / 1000);
  utimesSync(path, tick, tick);
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  stamps.read(path, 1024);
  assert.deepEqual(await stamps.changed(new Set()), []);
  assert.deepEqual(await stamps.changed(new Set()), []);
});

test('a file seen there and gone when it is read is a change at the next look (what the caller made of the vanished file is worked out again), once', async () => {
  const folder = scratchFolder('babelq-stamps-vanished-');
  folder.write('registry.json', '{"schemas":[]}');
  const path = folder.at('registry.json');
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  // The look finds it (findRegistry's, ProjectConfigs'); it is deleted before it is opened.
  stamps.looked(path);
  rmSync(path);
  assert.throws(() => stamps.read(path, 1024), /does not exist/);
  // Read again before the look (a registry's load after its search): still a change to tell.
  assert.throws(() => stamps.read(path, 1024), /does not exist/);
  assert.deepEqual(await stamps.changed(new Set()), [path]);
  assert.deepEqual(await stamps.changed(new Set()), []);
  // A file that was not there when looked at and is still not there when read is no change.
  const never = folder.at('schemas/never.json');
  stamps.looked(never);
  assert.throws(() => stamps.read(never, 1024), /does not exist/);
  assert.throws(() => stamps.read(never, 1024), /does not exist/);
  assert.deepEqual(await stamps.changed(new Set()), []);
});
