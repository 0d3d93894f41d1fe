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

/** The paths `run` hands to `fs[call]` (readdirSync: the folders listed; openSync: the files read). */
function pathsGiven(call: 'readdirSync' | 'openSync', run: () => void): string[] {
  const given: string[] = [];
  const calls = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = calls[call];
  calls[call] = (path: unknown, ...rest: unknown[]) => {
    given.push(String(path));
    return original(path, ...rest);
  };
  syncBuiltinESMExports();
  try {
    run();
  } finally {
    calls[call] = original;
    syncBuiltinESMExports();
  }
  return given;
}

test('a file outside the current folder is no registry named below it, and nothing below it is searched to say so', () => {
  mkdirSync(join(top, 'cwd/packages/a'), { recursive: true });
  writeFileSync(join(top, 'cwd/packages/a/babelq.json'), JSON.stringify({ registry: '../../../outside/main.json' }));
  mkdirSync(join(top, 'outside'));
  writeFileSync(join(top, 'outside/main.json'), '{ "schemas": [] }');
  const registries = new CliRegistries(join(top, 'cwd'), undefined, { githubWorkspace: undefined });
  let named = true;
  const listed = pathsGiven('readdirSync', () => {
    named = registries.isRegistryNamedBelow(join(top, 'outside/main.json'));
  });
  assert.equal(named, false);
  assert.deepEqual(listed.filter((path) => path.startsWith(join(top, 'cwd'))), []);
});

test('a file inside the current folder is still told by the configs below it', () => {
  mkdirSync(join(top, 'inside/packages/a'), { recursive: true });
  mkdirSync(join(top, 'inside/platform'), { recursive: true });
  writeFileSync(join(top, 'inside/packages/a/babelq.json'), JSON.stringify({ registry: '../../platform/main.json' }));
  writeFileSync(join(top, 'inside/platform/main.json'), '{ "schemas": [] }');
  const registries = new CliRegistries(join(top, 'inside'), undefined, { githubWorkspace: undefined });
  assert.equal(registries.isRegistryNamedBelow(join(top, 'inside/platform/main.json')), true);
});

test('the configs found are read for the registry they name alone: the suppressions files beside them are not read', () => {
  mkdirSync(join(top, 'baselines/packages/a'), { recursive: true });
  mkdirSync(join(top, 'baselines/platform'), { recursive: true });
  writeFileSync(join(top, 'baselines/packages/a/babelq.json'), JSON.stringify({ registry: '../../platform/main.json' }));
  // A baseline of tens of megabytes is read and parsed for nothing the search asks.
  writeFileSync(join(top, 'baselines/packages/a/babelq-suppressions.json'), JSON.stringify({ suppressions: [] }));
  writeFileSync(join(top, 'baselines/platform/main.json'), '{ "schemas": [] }');
  const registries = new CliRegistries(join(top, 'baselines'), undefined, { githubWorkspace: undefined });
  let named = false;
  const opened = pathsGiven('openSync', () => {
    named = registries.isRegistryNamedBelow(join(top, 'baselines/platform/main.json'));
  });
  assert.equal(named, true);
  assert.ok(opened.includes(join(top, 'baselines/packages/a/babelq.json')), opened.join('\n'));
  assert.deepEqual(opened.filter((path) => path.endsWith('babelq-suppressions.json')), []);
});
