/**
 * Runs a CommonJS bundle through V8 with a code cache: the bytecode of every function an earlier
 * run compiled, so this run need not parse and compile them again. `babelq lint` starts a fresh
 * process in CI each time, and for a workspace of small fixtures compiling its own code is a
 * good part of the work: the cache took about 5% off linting 10,000 files when it was measured.
 * The language server starts with every editor window: compiling its 850 KB bundle was about a
 * fifth of the time from its start to the first diagnostics, so it keeps a cache of its own in
 * a folder the editor gives it (runWithCacheDirectory).
 *
 * The cache is only an optimisation: it is used only for the build of the bundle it was made from
 * (see BUILD_MARK), V8 refuses one made by another version or with other flags, one whose bytes
 * changed since it was written is not loaded (its checksum, see CHECKSUM_LENGTH), and a missing or
 * unreadable one is no cache. Whatever the cache, the bundle runs the same.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { readBoundedBytes, readFileStart } from './bounded-read';

/**
 * What happened to the cache: used, refused by V8 (another Node or V8 flags), made for another
 * build of the bundle or not a cache of ours (`stale`), changed since it was written (`damaged`:
 * its checksum does not match), or not there.
 */
export type CodeCacheUse = 'accepted' | 'rejected' | 'stale' | 'damaged' | 'absent';

/**
 * The build marks the bundle's last line with the SHA-1 of everything before it (esbuild.mjs), and
 * the cache file starts with the mark of the bundle it was made from. V8 itself compares only the
 * source's length, so a rebuilt bundle of the same length would otherwise run the old bytecode;
 * reading the mark instead of hashing the bundle at every start spares loading node:crypto.
 */
export const BUILD_MARK = '//# babelq-build=';
const BUILD_ID_LENGTH = 40;

/**
 * After the build id, one byte says how complete the cache is: `full`, written by a process that
 * had done a start's work (a language server 10 s in, the build's own lint of the CLI), or
 * `partial`, written by one that ended sooner (a window closed or reloaded right after a start),
 * which holds only what that process compiled. A partial cache is used, and replaced by the
 * first process that lives long enough to write a full one.
 */
export type CacheCompleteness = 'full' | 'partial';
const COMPLETENESS_BYTE: Record<CacheCompleteness, number> = { full: 0x46 /* F */, partial: 0x50 /* P */ };
/**
 * Then the checksum of the V8 data after the header (`checksumOf`, 16 hex digits). V8 checks a
 * cache's version, flags and source length, but not its bytes: a cache changed on disk after it
 * was written (a bad sector, another program) can crash the process that loads it, and since a
 * cache that fits is kept, every later start too. One whose checksum does not match is not used.
 */
const CHECKSUM_LENGTH = 16;
/**
 * The header's length: the build id, the completeness byte, the checksum, and spaces up to 64
 * bytes, so that the data after it starts on a word boundary and is checksummed where it lies.
 */
const HEADER_LENGTH = 64;
const HEADER_PADDING = ' '.repeat(HEADER_LENGTH - BUILD_ID_LENGTH - 1 - CHECKSUM_LENGTH);
/** Far above a cache of ours (the server's is about 1 MB); a larger file at the path is no cache. */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

/** The build id in the bundle's mark, or undefined for a bundle built without one (`--watch`). */
export function buildIdOf(source: string): string | undefined {
  const at = source.lastIndexOf(BUILD_MARK);
  if (at < 0) return undefined;
  const id = source.slice(at + BUILD_MARK.length, at + BUILD_MARK.length + BUILD_ID_LENGTH);
  return /^[0-9a-f]{40}$/.test(id) ? id : undefined;
}

/**
 * A checksum of `bytes` (Fletcher's kind, over 32-bit words in the machine's byte order, as the
 * cache itself is for this machine), as 16 hex digits, the plain sum and the running one: any
 * change of a single byte changes the plain sum. Some 3 ms for the server's 1 MB cache at a start,
 * without loading a module for it.
 */
export function checksumOf(bytes: Uint8Array): string {
  // Words are read from the start of `bytes`, wherever it sits in memory: an unaligned view is
  // copied first (a cache's data is aligned, see HEADER_LENGTH).
  const aligned = (bytes.byteOffset & 3) === 0 ? bytes : new Uint8Array(bytes);
  const words = new Int32Array(aligned.buffer, aligned.byteOffset, aligned.length >> 2);
  let sum = 1;
  let weighted = 0;
  for (let word = 0; word < words.length; word++) {
    sum = (sum + words[word]) | 0;
    weighted = (weighted + sum) | 0;
  }
  for (let at = words.length << 2; at < aligned.length; at++) {
    sum = (sum + aligned[at]) | 0;
    weighted = (weighted + sum) | 0;
  }
  const hex = (value: number) => (value >>> 0).toString(16).padStart(CHECKSUM_LENGTH / 2, '0');
  return hex(sum) + hex(weighted);
}

/** CommonJS's module wrapper, written once so that the cache's producer and its readers compile the same source. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;

/** A bundle compiled with its code cache when one fits. */
export interface CompiledBundle {
  readonly use: CodeCacheUse;
  /** Runs the bundle as a CommonJS module whose `require` resolves from its own folder. */
  run(): void;
  /** Whether the cache found is a partial one of this build, intact (used, unless V8 refused it). */
  readonly partial: boolean;
  /** The code cache of everything compiled so far (the bundle's functions that have run included), marked `completeness`. */
  codeCache(completeness: CacheCompleteness): Buffer;
}

/** Compiles `bundle`, with the code cache in `cacheFile` when there is one that fits. */
export function compileWithCodeCache(bundle: string, cacheFile: string): CompiledBundle {
  const source = readFileSync(bundle, 'utf8');
  return compileSource(bundle, source, buildIdOf(source), cacheFile);
}

/**
 * `compileWithCodeCache` for a bundle already read; `cacheFile` undefined: no cache is read.
 * `onStat`: told the cache file's stat when there is one.
 */
function compileSource(bundle: string, source: string, build: string | undefined, cacheFile: string | undefined, onStat?: (stat: Stats) => void): CompiledBundle {
  let file: Buffer | undefined;
  try {
    // Bounded and regular files only: whatever sits at the path (a pipe, a device, a huge file)
    // costs a start no more than reading a cache does.
    if (cacheFile !== undefined) file = readBoundedBytes(cacheFile, MAX_CACHE_BYTES, undefined, onStat);
  } catch {
    // No cache built (or not readable): compile as usual.
  }
  const header = file !== undefined && build !== undefined ? headerOf(file) : undefined;
  const ours = header !== undefined && header.build === build;
  const intact = ours && checksumOf(file!.subarray(HEADER_LENGTH)) === header.checksum;
  const cachedData = intact ? file!.subarray(HEADER_LENGTH) : undefined;
  const script = new Script(wrap(source), { filename: bundle, cachedData });
  return {
    use: file === undefined ? 'absent' : !ours ? 'stale' : !intact ? 'damaged' : script.cachedDataRejected ? 'rejected' : 'accepted',
    partial: intact && header.completeness === 'partial',
    run() {
      const moduleFunction = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;
      const exported = {};
      moduleFunction.call(exported, exported, createRequire(bundle), { exports: exported }, bundle, dirname(bundle));
    },
    // Without a build mark there is nothing to tie a cache to: an empty one, which never fits.
    codeCache: (of) => {
      if (build === undefined) return Buffer.alloc(0);
      const data = script.createCachedData();
      return Buffer.concat([Buffer.from(build, 'latin1'), Buffer.of(COMPLETENESS_BYTE[of]), Buffer.from(checksumOf(data) + HEADER_PADDING, 'latin1'), data]);
    },
  };
}

/** A cache file's header (see HEADER_LENGTH), or undefined when `file` does not start with one. */
function headerOf(file: Buffer): { build: string; completeness: CacheCompleteness; checksum: string } | undefined {
  if (file.length <= HEADER_LENGTH) return undefined;
  const byte = file[BUILD_ID_LENGTH];
  const completeness = byte === COMPLETENESS_BYTE.full ? 'full' : byte === COMPLETENESS_BYTE.partial ? 'partial' : undefined;
  if (completeness === undefined) return undefined;
  const checksumAt = BUILD_ID_LENGTH + 1;
  return { build: file.toString('latin1', 0, BUILD_ID_LENGTH), completeness, checksum: file.toString('latin1', checksumAt, checksumAt + CHECKSUM_LENGTH) };
}

/**
 * Runs `bundle` compiled with the code cache in `cacheFile`. With `writeCache` (the build, after a
 * lint that runs what a lint runs), the cache of everything compiled by the time the process exits
 * is written to `cacheFile` then, as a full one. `beforeRun`: called between the compile and the
 * run (a V8 flag set there leaves the cache checked under the flags it was made with).
 */
export function runWithCodeCache(bundle: string, cacheFile: string, writeCache = false, beforeRun?: () => void): CodeCacheUse {
  const compiled = compileWithCodeCache(bundle, cacheFile);
  if (writeCache) {
    process.once('exit', () => {
      try {
        writeFileSync(cacheFile, compiled.codeCache('full'));
      } catch (error) {
        // The build reports a missing cache; a run that cannot write one has done its work all the same.
        process.stderr.write(`babelq: the code cache was not written to ${cacheFile}: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    });
  }
  beforeRun?.();
  compiled.run();
  return compiled.use;
}

/**
 * When a process that found no fitting cache writes one: this long after it started (a full one),
 * or when it ends if that comes first (a partial one). By then a language server has answered its
 * first requests, so the cache holds what a start compiles; writing it costs a moment once, not at
 * every start.
 */
export const WRITE_CACHE_AFTER_MS = 10_000;

/**
 * How old another build's cache must be before a process that writes its own removes it. One
 * written within this time may belong to a build that is still starting (an editor window left
 * open across an update and reloaded): removing it would only make that build write it again.
 * An older one is removed even if its build still runs somewhere; at worst that build compiles
 * at its next start and writes its cache once more. Other builds' caches are looked at only when
 * this process writes its own.
 */
export const OTHER_BUILDS_KEPT_MS = 24 * 60 * 60 * 1000;

/** The length of the build id in a cache file's name (the file itself starts with the whole id). */
const NAMED_BUILD_LENGTH = 12;
/**
 * What follows the bundle's name in the name of a cache file: one build's for one V8
 * (`-<build>-v8-<version>.cache`), one build's as named before (`-<build>.cache`), or the single
 * file of before that (`.cache`), or the temporary file of any of them that a writer ended before
 * its rename left (`.<pid>.tmp` after it; see replaceFile).
 */
const CACHE_FILE_AFTER_NAME = new RegExp(`^(-[0-9a-f]{${NAMED_BUILD_LENGTH}}(-v8-[0-9a-z.-]+)?)?\\.cache(\\.[0-9]+\\.tmp)?$`);

/**
 * The name of the cache of `build` of the bundle `name` for the V8 of `v8Version` in a cache
 * folder. V8 refuses a cache another version made: two Nodes running one build beside each other
 * (two VS Code versions' remote servers sharing a home folder's storage) each keep theirs instead
 * of replacing the other's at every start.
 */
export function cacheFileName(name: string, build: string, v8Version = process.versions.v8): string {
  return `${name}-${build.slice(0, NAMED_BUILD_LENGTH)}-v8-${v8Version.toLowerCase().replace(/[^0-9a-z.-]/g, '-')}.cache`;
}

/**
 * Runs `bundle` with the code cache kept in `cacheDirectory`, one file per build of the bundle and
 * V8 version (`cacheFileName`; the folder made when missing): two builds running at once (an
 * editor window left open across an update, beside a new one) each keep theirs instead of
 * replacing each other's at every start. When the cache of this build does not fit (none yet, other V8 flags),
 * this process writes one, WRITE_CACHE_AFTER_MS after it started (full) or when it ends (partial),
 * whichever comes first; the next start uses it. A process that used a partial cache writes a
 * full one at WRITE_CACHE_AFTER_MS if it lives that long, and nothing when it ends sooner. The
 * file is replaced whole (written beside it, then renamed), so a process starting meanwhile reads
 * the old cache or the new, never half of one. Writing it also removes the caches of other builds
 * not written for a day (OTHER_BUILDS_KEPT_MS).
 */
export function runWithCacheDirectory(bundle: string, cacheDirectory: string, writeAfterMs = WRITE_CACHE_AFTER_MS): CodeCacheUse {
  const name = basename(bundle, '.js');
  const source = readFileSync(bundle, 'utf8');
  const build = buildIdOf(source);
  // A bundle without a build mark (`--watch`) has nothing to tie a cache to: none is read or written.
  const cacheFile = build === undefined ? undefined : join(cacheDirectory, cacheFileName(name, build));
  let found: Stats | undefined;
  const compiled = compileSource(bundle, source, build, cacheFile, (stat) => (found = stat));
  if (cacheFile !== undefined && (compiled.use !== 'accepted' || compiled.partial)) {
    let written = false;
    const write = (completeness: CacheCompleteness) => {
      if (written) return;
      written = true;
      // Another process of this build may have written a full cache since this one started: a
      // partial one would only take its place.
      if (completeness === 'partial' && fullCacheWrittenSince(cacheFile, build!, found)) return;
      replaceFile(cacheFile, () => compiled.codeCache(completeness));
      removeStaleCaches(cacheDirectory, name, basename(cacheFile));
    };
    // A partial cache already there is not replaced by another partial one at every short run.
    if (compiled.use !== 'accepted') process.once('exit', () => write('partial'));
    setTimeout(() => write('full'), writeAfterMs).unref();
  }
  compiled.run();
  return compiled.use;
}

/**
 * Whether `cacheFile` now holds a full cache of `build` that is not the file this process found at
 * its start (`found`, its stat then): one another process wrote since. Never throws.
 */
function fullCacheWrittenSince(cacheFile: string, build: string, found: Stats | undefined): boolean {
  try {
    let now: Stats | undefined;
    // The header alone says whose cache it is and how complete: the rest (a megabyte) is not read.
    const file = readFileStart(cacheFile, HEADER_LENGTH + 1, (stat) => (now = stat));
    if (found !== undefined && now !== undefined && now.ino === found.ino && now.mtimeMs === found.mtimeMs && now.size === found.size) return false;
    const header = headerOf(file);
    return header !== undefined && header.build === build && header.completeness === 'full';
  } catch {
    return false;
  }
}

/**
 * Removes from `cacheDirectory` the caches of other builds of the bundle `name` (and the one file
 * an earlier version kept for every build, `<name>.cache`, and the temporary files of writers that
 * were ended before their rename) that were not written within OTHER_BUILDS_KEPT_MS: a write takes
 * moments, so a temporary file that old is left over. Nothing here may throw, as in replaceFile.
 */
function removeStaleCaches(cacheDirectory: string, name: string, kept: string): void {
  const now = Date.now();
  try {
    for (const entry of readdirSync(cacheDirectory)) {
      if (entry === kept || !isCacheOf(name, entry)) continue;
      const file = join(cacheDirectory, entry);
      try {
        // lstat: a link named like a cache is judged (and removed) as the link it is.
        if (now - lstatSync(file).mtimeMs > OTHER_BUILDS_KEPT_MS) rmSync(file, { force: true });
      } catch {
        // Gone meanwhile, or not ours to remove: left as it is.
      }
    }
  } catch {
    // The folder cannot be listed: nothing is removed.
  }
}

/** Whether `entry` is a cache file of the bundle `name` (see CACHE_FILE_AFTER_NAME). */
function isCacheOf(name: string, entry: string): boolean {
  return entry.startsWith(name) && CACHE_FILE_AFTER_NAME.test(entry.slice(name.length));
}

/**
 * Writes `data()` to `file` through a new temporary file beside it, then renames it over `file`.
 * Nothing here may throw: it runs from a timer and at exit, where an error would end the process,
 * and a cache is only an optimisation (the next start compiles as this one did).
 */
function replaceFile(file: string, data: () => Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    // `wx`: a new file, never one that is there already (nor a link planted at the name).
    writeFileSync(temporary, data(), { flag: 'wx' });
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // The folder is unusable (a file in its place, no permission): nothing was written there.
    }
  }
}
