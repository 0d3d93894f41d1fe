/**
 * server/project-file-stamps.ts on its own: what a look at the disk reports as changed since a
 * project file was read.
 */
import assert from 'node:assert/strict';
import { chmodSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../core/rules/settings/settings';
import { ProjectFileStamps } from '../../server/project-file-stamps';
import { RegistryService } from '../../server/registry';
import { ProjectConfigs } from '../../workspace/project-config';
import { scratchFolder, type ScratchFolder } from '../support/scratch-folder';

test('a file written again within the modification time it was read at, at the same size, is a change at the next look', async () => {
  const folder = scratchFolder('babelq-stamps-tick-');
  folder.write('registry.json', '{"schemas":[1]}');
  const path = folder.at('registry.json');
  // Written and written again in the same clock tick (a file system keeps its times in ticks of
  // some milliseconds, FAT in two seconds): the same size, the same inode, the same modification time.
  const tick = inThisTick(path);
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  assert.equal(stamps.read(path, 1024), '{"schemas":[1]}');
  const inode = statSync(path).ino;
  writeInTick(path, '{"schemas":[2]}', tick);
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
  inThisTick(path);
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  stamps.read(path, 1024);
  assert.deepEqual(await stamps.changed(new Set()), []);
  assert.deepEqual(await stamps.changed(new Set()), []);
});

test('a file whose permissions or owner changed since it was read is a change at the next look, though its bytes and modification time are the same', async () => {
  const folder = scratchFolder('babelq-stamps-mode-');
  writeOld(folder, 'registry.json', { name: 'another tool' });
  const path = folder.at('registry.json');
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  stamps.read(path, 1024);
  assert.deepEqual(await stamps.changed(new Set()), []);
  // Made unreadable: what was made of it (no registry) no longer holds, and a read now must fail.
  chmodSync(path, 0o000);
  assert.deepEqual(await stamps.changed(new Set()), [path]);
  // Made readable again: a change too, told once.
  chmodSync(path, 0o644);
  assert.deepEqual(await stamps.changed(new Set()), [path]);
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

/** The current second as a modification time, given to `path`: a write within it at the same size keeps the file's stamp. */
function inThisTick(path: string): number {
  const tick = Math.floor(Date.now() / 1000);
  utimesSync(path, tick, tick);
  return tick;
}

/** Writes `text` to `path` and gives it back the modification time `tick`, as a write within that tick leaves it. */
function writeInTick(path: string, text: string, tick: number): void {
  writeFileSync(path, text);
  utimesSync(path, tick, tick);
}

/** Written a minute ago: a look tells a change by size and time alone (no read within a tick). */
function writeOld(folder: ScratchFolder, path: string, text: unknown): void {
  folder.write(path, text);
  const old = new Date(Date.now() - 60_000);
  utimesSync(folder.at(path), old, old);
}

/** The stamps kept as the server keeps them at each look: only for what its registries and configs depend on. */
function keepInUse(stamps: ProjectFileStamps, registries: RegistryService, configs: ProjectConfigs): void {
  stamps.keepOnly([...registries.filesDependedOn(), ...configs.filesLookedAt()]);
}

/** Stamps kept as for Neovim 0.7, and a registry service reading through them for a workspace of `folder`. */
function stampedRegistries(folder: ScratchFolder): { stamps: ProjectFileStamps; registries: RegistryService; urns: (fixture: string) => string[] | string } {
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  const registries = new RegistryService(() => undefined, undefined, stamps);
  registries.setWorkspaceFolders([folder.uriOf('')]);
  /** The URNs of the registry a fixture finds, or the kind of state when none is loaded. */
  const urns = (fixture: string) => {
    const state = registries.stateFor(folder.uriOf(fixture), DEFAULT_SETTINGS);
    return state.kind === 'loaded' ? state.registry.entries.map((entry) => entry.urn) : state.kind;
  };
  return { stamps, registries, urns };
}

const registryNaming = (schema: string) => ({ schemas: [{ urn: 'urn:babel:orders:created', schema, owner: 'orders', status: 'active' }] });

test('a schema file the registry no longer names is looked at no more, and its change is none; the schema it names now, the registry and the places searched still are', async () => {
  const folder = scratchFolder('babelq-stamps-pruned-');
  writeOld(folder, 'registry.json', registryNaming('schemas/old.json'));
  writeOld(folder, 'schemas/old.json', { type: 'object' });
  writeOld(folder, 'schemas/new.json', { type: 'object' });
  writeOld(folder, 'fixtures/a.babel.json', '{}');
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  const registries = new RegistryService(() => undefined, undefined, stamps);
  const configs = new ProjectConfigs(stamps.read, (path) => stamps.exists(path));
  registries.setWorkspaceFolders([folder.uriOf('')]);
  const fixture = folder.uriOf('fixtures/a.babel.json');
  assert.equal(registries.stateFor(fixture, DEFAULT_SETTINGS).kind, 'loaded');
  configs.chainFor(folder.at('fixtures/a.babel.json'), folder.base);
  assert.ok(stamps.paths().includes(folder.at('schemas/old.json')));
  // The registry, rewritten to name another schema, is read again (as a look at a save finds it).
  writeOld(folder, 'registry.json', registryNaming('schemas/new.json'));
  assert.deepEqual(await stamps.changed(new Set()), [folder.at('registry.json')]);
  assert.ok(registries.invalidate([folder.uriOf('registry.json')]));
  assert.equal(registries.stateFor(fixture, DEFAULT_SETTINGS).kind, 'loaded');
  keepInUse(stamps, registries, configs);
  assert.ok(!stamps.paths().includes(folder.at('schemas/old.json')), 'the schema no longer named is not looked at');
  // A change to the old schema is none; to the new one, to the registry, or a registry.json or babelq.json created where one was looked for, is.
  writeOld(folder, 'schemas/old.json', { type: 'object', required: ['a'] });
  writeOld(folder, 'schemas/new.json', { type: 'object', required: ['b'] });
  writeOld(folder, 'fixtures/registry.json', registryNaming('../schemas/new.json'));
  writeOld(folder, 'fixtures/babelq.json', {});
  assert.deepEqual((await stamps.changed(new Set())).sort(), [folder.at('fixtures/babelq.json'), folder.at('fixtures/registry.json'), folder.at('schemas/new.json')]);
});

test('the files of a workspace folder removed from the workspace are looked at no more', async () => {
  const folder = scratchFolder('babelq-stamps-folder-removed-');
  for (const name of ['one', 'two']) {
    writeOld(folder, `${name}/registry.json`, registryNaming('schemas/orders.json'));
    writeOld(folder, `${name}/schemas/orders.json`, { type: 'object' });
    writeOld(folder, `${name}/babelq.json`, {});
  }
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  const registries = new RegistryService(() => undefined, undefined, stamps);
  const configs = new ProjectConfigs(stamps.read, (path) => stamps.exists(path));
  registries.setWorkspaceFolders([folder.uriOf('one'), folder.uriOf('two')]);
  for (const name of ['one', 'two']) {
    assert.equal(registries.stateFor(folder.uriOf(`${name}/a.babel.json`), DEFAULT_SETTINGS).kind, 'loaded');
    configs.chainFor(folder.at(`${name}/a.babel.json`), folder.at(name));
  }
  // Folder "two" leaves the workspace: the server forgets its registries and configs (server.ts).
  registries.setWorkspaceFolders([folder.uriOf('one')]);
  configs.clear();
  assert.equal(registries.stateFor(folder.uriOf('one/a.babel.json'), DEFAULT_SETTINGS).kind, 'loaded');
  configs.chainFor(folder.at('one/a.babel.json'), folder.at('one'));
  keepInUse(stamps, registries, configs);
  assert.deepEqual(stamps.paths().filter((path) => path.startsWith(folder.at('two'))), []);
  for (const name of ['one', 'two']) {
    writeOld(folder, `${name}/schemas/orders.json`, { type: 'object', required: ['x'] });
    writeOld(folder, `${name}/babelq.json`, { severity: {} });
  }
  assert.deepEqual((await stamps.changed(new Set())).sort(), [folder.at('one/babelq.json'), folder.at('one/schemas/orders.json')]);
});

test('the places a registry.json was looked for from a directory no document is judged from any longer are looked at no more; those of a directory still judged from are', async () => {
  const folder = scratchFolder('babelq-stamps-searches-');
  writeOld(folder, 'kept/a.babel.json', '{}');
  writeOld(folder, 'moved/b.babel.json', '{}');
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  const registries = new RegistryService(() => undefined, undefined, stamps);
  const configs = new ProjectConfigs(stamps.read, (path) => stamps.exists(path));
  registries.setWorkspaceFolders([folder.uriOf('')]);
  for (const fixture of ['kept/a.babel.json', 'moved/b.babel.json']) assert.equal(registries.stateFor(folder.uriOf(fixture), DEFAULT_SETTINGS).kind, 'none');
  assert.ok(stamps.paths().includes(folder.at('moved/registry.json')));
  // The fixture of moved/ is moved out (the walk no longer finds one there, none is open).
  registries.keepSearchesFor(new Set([folder.at('kept')]));
  keepInUse(stamps, registries, configs);
  assert.ok(!stamps.paths().includes(folder.at('moved/registry.json')), 'moved/registry.json is not looked at');
  writeOld(folder, 'moved/registry.json', registryNaming('schemas/orders.json'));
  writeOld(folder, 'kept/registry.json', registryNaming('schemas/orders.json'));
  assert.deepEqual(await stamps.changed(new Set()), [folder.at('kept/registry.json')]);
  // A fixture judged from moved/ again searches again: what is there now.
  assert.equal(registries.stateFor(folder.uriOf('moved/b.babel.json'), DEFAULT_SETTINGS).kind, 'loaded');
});

test('a change another search reads before the next look is still told at that look, so the registry loaded before it is loaded again (Neovim: a fixture of another folder opened first)', async () => {
  const folder = scratchFolder('babelq-stamps-read-by-search-');
  const created = registryNaming('schemas/orders.json').schemas[0];
  writeOld(folder, 'registry.json', { schemas: [created] });
  writeOld(folder, 'schemas/orders.json', { type: 'object' });
  const { stamps, registries, urns: entries } = stampedRegistries(folder);
  assert.deepEqual(entries('one/a.babel.json'), ['urn:babel:orders:created']);
  // Another program adds an entry; before the next save, a fixture of another folder is judged and its search reads registry.json.
  writeOld(folder, 'registry.json', { schemas: [created, { ...created, urn: 'urn:babel:orders:shipped' }] });
  entries('two/b.babel.json');
  assert.deepEqual(await stamps.changed(new Set()), [folder.at('registry.json')]);
  assert.ok(registries.invalidate([folder.uriOf('registry.json')]));
  assert.deepEqual(entries('one/a.babel.json'), ['urn:babel:orders:created', 'urn:babel:orders:shipped']);
  assert.deepEqual(entries('two/b.babel.json'), ['urn:babel:orders:created', 'urn:babel:orders:shipped']);
  // Told once.
  assert.deepEqual(await stamps.changed(new Set()), []);
});

test('a babelq.json or registry.json another search finds created before the next look is told at that look, for the folders that looked and found none', async () => {
  const folder = scratchFolder('babelq-stamps-created-seen-by-search-');
  writeOld(folder, 'one/a.babel.json', '{}');
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  const registries = new RegistryService(() => undefined, undefined, stamps);
  registries.setWorkspaceFolders([folder.uriOf('')]);
  assert.equal(registries.stateFor(folder.uriOf('one/a.babel.json'), DEFAULT_SETTINGS).kind, 'none');
  writeOld(folder, 'registry.json', registryNaming('schemas/orders.json'));
  writeOld(folder, 'schemas/orders.json', { type: 'object' });
  // Found by another folder's search before the look: the search of one/ found none there, and is told.
  assert.equal(registries.stateFor(folder.uriOf('two/b.babel.json'), DEFAULT_SETTINGS).kind, 'loaded');
  assert.ok((await stamps.changed(new Set())).includes(folder.at('registry.json')));
  assert.ok(registries.invalidate([folder.uriOf('registry.json')]));
  assert.equal(registries.stateFor(folder.uriOf('one/a.babel.json'), DEFAULT_SETTINGS).kind, 'loaded');
});

test('a change a file event told is not told again by the next look, once the read it set off has stamped it', async () => {
  const folder = scratchFolder('babelq-stamps-told-by-event-');
  writeOld(folder, 'registry.json', registryNaming('schemas/orders.json'));
  const path = folder.at('registry.json');
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  stamps.read(path, 1 << 20);
  writeOld(folder, 'registry.json', registryNaming('schemas/other-orders.json'));
  // The event (VS Code's, for a folder outside the ones it watches: an absolute registry path) comes, and the reload reads the file.
  stamps.toldByEvent(path);
  stamps.read(path, 1 << 20);
  assert.deepEqual(await stamps.changed(new Set()), []);
  // Without the event, the same read is a change no look told: told at the next look.
  writeOld(folder, 'registry.json', registryNaming('schemas/orders.json'));
  stamps.read(path, 1 << 20);
  assert.deepEqual(await stamps.changed(new Set()), [path]);
});

test('a file written again within the tick it was read at, at the same size, and read by another search before the next look is told at that look, once', async () => {
  const folder = scratchFolder('babelq-stamps-tick-read-by-search-');
  folder.write('registry.json', '{"schemas":[1]}');
  const path = folder.at('registry.json');
  const tick = inThisTick(path);
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  assert.equal(stamps.read(path, 1024), '{"schemas":[1]}');
  writeInTick(path, '{"schemas":[2]}', tick);
  // Another folder's search reads it before the save: the same stamp, other text.
  assert.equal(stamps.read(path, 1024), '{"schemas":[2]}');
  assert.deepEqual(await stamps.changed(new Set()), [path]);
  assert.equal(stamps.read(path, 1024), '{"schemas":[2]}');
  assert.deepEqual(await stamps.changed(new Set()), []);
});

test('a file written again within the tick it was read at, at the same size, is told at the next look though a search looked at it since, with or without reading it (what it made of it kept), or a read past the tick took it in', async () => {
  for (const since of ['looked', 'looked and read', 'exists', 'read past the tick'] as const) {
    const folder = scratchFolder('babelq-stamps-tick-looked-');
    folder.write('registry.json', '{"schemas":[1]}');
    const path = folder.at('registry.json');
    // Well inside the tick when first read; past it after the pause below.
    const tick = since === 'read past the tick' ? (Date.now() - 1_500) / 1000 : Math.floor(Date.now() / 1000);
    utimesSync(path, tick, tick);
    const stamps = new ProjectFileStamps();
    stamps.setEnabled(true);
    assert.equal(stamps.read(path, 1024), '{"schemas":[1]}');
    writeInTick(path, '{"schemas":[2]}', tick);
    // Another folder's search looks at it before the save (findRegistry tells `looked` first, then
    // reads it unless what it is was kept); babelq.json's places are looked at through `exists`.
    if (since === 'exists') assert.ok(stamps.exists(path));
    else if (since === 'read past the tick') {
      await new Promise((done) => setTimeout(done, 700));
      assert.equal(stamps.read(path, 1024), '{"schemas":[2]}');
    } else {
      stamps.looked(path);
      if (since === 'looked and read') assert.equal(stamps.read(path, 1024), '{"schemas":[2]}');
    }
    assert.deepEqual(await stamps.changed(new Set()), [path], since);
    assert.deepEqual(await stamps.changed(new Set()), [], `${since}: told once`);
  }
});

test('a registry rewritten within the tick it was loaded at, at the same size, is loaded again after the next look though a fixture of another folder found it since (Neovim)', async () => {
  const folder = scratchFolder('babelq-stamps-tick-other-folder-');
  const registryWith = (urn: string) => ({ schemas: [{ urn, schema: 'schemas/orders.json', owner: 'orders', status: 'active' }] });
  writeOld(folder, 'schemas/orders.json', { type: 'object' });
  folder.write('registry.json', registryWith('urn:babel:orders:created'));
  const path = folder.at('registry.json');
  const tick = inThisTick(path);
  const { stamps, registries, urns } = stampedRegistries(folder);
  assert.deepEqual(urns('one/a.babel.json'), ['urn:babel:orders:created']);
  // Another program rewrites it in the same tick, at the same size; a fixture of another folder is judged before the save.
  folder.write('registry.json', registryWith('urn:babel:orders:updated'));
  utimesSync(path, tick, tick);
  urns('two/b.babel.json');
  assert.deepEqual(await stamps.changed(new Set()), [path]);
  assert.ok(registries.invalidate([folder.uriOf('registry.json')]));
  assert.deepEqual(urns('one/a.babel.json'), ['urn:babel:orders:updated']);
});

test('a registry.json passed over from a directory no document is judged from any longer is read again when one is: looked at no more meanwhile, it may have become a registry (Neovim)', async () => {
  const folder = scratchFolder('babelq-stamps-passed-over-forgotten-');
  writeOld(folder, 'registry.json', registryNaming('schemas/orders.json'));
  writeOld(folder, 'schemas/orders.json', { type: 'object' });
  writeOld(folder, 'moved/registry.json', { name: 'another tool' });
  writeOld(folder, 'moved/schemas/orders.json', { type: 'object' });
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  const registries = new RegistryService(() => undefined, undefined, stamps);
  const configs = new ProjectConfigs(stamps.read, (path) => stamps.exists(path));
  registries.setWorkspaceFolders([folder.uriOf('')]);
  const registryOf = (fixture: string) => {
    const state = registries.stateFor(folder.uriOf(fixture), DEFAULT_SETTINGS);
    return state.kind === 'loaded' ? state.registry.path : state.kind;
  };
  assert.equal(registryOf('moved/b.babel.json'), folder.at('registry.json'));
  // The fixture of moved/ is closed (none is judged from there): the look forgets its search and what it looked at.
  registries.keepSearchesFor(new Set());
  keepInUse(stamps, registries, configs);
  writeOld(folder, 'moved/registry.json', registryNaming('schemas/orders.json'));
  assert.deepEqual(await stamps.changed(new Set()), [], 'moved/registry.json is looked at no more');
  // Opened again: its search reads what is there now.
  assert.equal(registryOf('moved/b.babel.json'), folder.at('moved/registry.json'));
});

test('a change a file event tells while a look is paused at that file is not told again by the look, once the read the event set off has stamped it', async (t) => {
  const folder = scratchFolder('babelq-stamps-event-during-look-');
  writeOld(folder, 'registry.json', registryNaming('schemas/orders.json'));
  const path = folder.at('registry.json');
  const place = folder.at('deeper/registry.json');
  const stamps = new ProjectFileStamps();
  stamps.setEnabled(true);
  // A place looked at first, then the registry read: the look comes to them in that order.
  stamps.looked(place);
  stamps.read(path, 1 << 20);
  writeOld(folder, 'registry.json', registryNaming('schemas/other-orders.json'));
  // The look's time slice is spent as it leaves the place, so it gives way as it comes to the
  // registry; the client's event for the registry is heard then, and its reload reads the file.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  let heard = false;
  setImmediate(() => {
    stamps.toldByEvent(path);
    stamps.read(path, 1 << 20);
    heard = true;
  });
  const changed = await stamps.changed(new Set(), (looked) => {
    if (looked === place) t.mock.timers.tick(1_000);
    return false;
  });
  assert.ok(heard, 'the event was heard while the look was under way');
  assert.deepEqual(changed, [], 'told once, by the event');
});
