/**
 * A computation in steps: a generator that yields wherever its caller may give other work a turn
 * (core has no clock; the language server decides when to yield, workspace/time-slices.ts), and
 * returns its result at the end. The CLI runs the same steps in one go, so both get one result.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs the steps to their end without yielding. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
