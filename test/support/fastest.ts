/** The fastest of `runs` timed calls of `work`, in milliseconds: what growth tests compare, as a busy machine only ever adds time. */
export function fastestMs(runs: number, work: () => unknown): number {
  let best = Infinity;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}
