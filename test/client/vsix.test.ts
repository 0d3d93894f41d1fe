/**
 * The .vsix as a user installs it (built with the vsce command of `npm run package`):
 * the user README with its screenshots, the diagnostic catalogue, the CLI the babelq task runs,
 * a complete manifest, no warning from vsce, and every relative link of the README resolving
 * to a file inside the package.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CODE_NAMES } from '../../core/rules/code-names';
import { zipEntries, type ZipEntry } from '../support/zip';

const ROOT = resolve(__dirname, '../..');
let dir: string;
let entries: Map<string, ZipEntry>;
let packagingOutput: string;

const text = (name: string) => {
  const entry = entries.get(name);
  assert.ok(entry, `${name} is in the .vsix: ${[...entries.keys()].join(', ')}`);
  return entry.read().toString('utf8');
};

/** The vsce command of `npm run package`, as written there, with its output redirected to `out`. */
function vsceArgs(out: string): string[] {
  const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.package;
  const command = script.split('&&').map((part) => part.trim()).find((part) => part.startsWith('vsce package'));
  assert.ok(command, `npm run package runs vsce package: ${script}`);
  const args = command.split(/\s+/).slice(1);
  const at = args.indexOf('--out');
  assert.ok(at > 0, 'npm run package names its output');
  args[at + 1] = out;
  return args;
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'babelq-vsix-test-'));
  const out = join(dir, 'test.vsix');
  // The bundles as npm test built them (npm run package builds production ones; the list is the same).
  const vsce = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const result = spawnSync(process.execPath, [vsce, ...vsceArgs(out)], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  packagingOutput = `${result.stdout}${result.stderr}`;
  assert.equal(result.status, 0, packagingOutput);
  entries = new Map(zipEntries(out).map((entry) => [entry.name, entry]));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the .vsix', () => {
  test('vsce packages it without a warning', () => {
    assert.doesNotMatch(packagingOutput, /WARNING/, packagingOutput);
  });

  test('carries the user README, not the repository one', () => {
    assert.equal(text('extension/readme.md'), readFileSync(join(ROOT, 'README.extension.md'), 'utf8'));
    assert.ok(![...entries.keys()].some((name) => /extension\/README\.md$/.test(name)), 'no second README');
  });

  test('every relative link and image of the README resolves to a file in the package; others are https', () => {
    const readme = text('extension/readme.md');
    const targets = [...readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]);
    assert.ok(targets.filter((target) => target.startsWith('images/')).length >= 2, 'at least two screenshots');
    for (const target of targets) {
      if (target.startsWith('#')) continue;
      if (/^[a-z]+:/i.test(target)) {
        assert.match(target, /^https:\/\//, `${target}: an absolute link is https`);
        continue;
      }
      const [path, anchor] = target.split('#');
      const name = posix.join('extension', path);
      assert.ok(entries.has(name), `${target} resolves inside the package`);
      if (anchor) assert.ok(text(name).includes(`<a id="${anchor}"></a>`), `${target}: the anchor exists`);
    }
  });

  test('carries the catalogue with an anchor per code, and the CLI the babelq task runs', () => {
    const catalogue = text('extension/docs/diagnostics.md');
    for (const code of CODE_NAMES) assert.ok(catalogue.includes(`<a id="${code}"></a>`), code);
    const bundles = ['extension', 'server', 'cli', 'cli-main', 'broker-redis', 'broker-amqp'];
    for (const bundle of bundles) assert.ok(entries.has(`extension/dist/${bundle}.js`), bundle);
    // Nothing else: a bundle left in dist/ by an older build would ship too.
    const shipped = [...entries.keys()].filter((name) => /^extension\/dist\/[^/]+\.js$/.test(name)).map((name) => name.slice('extension/dist/'.length, -'.js'.length));
    assert.deepEqual(shipped.sort(), [...bundles].sort());
  });

  test('the README documents every setting and command the manifest contributes', () => {
    const readme = text('extension/readme.md');
    const manifest = JSON.parse(text('extension/package.json'));
    for (const key of Object.keys(manifest.contributes.configuration.properties)) assert.ok(readme.includes(`\`${key}\``), `setting ${key}`);
    for (const { command } of manifest.contributes.commands) assert.ok(readme.includes(`\`${command}\``), `command ${command}`);
  });

  test('the manifest is complete for both marketplaces, and no sources or tests are shipped', () => {
    const manifest = JSON.parse(text('extension/package.json'));
    for (const field of ['name', 'displayName', 'description', 'version', 'publisher', 'license', 'icon', 'engines']) assert.ok(manifest[field], field);
    assert.equal(manifest.license, 'MIT');
    assert.ok(entries.has(`extension/${manifest.icon}`), 'the icon is in the package');
    assert.ok(entries.has('extension/LICENSE.txt'), 'the license text is in the package');
    assert.ok(manifest.categories.length > 0 && manifest.keywords.length >= 5);
    assert.ok(manifest.keywords.length <= 30, 'the marketplace takes at most 30 keywords');
    assert.ok(![...entries.keys()].some((name) => /\/(test|core|cli|server|client|node_modules)\//.test(name)), 'no sources or tests');
  });
});
