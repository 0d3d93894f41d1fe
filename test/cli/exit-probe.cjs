// Preloaded (node --require) into `babelq` by test/cli/send.test.ts. At the process's exit it
// writes to BABELQ_TEST_EXIT_LOG how long the process lived on after its first write to stderr
// (the error it reports), as {"afterErrorMs": n}, or null when it wrote nothing there. Measured in
// the process itself, so neither its start nor a busy machine's scheduling of the spawn counts.
const { writeFileSync } = require('node:fs');

let firstError;
const write = process.stderr.write;
process.stderr.write = function (...args) {
  firstError ??= performance.now();
  return write.apply(this, args);
};
process.on('exit', () => {
  writeFileSync(process.env.BABELQ_TEST_EXIT_LOG, JSON.stringify({ afterErrorMs: firstError === undefined ? null : performance.now() - firstError }));
});
