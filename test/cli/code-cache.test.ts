/**
 * dist/cli.js starts the CLI bundle with V8's code cache (cli/code-cache.ts). The cache may only
 * ever make start-up faster: a bundle runs the same with a fitting cache, a stale or broken one,
 * or none, and the cache the build made fits the bundle it was made for.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { BUILD_MARK, buildIdOf, compileWithCodeCache } from '../../cli/code-cache';

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
  const script = `const { compileWithCodeCache } = require(${JSON.stringify(join(ROOT, 'cli/code-cache.ts'))});
const compiled = compileWithCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(cacheFile)});
compiled.run();
if (process.env.WRITE) require('node:fs').writeFileSync(${JSON.stringify(cacheFile)}, compiled.codeCache());
process.stdout.write(JSON.stringify({ use: compiled.use, ran: globalThis.bundleRan }));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', env: { ...process.env, WRITE: ranWith.write ? '1' : '' } });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as { use: string; ran: unknown };
}
ranWith.write = false;

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
    writeFileSync(cacheFile, Buffer.concat([cache.subarray(0, 40), Buffer.from('not a code cache')]));
    assert.deepEqual(ranWith(bundle, cacheFile), { use: 'rejected', ran: expected });

    // A rebuilt bundle of the very same length with the old cache beside it (V8 alone would take it).
    writeFileSync(cacheFile, cache);
    const before = readFileSync(bundle, 'utf8');
    writeBundle('bundle.js', 'n + n');
    assert.equal(readFileSync(bundle, 'utf8').length, before.length);
    assert.deepEqual(ranWith(bundle, cacheFile), { use: 'stale', ran: expected });
    writeFileSync(cacheFile, 'short');
    assert.deepEqual(ranWith(bundle, cacheFile), { use: 'stale', ran: expected });

    // A bundle built without a mark (esbuild --watch) runs without a cache.
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace(BUILD_MARK, '// no build mark: '));
    writeFileSync(cacheFile, cache);
    assert.deepEqual(ranWith(bundle, cacheFile), { use: 'stale', ran: expected });
  });

  test('the build marked the CLI bundle with its digest and made a cache that fits it in this Node', () => {
    const source = readFileSync(join(ROOT, 'dist/cli-main.js'), 'utf8');
    const mark = source.lastIndexOf(BUILD_MARK);
    assert.equal(buildIdOf(source), createHash('sha1').update(source.slice(0, mark)).digest('hex'));
    const compiled = compileWithCodeCache(join(ROOT, 'dist/cli-main.js'), join(ROOT, 'dist/cli-main.cache'));
    assert.equal(compiled.use, 'accepted');
  });
});
