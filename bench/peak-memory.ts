/**
 * A Node process started by the benchmark with its own peak resident memory read as it exits
 * (bench/memory-probe.cjs preloaded): for `babelq lint` and the floors it is compared with.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './context';
import { now } from './measure';

export interface ProbedRun {
  readonly result: SpawnSyncReturns<string>;
  /** From the start to the exit, in ms. */
  readonly elapsed: number;
  readonly peakMb: number;
}

/** Runs `node <args>` in `cwd` to its end; throws when it fails. */
export function runProbed(args: readonly string[], cwd: string): ProbedRun {
  const rssFile = join(tmpdir(), `babelq-bench-rss-${process.pid}`);
  const started = now();
  const result = spawnSync(process.execPath, ['--require', join(ROOT, 'bench/memory-probe.cjs'), ...args], {
    cwd,
    maxBuffer: 1 << 30,
    encoding: 'utf8',
    env: { ...process.env, BENCH_PEAK_RSS_FILE: rssFile },
  });
  const elapsed = now() - started;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed under the memory probe (exit ${result.status}): ${result.stderr.slice(0, 500)}`);
  const peakMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
  rmSync(rssFile, { force: true });
  return { result, elapsed, peakMb };
}
