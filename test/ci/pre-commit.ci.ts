/**
 * The pre-commit hook (.pre-commit-hooks.yaml) through Debian's pre-commit, as a user's repository
 * meets it: `pre-commit try-repo <this repository> babelq-lint --all-files` in a scratch git
 * repository fails on a bad fixture and passes on a good one. pre-commit installs a node hook by
 * running npm in a clone at a commit, so the hook repository is a scratch clone with the working
 * tree committed on top. It needs only the npm registry (npm install, then npm pack's prepack
 * build); PRE_COMMIT_HOME is fresh, so the install is part of what is tested. Run by
 * `npm run test:pre-commit` (.ci/run installs pre-commit when missing).
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { envelope, FORBIDDEN_TIMESTAMP, REPO_ROOT } from '../cli/helpers';

/** The first run installs the hook (npm install, the production build, npm pack); bounded, like every run. */
const INSTALL_TIMEOUT_MS = 8 * 60_000;
const GIT_IDENTITY = ['-c', 'user.name=babelq test', '-c', 'user.email=test@babelq.invalid', '-c', 'commit.gpgsign=false'];

let scratch: string;
let hookRepo: string;
let env: NodeJS.ProcessEnv;

function run(command: string, args: readonly string[], options: SpawnSyncOptions & { cwd: string }) {
  const result = spawnSync(command, args, { encoding: 'utf8', env, timeout: INSTALL_TIMEOUT_MS, ...options });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

function git(cwd: string, ...args: string[]): string {
  const result = run('git', [...GIT_IDENTITY, ...args], { cwd });
  assert.equal(result.status, 0, `git ${args.join(' ')}: ${result.output}`);
  return result.output;
}

/** A project repository with one tracked fixture, and any other files given (path → text). */
function project(name: string, fixture: string, others: Record<string, string> = {}): string {
  const dir = join(scratch, name);
  mkdirSync(join(dir, 'fixtures'), { recursive: true });
  writeFileSync(join(dir, 'fixtures', 'order.babel.json'), fixture);
  writeFileSync(join(dir, 'README.md'), 'not a fixture\n');
  for (const [path, text] of Object.entries(others)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git(dir, 'init', '--quiet');
  git(dir, 'add', '.');
  git(dir, 'commit', '--quiet', '-m', 'fixtures');
  return dir;
}

function tryRepo(dir: string) {
  return run('pre-commit', ['try-repo', hookRepo, 'babelq-lint', '--all-files', '--color', 'never'], { cwd: dir });
}

before(() => {
  const found = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
  assert.equal(found.error, undefined, "pre-commit is not installed: apt-get install pre-commit (.ci/run does)");
  scratch = mkdtempSync(join(tmpdir(), 'babelq-pre-commit-'));
  env = { ...process.env, PRE_COMMIT_HOME: join(scratch, 'pre-commit-home'), NO_COLOR: '1' };
  // The hook repository: this repository's history plus the working tree as one more commit.
  hookRepo = join(scratch, 'hook-repo');
  git(scratch, 'clone', '--quiet', '--no-hardlinks', REPO_ROOT, hookRepo);
  const listed = git(REPO_ROOT, 'ls-files', '--cached', '--others', '--exclude-standard', '-z').split('\0').filter(Boolean);
  for (const file of listed) {
    const source = join(REPO_ROOT, file);
    if (!existsSync(source) || !lstatSync(source).isFile()) continue;
    mkdirSync(dirname(join(hookRepo, file)), { recursive: true });
    copyFileSync(source, join(hookRepo, file));
  }
  git(hookRepo, 'add', '-A');
  git(hookRepo, 'commit', '--quiet', '--allow-empty', '-m', 'the working tree under test');
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('pre-commit try-repo babelq-lint', () => {
  test('fails on a bad fixture, naming the finding', () => {
    const result = tryRepo(project('bad', FORBIDDEN_TIMESTAMP));
    assert.equal(result.status, 1, result.output);
    assert.match(result.output, /babelq lint\.+Failed/);
    assert.match(result.output, /fixtures\/order\.babel\.json/);
    assert.match(result.output, /13:3 +error .*timestamp.* forbidden-key/);
  });

  test('lints a staged fixture whose name starts with a dash as a file, not as an option', () => {
    const result = tryRepo(project('dash', envelope(), { '-draft.babel.json': FORBIDDEN_TIMESTAMP }));
    assert.equal(result.status, 1, result.output);
    assert.doesNotMatch(result.output, /unknown option/);
    assert.match(result.output, /^-draft\.babel\.json$/m);
    assert.match(result.output, /13:3 +error .*timestamp.* forbidden-key/);
  });

  test('passes on a good fixture', () => {
    const result = tryRepo(project('good', envelope()));
    assert.equal(result.status, 0, result.output);
    assert.match(result.output, /babelq lint\.+Passed/);
  });

  test('passes over a broken fixture that babelq.json "ignore" keeps out of lint, though pre-commit names it', () => {
    const result = tryRepo(project('ignored', envelope(), {
      'babelq.json': '{ "ignore": ["fixtures/negative"] }\n',
      'fixtures/negative/broken.babel.json': FORBIDDEN_TIMESTAMP,
    }));
    assert.equal(result.status, 0, result.output);
    assert.match(result.output, /babelq lint\.+Passed/);
  });
});
