/**
 * The folder `babelq lint` keeps registries inside: the repository (the nearest folder at or above
 * the current one holding `.git`, a folder or a worktree's file), else the current folder. A
 * monorepo package linted from its own folder uses the registry its babelq.json names at the top,
 * and the registry.json found upward from a subfolder; one outside the repository is still
 * refused, in words a CLI user knows.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FileReport, OutputDiagnostic } from '../../cli/diagnostics';
import { assertCliBuilt, babelq, envelope, lintJson, makeTree, removeTree } from './helpers';

const URN = 'urn:babel:orders:created';

/** A registry whose one schema wants an order_id of 5000 or more: the envelope's 1042 fails it. */
const REGISTRY = JSON.stringify({ schemas: [{ urn: URN, schema: 'schemas/order.json', owner: 'shop', status: 'active' }] });
const STRICT_SCHEMA = JSON.stringify({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['order_id'],
  properties: { order_id: { type: 'integer', minimum: 5000 } },
});
const TOP_REGISTRY = { 'registry.json': REGISTRY, 'schemas/order.json': STRICT_SCHEMA };

const roots: string[] = [];
function tree(files: Readonly<Record<string, string>>, git?: 'init' | 'file', at = ''): string {
  const root = makeTree(files);
  roots.push(root);
  if (git === 'init') execFileSync('git', ['init', '-q', join(root, at)], { stdio: 'ignore' });
  // A worktree or a submodule holds a .git file naming the real git folder; only its being there counts.
  if (git === 'file') writeFileSync(join(root, at, '.git'), 'gitdir: /elsewhere/.git/worktrees/a\n');
  return root;
}

function diagnosticsOf(reports: readonly FileReport[], file: string): readonly OutputDiagnostic[] {
  const report = reports.find((r) => r.file === file);
  assert.ok(report, `no report for ${file}; reported: ${reports.map((r) => r.file).join(', ')}`);
  return report.diagnostics;
}

before(() => assertCliBuilt());
after(() => {
  for (const root of roots) removeTree(root);
});

test('a monorepo package linted from its own folder uses the registry its babelq.json names at the top of the repository', () => {
  for (const git of ['init', 'file'] as const) {
    const root = tree({ ...TOP_REGISTRY, 'packages/a/babelq.json': '{ "registry": "../../registry.json" }', 'packages/a/order.babel.json': envelope() }, git);
    const { result, reports } = lintJson(['.'], join(root, 'packages', 'a'));
    assert.equal(result.status, 1, result.stderr);
    // Named from the current folder, as before: the fixture by its own name.
    assert.deepEqual(reports.map((r) => r.file), ['order.babel.json'], git);
    assert.deepEqual(diagnosticsOf(reports, 'order.babel.json').map((d) => d.code), ['payload-schema'], `${git}: the payload is checked against the schema at the top`);
  }
});

test('a registry.json at the top of the repository is found from a subfolder lint', () => {
  const root = tree({ ...TOP_REGISTRY, 'packages/b/order.babel.json': envelope(), 'packages/b/unknown.babel.json': envelope().replace(URN, 'urn:babel:orders:vanished') }, 'init');
  const { result, reports } = lintJson(['.'], join(root, 'packages', 'b'));
  assert.equal(result.status, 1, result.stderr);
  assert.deepEqual(diagnosticsOf(reports, 'order.babel.json').map((d) => d.code), ['payload-schema']);
  assert.deepEqual(diagnosticsOf(reports, 'unknown.babel.json').map((d) => d.code), ['unknown-urn']);
});

test('a registry named outside the repository is refused, in words about the repository', () => {
  const root = tree({ ...TOP_REGISTRY, 'repo/packages/a/babelq.json': '{ "registry": "../../../registry.json" }', 'repo/packages/a/order.babel.json': envelope() }, 'init', 'repo');
  const { result, reports } = lintJson(['.'], join(root, 'repo', 'packages', 'a'));
  assert.equal(result.status, 1, result.stderr);
  const [error] = diagnosticsOf(reports, 'order.babel.json');
  assert.equal(error.code, 'registry-error');
  assert.match(error.message, /resolves outside the repository \.\.\/\.\. \(the folder holding \.git above the current folder\); it was not read/);
  assert.doesNotMatch(error.message, /workspace folder/);
  // From the top of the repository the words say the current folder is it.
  const fromTop = lintJson(['packages/a'], join(root, 'repo'));
  assert.match(diagnosticsOf(fromTop.reports, 'packages/a/order.babel.json')[0].message, /resolves outside the repository, the current folder \(it holds \.git\); it was not read/);
});

test('without .git the current folder bounds the registry, as before, and the words say so', () => {
  const root = tree({ ...TOP_REGISTRY, 'packages/a/babelq.json': '{ "registry": "../../registry.json" }', 'packages/a/order.babel.json': envelope(), 'packages/b/order.babel.json': envelope() });
  const named = lintJson(['.'], join(root, 'packages', 'a'));
  assert.equal(named.result.status, 1, named.result.stderr);
  const [error] = diagnosticsOf(named.reports, 'order.babel.json');
  assert.equal(error.code, 'registry-error');
  assert.match(error.message, /resolves outside the current folder \(no folder at or above it holds \.git\); it was not read/);
  // The registry.json above a subfolder is not searched for.
  const found = lintJson(['.'], join(root, 'packages', 'b'));
  assert.equal(found.result.status, 0, found.result.stderr);
  assert.deepEqual(diagnosticsOf(found.reports, 'order.babel.json'), []);
});

test('a registry.json passed over with none above it in the repository: the note says the search stops at the repository', () => {
  const root = tree({ 'packages/c/registry.json': '{ "name": "not a registry" }', 'packages/c/order.babel.json': envelope() }, 'init');
  const { result } = lintJson(['.'], join(root, 'packages', 'c'));
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stderr, /no registry\.json above it was used: the search stops at the repository \.\.\/\.\. \(the folder holding \.git above the current folder\), so the files below it were linted without a registry/);
});

test("the messages of a registry at the top of the repository name its files from the current folder, not by the checkout's absolute path", () => {
  // The SARIF fingerprint is hashed from the message: an absolute path in it changes with the place of the checkout.
  const files = { 'registry.json': REGISTRY, 'schemas/order.json': '{ "type": "object"', 'packages/a/babelq.json': '{ "registry": "../../registry.json" }', 'packages/a/order.babel.json': envelope() };
  const fingerprints = [tree(files, 'init'), tree(files, 'init')].map((root) => {
    const { result, reports } = lintJson(['.'], join(root, 'packages', 'a'));
    assert.equal(result.status, 1, result.stderr);
    const messages = reports.flatMap((report) => report.diagnostics.map((d) => d.message));
    assert.ok(messages.some((message) => message.includes('../../schemas/order.json is not valid JSON')), messages.join('\n'));
    for (const message of messages) assert.ok(!message.includes(root), `the checkout's path in: ${message}`);
    const sarif = babelq(['lint', '--format', 'sarif', '.'], join(root, 'packages', 'a'));
    const log = JSON.parse(sarif.stdout) as { runs: { results: { partialFingerprints: Record<string, string> }[] }[] };
    return log.runs[0].results.map((r) => Object.values(r.partialFingerprints)[0]).sort();
  });
  assert.deepEqual(fingerprints[0], fingerprints[1]);
});

test("gdpr's refusal of a registry babelq.json names outside the repository quotes the path on one line and bounded", () => {
  const far = `../../../${'x'.repeat(1000)}\nbabelq: forged/registry.json`;
  const root = tree({ 'packages/a/babelq.json': JSON.stringify({ registry: far }) }, 'init');
  const far2 = `${'y'.repeat(200)}/${'y'.repeat(200)}\nbabelq: forged`;
  const outside = tree({ [`${far2}/registry.json`]: REGISTRY });
  const cwd = join(root, 'packages', 'a');
  const refusal = (words: RegExp) => {
    const result = babelq(['gdpr'], cwd);
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, words);
    const lines = result.stderr.trimEnd().split('\n');
    assert.ok(!lines.some((line) => line.startsWith('babelq: forged')), result.stderr);
    for (const line of lines) assert.ok(line.length < 700, `${line.length} characters: ${line}`);
  };
  refusal(/outside the repository/);
  // Inside the repository by its path, a link leads out: where it leads is quoted as bounded.
  symlinkSync(join(outside, far2), join(cwd, 'linked'));
  writeFileSync(join(cwd, 'babelq.json'), JSON.stringify({ registry: 'linked/registry.json' }));
  refusal(/which a symbolic link leads to/);
});

test("lint's refusal of a registry babelq.json names outside the repository quotes its path bounded, and from the current folder where it lies inside by its path", () => {
  const root = tree({ 'packages/a/babelq.json': JSON.stringify({ registry: `../../../${'z'.repeat(3000)}/registry.json` }), 'packages/a/order.babel.json': envelope() }, 'init');
  const outside = tree(TOP_REGISTRY);
  const cwd = join(root, 'packages', 'a');
  const far = diagnosticsOf(lintJson(['.'], cwd).reports, 'order.babel.json').find((d) => d.code === 'registry-error');
  assert.ok(far && far.message.length < 800, `${far?.message.length} characters: ${far?.message.slice(0, 300)}`);
  assert.match(far.message, /resolves outside the repository/);
  // In the repository by its path, a link leads out: named from the current folder, not by the checkout's absolute path.
  symlinkSync(outside, join(root, 'linked'));
  writeFileSync(join(cwd, 'babelq.json'), JSON.stringify({ registry: '../../linked/registry.json' }));
  const linked = diagnosticsOf(lintJson(['.'], cwd).reports, 'order.babel.json').find((d) => d.code === 'registry-error');
  assert.ok(linked, 'the linked registry is refused');
  assert.match(linked.message, /"\.\.\/\.\.\/linked\/registry\.json" resolves outside the repository/);
  assert.ok(!linked.message.includes(root), linked.message);
});

test('a registry and schema file at the top of the repository are reported by paths from the current folder, as the other files are', () => {
  const root = tree({ 'registry.json': REGISTRY, 'schemas/order.json': '{ "type": "object"', 'packages/a/babelq.json': '{ "registry": "../../registry.json" }', 'packages/a/order.babel.json': envelope() }, 'init');
  const { result, reports } = lintJson(['.'], join(root, 'packages', 'a'));
  assert.equal(result.status, 1, result.stderr);
  assert.ok(reports.some((report) => report.file === '../../registry.json'), reports.map((report) => report.file).join(', '));
  for (const report of reports) assert.ok(!report.file.includes(root), `the checkout's path in ${report.file}`);
  // Outside the repository, by the absolute path, as before.
  const outside = tree({ 'registry.json': REGISTRY, 'schemas/order.json': '{ "type": "object"' });
  const named = lintJson(['--registry', join(outside, 'registry.json'), '.'], join(root, 'packages', 'a'));
  assert.ok(named.reports.some((report) => report.file === join(outside, 'registry.json')), named.reports.map((report) => report.file).join(', '));
});

test('a registry.json passed over for one at the top of the repository: the note names that one from the current folder', () => {
  const root = tree({ ...TOP_REGISTRY, 'packages/c/registry.json': '{ "name": "not a registry" }', 'packages/c/order.babel.json': envelope() }, 'init');
  const { result } = lintJson(['.'], join(root, 'packages', 'c'));
  assert.match(result.stderr, /registry\.json was not read as a registry: .* was passed over for \.\.\/\.\.\/registry\.json, the next one up/);
  assert.ok(!result.stderr.includes(root), result.stderr);
});

test('without .git, GITHUB_WORKSPACE bounds the registry when the current folder lies in it (a checkout made without git), and the words name the GitHub workspace', () => {
  const root = tree({ ...TOP_REGISTRY, 'packages/a/babelq.json': '{ "registry": "../../registry.json" }', 'packages/a/order.babel.json': envelope(), 'packages/b/order.babel.json': envelope() });
  const cwd = join(root, 'packages', 'a');
  const inWorkspace = (args: readonly string[], at: string, workspace: string) => {
    const result = babelq(['lint', '--format', 'json', ...args], at, { GITHUB_WORKSPACE: workspace });
    return { result, reports: JSON.parse(result.stdout) as FileReport[] };
  };
  // The registry babelq.json names at the workspace's top is used, and the one found upward from a subfolder.
  for (const [at, workspace] of [[cwd, root], [join(root, 'packages', 'b'), root], [cwd, join(root, 'packages', '..')]] as const) {
    const { result, reports } = inWorkspace(['.'], at, workspace);
    assert.equal(result.status, 1, result.stderr);
    assert.deepEqual(diagnosticsOf(reports, 'order.babel.json').map((d) => d.code), ['payload-schema'], `${at} in ${workspace}: ${JSON.stringify(reports)}`);
  }
  // The same folder named through a link: the workspace is the folder the link leads to.
  const link = `${root}-link`;
  symlinkSync(root, link);
  roots.push(link);
  assert.deepEqual(diagnosticsOf(inWorkspace(['.'], cwd, link).reports, 'order.babel.json').map((d) => d.code), ['payload-schema']);
  // A registry outside the workspace is refused in words about it.
  const nested = tree({ ...TOP_REGISTRY, 'ws/packages/a/babelq.json': '{ "registry": "../../../registry.json" }', 'ws/packages/a/order.babel.json': envelope() });
  const [error] = diagnosticsOf(inWorkspace(['.'], join(nested, 'ws', 'packages', 'a'), join(nested, 'ws')).reports, 'order.babel.json');
  assert.equal(error.code, 'registry-error');
  assert.match(error.message, /resolves outside the GitHub workspace \.\.\/\.\. \(GITHUB_WORKSPACE, above the current folder; no folder at or above it holds \.git\); it was not read/);
  const fromTop = inWorkspace(['packages/a'], join(nested, 'ws'), join(nested, 'ws'));
  assert.match(diagnosticsOf(fromTop.reports, 'packages/a/order.babel.json')[0].message, /resolves outside the GitHub workspace, the current folder \(GITHUB_WORKSPACE; no folder at or above it holds \.git\); it was not read/);
  // gdpr reads the registry babelq.json names at the workspace's top.
  const gdpr = babelq(['gdpr'], cwd, { GITHUB_WORKSPACE: root });
  assert.equal(gdpr.status, 0, gdpr.stderr);
  // A current folder outside GITHUB_WORKSPACE, or a workspace given as a relative path: the current folder bounds it, as before.
  for (const workspace of [join(root, 'packages', 'b'), 'packages']) {
    const [outside] = diagnosticsOf(inWorkspace(['.'], cwd, workspace).reports, 'order.babel.json');
    assert.match(outside.message, /resolves outside the current folder \(no folder at or above it holds \.git\); it was not read/, workspace);
  }
  // A workspace that is the home folder bounds a folder below it no more than a home folder kept in Git does.
  const home = babelq(['lint', '--format', 'json', '.'], cwd, { GITHUB_WORKSPACE: root, HOME: root });
  assert.match(diagnosticsOf(JSON.parse(home.stdout) as FileReport[], 'order.babel.json')[0].message, /resolves outside the current folder \(no folder at or above it holds \.git\)/);
});

test('a GitHub workspace far above the current folder is named within 200 characters, as a registry\'s own folder is', () => {
  // 90 folders down: the workspace is 269 characters of ../ from here.
  const deep = Array.from({ length: 90 }, () => 'd').join('/');
  const root = tree({ ...TOP_REGISTRY, [`ws/${deep}/babelq.json`]: '{ "registry": "/elsewhere/registry.json" }', [`ws/${deep}/order.babel.json`]: envelope() });
  const up = Array.from({ length: 90 }, () => '..').join('/');
  const result = babelq(['lint', '--format', 'json', '.'], join(root, 'ws', deep), { GITHUB_WORKSPACE: join(root, 'ws') });
  const [error] = diagnosticsOf(JSON.parse(result.stdout) as FileReport[], 'order.babel.json');
  assert.equal(error.code, 'registry-error');
  assert.ok(!error.message.includes(up), error.message);
  assert.ok(error.message.includes(`resolves outside the GitHub workspace ${up.slice(0, 197)}… (GITHUB_WORKSPACE, above the current folder; no folder at or above it holds .git); it was not read`), error.message);
});

test('a .git above the current folder still bounds the registry when GITHUB_WORKSPACE is set (a checkout into a subfolder of the workspace)', () => {
  const root = tree({ ...TOP_REGISTRY, 'repo/packages/a/babelq.json': '{ "registry": "../../../registry.json" }', 'repo/packages/a/order.babel.json': envelope() }, 'init', 'repo');
  const result = babelq(['lint', '--format', 'json', '.'], join(root, 'repo', 'packages', 'a'), { GITHUB_WORKSPACE: root });
  const [error] = diagnosticsOf(JSON.parse(result.stdout) as FileReport[], 'order.babel.json');
  assert.match(error.message, /resolves outside the repository \.\.\/\.\. \(the folder holding \.git above the current folder\); it was not read/);
});

test('a GITHUB_WORKSPACE that holds the home folder (/, or any folder above it) bounds a folder below it no more than one that is the home folder', () => {
  // A download unpacked in the home folder, without .git, whose babelq.json names a registry far above it.
  const root = tree({ ...TOP_REGISTRY, 'home/user/dl/pkg/babelq.json': '{ "registry": "../../../../registry.json" }', 'home/user/dl/pkg/order.babel.json': envelope() });
  const home = join(root, 'home', 'user');
  const cwd = join(home, 'dl', 'pkg');
  for (const workspace of [root, join(root, 'home'), '/']) {
    const result = babelq(['lint', '--format', 'json', '.'], cwd, { GITHUB_WORKSPACE: workspace, HOME: home });
    const [error] = diagnosticsOf(JSON.parse(result.stdout) as FileReport[], 'order.babel.json');
    assert.match(error?.message ?? '', /resolves outside the current folder \(no folder at or above it holds \.git\); it was not read/, `GITHUB_WORKSPACE=${workspace}: ${result.stdout}`);
  }
  // Linted from the workspace itself, it bounds as the current folder does.
  const fromTop = babelq(['lint', '--format', 'json', 'home/user/dl/pkg'], root, { GITHUB_WORKSPACE: root, HOME: home });
  assert.deepEqual(diagnosticsOf(JSON.parse(fromTop.stdout) as FileReport[], 'home/user/dl/pkg/order.babel.json').map((d) => d.code), ['payload-schema']);
});
