/**
 * Runs a CommonJS bundle through V8 with a code cache: the bytecode of every function an earlier
 * run compiled, so this run need not parse and compile them again. `babelq lint` starts a fresh
 * process in CI each time, and for a workspace of small fixtures compiling its own code is a
 * good part of the work: the cache takes about 5% off linting 10,000 files (bench/README.md).
 *
 * The cache is only an optimisation: it is used only for the exact bundle it was made from (see
 * DIGEST_BYTES), V8 refuses one made by another version or with other flags, and a missing or
 * unreadable one is no cache. Whatever the cache, the bundle runs the same.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/**
 * What happened to the cache: used, refused by V8 (another Node or V8 flags), made for another
 * build of the bundle (`stale`), or not there.
 */
export type CodeCacheUse = 'accepted' | 'rejected' | 'stale' | 'absent';

/**
 * The cache file starts with the SHA-1 of the bundle it was made from. V8 itself compares only
 * the source's length, and a rebuilt bundle of the same length would run the old bytecode.
 */
const DIGEST_BYTES = 20;

/** CommonJS's module wrapper, written once so that the cache's producer and its readers compile the same source. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;

/** A bundle compiled with its code cache when one fits. */
export interface CompiledBundle {
  readonly use: CodeCacheUse;
  /** Runs the bundle as a CommonJS module whose `require` resolves from its own folder. */
  run(): void;
  /** The code cache of everything compiled so far (the bundle's functions that have run included). */
  codeCache(): Buffer;
}

/** Compiles `bundle`, with the code cache in `cacheFile` when there is one that fits. */
export function compileWithCodeCache(bundle: string, cacheFile: string): CompiledBundle {
  const bytes = readFileSync(bundle);
  const digest = createHash('sha1').update(bytes).digest();
  let file: Buffer | undefined;
  try {
    file = readFileSync(cacheFile);
  } catch {
    // No cache built (or not readable): compile as usual.
  }
  const fits = file !== undefined && file.length > DIGEST_BYTES && digest.equals(file.subarray(0, DIGEST_BYTES));
  const cachedData = fits ? file!.subarray(DIGEST_BYTES) : undefined;
  const script = new Script(wrap(bytes.toString('utf8')), { filename: bundle, cachedData });
  return {
    use: file === undefined ? 'absent' : !fits ? 'stale' : script.cachedDataRejected ? 'rejected' : 'accepted',
    run() {
      const moduleFunction = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;
      const exported = {};
      moduleFunction.call(exported, exported, createRequire(bundle), { exports: exported }, bundle, dirname(bundle));
    },
    codeCache: () => Buffer.concat([digest, script.createCachedData()]),
  };
}

/**
 * Runs `bundle` compiled with the code cache in `cacheFile`. With `writeCache`, the cache of
 * everything compiled by the time the process exits is written to `cacheFile` then.
 */
export function runWithCodeCache(bundle: string, cacheFile: string, writeCache = false): CodeCacheUse {
  const compiled = compileWithCodeCache(bundle, cacheFile);
  if (writeCache) process.once('exit', () => writeFileSync(cacheFile, compiled.codeCache()));
  compiled.run();
  return compiled.use;
}
