/** Timing helpers: warm-up, interleaved samples, medians and ranges. */

export interface Stats {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly samples: number;
}

export function stats(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], samples: sorted.length };
}

/** Time in milliseconds, fractional. */
export function now(): number {
  return performance.now();
}

/**
 * Runs each contender `warmup` times, then `samples` rounds in which every contender runs once
 * (interleaved, so a busy moment on the machine hits all of them alike). A contender may be
 * async; `repeat` runs it that many times per sample and reports the time per run. With
 * `settle`, each contender first runs that many times untimed in every round: the collector then
 * finishes with the previous contender's garbage before the timed run, which pays only for its own.
 */
export async function compare(
  contenders: Record<string, () => unknown>,
  options: { warmup: number; samples: number; repeat?: number; settle?: number; beforeSample?: () => void },
): Promise<Record<string, Stats>> {
  const repeat = options.repeat ?? 1;
  const names = Object.keys(contenders);
  for (let i = 0; i < options.warmup; i++) for (const name of names) for (let r = 0; r < repeat; r++) await contenders[name]();
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < options.samples; i++) {
    // Rotate the order so no contender always runs right after another's garbage.
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      for (let r = 0; r < (options.settle ?? 0); r++) await contenders[name]();
      options.beforeSample?.();
      const started = now();
      for (let r = 0; r < repeat; r++) await contenders[name]();
      times[name].push((now() - started) / repeat);
    }
  }
  return Object.fromEntries(names.map((name) => [name, stats(times[name])]));
}

export function ms(value: number): string {
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  if (value >= 1) return `${value.toFixed(2)} ms`;
  return `${(value * 1000).toFixed(1)} µs`;
}

export function range(s: Stats): string {
  return `${ms(s.median)} (${ms(s.min)}–${ms(s.max)})`;
}

export function bytes(value: number): string {
  if (value >= 1024 * 1024) return `${(value / 1024 / 1024).toFixed(1)} MB`;
  if (value >= 1024) return `${(value / 1024).toFixed(1)} KB`;
  return `${value} B`;
}
