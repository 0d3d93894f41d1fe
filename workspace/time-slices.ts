/**
 * Long walks over a workspace (the report of every fixture, find-references) run in slices: the
 * event loop gets control back every few milliseconds, so hovers, keystrokes and cancellations are
 * read meanwhile, and a cancelled walk stops at the next slice instead of running to its end.
 */

/** How long one slice of a walk may run before the event loop gets control back. */
export const SLICE_MS = 20;

/** Something a walk can ask whether it is still wanted (an LSP CancellationToken is one). */
export interface Cancellation {
  readonly isCancellationRequested: boolean;
}

export const NOT_CANCELLED: Cancellation = { isCancellationRequested: false };

/** A walk's clock: `pause()` yields once the slice is spent, and says whether to go on. */
export class TimeSlices {
  private started = Date.now();

  constructor(private readonly cancellation: Cancellation = NOT_CANCELLED) {}

  /** Yields to the event loop when the slice is spent; false once the walk is no longer wanted. */
  async pause(): Promise<boolean> {
    if (Date.now() - this.started > SLICE_MS) {
      await new Promise((resume) => setImmediate(resume));
      this.started = Date.now();
    }
    return !this.cancellation.isCancellationRequested;
  }
}
