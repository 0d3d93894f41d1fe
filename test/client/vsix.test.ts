/**
 * The .vsix as a user installs it (built with the vsce command of `npm run package`):
 * the user README with its screenshots, the diagnostic catalogue, the CLI the babelq task runs,
 * a complete manifest with the repository's links, no warning from vsce, and every link of the
 * README absolute: vsce rewrites README.extension.md's relative links and images into the
 * repository at the release tag (VS Code's extension page shows no image and opens no link that is
 * relative to the package, and neither does the marketplace's web page).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CODE_NAMES } from '../../core/rules/code-names';
import { zipEntries, type ZipEntry } from '../support/zip';

const ROOT = resolve(__dirname, '../..');
const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; repository: { url: string } };
const REPOSITORY = MANIFEST.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
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
  // npm gives scripts the manifest's fields as environment variables; the test spawns vsce itself.
  const args = command.split(/\s+/).slice(1).map((arg) => arg.replace('$npm_package_version', MANIFEST.version));
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

  test('carries the user README, not the repository one, with its links made absolute into the repository at the release tag', () => {
    const source = readFileSync(join(ROOT, 'README.extension.md'), 'utf8');
    const readme = text('extension/readme.md');
    assert.ok(![...entries.keys()].some((name) => /extension\/README\.md$/.test(name)), 'no second README');
    const links = (markdown: string) => [...markdown.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => ({ image: match[1] === '!', target: match[2] }));
    // The same README, only its relative targets rewritten.
    assert.equal(readme.replace(/\]\(https:\/\/github\.com\/[^)]*\)/g, ']()'), source.replace(/\]\((?![a-z]+:|#)[^)]*\)/g, ']()'));
    const targets = links(readme);
    assert.equal(targets.length, links(source).length);
    const tracked = new Set(spawnSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\n'));
    for (const [index, { image, target }] of targets.entries()) {
      const original = links(source)[index].target;
      if (target.startsWith('#')) continue;
      assert.match(target, /^https:\/\//, `${target}: an absolute link is https`);
      if (/^[a-z]+:/i.test(original)) continue;
      // A relative link of README.extension.md: the file in the repository at the release's tag.
      const [path, anchor] = original.split('#');
      assert.equal(target, `${REPOSITORY}/${image ? 'raw' : 'blob'}/v${MANIFEST.version}/${original}`);
      assert.ok(tracked.has(path), `${original} is a file of the repository`);
      if (anchor) assert.ok(readFileSync(join(ROOT, path), 'utf8').includes(`<a id="${anchor}"></a>`), `${original}: the anchor exists`);
    }
    assert.ok(targets.filter(({ image }) => image).length >= 2, 'at least two screenshots');
    for (const { target } of targets.filter(({ image }) => image)) {
      const path = target.slice(`${REPOSITORY}/raw/v${MANIFEST.version}/`.length);
      assert.ok(entries.has(`extension/${path}`), `the screenshot ${path} is in the .vsix too`);
    }
  });

  test('the manifest links the repository, its issues and its README', () => {
    const vsixManifest = text('extension.vsixmanifest');
    for (const [link, url] of [['Source', REPOSITORY], ['GitHub', REPOSITORY], ['Support', `${REPOSITORY}/issues`], ['Learn', `${REPOSITORY}#readme`]]) {
      assert.ok(vsixManifest.includes(`Id="Microsoft.VisualStudio.Services.Links.${link}" Value="${url}`), `${link}: ${url}`);
    }
  });

  test('carries the catalogue with an anchor per code, and the CLI the babelq task runs', () => {
    const catalogue = text('extension/docs/diagnostics.md');
    for (const code of CODE_NAMES) assert.ok(catalogue.includes(`<a id="${code}"></a>`), code);
    const bundles = ['extension', 'server', 'server-main', 'cli', 'cli-main', 'broker-redis', 'broker-amqp'];
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
