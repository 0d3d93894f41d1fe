/**
 * Whether a registry.json is a registry is kept between searches until the file changes: a
 * registry.json reached through a symbolic link changes when the file it leads to does, and a
 * client's file event names that file, not the link.
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

const NOT_A_REGISTRY = '{"name":"another tool"}';
const A_REGISTRY = JSON.stringify({ schemas: [{ urn: 'urn:babel:shop:order-placed', schema: { type: 'object' } }] });

describe('registry verdicts through symbolic links', () => {
  for (const linked of ['the registry.json itself', 'its folder']) {
    test(`a registry.json reached through a link to ${linked === 'its folder' ? 'a folder' : 'a file'} is read again when the file it leads to changes`, (t) => {
      const root = scratch(t);
      mkdirSync(join(root, 'shared'));
      writeFileSync(join(root, 'shared', 'registry.json'), NOT_A_REGISTRY);
      let fixtureFolder: string;
      if (linked === 'its folder') {
        mkdirSync(join(root, 'pkg'));
        symlinkSync(join(root, 'shared'), join(root, 'pkg', 'linked'));
        fixtureFolder = join(root, 'pkg', 'linked');
      } else {
        mkdirSync(join(root, 'pkg'));
        symlinkSync(join(root, 'shared', 'registry.json'), join(root, 'pkg', 'registry.json'));
        fixtureFolder = join(root, 'pkg');
      }
      const registries = new RegistryService(() => undefined);
      registries.setWorkspaceFolders([toUri(root)]);
      const fixture = toUri(join(fixtureFolder, 'x.babel.json'));
      assert.equal(registries.stateFor(fixture, DEFAULT_SETTINGS).kind, 'none', 'passed over while it has no "schemas" key');

      // The file the link leads to gains a "schemas" key; the client's event names that file.
      writeFileSync(join(root, 'shared', 'registry.json'), A_REGISTRY);
      registries.invalidate([toUri(join(root, 'shared', 'registry.json'))]);
      const state = registries.stateFor(fixture, DEFAULT_SETTINGS);
      assert.equal(state.kind, 'loaded', 'found as the registry it now is');
    });
  }
});
