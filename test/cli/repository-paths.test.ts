/**
 * `--format sarif` and `--format github` name files from the repository root, as GitHub resolves
 * them, whichever folder babelq runs in; stylish, json and compact keep the paths as typed. Real
 * git repositories (`git init`), runs from a subfolder, files outside the current folder and
 * outside the repository.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { sarifValidator } from '../support/sarif-schema';
import { assertCliBuilt, babelq, FORBIDDEN_TIMESTAMP, makeTree, removeTree, URN_ALIAS_ONLY, type RunResult } from './helpers';

interface ArtifactLocation {
  uri: string;
  uriBaseId?: string;
}
interface SarifLog {
  runs: {
    originalUriBaseIds?: Record<string, { uri: string }>;
    results: {
      ruleId: string;
      locations: { physicalLocation: { artifactLocation: ArtifactLocation } }[];
      relatedLocations?: { physicalLocation: { artifactLocation: ArtifactLocation } }[];
      fixes?: { artifactChanges: { artifactLocation: ArtifactLocation }[] }[];
    }[];
  }[];
}

/** GITHUB_WORKSPACE cleared: the suite may itself run in a GitHub workflow, where the runner sets it. */
const NO_WORKSPACE = { GITHUB_WORKSPACE: '' };

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' });
}

function sarif(args: readonly string[], cwd: string, env: Record<string, string> = NO_WORKSPACE): SarifLog {
  const result = babelq([...args, '--format', 'sarif'], cwd, env);
  assert.ok(result.status === 0 || result.status === 1, result.stderr);
  return JSON.parse(result.stdout) as SarifLog;
}

/** Every artifactLocation of the log: results', related locations' and fixes'. */
function locations(log: SarifLog): ArtifactLocation[] {
  return log.runs[0].results.flatMap((result) => [
    ...result.locations.map((location) => location.physicalLocation.artifactLocation),
    ...(result.relatedLocations ?? []).map((location) => location.physicalLocation.artifactLocation),
    ...(result.fixes ?? []).flatMap((fix) => fix.artifactChanges.map((change) => change.artifactLocation)),
  ]);
}

/** The distinct URIs of the results' primary locations, in order. */
function uris(log: SarifLog): string[] {
  return [...new Set(log.runs[0].results.map((result) => result.locations[0].physicalLocation.artifactLocation.uri))];
}

/** The distinct `file=` values of the annotations, in order. */
function annotated(result: RunResult): string[] {
  return [...new Set([...result.stdout.matchAll(/^::\w+ file=([^,]*),/gm)].map((match) => match[1]))];
}

/** The folder as the base id's URI: absolute, file:, ending in '/'. */
function folderUri(folder: string): string {
  return `${pathToFileURL(realpathSync(folder)).href}/`;
}

before(assertCliBuilt);

describe('a run from a subfolder of a git repository', () => {
  let repo: string;
  before(() => {
    repo = makeTree({
      'pkg/fixtures/forbidden.babel.json': FORBIDDEN_TIMESTAMP,
      'pkg/fixtures/alias.babel.json': URN_ALIAS_ONLY,
      'other/alias.babel.json': URN_ALIAS_ONLY,
      // A registry with a problem of its own, above the folder babelq runs in: lint reports it by its
      // absolute path in the text formats, and SARIF and the annotations must name it from the root.
      'registry.json': '{"schemas": [{"urn": "urn:babel:orders:shipped", "schema": "schemas/missing.json", "owner": "orders", "status": "active"}]}\n',
    });
    git(repo, 'init', '-q');
  });
  after(() => removeTree(repo));

  const args = ['lint', 'fixtures', '../other/alias.babel.json', '--registry', '../registry.json'];

  test('SARIF: URIs from the repository root under %SRCROOT%, which originalUriBaseIds gives as the root\'s file: URI', () => {
    const log = sarif(args, join(repo, 'pkg'));
    assert.deepEqual(uris(log), ['pkg/fixtures/alias.babel.json', 'pkg/fixtures/forbidden.babel.json', 'other/alias.babel.json', 'registry.json']);
    const all = locations(log);
    assert.ok(all.some((location) => location !== log.runs[0].results[0].locations[0].physicalLocation.artifactLocation), 'fixes are checked too');
    for (const location of all) assert.equal(location.uriBaseId, '%SRCROOT%', JSON.stringify(location));
    assert.deepEqual(log.runs[0].originalUriBaseIds, { '%SRCROOT%': { uri: folderUri(repo) } });
    // The root's own path is written once, in originalUriBaseIds, and nowhere in the results.
    assert.ok(!JSON.stringify(log.runs[0].results).includes(realpathSync(repo)), 'no absolute path in the results');
  });

  test('SARIF from a subfolder still validates against the SARIF 2.1.0 schema', () => {
    const validate = sarifValidator();
    const log = sarif(args, join(repo, 'pkg'));
    assert.equal(validate(log), true, JSON.stringify(validate.errors, null, 2));
  });

  test('github: file= from the repository root, the registry above the current folder included', () => {
    const result = babelq([...args, '--format', 'github'], join(repo, 'pkg'), NO_WORKSPACE);
    assert.equal(result.status, 1, result.stderr);
    assert.deepEqual(annotated(result), ['pkg/fixtures/alias.babel.json', 'pkg/fixtures/forbidden.babel.json', 'other/alias.babel.json', 'registry.json']);
  });

  test('stylish, json and compact keep the paths as typed, relative to the current folder', () => {
    const json = JSON.parse(babelq([...args, '--format', 'json'], join(repo, 'pkg'), NO_WORKSPACE).stdout) as { file: string }[];
    assert.deepEqual(json.map((report) => report.file).slice(0, 3), ['fixtures/alias.babel.json', 'fixtures/forbidden.babel.json', '../other/alias.babel.json']);
    const compact = babelq([...args, '--format', 'compact'], join(repo, 'pkg'), NO_WORKSPACE).stdout;
    assert.match(compact, /^fixtures\/forbidden\.babel\.json:/m);
    assert.match(compact, /^\.\.\/other\/alias\.babel\.json:/m);
    assert.match(babelq(args, join(repo, 'pkg'), NO_WORKSPACE).stdout, /^\.\.\/other\/alias\.babel\.json$/m);
  });

  test('run from the root, the paths are the ones typed, as before', () => {
    // The registry.json at the root is the files' nearest, and is reported after them.
    const rootArgs = ['lint', 'pkg/fixtures', 'other/alias.babel.json'];
    const typed = ['pkg/fixtures/alias.babel.json', 'pkg/fixtures/forbidden.babel.json', 'other/alias.babel.json', 'registry.json'];
    assert.deepEqual(uris(sarif(rootArgs, repo)), typed);
    const github = babelq([...rootArgs, '--format', 'github'], repo, NO_WORKSPACE);
    assert.deepEqual(annotated(github), typed);
    assert.deepEqual(JSON.parse(babelq([...rootArgs, '--format', 'json'], repo, NO_WORKSPACE).stdout).map((report: { file: string }) => report.file), typed);
  });

  test('a file outside the repository: a file: URI in SARIF (no base id), its path as given in the annotations', () => {
    const outside = makeTree({ 'far.babel.json': URN_ALIAS_ONLY });
    try {
      const far = join(outside, 'far.babel.json');
      const log = sarif(['lint', far], join(repo, 'pkg'));
      assert.deepEqual(locations(log).map((location) => location.uriBaseId), locations(log).map(() => undefined));
      assert.deepEqual(uris(log), [pathToFileURL(far).href]);
      assert.deepEqual(annotated(babelq(['lint', far, '--format', 'github'], join(repo, 'pkg'), NO_WORKSPACE)), [far]);
    } finally {
      removeTree(outside);
    }
  });
});

describe('babelq compat --base from a subfolder', () => {
  let repo: string;
  const schema = (type: string) => `${JSON.stringify({ type: 'object', properties: { id: { type } } }, null, 2)}\n`;
  const registry = (urns: readonly string[]) => `${JSON.stringify({ schemas: urns.map((urn) => ({ urn, schema: 'schemas/orders-cancelled.json', owner: 'orders', status: 'active' })) }, null, 2)}\n`;
  before(() => {
    repo = makeTree({
      'schemas/orders-cancelled.json': schema('string'),
      'registry.json': registry(['urn:babel:orders:cancelled', 'urn:babel:orders:gone']),
    });
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'base');
    // A retyped field (a break in the schema) and a vanished URN (a break in registry.json).
    writeFileSync(join(repo, 'schemas/orders-cancelled.json'), schema('integer'));
    writeFileSync(join(repo, 'registry.json'), registry(['urn:babel:orders:cancelled']));
  });
  after(() => removeTree(repo));

  const args = ['compat', '--base', 'HEAD', '--registry', '../registry.json'];

  test('SARIF names the schema and ../registry.json from the root, not orders-cancelled.json and a file: URI', () => {
    const log = sarif(args, join(repo, 'schemas'));
    assert.deepEqual(uris(log).sort(), ['registry.json', 'schemas/orders-cancelled.json']);
    for (const location of locations(log)) assert.equal(location.uriBaseId, '%SRCROOT%');
    assert.deepEqual(log.runs[0].originalUriBaseIds, { '%SRCROOT%': { uri: folderUri(repo) } });
  });

  test('the annotations do too; json keeps the paths as typed', () => {
    const github = babelq([...args, '--format', 'github'], join(repo, 'schemas'), NO_WORKSPACE);
    assert.equal(github.status, 1, github.stderr);
    assert.deepEqual(annotated(github).sort(), ['registry.json', 'schemas/orders-cancelled.json']);
    const json = JSON.parse(babelq([...args, '--format', 'json'], join(repo, 'schemas'), NO_WORKSPACE).stdout) as { file: string }[];
    assert.deepEqual(json.map((report) => report.file).sort(), ['../registry.json', 'orders-cancelled.json']);
  });
});

describe('the root outside a git work tree', () => {
  let tree: string;
  before(() => {
    tree = makeTree({ 'pkg/fixtures/alias.babel.json': URN_ALIAS_ONLY, 'other/alias.babel.json': URN_ALIAS_ONLY });
  });
  after(() => removeTree(tree));

  test('without git or GITHUB_WORKSPACE, paths stay relative to the current folder; one outside it is a file: URI', () => {
    const cwd = join(tree, 'pkg');
    const log = sarif(['lint', 'fixtures', '../other/alias.babel.json'], cwd);
    assert.deepEqual(uris(log), ['fixtures/alias.babel.json', pathToFileURL(join(tree, 'other/alias.babel.json')).href]);
    assert.deepEqual(log.runs[0].originalUriBaseIds, { '%SRCROOT%': { uri: folderUri(cwd) } });
    assert.deepEqual(annotated(babelq(['lint', 'fixtures', '../other/alias.babel.json', '--format', 'github'], cwd, NO_WORKSPACE)), ['fixtures/alias.babel.json', '../other/alias.babel.json']);
  });

  test('a checkout without .git: GITHUB_WORKSPACE is the root when the current folder lies in it', () => {
    const env = { GITHUB_WORKSPACE: tree };
    const cwd = join(tree, 'pkg');
    const log = sarif(['lint', 'fixtures', '../other/alias.babel.json'], cwd, env);
    assert.deepEqual(uris(log), ['pkg/fixtures/alias.babel.json', 'other/alias.babel.json']);
    assert.deepEqual(log.runs[0].originalUriBaseIds, { '%SRCROOT%': { uri: folderUri(tree) } });
    assert.deepEqual(annotated(babelq(['lint', 'fixtures', '--format', 'github'], cwd, env)), ['pkg/fixtures/alias.babel.json']);
    // The workspace named through a link (as macOS's /var is /private/var) is the same root.
    const link = `${tree}-link`;
    symlinkSync(tree, link);
    try {
      assert.deepEqual(annotated(babelq(['lint', 'fixtures', '--format', 'github'], cwd, { GITHUB_WORKSPACE: link })), ['pkg/fixtures/alias.babel.json']);
    } finally {
      unlinkSync(link);
    }
    // A workspace the current folder is not in says nothing of it.
    assert.deepEqual(annotated(babelq(['lint', 'fixtures', '--format', 'github'], cwd, { GITHUB_WORKSPACE: join(tree, 'other') })), ['fixtures/alias.babel.json']);
  });

  test('a work tree checked out into a subfolder of the workspace: paths from the work tree, which GitHub resolves them in', () => {
    const checkout = join(tree, 'checkout');
    mkdirSync(join(checkout, 'fixtures'), { recursive: true });
    writeFileSync(join(checkout, 'fixtures', 'alias.babel.json'), readFileSync(join(tree, 'pkg/fixtures/alias.babel.json')));
    git(checkout, 'init', '-q');
    const github = babelq(['lint', '.', '--format', 'github'], join(checkout, 'fixtures'), { GITHUB_WORKSPACE: tree });
    assert.deepEqual(annotated(github), ['fixtures/alias.babel.json']);
  });
});

