// Preloaded by the benchmark (`node --require`) into the language server: on SIGUSR2 it writes
// process.memoryUsage(), taken after a full GC when node runs with --expose-gc, to the file named
// by BENCH_MEMORY_FILE; and into `babelq` and the floors it is compared with: on exit it writes the
// process's peak resident memory (in KB) to the file named by BENCH_PEAK_RSS_FILE. The process
// itself is unchanged. The peak is /proc/self/status's VmHWM, this program's own: Linux's maxRSS
// of a spawned process also counts what the process that spawned it held before the exec (a
// `node -e 0` started from a 340 MB parent reports 304 MB), so it is read only where there is no /proc.
const { readFileSync, writeFileSync } = require('node:fs');

process.on('SIGUSR2', () => {
  if (typeof global.gc === 'function') global.gc();
  writeFileSync(process.env.BENCH_MEMORY_FILE, JSON.stringify(process.memoryUsage()));
});

function peakResidentKb() {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // No /proc: the resource usage it is.
  }
  return process.resourceUsage().maxRSS;
}

if (process.env.BENCH_PEAK_RSS_FILE) {
  process.on('exit', () => writeFileSync(process.env.BENCH_PEAK_RSS_FILE, String(peakResidentKb())));
}
