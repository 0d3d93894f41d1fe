/**
 * How far V8 lets the young generation grow while `babelq lint` runs. By default it doubles the
 * young generation, up to 16 MB for each of its two halves, as objects keep surviving collections:
 * a lint of thousands of small fixtures keeps a report per file and drops everything else, and
 * that growth was 11 MB of the run's peak memory on the bench's 10,000 fixtures for no time saved.
 * Kept at its first size, collections stay as quick. A large fixture is different: its parse
 * lives through collections, and at the first size it ran some 10% slower (a 5 MB fixture), so
 * the first fixture of a megabyte or more lets the young generation grow again as V8 would.
 *
 * The setting is V8's `--semi-space-growth-factor` (2 by default), which V8 reads each time it
 * considers growing, so setting it while the process runs takes effect; flags are per process,
 * so lint threads started later share it. Only lint sets it: the language server (`babelq lsp`)
 * lives long and keeps its default.
 */
import { setFlagsFromString } from 'node:v8';

/** The size of fixture from which the young generation may grow again. */
export const LARGE_FIXTURE_BYTES = 1024 * 1024;

/** Whether this thread has let it grow again (once is enough: the flag is the process's). */
let grownAgain = false;

/** Keeps the young generation at its first size from here on: at the start of a `babelq lint` process. */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** Lets the young generation grow again, as V8 would, when a fixture of `bytes` is a large one. */
export function allowYoungGenerationFor(bytes: number): void {
  if (grownAgain || bytes < LARGE_FIXTURE_BYTES) return;
  setFlagsFromString('--semi-space-growth-factor=2');
  grownAgain = true;
}
