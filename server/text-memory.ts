/**
 * Collecting a large document's earlier versions once the user pauses, so that the memory they
 * held is what the next version is written into (client/server-process.ts says why that matters
 * and what else it needs: the extension starts the server with `--expose-gc`, an old-space floor
 * and glibc tunables that keep freed memory).
 *
 * Left to its heuristics, V8 collects the versions of a 5 MB envelope several keystrokes late, and
 * a new version meanwhile lands in memory never touched: over LSP a keystroke then cost 40–65 ms
 * instead of 5–15 ms on a machine whose page faults are slow, about every other keystroke. One
 * full collection costs the server 8–20 ms, so it waits for a short pause in the edits (IDLE_MS
 * after the last large document's diagnostics): not while the editor draws the squiggles, and
 * once for keystrokes that come faster than that. The pause is short because a typist's keystrokes
 * come 80–200 ms apart: waiting 200 ms, typing at one keystroke per 100 ms never paused long enough,
 * and a version in fresh memory (30–50 ms) came every few keystrokes (median 10.7 ms over LSP on
 * 5 MB); waiting 50 ms, the same typing measured 4.6–6 ms a keystroke.
 *
 * Without `gc` (a server started without the flag: another editor's `babelq lsp` unless its launch
 * adds it, or most tests) nothing here does anything: V8 collects as it always does.
 */

/** V8's full collection, present when the process was started with `--expose-gc`. */
export type Collect = () => void;

/** How long after the last large edit's diagnostics the collection waits. */
export const IDLE_MS = 50;

const exposed = (globalThis as { gc?: Collect }).gc;

let timer: NodeJS.Timeout | undefined;

/** Whether this server can collect on demand (it was started with `--expose-gc`). */
export function canCollect(): boolean {
  return exposed !== undefined;
}

/**
 * Collects once no call has come for IDLE_MS: each call puts the collection off again, so a burst
 * of keystrokes costs one, after it. The timer does not keep the process alive.
 */
export function collectWhenIdle(collect: Collect | undefined = exposed, idleMs = IDLE_MS): void {
  if (!collect) return;
  clearTimeout(timer);
  timer = setTimeout(() => {
    timer = undefined;
    collect();
  }, idleMs);
  timer.unref();
}
