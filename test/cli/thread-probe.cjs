// Preloaded (`node --require`) into `babelq` by test/cli/lint-threads.test.ts, so it runs in every
// thread of the process: each lint thread appends how many fixtures it was given to the file named
// by BABELQ_TEST_THREAD_LOG. The main thread writes nothing. The program itself is unchanged.
const { appendFileSync } = require('node:fs');
const { isMainThread, workerData } = require('node:worker_threads');

if (!isMainThread && process.env.BABELQ_TEST_THREAD_LOG && workerData && Array.isArray(workerData.files)) {
  appendFileSync(process.env.BABELQ_TEST_THREAD_LOG, `${workerData.files.length}\n`);
}
