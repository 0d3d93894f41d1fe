/**
 * workspace/named-registries.ts: telling a file a babelq.json elsewhere names as the registry,
 * at the cost of the named registries of its own file name only, as it is asked at each pull of
 * an open JSON document's diagnostics in a monorepo of many packages.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { foldersWithConfigBelow, isNamedRegistry } from '../../workspace/named-registries';

describe('isNamedRegistry', () => {
  test('asked again and again of a large monorepo, it looks only at the registries of the file\'s name', () => {
    const named = new Map<string, string[]>();
    for (let index = 0; index < 100_000; index++) named.set(`/mono/packages/p${index}/config/registry-${index}.json`, [`/mono/packages/p${index}`]);
    const started = performance.now();
    for (let ask = 0; ask < 2_000; ask++) assert.equal(isNamedRegistry(`/mono/packages/p${ask}/src/other-${ask}.json`, named, '/mono'), false);
    const elapsed = performance.now() - started;
    // Each ask went through every named registry: 2,000 × 100,000 file names took tens of seconds.
    assert.ok(elapsed < 2_000, `${Math.round(elapsed)} ms`);
    // The one of its name, named from inside the folder, is still told.
    assert.equal(isNamedRegistry('/mono/packages/p7/config/registry-7.json', named, '/mono'), true);
    assert.equal(isNamedRegistry('/mono/packages/p7/config/registry-7.json', named, '/elsewhere'), false);
  });
});

describe('foldersWithConfigBelow', () => {
  test('passes over the folders the ignores leave out, and what lies below them, but searches the folder it starts from', () => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-configs-below-'));
    try {
      for (const folder of ['', 'kept', 'left', 'left/deeper', 'node_modules/pkg']) {
        mkdirSync(join(root, folder), { recursive: true });
        writeFileSync(join(root, folder, 'babelq.json'), '{}');
      }
      const everything = foldersWithConfigBelow(root).sort();
      assert.deepEqual(everything, [root, join(root, 'kept'), join(root, 'left'), join(root, 'left/deeper')]);
      const skipped: string[] = [];
      const ignores = { skipDirectory: (path: string) => (skipped.push(path), path === root || path === join(root, 'left')), skipFile: () => true };
      assert.deepEqual(foldersWithConfigBelow(root, ignores).sort(), [root, join(root, 'kept')]);
      // node_modules is passed over before the ignores are asked, as the editor's walk passes it over.
      assert.deepEqual(skipped.sort(), [join(root, 'kept'), join(root, 'left')]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
