/**
 * The server's registry search of a folder made from its parent's (server/registry.ts,
 * searchFromParent): whatever order the folders are searched in, each finds what a search of its
 * own finds (workspace/registry-loader.ts's findRegistry, the oracle here), and depends on the same
 * places (a registry.json created at one of them later is found); a folder with its own
 * registry.json, one reached through a symbolic link, and one below a registry.json that is no
 * registry are searched as before.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../core/rules/settings/settings';
import type { RegistryState } from '../../core/registry/types';
import { ProjectFileStamps } from '../../server/project-file-stamps';
import { RegistryService, toUri } from '../../server/registry';
import { findRegistry } from '../../workspace/registry-loader';

const registry = (urn: string) => JSON.stringify({ schemas: [{ urn, schema: { type: 'object' } }] });

/** root/registry.json and, below it, folders with and without registries of their own. */
function tree(t: { after(fn: () => void): void }): { root: string; fixtures: string[] } {
  const root = mkdtempSync(join(tmpdir(), 'babelq-search-from-parent-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('registry.json', registry('urn:babel:top:event'));
  write('own/registry.json', registry('urn:babel:own:event'));
  write('other-tool/registry.json', '{"name":"another tool"}');
  write('outside/registry.json', registry('urn:babel:linked:event'));
  const fixtures = ['a', 'b', 'own', 'own/deeper', 'c/d/e', 'c/d', 'other-tool', 'other-tool/below', 'linked', 'linked/inner'].map((folder) => join(root, folder, 'x.babel.json'));
  for (const fixture of fixtures) if (!fixture.includes('linked')) mkdirSync(dirname(fixture), { recursive: true });
  // A folder that is a link to another folder of the workspace, which has a registry.json.
  symlinkSync(join(root, 'outside'), join(root, 'linked'));
  mkdirSync(join(root, 'outside', 'inner'));
  return { root, fixtures };
}

/** What a state names: the registry.json loaded or broken, or none. */
const named = (state: RegistryState) => (state.kind === 'loaded' ? state.registry.path : state.kind === 'broken' ? `broken ${state.path}` : 'none');

/** What a search of the fixture's own folder finds. */
function oracle(fixture: string, root: string): string {
  const found = findRegistry(fixture, root, undefined);
  return !found ? 'none' : 'error' in found ? `broken ${found.path}` : found.path;
}

/** The places a search of the fixture's own folder looks at. */
function placesLookedAt(fixture: string, root: string): string[] {
  const places: string[] = [];
  findRegistry(fixture, root, undefined, { looked: (candidate) => places.push(candidate) });
  return places;
}

describe('a folder\'s registry search made from its parent\'s', () => {
  for (const order of ['top down', 'bottom up', 'shuffled'] as const) {
    test(`each folder finds what its own search finds, searched ${order}`, (t) => {
      const { root, fixtures } = tree(t);
      const ordered = order === 'top down' ? [...fixtures] : order === 'bottom up' ? [...fixtures].reverse() : [fixtures[4]!, fixtures[0]!, fixtures[7]!, fixtures[3]!, fixtures[9]!, fixtures[1]!, fixtures[5]!, fixtures[2]!, fixtures[8]!, fixtures[6]!];
      const registries = new RegistryService(() => undefined);
      registries.setWorkspaceFolders([toUri(root)]);
      for (const fixture of ordered) assert.equal(named(registries.stateFor(toUri(fixture), DEFAULT_SETTINGS)), oracle(fixture, root), fixture);
      // The same places depended on as the searches of their own would look at.
      const dependedOn = new Set(registries.filesDependedOn());
      for (const fixture of fixtures) for (const place of placesLookedAt(fixture, root)) assert.ok(dependedOn.has(place), `${place} (searched for ${fixture})`);
    });
  }

  test('a registry.json made later in a folder between a fixture and the registry it found is found once its file event comes', (t) => {
    const { root } = tree(t);
    const deep = join(root, 'c', 'd', 'e', 'x.babel.json');
    const registries = new RegistryService(() => undefined);
    registries.setWorkspaceFolders([toUri(root)]);
    // A sibling's search first, so that c/d/e's is made from kept ones.
    registries.stateFor(toUri(join(root, 'c', 'd', 'x.babel.json')), DEFAULT_SETTINGS);
    assert.equal(named(registries.stateFor(toUri(deep), DEFAULT_SETTINGS)), join(root, 'registry.json'));
    writeFileSync(join(root, 'c', 'registry.json'), registry('urn:babel:c:event'));
    assert.ok(registries.invalidate([toUri(join(root, 'c', 'registry.json'))]));
    assert.equal(named(registries.stateFor(toUri(deep), DEFAULT_SETTINGS)), join(root, 'c', 'registry.json'));
  });

  test('fifty sibling folders under one registry.json: their parent\'s search is made once, not once for each', (t) => {
    const { root } = tree(t);
    const looks = new Map<string, number>();
    class CountedStamps extends ProjectFileStamps {
      override looked(path: string): void {
        looks.set(path, (looks.get(path) ?? 0) + 1);
        super.looked(path);
      }
    }
    const registries = new RegistryService(() => undefined, () => undefined, new CountedStamps());
    registries.setWorkspaceFolders([toUri(root)]);
    for (let n = 0; n < 50; n++) {
      const fixture = join(root, 'many', `case-${n}`, 'x.babel.json');
      mkdirSync(dirname(fixture), { recursive: true });
      assert.equal(named(registries.stateFor(toUri(fixture), DEFAULT_SETTINGS)), join(root, 'registry.json'));
    }
    assert.equal(looks.get(join(root, 'registry.json')), 1);
    assert.equal(looks.get(join(root, 'many', 'registry.json')), 1);
    assert.equal(looks.get(join(root, 'many', 'case-7', 'registry.json')), 1);
  });
});

describe('the listener of a folder\'s search made from its parent\'s', () => {
  test('is told of each folder\'s registry state when a fixture there is first judged, as a search of its own tells it, whatever search was made first', (t) => {
    const { root } = tree(t);
    const told: string[] = [];
    const registries = new RegistryService(() => undefined, (state, searched) => {
      if (state.kind !== 'loaded') told.push(`${named(state)} from ${searched.directory}`);
    });
    registries.setWorkspaceFolders([toUri(root)]);
    // No registry above these: c/d/e's search makes c/d's and c's too, and no one is told of those.
    rmSync(join(root, 'registry.json'));
    for (const folder of ['c/d/e', 'c/d', 'c']) registries.stateFor(toUri(join(root, folder, 'x.babel.json')), DEFAULT_SETTINGS);
    assert.deepEqual(told, ['c/d/e', 'c/d', 'c'].map((folder) => `none from ${join(root, folder)}`));
    // Told once: a fixture judged again finds the search kept.
    registries.stateFor(toUri(join(root, 'c', 'd', 'x.babel.json')), DEFAULT_SETTINGS);
    assert.equal(told.length, 3);
  });

  test('a fixture 300 folders deep: the searches kept depend on each place once or a few times, not once for every folder between', (t) => {
    const { root } = tree(t);
    let folder = join(root, 'deep');
    for (let level = 0; level < 300; level++) folder = join(folder, 'd');
    mkdirSync(folder, { recursive: true });
    const fixture = join(folder, 'x.babel.json');
    const registries = new RegistryService(() => undefined);
    registries.setWorkspaceFolders([toUri(root)]);
    assert.equal(named(registries.stateFor(toUri(fixture), DEFAULT_SETTINGS)), oracle(fixture, root));
    const dependedOn = [...registries.filesDependedOn()];
    // Its own search's places (302), its parent's and the top's: every folder's would be some 45,000.
    assert.ok(dependedOn.length <= 3 * 303, `${dependedOn.length} places`);
    for (const place of placesLookedAt(fixture, root)) assert.ok(dependedOn.includes(place), place);
    // A sibling is searched from the parent's search kept.
    const sibling = join(folder, '..', 'e', 'x.babel.json');
    mkdirSync(dirname(sibling));
    assert.equal(named(registries.stateFor(toUri(sibling), DEFAULT_SETTINGS)), oracle(sibling, root));
  });
});
