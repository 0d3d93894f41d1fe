/**
 * Collecting a large document's earlier versions once the user pauses, so that the memory they
 * held is what the next version is written into (client/server-process.ts says why that matters
 * and what else it needs: the extension starts the server with `--expose-gc` and glibc tunables
 * that keep freed memory).
 *
 * Left to its heuristics, V8 collects the versions of a 5 MB envelope several keystrokes late, and
 * a new version meanwhile lands in memory never touched: over LSP a keystroke then cost 40–65 ms
 * instead of 5–15 ms on a machine whose page faults are slow, about every other keystroke. One
 * full collection costs the server 8–20 ms, so it waits for a pause in the edits (IDLE_MS after
 * the last large document's diagnostics): while the user reads the squiggles, not while the editor
 * draws them, and once for a burst of typing.
 *
 * Without `gc` (a server started by another editor's `babelq lsp`, or by a test) nothing here
 * does anything: V8 collects as it always does.
 */

/** V8's full collection, present when the process was started with `--expose-gc`. */
export type Collect = () => void;

/** How long after the last large edit's diagnostics the collection waits. */
export const IDLE_MS = 200;

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
