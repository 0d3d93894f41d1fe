/**
 * `babelq lint` looks for the babelq.json files below the current folder (CliRegistries'
 * isRegistryNamedBelow) only for a file that such a config could make the registry: one inside
 * the current folder. From the top of a large tree, linting a .json file outside it searched up to
 * 100,000 folders for an answer that could only be no.
 */
import assert from 'node:assert/strict';
import fs, { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CliRegistries } from '../../cli/registry';

const top = mkdtempSync(join(tmpdir(), 'babelq-named-below-'));
after(() => rmSync(top, { recursive: true, force: true }));

/** The folders `run` lists, by their paths. */
function foldersListed(run: () => void): string[] {
  const listed: string[] = [];
  const original = fs.readdirSync;
  (fs as { readdirSync: unknown }).readdirSync = (path: fs.PathLike, ...rest: unknown[]) => {
    listed.push(String(path));
    return (original as (...args: unknown[]) => unknown)(path, ...rest);
  };
  syncBuiltinESMExports();
  try {
    run();
  } finally {
    (fs as { readdirSync: unknown }).readdirSync = original;
    syncBuiltinESMExports();
  }
  return listed;
}

test('a file outside the current folder is no registry named below it, and nothing below it is searched to say so', () => {
  mkdirSync(join(top, 'cwd/packages/a'), { recursive: true });
  writeFileSync(join(top, 'cwd/packages/a/babelq.json'), JSON.stringify({ registry: '../../../outside/main.json' }));
  mkdirSync(join(top, 'outside'));
  writeFileSync(join(top, 'outside/main.json'), '{ "schemas": [] }');
  const registries = new CliRegistries(join(top, 'cwd'), undefined);
  let named = true;
  const listed = foldersListed(() => {
    named = registries.isRegistryNamedBelow(join(top, 'outside/main.json'));
  });
  assert.equal(named, false);
  assert.deepEqual(listed.filter((path) => path.startsWith(join(top, 'cwd'))), []);
});

test('a file inside the current folder is still told by the configs below it', () => {
  mkdirSync(join(top, 'inside/packages/a'), { recursive: true });
  mkdirSync(join(top, 'inside/shared'), { recursive: true });
  writeFileSync(join(top, 'inside/packages/a/babelq.json'), JSON.stringify({ registry: '../../shared/main.json' }));
  writeFileSync(join(top, 'inside/shared/main.json'), '{ "schemas": [] }');
  const registries = new CliRegistries(join(top, 'inside'), undefined);
  assert.equal(registries.isRegistryNamedBelow(join(top, 'inside/shared/main.json')), true);
});
