/** Peak resident memory, for the Reliability figures: of this test process, or of a child (the server) from /proc. */
import { readFileSync } from 'node:fs';

/** This process's peak RSS in MB (the test file runs in a process of its own). */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** A child process's peak RSS in MB (Linux: VmHWM), NaN when it cannot be read. */
export function childPeakRssMb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
