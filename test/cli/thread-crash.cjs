// Preloaded (`node --require`) into `babelq` by test/cli/lint-threads.test.ts: a lint thread whose
// share holds the file named by BABELQ_TEST_THREAD_CRASH throws before the bundle runs, as a
// thread that crashes (not a CliError). The main thread and the other threads are unchanged.
const { isMainThread, workerData } = require('node:worker_threads');

const crashOn = process.env.BABELQ_TEST_THREAD_CRASH;
if (!isMainThread && crashOn && workerData && Array.isArray(workerData.files) && workerData.files.some((file) => file.path === crashOn)) {
  throw new Error(`a lint thread crashed on purpose (${crashOn})`);
}
