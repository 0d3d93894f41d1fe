/**
 * A registry.json or schema file reached through a symbolic link changes when the file it leads to
 * does, and a client's file event names that file, not the link: whether a registry.json is a
 * registry (kept between searches until the file changes) is not kept for one reached so, and a
 * registry loaded through a link is loaded again when the file it leads to changes on disk.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../core/rules/settings/settings';
import { RegistryService, toUri } from '../../server/registry';

function scratch(t: { after(fn: () => void): void }): string {
  const root = mkdtempSync(join(tmpdir(), 'babelq-verdict-links-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** A registry service for the workspace folder `root`, as the server keeps one. */
function registriesFor(root: string): RegistryService {
  const registries = new RegistryService(() => undefined);
  registries.setWorkspaceFolders([toUri(root)]);
  return registries;
}

/** The kind of the first entry's schema in the registry `fixture` finds ('no schema' when it has none), or the kind of state when none is loaded. */
function firstSchemaKind(registries: RegistryService, fixture: string): string | undefined {
  const state = registries.stateFor(fixture, DEFAULT_SETTINGS);
  return state.kind === 'loaded' ? (state.registry.entries[0].schema?.doc?.root?.kind ?? 'no schema') : state.kind;
}

const NOT_A_REGISTRY = '{"name":"another tool"}';
const A_REGISTRY = JSON.stringify({ schemas: [{ urn: 'urn:babel:shop:order-placed', schema: { type: 'object' } }] });

describe('registry verdicts through symbolic links', () => {
  for (const linked of ['the registry.json itself', 'its folder']) {
    test(`a registry.json reached through a link to ${linked === 'its folder' ? 'a folder' : 'a file'} is read again when the file it leads to changes`, (t) => {
      const root = scratch(t);
      mkdirSync(join(root, 'common'));
      writeFileSync(join(root, 'common', 'registry.json'), NOT_A_REGISTRY);
      let fixtureFolder: string;
      if (linked === 'its folder') {
        mkdirSync(join(root, 'pkg'));
        symlinkSync(join(root, 'common'), join(root, 'pkg', 'linked'));
        fixtureFolder = join(root, 'pkg', 'linked');
      } else {
        mkdirSync(join(root, 'pkg'));
        symlinkSync(join(root, 'common', 'registry.json'), join(root, 'pkg', 'registry.json'));
        fixtureFolder = join(root, 'pkg');
      }
      const registries = registriesFor(root);
      const fixture = toUri(join(fixtureFolder, 'x.babel.json'));
      assert.equal(registries.stateFor(fixture, DEFAULT_SETTINGS).kind, 'none', 'passed over while it has no "schemas" key');

      // The file the link leads to gains a "schemas" key; the client's event names that file.
      writeFileSync(join(root, 'common', 'registry.json'), A_REGISTRY);
      registries.invalidate([toUri(join(root, 'common', 'registry.json'))]);
      const state = registries.stateFor(fixture, DEFAULT_SETTINGS);
      assert.equal(state.kind, 'loaded', 'found as the registry it now is');
    });
  }
});

describe('a registry read through symbolic links', () => {
  const registryNaming = (urns: readonly string[], schema: string) => JSON.stringify({ schemas: urns.map((urn) => ({ urn, schema, owner: 'shop', status: 'active' })) });

  test('a registry.json that is a link is loaded again when the file it leads to changes: the event names that file', (t) => {
    const root = scratch(t);
    mkdirSync(join(root, 'common', 'schemas'), { recursive: true });
    mkdirSync(join(root, 'pkg'));
    writeFileSync(join(root, 'common', 'schemas', 'order.json'), '{"type":"object"}');
    writeFileSync(join(root, 'common', 'registry.json'), registryNaming(['urn:babel:shop:order-placed'], '../common/schemas/order.json'));
    symlinkSync(join(root, 'common', 'registry.json'), join(root, 'pkg', 'registry.json'));
    const registries = registriesFor(root);
    const fixture = toUri(join(root, 'pkg', 'x.babel.json'));
    const urns = () => {
      const state = registries.stateFor(fixture, DEFAULT_SETTINGS);
      return state.kind === 'loaded' ? state.registry.entries.map((entry) => entry.urn) : state.kind;
    };
    assert.deepEqual(urns(), ['urn:babel:shop:order-placed']);
    writeFileSync(join(root, 'common', 'registry.json'), registryNaming(['urn:babel:shop:order-placed', 'urn:babel:shop:order-shipped'], '../common/schemas/order.json'));
    assert.equal(registries.invalidate([toUri(join(root, 'common', 'registry.json'))]), true, 'the change is one the registry depends on');
    assert.deepEqual(urns(), ['urn:babel:shop:order-placed', 'urn:babel:shop:order-shipped']);
    assert.deepEqual(Object.fromEntries(registries.linksByPlace()), { [join(root, 'common', 'registry.json')]: [join(root, 'pkg', 'registry.json')] }, 'the schema is read by its own path');
  });

  test('a schema file reached through a linked folder is read again when the file it leads to changes', (t) => {
    const root = scratch(t);
    mkdirSync(join(root, 'common-schemas'));
    writeFileSync(join(root, 'common-schemas', 'order.json'), '{"type":"object"}');
    symlinkSync(join(root, 'common-schemas'), join(root, 'schemas'));
    writeFileSync(join(root, 'registry.json'), registryNaming(['urn:babel:shop:order-placed'], 'schemas/order.json'));
    const registries = registriesFor(root);
    const fixture = toUri(join(root, 'x.babel.json'));
    const schemaOf = () => firstSchemaKind(registries, fixture);
    assert.equal(schemaOf(), 'object');
    assert.equal(registries.invalidate([toUri(join(root, 'common-schemas', 'order.json'))], true), false, 'an unsaved edit of the file it leads to changes nothing read from disk');
    writeFileSync(join(root, 'common-schemas', 'order.json'), '[]');
    assert.equal(registries.invalidate([toUri(join(root, 'common-schemas', 'order.json'))]), true, 'the change is one the registry depends on');
    assert.equal(schemaOf(), 'array');
  });
});

describe('a workspace folder opened through a symbolic link', () => {
  test('a registry.json in it is judged once, not read again by the search of each folder of fixtures', (t) => {
    const base = scratch(t);
    const real = join(base, 'real');
    mkdirSync(join(real, 'orders'), { recursive: true });
    mkdirSync(join(real, 'payments'));
    writeFileSync(join(real, 'registry.json'), A_REGISTRY);
    const folder = join(base, 'workspace');
    symlinkSync(real, folder);
    const registryPath = join(folder, 'registry.json');
    let registryReads = 0;
    const registries = new RegistryService((path) => {
      if (path === registryPath) registryReads++;
      return undefined;
    });
    registries.setWorkspaceFolders([toUri(folder)]);
    assert.equal(registries.stateFor(toUri(join(folder, 'orders', 'x.babel.json')), DEFAULT_SETTINGS).kind, 'loaded');
    const readsForTheFirstFolder = registryReads;
    assert.equal(registries.stateFor(toUri(join(folder, 'payments', 'x.babel.json')), DEFAULT_SETTINGS).kind, 'loaded');
    // Its file events name it as the folder is named: nothing on its way down from the folder is a link.
    assert.equal(registryReads, readsForTheFirstFolder, 'the second folder\'s search reads no registry.json again');
  });
});

describe('a large registry.json reached through a symbolic link', () => {
  test('an unsaved edit of the file the link leads to, typed while the registry loads, does not throw the load away', async (t) => {
    const root = scratch(t);
    mkdirSync(join(root, 'common', 'schemas'), { recursive: true });
    mkdirSync(join(root, 'pkg'));
    writeFileSync(join(root, 'common', 'schemas', 'order.json'), '{"type":"object"}');
    const entries = [];
    for (let i = 0; i < 50_000; i++) entries.push({ urn: `urn:babel:shop:event-${i}`, schema: '../common/schemas/order.json', owner: 'shop', status: 'active' });
    const target = join(root, 'common', 'registry.json');
    writeFileSync(target, JSON.stringify({ schemas: entries }));
    symlinkSync(target, join(root, 'pkg', 'registry.json'));
    // Each load reads the schema once (the search before it reads no schema).
    const schemaPath = join(root, 'common', 'schemas', 'order.json');
    let loads = 0;
    const registries = new RegistryService((path) => {
      if (path === schemaPath) loads++;
      return undefined;
    });
    registries.setWorkspaceFolders([toUri(root)]);
    let answered = false;
    const loading = registries.stateWhenLoaded(toUri(join(root, 'pkg', 'x.babel.json')), DEFAULT_SETTINGS).finally(() => (answered = true));
    // Once the load has read the schema, the file the link leads to is typed in.
    while (!answered && !registries.isRegistryFile(toUri(schemaPath))) await new Promise((resume) => setImmediate(resume));
    assert.equal(answered, false, 'the load is still under way');
    registries.invalidate([toUri(target)], true);
    assert.equal((await loading).kind, 'loaded');
    assert.equal(loads, 1, 'loaded once: the load under way read registry.json from disk, which the edit did not change');
  });
});

describe('a registry.json reached through a symbolic link, found by many folders of fixtures', () => {
  test('is read once for all their searches, and again only once the file it leads to changes on disk', (t) => {
    const root = scratch(t);
    mkdirSync(join(root, 'common'));
    mkdirSync(join(root, 'pkg'));
    const target = join(root, 'common', 'registry.json');
    writeFileSync(target, A_REGISTRY);
    const linkPath = join(root, 'pkg', 'registry.json');
    symlinkSync(target, linkPath);
    let registryReads = 0;
    const registries = new RegistryService((path) => {
      if (path === linkPath) registryReads++;
      return undefined;
    });
    registries.setWorkspaceFolders([toUri(root)]);
    const folders = Array.from({ length: 50 }, (_, index) => join(root, 'pkg', `team-${index}`));
    const allLoaded = () => folders.every((folder) => registries.stateFor(toUri(join(folder, 'x.babel.json')), DEFAULT_SETTINGS).kind === 'loaded');
    assert.ok(allLoaded());
    // The first search reads it to judge it, the load reads it once more.
    assert.ok(registryReads <= 2, `read ${registryReads} times for ${folders.length} folders`);

    // An unsaved edit of the file the link leads to changes nothing read from disk.
    registryReads = 0;
    registries.invalidate([toUri(target)], true);
    assert.ok(allLoaded());
    assert.ok(registryReads <= 1, `read ${registryReads} times after an unsaved edit of the file it leads to`);

    // Saved without its "schemas" key: the client's event names the file the link leads to.
    writeFileSync(target, NOT_A_REGISTRY);
    registries.invalidate([toUri(target)]);
    assert.equal(registries.stateFor(toUri(join(folders[0], 'x.babel.json')), DEFAULT_SETTINGS).kind, 'none', 'passed over once it is no registry');
  });
});

describe('a large registry whose schemas are reached through a linked folder', () => {
  test('a schema rewritten on disk, where the link leads, after a load under way read it asks for the diagnostics again', async (t) => {
    const root = scratch(t);
    mkdirSync(join(root, 'common-schemas'));
    const target = join(root, 'common-schemas', 'order.json');
    writeFileSync(target, '{"type":"object"}');
    symlinkSync(join(root, 'common-schemas'), join(root, 'schemas'));
    const entries = [];
    for (let i = 0; i < 50_000; i++) entries.push({ urn: `urn:babel:shop:event-${i}`, schema: 'schemas/order.json', owner: 'shop', status: 'active' });
    writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: entries }));
    const registries = registriesFor(root);
    let answered = false;
    const loading = registries.stateWhenLoaded(toUri(join(root, 'x.babel.json')), DEFAULT_SETTINGS).finally(() => (answered = true));
    const linkUri = toUri(join(root, 'schemas', 'order.json'));
    // Each load reads the schema with its first entry; it is rewritten once per load, after that read.
    const heardChanges: boolean[] = [];
    let rewrites = 0;
    while (!answered) {
      await new Promise((resume) => setImmediate(resume));
      if (!registries.isRegistryFile(linkUri) || answered) continue;
      rewrites++;
      writeFileSync(target, rewrites % 2 === 0 ? '{"type":"object"}' : '[]');
      // The client's event names the file the link leads to.
      heardChanges.push(registries.invalidate([toUri(target)]));
      while (!answered && registries.isRegistryFile(linkUri)) await new Promise((resume) => setImmediate(resume));
    }
    await loading;
    assert.ok(heardChanges.length > 0);
    assert.deepEqual(heardChanges, heardChanges.map(() => true), 'every change of a file a load under way had read is a change');
  });
});

describe('a registry.json that is a link to a file of another name', () => {
  test('passed over while it has no "schemas" key, it is found once the file it leads to gains one', (t) => {
    const root = scratch(t);
    mkdirSync(join(root, 'common'));
    mkdirSync(join(root, 'pkg'));
    const target = join(root, 'common', 'orders-registry.json');
    writeFileSync(target, NOT_A_REGISTRY);
    symlinkSync(target, join(root, 'pkg', 'registry.json'));
    const registries = registriesFor(root);
    const fixture = toUri(join(root, 'pkg', 'x.babel.json'));
    assert.equal(registries.stateFor(fixture, DEFAULT_SETTINGS).kind, 'none', 'passed over while it has no "schemas" key');

    // The client's event names the file the link leads to, whose name is not registry.json.
    writeFileSync(target, A_REGISTRY);
    assert.equal(registries.invalidate([toUri(target)]), true, 'the change is one of a file a search judged');
    assert.equal(registries.stateFor(fixture, DEFAULT_SETTINGS).kind, 'loaded', 'found as the registry it now is');
  });
});

describe('a schema reached through a linked folder, deleted and written again', () => {
  test('the registry is loaded again when the file comes back where the link leads (a checkout of another branch and back)', (t) => {
    const root = scratch(t);
    mkdirSync(join(root, 'common-schemas'));
    const target = join(root, 'common-schemas', 'order.json');
    writeFileSync(target, '{"type":"object"}');
    symlinkSync(join(root, 'common-schemas'), join(root, 'schemas'));
    writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: [{ urn: 'urn:babel:shop:order-placed', schema: 'schemas/order.json', owner: 'shop', status: 'active' }] }));
    const registries = registriesFor(root);
    const fixture = toUri(join(root, 'x.babel.json'));
    const schemaOf = () => firstSchemaKind(registries, fixture);
    assert.equal(schemaOf(), 'object');
    rmSync(target);
    assert.equal(registries.invalidate([toUri(target)]), true);
    assert.equal(schemaOf(), 'no schema', 'the schema file is gone');
    // Each event names the file the link leads to, as the client's watcher does.
    writeFileSync(target, '[]');
    assert.equal(registries.invalidate([toUri(target)]), true, 'the file the registry names is back');
    assert.equal(schemaOf(), 'array');
  });
});

describe('a schema file that is a link to a file not written yet', () => {
  test('the registry is loaded again when the file the link names is created', (t) => {
    const root = scratch(t);
    mkdirSync(join(root, 'common'));
    mkdirSync(join(root, 'schemas'));
    const target = join(root, 'common', 'order.json');
    symlinkSync(join('..', 'common', 'order.json'), join(root, 'schemas', 'order.json'));
    // A link in a loop: read as a file that cannot be, with no throw.
    symlinkSync(join(root, 'schemas', 'loop.json'), join(root, 'schemas', 'loop.json'));
    writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: [
      { urn: 'urn:babel:shop:order-placed', schema: 'schemas/order.json', owner: 'shop', status: 'active' },
      { urn: 'urn:babel:shop:order-looped', schema: 'schemas/loop.json', owner: 'shop', status: 'active' },
    ] }));
    const registries = registriesFor(root);
    const fixture = toUri(join(root, 'x.babel.json'));
    const schemaOf = () => firstSchemaKind(registries, fixture);
    assert.equal(schemaOf(), 'no schema');
    writeFileSync(target, '{"type":"object"}');
    assert.equal(registries.invalidate([toUri(target)]), true, 'the file the link names is created');
    assert.equal(schemaOf(), 'object');
  });
});

describe('a registry.json that is a link to a file of another name, not there yet', () => {
  test('its fixtures find the registry once the file it leads to is written', (t) => {
    const root = scratch(t);
    mkdirSync(join(root, 'common'));
    mkdirSync(join(root, 'pkg'));
    const target = join(root, 'common', 'orders-registry.json');
    symlinkSync(target, join(root, 'pkg', 'registry.json'));
    const registries = registriesFor(root);
    const fixture = toUri(join(root, 'pkg', 'x.babel.json'));
    assert.equal(registries.stateFor(fixture, DEFAULT_SETTINGS).kind, 'broken', 'a link to a file that does not exist');
    // The look at the disk at a save forgets the search of a folder no fixture is in any longer,
    // and keeps what the search kept still depends on.
    writeFileSync(join(root, 'registry.json'), A_REGISTRY);
    assert.equal(registries.stateFor(toUri(join(root, 'gone', 'x.babel.json')), DEFAULT_SETTINGS).kind, 'loaded');
    registries.keepSearchesFor(new Set([join(root, 'pkg')]));

    // The client's event names the file the link leads to, whose name is not registry.json.
    writeFileSync(target, A_REGISTRY);
    assert.equal(registries.invalidate([toUri(target)]), true, 'the file the search could not read is there');
    assert.equal(registries.stateFor(fixture, DEFAULT_SETTINGS).kind, 'loaded');
  });
});
