// Preloaded into the language server by the benchmark (`node --require`): on SIGUSR2 it writes
// process.memoryUsage(), taken after a full GC when node runs with --expose-gc, to the file named
// by BENCH_MEMORY_FILE. The server itself is unchanged.
const { writeFileSync } = require('node:fs');

process.on('SIGUSR2', () => {
  if (typeof global.gc === 'function') global.gc();
  writeFileSync(process.env.BENCH_MEMORY_FILE, JSON.stringify(process.memoryUsage()));
});
