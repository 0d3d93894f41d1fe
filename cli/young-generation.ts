/**
 * How far V8 lets the young generation grow while `babelq lint` runs. By default it doubles the
 * young generation, up to 16 MB for each of its two halves, as objects keep surviving collections:
 * a lint of thousands of small fixtures keeps a report per file and drops everything else, and
 * that growth was 11 MB of the run's peak memory on the bench's 10,000 fixtures for no time saved.
 * Kept at the size it has as the run starts (the CLI's own start grows it from its first size
 * once, twice on a busy machine), collections stay as quick. A large fixture is different: its
 * parse lives through collections, and at that size it ran some 10% slower (a 5 MB fixture), so
 * the first fixture of a megabyte or more lets the young generation grow again as V8 would.
 *
 * The setting is V8's `--semi-space-growth-factor` (2 by default), which V8 reads each time it
 * considers growing, so setting it while the process runs takes effect, for every thread. But V8
 * puts it back to 2, for the whole process, as it makes each thread's heap, and checks a code cache
 * against its flags as a thread compiles its bundle: a lint in threads sets it again once every
 * thread has compiled (`threadCompiled`), as setting it while another thread is between the two
 * would have V8 refuse that thread's cache. Only lint sets it: the language server (`babelq lsp`)
 * lives long and keeps its default.
 */
import { setFlagsFromString } from 'node:v8';

/** The size of fixture from which the young generation may grow again. */
export const LARGE_FIXTURE_BYTES = 1024 * 1024;

/** Whether this thread has let it grow again (once is enough: the flag is the process's). */
let grownAgain = false;

/**
 * What the threads of a lint share (`newSharedState`): how many have compiled their bundle, and
 * whether any has let the young generation grow again (the last to compile must not undo that).
 */
let shared: Int32Array | undefined;
const COMPILED = 0;
const GROWN = 1;

/** The state a lint's threads share, made by the thread that starts them and handed to each. */
export function newSharedState(): Int32Array {
  shared ??= new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  return shared;
}

/** A lint thread takes the state the thread that started it made. */
export function joinSharedState(state: Int32Array): void {
  shared = state;
}

/**
 * A lint thread has compiled its bundle: the last of the `threads` to do so keeps the young
 * generation small again, for the whole process (each thread's heap put V8's setting back), and
 * grown again if a thread let it grow meanwhile: that thread said so before it set the flag, so
 * one of the two sets it last to 2.
 */
export function threadCompiled(state: Int32Array, threads: number): void {
  if (Atomics.add(state, COMPILED, 1) + 1 < threads) return;
  keepYoungGenerationSmall();
  if (Atomics.load(state, GROWN) === 1) setFlagsFromString('--semi-space-growth-factor=2');
}

/** Keeps the young generation at the size it has now, from here on: at the start of a `babelq lint` process. */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** Lets the young generation grow again, as V8 would, when a fixture of `bytes` is a large one. */
export function allowYoungGenerationFor(bytes: number): void {
  if (grownAgain || bytes < LARGE_FIXTURE_BYTES) return;
  if (shared) Atomics.store(shared, GROWN, 1);
  setFlagsFromString('--semi-space-growth-factor=2');
  grownAgain = true;
}
