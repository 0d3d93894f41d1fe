// Preloaded by the benchmark (`node --require`) into the language server: on SIGUSR2 it writes
// process.memoryUsage(), taken after a full GC when node runs with --expose-gc, to the file named
// by BENCH_MEMORY_FILE; and into `babelq` and the floors it is compared with: on exit it writes the process's peak resident memory
// (maxRSS, in KB) to the file named by BENCH_PEAK_RSS_FILE. The process itself is unchanged.
const { writeFileSync } = require('node:fs');

process.on('SIGUSR2', () => {
  if (typeof global.gc === 'function') global.gc();
  writeFileSync(process.env.BENCH_MEMORY_FILE, JSON.stringify(process.memoryUsage()));
});

if (process.env.BENCH_PEAK_RSS_FILE) {
  process.on('exit', () => writeFileSync(process.env.BENCH_PEAK_RSS_FILE, String(process.resourceUsage().maxRSS)));
}
