/**
 * What a `babelq lint` process costs the machine beyond its findings: it never pages in ICU's
 * locale data (some 5 MB, for commas in counts), it keeps V8's young generation at the size it
 * has as the run starts for a run of small fixtures and lets it grow for a large one, and V8 takes
 * the code cache the build made, in lint threads and in other commands too. Each is seen from inside the real
 * process, through test/cli/runtime-probe.cjs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { digitGroups } from '../../core/model/count-words';
import { JAVA_MAX_DEPTH } from '../../core/encode/java';
import { LARGE_FIXTURE_BYTES } from '../../cli/young-generation';
import { assertCliBuilt, CLI_PATH, envelope, makeTree, removeTree, REPO_ROOT, writeTree } from './helpers';

const PROBE = join(__dirname, 'runtime-probe.cjs');

type RuntimeEvent =
  | { thread: string; file: string; cache: 'accepted' | 'rejected' }
  | { youngGenerationMb: number }
  | { thread: string; lintThreadYoungGenerationMb: number }
  | { thread: string; flags: string; youngGenerationMbThen: number }
  | { builtins: string[] | 'unknown' };

/** Runs `babelq <args>` with the probe preloaded; returns the output and what the probe saw. */
function probed(args: readonly string[], cwd: string, env: Record<string, string> = {}, input?: string): { status: number | null; stdout: string; stderr: string; events: RuntimeEvent[] } {
  const log = join(tmpdir(), `babelq-runtime-log-${process.pid}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(log, '');
  try {
    const result = spawnSync(process.execPath, ['--require', PROBE, CLI_PATH, ...args], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '', BABELQ_TEST_RUNTIME_LOG: log, ...env },
      timeout: 60_000,
      maxBuffer: 1 << 28,
      input,
    });
    if (result.error) throw result.error;
    const events = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as RuntimeEvent);
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, events };
  } finally {
    rmSync(log, { force: true });
  }
}

const youngGeneration = (events: readonly RuntimeEvent[]) => {
  const sizes = events.flatMap((event) => ('youngGenerationMb' in event ? [event.youngGenerationMb] : []));
  assert.equal(sizes.length, 1, 'the probe saw the main thread exit once');
  return sizes[0];
};
const lintThreadsYoungGeneration = (events: readonly RuntimeEvent[]) => events.flatMap((event) => ('lintThreadYoungGenerationMb' in event ? [event] : []));
const flagSettings = (events: readonly RuntimeEvent[]) => events.flatMap((event) => ('flags' in event ? [event] : []));
const cacheUses = (events: readonly RuntimeEvent[]) => events.flatMap((event) => ('cache' in event ? [event] : []));
/** The built-in modules the main thread had loaded when it exited. */
const builtinsLoaded = (events: readonly RuntimeEvent[]) => {
  const lists = events.flatMap((event) => ('builtins' in event ? [event.builtins] : []));
  assert.equal(lists.length, 1, 'the probe saw the main thread exit once');
  assert.ok(Array.isArray(lists[0]), 'this Node lists the modules it loaded (process.moduleLoadList)');
  return lists[0];
};
/**
 * Built-ins a lint has no use for, each a few milliseconds of every start when loaded there.
 * (node:net is not among them: Node loads it for a standard output that is a pipe or a terminal.)
 */
const NOT_FOR_LINT = ['crypto', 'child_process', 'dns'];

describe('digitGroups: counts in messages, written without ICU', () => {
  test('writes whole numbers as en-US does', () => {
    for (const count of [0, 7, 999, 1000, 3000, 10_000, 50_000, 123_456, 1_000_000, 9_007_199_254_740_991, -1, -1234, -999_999]) {
      assert.equal(digitGroups(count), count.toLocaleString('en-US'), String(count));
    }
  });

  test('leaves a number that is not a whole one as JavaScript writes it', () => {
    assert.equal(digitGroups(1234.5), '1234.5');
    assert.equal(digitGroups(Number.NaN), 'NaN');
    assert.equal(digitGroups(1e21), '1e+21');
  });
});

describe('babelq lint as a process', () => {
  let root: string | undefined;
  let many: string | undefined;
  before(() => {
    assertCliBuilt();
    const deep = `${'['.repeat(JAVA_MAX_DEPTH + 5)}1${']'.repeat(JAVA_MAX_DEPTH + 5)}`;
    root = makeTree({
      'orders/created.babel.json': readFileSync(join(REPO_ROOT, 'examples/orders/order-created.babel.json'), 'utf8'),
      'bad/data.babel.json': readFileSync(join(REPO_ROOT, 'examples/bad/data.babel.json'), 'utf8'),
      'bad/deep.babel.json': envelope({ data: `{ "levels": ${deep} }` }),
      // More findings than a document lists: the note that says how many were left out counts them.
      'bad/many.babel.json': envelope({ data: `{ "amounts": [${Array.from({ length: 12_000 }, () => '1e400').join(', ')}] }` }),
    });
    many = makeTree({});
    const fixture = readFileSync(join(REPO_ROOT, 'examples/orders/order-created.babel.json'), 'utf8');
    const files: Record<string, string> = {};
    for (let index = 0; index < 1000; index++) files[`batch-${Math.floor(index / 100)}/message-${index}.babel.json`] = fixture;
    writeTree(many, files);
  });
  after(() => {
    removeTree(root);
    removeTree(many);
  });

  test('never reaches ICU: the same report with every ICU call refused, counts written with commas', () => {
    const plain = probed(['lint', '.', '--format', 'json'], root!);
    const withoutIcu = probed(['lint', '.', '--format', 'json'], root!, { BABELQ_TEST_NO_ICU: '1' });
    assert.equal(plain.status, 1, plain.stderr);
    assert.equal(withoutIcu.stderr, plain.stderr);
    assert.equal(withoutIcu.status, plain.status);
    assert.equal(withoutIcu.stdout, plain.stdout);
    assert.match(plain.stdout, new RegExp(`beyond ${(JAVA_MAX_DEPTH).toLocaleString('en-US')} levels`));
    assert.match(plain.stdout, /"message":"\d{2},\d{3} findings in this document/);
  });

  test('keeps the young generation at the size it has as the run starts, over a thousand small fixtures', () => {
    const run = probed(['lint', '.', '--format', 'json', '--concurrency', 'off'], many!);
    assert.equal(run.status, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout) as unknown[]).length, 1000);
    // Set once, as the bundle is about to run, and no growth after it: V8's own growth takes it to
    // 8 MB here (two halves of 4 MB). Before it, the CLI's start grows it from its first 1 MB a
    // half once, twice on a busy machine (the collections' timing is V8's).
    const settings = flagSettings(run.events);
    assert.deepEqual(settings.map(({ thread, flags }) => ({ thread, flags })), [{ thread: 'main', flags: '--semi-space-growth-factor=1' }]);
    assert.equal(youngGeneration(run.events), settings[0].youngGenerationMbThen, 'the young generation grew during the run');
    assert.ok(youngGeneration(run.events) <= 4, `young generation ${youngGeneration(run.events)} MB`);
  });

  test('keeps it small in a lint in threads too: set again once every thread has taken the code cache (V8 puts the setting back as it makes a thread\'s heap)', () => {
    for (const threads of ['2', '3']) {
      const run = probed(['lint', '.', '--format', 'json', '--concurrency', threads], many!);
      assert.equal(run.status, 0, run.stderr);
      assert.equal((JSON.parse(run.stdout) as unknown[]).length, 1000);
      const threadsAtExit = lintThreadsYoungGeneration(run.events);
      assert.equal(threadsAtExit.length, Number(threads) - 1, 'the probe saw each lint thread exit');
      // The main thread sets it as the bundle is about to run; each lint thread's heap puts V8's
      // setting back, and the last lint thread to compile sets it again, after every thread took
      // its cache. That thread grows no more from there.
      const settings = flagSettings(run.events);
      assert.deepEqual(
        settings.map(({ thread, flags }) => ({ main: thread === 'main', flags })),
        [{ main: true, flags: '--semi-space-growth-factor=1' }, { main: false, flags: '--semi-space-growth-factor=1' }],
      );
      const setAgain = settings[1];
      const lastCacheUse = run.events.lastIndexOf(cacheUses(run.events).at(-1)!);
      assert.ok(run.events.indexOf(setAgain) > lastCacheUse, 'set again only after every thread compiled');
      assert.equal(threadsAtExit.find((exit) => exit.thread === setAgain.thread)?.lintThreadYoungGenerationMb, setAgain.youngGenerationMbThen, 'the thread that set it again grew since');
      // V8's own growth takes a lint thread to 16 MB here. Until the last of them has compiled the
      // threads (and the main thread, linting its share meanwhile) grow as V8 would: how far
      // depends on how long the others take to start, so the main thread is given no bound.
      for (const exit of threadsAtExit) assert.ok(exit.lintThreadYoungGenerationMb <= 8, `young generation ${exit.lintThreadYoungGenerationMb} MB in ${exit.thread}`);
      assert.deepEqual(cacheUses(run.events).filter((use) => use.cache !== 'accepted'), [], 'every thread took the cache');
    }
  });

  test('lets it grow again once a fixture of a megabyte or more is read', () => {
    // Many small objects, as a large real payload holds: their parse lives through collections.
    const line = '{ "sku": "SKU-1", "quantity": 3, "gift": false, "tags": ["a", "b"] }';
    const lines = Array.from({ length: Math.ceil((1.5 * LARGE_FIXTURE_BYTES) / (line.length + 6)) }, () => line).join(',\n    ');
    const large = makeTree({ 'large.babel.json': envelope({ data: `{ "lines": [\n    ${lines}\n  ] }` }) });
    try {
      const run = probed(['lint', '.', '--format', 'json'], large);
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), [{ file: 'large.babel.json', diagnostics: [] }]);
      assert.ok(youngGeneration(run.events) > 2, `young generation ${youngGeneration(run.events)} MB`);
      // The same fixture on standard input.
      const stdin = probed(['lint', '--stdin', '--format', 'json'], large, {}, readFileSync(join(large, 'large.babel.json'), 'utf8'));
      assert.equal(stdin.status, 0, stdin.stderr);
      assert.ok(youngGeneration(stdin.events) > 2, `young generation ${youngGeneration(stdin.events)} MB with --stdin`);
    } finally {
      removeTree(large);
    }
  });

  test('loads no built-in it does not use: node:crypto, child_process and dns wait for an id, a SARIF fingerprint, git or a broker', () => {
    const lint = probed(['lint', 'orders/created.babel.json', 'bad/data.babel.json'], root!);
    // Findings were made and printed (warnings alone exit 0), and the run ended as a lint does.
    assert.ok(lint.status === 0 || lint.status === 1, lint.stderr);
    assert.match(lint.stdout, /problems? \(/);
    assert.deepEqual(builtinsLoaded(lint.events).filter((name) => NOT_FOR_LINT.includes(name)), []);
    // The same probe sees them when a run needs one: SARIF fingerprints hash with node:crypto, a fix writes a fresh id.
    const sarif = probed(['lint', 'bad/data.babel.json', '--format', 'sarif'], root!);
    assert.ok(sarif.status === 0 || sarif.status === 1, sarif.stderr);
    assert.match(sarif.stdout, /Fingerprints/);
    assert.ok(builtinsLoaded(sarif.events).includes('crypto'), JSON.stringify(builtinsLoaded(sarif.events)));
  });

  test('takes the code cache the build made, in every lint thread and in the other commands', () => {
    const threaded = probed(['lint', '.', '--format', 'json', '--concurrency', '2'], many!);
    assert.equal(threaded.status, 0, threaded.stderr);
    const preview = probed(['preview', join(many!, 'batch-0/message-0.babel.json')], many!);
    assert.equal(preview.status, 0, preview.stderr);
    const version = probed(['--version'], many!);
    const uses = [...cacheUses(threaded.events), ...cacheUses(preview.events), ...cacheUses(version.events)];
    assert.ok(uses.filter((use) => use.thread === 'main').length === 3, JSON.stringify(uses));
    assert.deepEqual(uses.filter((use) => use.cache !== 'accepted'), []);
  });
});
