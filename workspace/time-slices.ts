/**
 * Long walks over a workspace (the report of every fixture, find-references) run in slices: the
 * event loop gets control back every few milliseconds, so hovers, keystrokes and cancellations are
 * read meanwhile, and a cancelled walk stops at the next slice instead of running to its end.
 *
 * A walk someone is waiting for (find-references, what a schema edit breaks) goes first: the
 * background walk (the workspace's report) gives way while one runs, instead of taking every
 * other slice of the event loop and doubling the wait.
 */
import type { Steps } from '../core/model/steps';

/** How long one slice of a walk may run before the event loop gets control back. */
export const SLICE_MS = 20;

/** A background walk gives way while a walk someone waits for went on within this long (a slice and its yield, twice). */
const FOREGROUND_GRACE_MS = 2 * SLICE_MS;

/** When a walk someone waits for last went on (one event loop per process, so one clock). */
let foregroundAt = Number.NEGATIVE_INFINITY;

/** Something a walk can ask whether it is still wanted (an LSP CancellationToken is one). */
export interface Cancellation {
  readonly isCancellationRequested: boolean;
}

export const NOT_CANCELLED: Cancellation = { isCancellationRequested: false };

/** A walk's clock: `pause()` yields once the slice is spent, and says whether to go on. */
export class TimeSlices {
  private started = Date.now();

  constructor(
    private readonly cancellation: Cancellation = NOT_CANCELLED,
    /** A walk nobody waits for: it gives way to the others. */
    private readonly background = false,
    /** How long a slice runs before the event loop gets control back. */
    private readonly sliceMs = SLICE_MS,
  ) {}

  /** Yields to the event loop when the slice is spent; false once the walk is no longer wanted. */
  async pause(): Promise<boolean> {
    if (!this.background) foregroundAt = Date.now();
    if (Date.now() - this.started > this.sliceMs) {
      await new Promise((resume) => setImmediate(resume));
      while (this.background && Date.now() - foregroundAt < FOREGROUND_GRACE_MS && !this.cancellation.isCancellationRequested) {
        await new Promise((resume) => setTimeout(resume, SLICE_MS / 2));
      }
      this.started = Date.now();
    }
    return !this.cancellation.isCancellationRequested;
  }
}

/**
 * Runs a computation in steps (core/model/steps.ts) to its end, giving the event loop back
 * between steps once a slice is spent: a registry of hundreds of thousands of entries loads while
 * the server goes on answering. Nothing cancels it: the result is what the steps return.
 */
export async function runInSlices<T>(steps: Steps<T>): Promise<T> {
  // Half a walk's slice: a request that comes meanwhile takes three or four turns of the event
  // loop (its message read, handled, its answer written), each after a slice. With 20 ms slices a
  // hover waited 75 to 100 ms while a registry of 200,000 entries loaded; with 10 ms, 35 to 60 ms.
  const slices = new TimeSlices(NOT_CANCELLED, false, SLICE_MS / 2);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await slices.pause();
  }
}
