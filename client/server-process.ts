/**
 * How the extension starts its language server: the Node flags and environment of that process.
 *
 * A keystroke in a large envelope makes a new version of its whole text (10 MB for a 5 MB fixture
 * held as UTF-16), and writing it into memory the process has never touched costs a page fault
 * per 4 KB: 27 ms where a fault costs some 5 µs (a virtual machine's), against under 1 ms into
 * memory an earlier version left. The server only gets the second when two things hold:
 *
 * - an earlier version has been collected by the time the next is made. V8 collects when its own
 *   heuristics say, often several versions late; with `--expose-gc` the server collects once the
 *   edits of a large document pause (server/text-memory.ts).
 * - the C allocator kept the freed memory. By default glibc hands back to the system whatever is
 *   free at the top of its heap past a small threshold, and serves a request past another
 *   (adjusted as it goes) from a mapping of its own that it unmaps on free. The tunables below keep
 *   up to 64 MB free at the top of the heap and serve requests up to 32 MB (glibc's largest
 *   threshold) from the heap.
 *
 * And a collection must not make the next keystroke slower. After a full collection V8 sets its
 * next limit just above what survived, the live heap and the memory outside it (a 5 MB envelope:
 * 24 MB in the heap, 51 MB outside), and one keystroke's new text and column copies (13 MB outside
 * the heap) crossed it: every keystroke after the server's collection started V8's own, 4–10 ms of
 * marking and compacting within the keystroke (over LSP: 11–13 ms a keystroke, against 5 ms
 * without). `--initial-old-space-size=64` makes 64 MB the least that limit is ever set to, so
 * typing after a collection allocates without one. Its price: V8 lets its old generation, live
 * objects and garbage, grow to 64 MB before it collects on its own, after every collection.
 *
 * glibc reads its tunables when the process starts, so they are the environment of the launch;
 * other C libraries (macOS, Windows, musl) ignore the variable. Tunables the user set already are
 * kept after these, and so win where they name the same one. `babelq lsp` in another editor runs
 * without them unless the editor's launch sets them (README, "Large files").
 */

import { CODE_CACHE_DIR_VARIABLE } from '../core/language/protocol';

/** glibc's tunables that keep a freed text's memory for the next version; see above. */
export const KEEP_FREED_MEMORY_TUNABLES = 'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864';

/** V8's floor for its old-generation limit, in MB: a keystroke after a collection does not start another (see above). */
export const OLD_SPACE_FLOOR_MB = 64;

/**
 * Node flags for the server: `gc()` lets it collect a large document's previous versions at once;
 * the old-space floor keeps the keystroke after that collection from starting V8's own.
 */
export const SERVER_EXEC_ARGV: readonly string[] = ['--expose-gc', `--initial-old-space-size=${OLD_SPACE_FLOOR_MB}`];

/**
 * The environment the server starts in: `env` with the tunables above put before the user's own,
 * and, given a folder, the server's code cache kept there (server/start.ts): every start after
 * the first then compiles little of its bundle.
 */
export function serverEnvironment(env: NodeJS.ProcessEnv, codeCacheDirectory?: string): NodeJS.ProcessEnv {
  const own = env.GLIBC_TUNABLES;
  return {
    ...env,
    GLIBC_TUNABLES: own ? `${KEEP_FREED_MEMORY_TUNABLES}:${own}` : KEEP_FREED_MEMORY_TUNABLES,
    ...(codeCacheDirectory !== undefined ? { [CODE_CACHE_DIR_VARIABLE]: codeCacheDirectory } : {}),
  };
}
