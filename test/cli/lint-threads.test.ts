/**
 * `babelq lint --concurrency`: the fixtures split across worker threads give the output one
 * thread gives, byte for byte, in every format: the findings in walk order, the registries' and
 * babelq.json's own reports after them, suppressions used in any thread, stale ones, the count
 * hidden, and an unreadable file in another thread's share. The shares are seen as the threads
 * received them (test/cli/thread-probe.cjs), so a run that quietly stayed in one thread fails.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { concurrencyOption, LINT_WORKER_ROLE, MIN_FIXTURES_PER_THREAD, runLintShare, threadCount } from '../../cli/lint-threads';
import { CliError } from '../../cli/errors';
import { LINT_USAGE } from '../../cli/lint';
import { assertCliBuilt, CLI_PATH, envelope, FORBIDDEN_TIMESTAMP, makeTree, removeTree, REPO_ROOT, writeTree } from './helpers';

const PROBE = join(__dirname, 'thread-probe.cjs');

/** Runs `babelq lint <args>` in `cwd` with `preload` required into every thread and `env` added. */
function lintPreloaded(preload: string, env: Record<string, string>, args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--require', preload, CLI_PATH, 'lint', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '', ...env },
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs `babelq lint <args>` with the probe preloaded; returns the output and the share each lint thread received. */
function lintProbed(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string; shares: number[] } {
  const log = join(tmpdir(), `babelq-thread-log-${process.pid}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(log, '');
  try {
    const result = lintPreloaded(PROBE, { BABELQ_TEST_THREAD_LOG: log }, args, cwd);
    return { ...result, shares: readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number) };
  } finally {
    rmSync(log, { force: true });
  }
}

const CRASH = join(__dirname, 'thread-crash.cjs');

/** Runs `babelq lint <args>` with test/cli/thread-crash.cjs preloaded: the lint thread given `crashOn` throws. */
function lintCrashing(args: readonly string[], cwd: string, crashOn: string): { status: number | null; stdout: string; stderr: string } {
  return lintPreloaded(CRASH, { BABELQ_TEST_THREAD_CRASH: crashOn }, args, cwd);
}

/** SARIF's fixes suggest a fresh UUID (for a missing trace_id or meta.id) in every run, threads or not. */
const withoutUuids = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, '<uuid>');

describe('--concurrency: the value', () => {
  test('auto, off or a number of threads; anything else is a usage error that says what is accepted', () => {
    assert.equal(concurrencyOption(undefined), 'auto');
    assert.equal(concurrencyOption('off'), 'off');
    assert.equal(concurrencyOption('auto'), 'auto');
    assert.equal(concurrencyOption('3'), 3);
    for (const bad of ['0', '-1', '1.5', 'two', '', '1000', true] as const) {
      assert.throws(() => concurrencyOption(bad), (error: unknown) => error instanceof CliError && error.usage && /--concurrency needs a number of threads from 1 to 999, auto or off/.test(error.message), String(bad));
    }
  });

  test('auto starts a thread per MIN_FIXTURES_PER_THREAD fixtures, up to the cores and 4; a number is never more than the fixtures, nor the cores (4 where there are fewer)', () => {
    assert.equal(threadCount('auto', 10_000, 2), 1, 'the bench workspace stays in one thread: a second costs more than it saves');
    assert.equal(threadCount('auto', 2 * MIN_FIXTURES_PER_THREAD - 1, 8), 1);
    assert.equal(threadCount('auto', 2 * MIN_FIXTURES_PER_THREAD, 8), 2);
    assert.equal(threadCount('auto', 100 * MIN_FIXTURES_PER_THREAD, 2), 2, 'no more threads than cores');
    assert.equal(threadCount('auto', 100 * MIN_FIXTURES_PER_THREAD, 32), 4);
    assert.equal(threadCount('off', 1_000_000, 32), 1);
    assert.equal(threadCount(3, 2, 32), 2);
    assert.equal(threadCount(3, 0, 32), 1);
    // A hundred threads on 2 cores, each reading a 40,000-entry baseline again, took minutes and gigabytes.
    assert.equal(threadCount(100, 1_000, 2), 4);
    assert.equal(threadCount(100, 1_000, 16), 16);
    assert.equal(threadCount(3, 1_000, 2), 3);
  });

  test('a worker whose --config is gone by the time it starts says so as the main thread would, not as an internal error', () => {
    const posted: unknown[] = [];
    runLintShare({ role: LINT_WORKER_ROLE, setup: { cwd: tmpdir(), config: 'gone-since.json', registry: undefined }, files: [] }, (result) => posted.push(result));
    assert.equal(posted.length, 1);
    assert.match((posted[0] as { error: string }).error, /gone-since\.json/);
  });

  test('the help says what auto does', () => {
    assert.match(LINT_USAGE.replace(/\s+/g, ' '), new RegExp(`default: auto, a thread per ${MIN_FIXTURES_PER_THREAD.toLocaleString('en-US')} fixtures, up to the cores and 4`));
  });
});

describe('--concurrency: the same output as one thread', () => {
  let root: string;
  /** Fixtures in the tree: examples/ copied four times, under two registries. */
  let fixtures: number;
  before(() => {
    assertCliBuilt();
    root = makeTree({
      'babelq.json': '{ "root": true, "severity": { "float-currency": "error" }, "colour": "red" }\n',
    });
    const examples = join(REPO_ROOT, 'examples');
    // The fixtures only: each copy finds the registry of a/ or b/ above it.
    const fixturesOnly = (source: string) => !/\.(mjs|md)$|registry\.json$|schemas$/.test(source);
    for (const copy of ['a/one', 'a/two', 'b/one', 'b/two']) cpSync(examples, join(root, copy), { recursive: true, filter: fixturesOnly });
    // b/ has its own registry, with an entry whose schema file is missing: a finding of registry.json's own.
    for (const registry of ['a/registry.json', 'b/registry.json']) cpSync(join(examples, 'registry.json'), join(root, registry));
    cpSync(join(examples, 'schemas'), join(root, 'a/schemas'), { recursive: true });
    cpSync(join(examples, 'schemas'), join(root, 'b/schemas'), { recursive: true });
    const bRegistry = JSON.parse(readFileSync(join(root, 'b/registry.json'), 'utf8')) as { schemas: object[] };
    bRegistry.schemas.push({ urn: 'urn:babel:orders:refunded', schema: 'schemas/orders-refunded.json', owner: 'orders', status: 'active' });
    writeFileSync(join(root, 'b/registry.json'), `${JSON.stringify(bRegistry, null, 2)}\n`);
    writeTree(root, {
      'b/two/extra/late.babel.json': FORBIDDEN_TIMESTAMP,
      'b/two/extra/fixed.babel.json': envelope(),
      // One entry the last thread's share matches, one whose finding is gone (stale).
      'babelq-suppressions.json': JSON.stringify({
        suppressions: [
          { file: 'b/two/extra/late.babel.json', code: 'forbidden-key', pointer: '/timestamp', reason: 'legacy producer' },
          { file: 'b/two/extra/fixed.babel.json', code: 'forbidden-key', pointer: '/timestamp', reason: 'fixed since' },
        ],
      }),
    });
    const oneThread = lintProbed(['--format', 'json', '--concurrency', 'off'], root);
    fixtures = (JSON.parse(oneThread.stdout) as { file: string }[]).filter((report) => report.file.endsWith('.babel.json')).length;
  });
  after(() => removeTree(root));

  for (const format of ['json', 'stylish', 'sarif', 'compact', 'github']) {
    test(`${format}: two and three threads print what one prints, with the same exit status`, () => {
      const one = lintProbed(['--format', format, '--concurrency', 'off'], root);
      assert.deepEqual(one.shares, [], 'off lints in the main thread');
      assert.equal(one.status, 1, one.stderr);
      for (const threads of [2, 3]) {
        const many = lintProbed(['--format', format, '--concurrency', String(threads)], root);
        // The main thread lints the first share; each worker one of the rest, in equal parts.
        assert.equal(many.shares.length, threads - 1, `${threads} threads: ${many.stderr}`);
        assert.ok(many.shares.every((share) => Math.abs(share - fixtures / threads) <= 1), `shares ${many.shares.join(', ')} of ${fixtures}`);
        assert.equal(withoutUuids(many.stdout), withoutUuids(one.stdout));
        assert.equal(many.stderr, one.stderr);
        assert.equal(many.status, one.status);
      }
    });
  }

  test('what the run reports besides the fixtures is there in threads too: the suppression used, the stale one, the registry and config findings', () => {
    const many = lintProbed(['--format', 'json', '--concurrency', '3'], root);
    const reports = JSON.parse(many.stdout) as { file: string; diagnostics: { code: string; message: string }[] }[];
    const codes = (file: string) => reports.find((report) => report.file === file)?.diagnostics.map((d) => d.code);
    const late = codes('b/two/extra/late.babel.json');
    assert.ok(late && !late.includes('forbidden-key'), 'its forbidden-key is suppressed by an entry matched in the last share');
    assert.ok(codes('babelq-suppressions.json')?.length === 1, 'the entry whose finding is gone is stale, and only that one');
    assert.ok((codes('b/registry.json') ?? []).length > 0, "b/registry.json's missing schema file is reported");
    assert.ok((codes('babelq.json') ?? []).length > 0, "babelq.json's unknown key is reported");
    const stylish = lintProbed(['--concurrency', '3'], root);
    assert.match(stylish.stdout, / 1 suppressed/);
  });

  test('an unreadable fixture in a worker\'s share stops the run as in one thread: exit 2, its name, no report', () => {
    const folder = makeTree({});
    try {
      for (let index = 0; index < 12; index++) writeTree(folder, { [`f${String(index).padStart(2, '0')}.babel.json`]: envelope() });
      // Too large to read, in the last third of the walk: the last worker's share.
      truncateSync(join(folder, 'f10.babel.json'), 65 * 1024 * 1024);
      const one = lintProbed(['--format', 'json', '--concurrency', 'off'], folder);
      const many = lintProbed(['--format', 'json', '--concurrency', '3'], folder);
      assert.equal(one.status, 2);
      assert.match(one.stderr, /cannot read 'f10\.babel\.json': .*above the 64\.0 MiB/);
      assert.deepEqual(many.shares, [4, 4]);
      assert.equal(many.status, 2);
      assert.equal(many.stderr, one.stderr);
      assert.equal(many.stdout, '');
    } finally {
      removeTree(folder);
    }
  });

  test('a lint thread that crashes is an internal error (exit 2, no report); an unreadable file before its share still is what stops the run', () => {
    const folder = makeTree({});
    try {
      for (let index = 0; index < 12; index++) writeTree(folder, { [`f${String(index).padStart(2, '0')}.babel.json`]: envelope() });
      // The last worker's share (f08 to f11) crashes.
      const crashed = lintCrashing(['--format', 'json', '--concurrency', '3'], folder, 'f10.babel.json');
      assert.equal(crashed.status, 2);
      assert.equal(crashed.stdout, '');
      assert.match(crashed.stderr, /internal error, please report it:\n.*a lint thread crashed on purpose/);
      // Too large to read, in the main thread's share: one thread stops there, before the crash's share.
      truncateSync(join(folder, 'f01.babel.json'), 65 * 1024 * 1024);
      const one = lintProbed(['--format', 'json', '--concurrency', 'off'], folder);
      const many = lintCrashing(['--format', 'json', '--concurrency', '3'], folder, 'f10.babel.json');
      assert.match(one.stderr, /cannot read 'f01\.babel\.json'/);
      assert.deepEqual([many.status, many.stdout, many.stderr], [one.status, one.stdout, one.stderr]);
    } finally {
      removeTree(folder);
    }
  });

  test('--fix stays in one thread: it writes each file as it goes', () => {
    const folder = makeTree({ 'a.babel.json': FORBIDDEN_TIMESTAMP, 'b.babel.json': FORBIDDEN_TIMESTAMP });
    try {
      const fixed = lintProbed(['--fix', '--concurrency', '2'], folder);
      assert.deepEqual(fixed.shares, []);
      assert.equal(fixed.status, 0, fixed.stdout + fixed.stderr);
      assert.doesNotMatch(readFileSync(join(folder, 'b.babel.json'), 'utf8'), /timestamp/);
    } finally {
      removeTree(folder);
    }
  });
});

describe('--concurrency: what the workers met, replayed in the main thread as one thread meets it', () => {
  before(() => assertCliBuilt());

  /** Runs --concurrency off, 2 and 3 and asserts threads were started and the output is the same; returns the single-thread run. */
  function sameInThreads(args: readonly string[], cwd: string): ReturnType<typeof lintProbed> {
    const one = lintProbed([...args, '--concurrency', 'off'], cwd);
    for (const threads of [2, 3]) {
      const many = lintProbed([...args, '--concurrency', String(threads)], cwd);
      assert.equal(many.shares.length, threads - 1, `${threads} threads: ${many.stderr}`);
      assert.equal(many.stdout, one.stdout, `${threads} threads: stdout`);
      assert.equal(many.stderr, one.stderr, `${threads} threads: stderr`);
      assert.equal(many.status, one.status, `${threads} threads: exit status`);
    }
    return one;
  }

  test('a registry.json or another file named after the fixtures loads its registry where one thread does: the reports and notes keep their order', () => {
    // An entry whose schema file is missing: a finding of that registry.json's own.
    const withProblem = (urn: string) => JSON.stringify({ schemas: [{ urn, schema: 'schemas/missing.json', owner: 'orders', status: 'active' }] });
    const folder = makeTree({
      'babelq.json': '{ "root": true }\n',
      'a/registry.json': withProblem('urn:babel:orders:a'),
      'a/one.babel.json': envelope(),
      'a/two.babel.json': envelope(),
      'a/three.babel.json': envelope(),
      'b/registry.json': withProblem('urn:babel:orders:b'),
      // registry.json files without "schemas": passed over, each with a note on stderr.
      'p/registry.json': '{}\n',
      'p/four.babel.json': envelope(),
      'q/registry.json': '{}\n',
      // Not named *.babel.json: lint looks its registry up to tell a schema file from an envelope.
      'q/named.json': envelope(),
    });
    try {
      const one = sameInThreads(['--format', 'compact', 'a', 'p', 'b/registry.json', 'q/named.json'], folder);
      // One thread meets a/registry.json (by a/'s fixtures) before b/registry.json (named after them).
      assert.ok(one.stdout.indexOf('a/registry.json') < one.stdout.indexOf('b/registry.json'), one.stdout);
      assert.ok(one.stderr.indexOf('p/registry.json') < one.stderr.indexOf('q/registry.json'), one.stderr);
    } finally {
      removeTree(folder);
    }
  });

  test("a suppression used in a worker's share marks that entry used, not an entry at the same place of another suppressions file", () => {
    // Both files list one entry at the same offset; the fixture they name is linted by a worker.
    const entry = (file: string, code: string, pointer: string) => `{"suppressions":[${JSON.stringify({ file, code, pointer, reason: 'r' })}]}\n`;
    const folder = makeTree({
      'babelq.json': '{ "root": true }\n',
      'a0.babel.json': envelope(),
      'a1.babel.json': envelope(),
      'a2.babel.json': envelope(),
      'a3.babel.json': envelope(),
      'sub/x.babel.json': FORBIDDEN_TIMESTAMP,
      'babelq-suppressions.json': entry('sub/x.babel.json', 'forbidden-key', '/timestamp'),
      // Stale: x.babel.json has no float-currency.
      'sub/babelq-suppressions.json': entry('x.babel.json', 'float-currency', '/data'),
    });
    try {
      const one = sameInThreads(['--format', 'compact'], folder);
      assert.match(one.stdout, /^sub\/babelq-suppressions\.json:.* stale-suppression: /m);
      assert.doesNotMatch(one.stdout, /forbidden-key/);
    } finally {
      removeTree(folder);
    }
  });

  test('a .gitignore not applied, in a folder only a worker\'s search for the babelq.json files below reads, is said on stderr once, as in one thread', () => {
    // More distinct wildcard lines than a .gitignore may have to be applied (workspace/gitignore.ts).
    const tooMany = Array.from({ length: 1_100 }, (_, line) => `a${line}*b[0-9]`).join('\n');
    const folder = makeTree({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'babelq.json': '{ "root": true }\n',
      'a/one.babel.json': envelope(),
      'a/three.babel.json': envelope(),
      // Not named *.babel.json: telling it apart searches the folders below for a babelq.json naming it as a registry.
      'b/two.json': envelope(),
      'c/.gitignore': tooMany,
      'c/babelq.json': '{}\n',
      'c/d/e.txt': '',
    });
    try {
      // The main thread's share (a/one.babel.json) needs no search; the last worker's (b/two.json) does.
      const one = sameInThreads(['--format', 'compact', 'a/one.babel.json', 'a/three.babel.json', 'b/two.json'], folder);
      const said = one.stderr.split('\n').filter((line) => line.startsWith('babelq: c/.gitignore has more than 1,000 distinct wildcard lines'));
      assert.equal(said.length, 1, one.stderr);
    } finally {
      removeTree(folder);
    }
  });
});
