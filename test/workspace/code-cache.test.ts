/**
 * dist/cli.js starts the CLI bundle with V8's code cache (workspace/code-cache.ts), and dist/server.js
 * the server's with a cache kept in a folder the editor names. The cache may only ever make
 * start-up faster: a bundle runs the same with a fitting cache, a stale or broken one, or none;
 * the cache the build made fits the bundle it was made for; and a folder's cache, one per build,
 * is written when none fits (partial at an early exit, full once the process has run the delay),
 * whole, and left alone once it is full.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, lutimesSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawn, spawnSync } from 'node:child_process';
import { basename, join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { BUILD_MARK, buildIdOf, cacheFileName, checksumOf, compileWithCodeCache, OTHER_BUILDS_KEPT_MS } from '../../workspace/code-cache';

const ROOT = resolve(__dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'babelq-code-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The build's mark, as esbuild.mjs appends it: the SHA-1 of everything before it. */
const marked = (source: string) => `${source}${BUILD_MARK}${createHash('sha1').update(source).digest('hex')}\n`;

/** A bundle that requires a file beside it and reports through a global what it saw. */
function writeBundle(name: string, twice = 'n * 2'): string {
  writeFileSync(join(dir, 'beside.js'), 'module.exports = { answer: 42 };\n');
  const bundle = join(dir, name);
  writeFileSync(bundle, marked(`const beside = require('./beside.js');\nfunction twice(n) { return ${twice}; }\nglobalThis.bundleRan = { answer: beside.answer, twice: twice(21), file: __filename, exportsIsThis: this === exports };\nmodule.exports.done = true;\n`));
  return bundle;
}

/**
 * Compiles and runs `bundle` with `cacheFile` in a new process: within one process V8 reuses what
 * it compiled before and never reads the cache again.
 */
function ranWith(bundle: string, cacheFile: string): { use: string; ran: unknown } {
  const script = `const { compileWithCodeCache } = require(${JSON.stringify(join(ROOT, 'workspace/code-cache.ts'))});
const compiled = compileWithCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(cacheFile)});
compiled.run();
if (process.env.WRITE) require('node:fs').writeFileSync(${JSON.stringify(cacheFile)}, compiled.codeCache('full'));
process.stdout.write(JSON.stringify({ use: compiled.use, ran: globalThis.bundleRan }));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', env: { ...process.env, WRITE: ranWith.write ? '1' : '' } });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as { use: string; ran: unknown };
}
ranWith.write = false;

/** Where a cache's V8 data starts: after the build id, the completeness byte, the checksum and the padding. */
const DATA_START = 64;
/** The header of `cache` (build, completeness) before `data` with the checksum of `data`: a cache whose bytes are as written. */
const withData = (cache: Buffer, data: Buffer) => Buffer.concat([cache.subarray(0, 41), Buffer.from(checksumOf(data).padEnd(DATA_START - 41, ' '), 'latin1'), data]);

/** The name of `bundle`'s cache in a cache folder: its name and its build. */
const cacheFileOf = (bundle: string) => cacheFileName(basename(bundle, '.js'), buildIdOf(readFileSync(bundle, 'utf8'))!);

describe('code cache', () => {
  test('a bundle runs the same without a cache, with its cache, and with a broken or stale one', () => {
    const bundle = writeBundle('bundle.js');
    const cacheFile = join(dir, 'bundle.cache');
    const expected = { answer: 42, twice: 42, file: bundle, exportsIsThis: true };

    ranWith.write = true;
    assert.deepEqual(ranWith(bundle, cacheFile), { use: 'absent', ran: expected });
    ranWith.write = false;
    const cache = readFileSync(cacheFile);
    assert.ok(cache.length > 100);

    assert.deepEqual(ranWith(bundle, cacheFile), { use: 'accepted', ran: expected });

    // The right build's mark in front of bytes V8 cannot use.
    writeFileSync(cacheFile, withData(cache, Buffer.from('not a code cache')));
    assert.deepEqual(ranWith(bundle, cacheFile), { use: 'rejected', ran: expected });

    // The cache changed on disk after it was written (one byte, anywhere in V8's data): not loaded,
    // whatever V8 would have made of it.
    for (const at of [DATA_START, DATA_START + 400, cache.length >> 1, cache.length - 1]) {
      const damaged = Buffer.from(cache);
      damaged[at] ^= 0x5a;
      writeFileSync(cacheFile, damaged);
      assert.deepEqual(ranWith(bundle, cacheFile), { use: 'damaged', ran: expected }, `a byte changed at ${at}`);
    }

    // A rebuilt bundle of the very same length with the old cache beside it (V8 alone would take it).
    writeFileSync(cacheFile, cache);
    const before = readFileSync(bundle, 'utf8');
    writeBundle('bundle.js', 'n + n');
    assert.equal(readFileSync(bundle, 'utf8').length, before.length);
    assert.deepEqual(ranWith(bundle, cacheFile), { use: 'stale', ran: expected });
    writeFileSync(cacheFile, 'short');
    assert.deepEqual(ranWith(bundle, cacheFile), { use: 'stale', ran: expected });
    // The right build, but no word on how complete the cache is: not a cache of ours.
    const rebuilt = buildIdOf(readFileSync(bundle, 'utf8'))!;
    writeFileSync(cacheFile, Buffer.concat([Buffer.from(rebuilt, 'latin1'), Buffer.from('X'), cache.subarray(41)]));
    assert.deepEqual(ranWith(bundle, cacheFile), { use: 'stale', ran: expected });

    // A bundle built without a mark (esbuild --watch) runs without a cache.
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace(BUILD_MARK, '// no build mark: '));
    writeFileSync(cacheFile, cache);
    assert.deepEqual(ranWith(bundle, cacheFile), { use: 'stale', ran: expected });
  });

  test('a checksum reads the same bytes the same wherever they sit in memory, and changes with any of them', () => {
    const bytes = Buffer.from(Array.from({ length: 1027 }, (_, at) => (at * 37 + 11) & 0xff));
    const sum = checksumOf(bytes);
    assert.match(sum, /^[0-9a-f]{16}$/);
    for (let shift = 1; shift < 4; shift++) {
      const moved = Buffer.alloc(bytes.length + shift);
      bytes.copy(moved, shift);
      assert.equal(checksumOf(moved.subarray(shift)), sum, `the same bytes ${shift} bytes further on`);
    }
    // Two inputs one byte apart that a checksum folded into 32 bits took for the same.
    assert.notEqual(checksumOf(Buffer.from('c25f39494996c61e', 'hex')), checksumOf(Buffer.from('c25f394949a4c61e', 'hex')));
    for (const at of [0, 1, 513, 1023, 1024, 1026]) {
      const changed = Buffer.from(bytes);
      changed[at] ^= 1;
      assert.notEqual(checksumOf(changed), sum, `a bit changed at ${at}`);
    }
  });

  test('the build marked the CLI bundle with its digest and made a cache that fits it in this Node', () => {
    const source = readFileSync(join(ROOT, 'dist/cli-main.js'), 'utf8');
    const mark = source.lastIndexOf(BUILD_MARK);
    assert.equal(buildIdOf(source), createHash('sha1').update(source.slice(0, mark)).digest('hex'));
    const compiled = compileWithCodeCache(join(ROOT, 'dist/cli-main.js'), join(ROOT, 'dist/cli-main.cache'));
    assert.equal(compiled.use, 'accepted');
    assert.equal(compiled.partial, false, 'the build\'s lint has run what a lint runs: a full cache');
  });

  /**
   * Runs `bundle` with its cache kept in `folder` (runWithCacheDirectory) in a new process, which
   * then lives `lifeMs` more; `killed`: ended by SIGKILL, so no exit handler runs; `started`:
   * called once the bundle has run (the process has read the cache, or found none).
   */
  async function ranInFolder(bundle: string, folder: string, options: { writeAfterMs?: number; lifeMs?: number; killed?: boolean; started?: () => void } = {}): Promise<string> {
    const script = `const { runWithCacheDirectory } = require(${JSON.stringify(join(ROOT, 'workspace/code-cache.ts'))});
const use = runWithCacheDirectory(${JSON.stringify(bundle)}, ${JSON.stringify(folder)}, ${options.writeAfterMs ?? 60_000});
process.stdout.write(use + ' ' + globalThis.bundleRan.twice + '\\n');
setTimeout(() => undefined, ${options.lifeMs ?? 0});`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) options.started?.();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    if (options.killed) {
      await waitFor(() => stdout.includes('\n'), 20_000);
      await new Promise((done) => setTimeout(done, options.lifeMs! / 2));
      child.kill('SIGKILL');
      await ended;
    } else {
      // A start that hangs (a cache read that blocks) fails here instead of holding the run.
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await ended;
      clearTimeout(timer);
      assert.equal(code, 0, `exit ${code}: ${stderr}`);
    }
    return stdout.trim();
  }

  async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
    const start = Date.now();
    while (!condition()) {
      if (Date.now() - start > timeoutMs) throw new Error('timed out');
      await new Promise((done) => setTimeout(done, 10));
    }
  }

  test('a cache folder: made with the cache at exit when none fits (a partial one), used, made full by a run that lives past the delay, then left alone', async () => {
    const bundle = writeBundle('folder-bundle.js');
    const folder = join(dir, 'not', 'there', 'yet');
    const cacheFile = join(folder, cacheFileOf(bundle));

    const started = Date.now();
    assert.equal(await ranInFolder(bundle, folder), 'absent 42');
    // Written at exit; the pending timer (a minute) kept nothing alive.
    assert.ok(Date.now() - started < 30_000, 'the process ended without waiting for its timer');
    const made = readFileSync(cacheFile);
    assert.equal(made.toString('latin1', 0, 40), buildIdOf(readFileSync(bundle, 'utf8')));
    assert.equal(made.toString('latin1', 40, 41), 'P', 'written at an exit before the delay: partial');
    const madeAt = statSync(cacheFile).mtimeMs;

    // Used; another short run does not write its own partial cache over it.
    assert.equal(await ranInFolder(bundle, folder), 'accepted 42');
    assert.deepEqual(readFileSync(cacheFile), made);
    assert.equal(statSync(cacheFile).mtimeMs, madeAt);

    // A run that lives past the delay replaces the partial cache by a full one, which is then left alone.
    assert.equal(await ranInFolder(bundle, folder, { writeAfterMs: 100, lifeMs: 1_000 }), 'accepted 42');
    const full = readFileSync(cacheFile);
    assert.equal(full.toString('latin1', 0, 41), `${made.toString('latin1', 0, 40)}F`);
    const fullAt = statSync(cacheFile).mtimeMs;
    assert.equal(await ranInFolder(bundle, folder, { writeAfterMs: 100, lifeMs: 1_000 }), 'accepted 42');
    assert.equal(await ranInFolder(bundle, folder), 'accepted 42');
    assert.deepEqual(readFileSync(cacheFile), full);
    assert.equal(statSync(cacheFile).mtimeMs, fullAt);

    // A cache V8 refuses is replaced by a good one; nothing is left beside it.
    // (A full one: a short run still replaces it, as it is the very file the run found.)
    writeFileSync(cacheFile, withData(full, Buffer.from('not a code cache')));
    assert.equal(await ranInFolder(bundle, folder), 'rejected 42');
    assert.equal(await ranInFolder(bundle, folder), 'accepted 42');
    assert.deepEqual(readdirSync(folder), [cacheFileOf(bundle)]);
  });

  test('a process that writes its full cache at the delay does not write a partial one over it when it ends', async () => {
    const bundle = writeBundle('clean-bundle.js');
    const folder = join(dir, 'clean');
    assert.equal(await ranInFolder(bundle, folder, { writeAfterMs: 100, lifeMs: 1_000 }), 'absent 42');
    assert.equal(readFileSync(join(folder, cacheFileOf(bundle))).toString('latin1', 40, 41), 'F');
  });

  test('two processes of one build that found no cache: the full cache one writes is not replaced by the other\'s partial one', async () => {
    const bundle = writeBundle('race-bundle.js');
    const folder = join(dir, 'race');
    // The second starts once the first has (so both find no cache), writes its full cache at the
    // delay and ends; the first ends (a partial cache due at exit) well after that.
    let firstStarted!: () => void;
    const started = new Promise<void>((done) => (firstStarted = done));
    const first = ranInFolder(bundle, folder, { writeAfterMs: 60_000, lifeMs: 8_000, started: firstStarted });
    await started;
    const second = await ranInFolder(bundle, folder, { writeAfterMs: 100, lifeMs: 500 });
    assert.deepEqual([await first, second], ['absent 42', 'absent 42']);
    assert.equal(readFileSync(join(folder, cacheFileOf(bundle))).toString('latin1', 40, 41), 'F');
    assert.equal(await ranInFolder(bundle, folder), 'accepted 42');
  });

  test('a process that never exits cleanly has written its cache once the delay has passed', async () => {
    const bundle = writeBundle('killed-bundle.js');
    const folder = join(dir, 'killed');
    const cacheFile = join(folder, cacheFileOf(bundle));
    // Killed before the delay: no exit handler, no cache.
    await ranInFolder(bundle, folder, { writeAfterMs: 5_000, lifeMs: 400, killed: true });
    assert.equal(existsSync(cacheFile), false);
    // Killed after it: the timer wrote it, a full one.
    await ranInFolder(bundle, folder, { writeAfterMs: 100, lifeMs: 2_000, killed: true });
    assert.ok(readFileSync(cacheFile).length > 100);
    assert.equal(readFileSync(cacheFile).toString('latin1', 40, 41), 'F');
    assert.equal(await ranInFolder(bundle, folder), 'accepted 42');
  });

  test('each build keeps a cache of its own: two running at once do not replace each other\'s, and a build\'s cache not written for a day goes', async () => {
    const folder = join(dir, 'builds');
    mkdirSync(folder);
    // Two builds of one bundle (the same name, another body, so another build id): an editor
    // window left open across an update beside a new one.
    const older = writeBundle('builds-bundle.js', 'n + n');
    const olderSource = readFileSync(older, 'utf8');
    const olderCache = cacheFileOf(older);
    assert.equal(await ranInFolder(older, folder), 'absent 42');
    const newer = writeBundle('builds-bundle.js', '2 * n');
    const newerCache = cacheFileOf(newer);
    assert.notEqual(newerCache, olderCache);
    const newerSource = readFileSync(newer, 'utf8');
    assert.equal(await ranInFolder(newer, folder), 'absent 42');
    assert.deepEqual(readdirSync(folder).sort(), [olderCache, newerCache].sort(), 'the older build\'s cache, written just now, is kept');
    const writtenAt = (file: string) => statSync(join(folder, file)).mtimeMs;
    const before = { older: writtenAt(olderCache), newer: writtenAt(newerCache) };
    // Each build in turn uses its own, and writes nothing.
    for (const source of [olderSource, newerSource, olderSource, newerSource]) {
      writeFileSync(newer, source);
      assert.equal(await ranInFolder(newer, folder), 'accepted 42');
    }
    assert.deepEqual({ older: writtenAt(olderCache), newer: writtenAt(newerCache) }, before);

    // A third build, a day and more after the older one's cache and the single cache file of
    // before were written: its write removes those two and keeps the newer build's (written just now).
    const aDayAgo = new Date(Date.now() - OTHER_BUILDS_KEPT_MS - 60_000);
    utimesSync(join(folder, olderCache), aDayAgo, aDayAgo);
    writeFileSync(join(folder, 'builds-bundle.cache'), 'the cache of every build, as kept before');
    utimesSync(join(folder, 'builds-bundle.cache'), aDayAgo, aDayAgo);
    // Not a cache of this bundle: never touched, however old.
    writeFileSync(join(folder, 'builds-bundle-notes.cache'), 'another file');
    writeFileSync(join(folder, 'other-bundle.cache'), 'another bundle');
    for (const file of ['builds-bundle-notes.cache', 'other-bundle.cache']) utimesSync(join(folder, file), aDayAgo, aDayAgo);
    // A folder named like another build's cache is not a cache: left with what it holds.
    const folderLikeCache = 'builds-bundle-0123456789ab.cache';
    mkdirSync(join(folder, folderLikeCache));
    writeFileSync(join(folder, folderLikeCache, 'inside'), 'kept');
    utimesSync(join(folder, folderLikeCache), aDayAgo, aDayAgo);
    // A link named like another build's cache, a day old itself, to a file written just now: the
    // link goes (judged by its own time), the file it points to stays.
    const target = join(dir, 'link-target');
    writeFileSync(target, 'not removed through a link');
    const linkLikeCache = 'builds-bundle-abcdef012345.cache';
    symlinkSync(target, join(folder, linkLikeCache));
    lutimesSync(join(folder, linkLikeCache), aDayAgo, aDayAgo);
    // A writer ended before its rename leaves its temporary file: one a day old goes, a fresh one
    // (a write under way) stays.
    const leftOver = `${newerCache}.4242.tmp`;
    const underWay = `${newerCache}.4343.tmp`;
    for (const file of [leftOver, underWay]) writeFileSync(join(folder, file), 'half a cache');
    utimesSync(join(folder, leftOver), aDayAgo, aDayAgo);
    // The newer build's cache for another V8 (another Node running it beside this one): one written
    // just now stays, as the newer build's own does; one a day old goes, as another build's does.
    const newerBuild = buildIdOf(newerSource)!;
    const otherNode = cacheFileName('builds-bundle', newerBuild, '0.0.1-test-other');
    const oldNode = cacheFileName('builds-bundle', newerBuild, '0.0.2-test-old');
    assert.ok(![newerCache, otherNode, oldNode].some((name, i, all) => all.indexOf(name) !== i), 'a name per V8 version');
    for (const file of [otherNode, oldNode]) writeFileSync(join(folder, file), 'another V8\'s cache');
    utimesSync(join(folder, oldNode), aDayAgo, aDayAgo);
    // And a build's cache as named before the V8 version was in the name, a day old: it goes.
    const unversioned = `builds-bundle-${newerBuild.slice(0, 12)}.cache`;
    writeFileSync(join(folder, unversioned), 'a cache of before');
    utimesSync(join(folder, unversioned), aDayAgo, aDayAgo);
    const third = writeBundle('builds-bundle.js', 'n << 1');
    assert.equal(await ranInFolder(third, folder), 'absent 42');
    assert.deepEqual(readdirSync(folder).sort(), [cacheFileOf(third), newerCache, otherNode, underWay, 'builds-bundle-notes.cache', 'other-bundle.cache', folderLikeCache].sort());
    assert.equal(readFileSync(join(folder, folderLikeCache, 'inside'), 'utf8'), 'kept');
    assert.equal(readFileSync(target, 'utf8'), 'not removed through a link');
  });

  test('an unusable folder or cache path costs nothing but the cache: no error, no hang, nothing written', async () => {
    const bundle = writeBundle('odd-bundle.js');
    // A file where the folder should be: the timer's write and the exit's both fail quietly.
    const notAFolder = join(dir, 'a-file');
    writeFileSync(notAFolder, 'not a folder');
    assert.equal(await ranInFolder(bundle, notAFolder, { writeAfterMs: 50, lifeMs: 300 }), 'absent 42');
    assert.equal(readFileSync(notAFolder, 'utf8'), 'not a folder');

    // A named pipe at the cache's path is not read (it would block); the cache written at exit replaces it.
    const withPipe = join(dir, 'with-pipe');
    spawnSync('mkdir', ['-p', withPipe]);
    const made = spawnSync('mkfifo', [join(withPipe, cacheFileOf(bundle))]);
    assert.equal(made.status, 0, String(made.stderr));
    assert.equal(await ranInFolder(bundle, withPipe), 'absent 42');
    assert.equal(await ranInFolder(bundle, withPipe), 'accepted 42');

    // A bundle built without a mark (esbuild --watch): nothing to tie a cache to, none written.
    const unmarked = join(dir, 'unmarked-bundle.js');
    writeFileSync(unmarked, readFileSync(bundle, 'utf8').replace(BUILD_MARK, '// no build mark: '));
    const quiet = join(dir, 'quiet');
    assert.equal(await ranInFolder(unmarked, quiet), 'absent 42');
    assert.equal(existsSync(quiet), false);
  });
});
