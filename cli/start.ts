/**
 * dist/cli.js, what `babelq` runs: starts the CLI bundle (dist/cli-main.js, built from ./main.ts)
 * with the code cache the build made for it (dist/cli-main.cache; see workspace/code-cache.ts).
 * `npm run build` makes the cache by linting examples/ once with BABELQ_WRITE_CODE_CACHE=1.
 */
import { join } from 'node:path';
import { runWithCodeCache } from '../workspace/code-cache';
import { startedAsLintShare } from './lint-share-role';
import { keepYoungGenerationSmall, threadCompiled } from './young-generation';

// A lint thread (cli/lint-threads.ts) starts here too; only the main thread writes the cache.
const mainThread = !startedAsLintShare();
const makingCache = process.env.BABELQ_WRITE_CODE_CACHE === '1';
// A lint process keeps a report per file and drops the rest (./young-generation.ts): set before the
// bundle runs, whose own start would grow the young generation once, and after it is compiled: V8
// checks a code cache against its flags as they are then, so the cache is checked under the flags
// it was made with. The build's run that makes the cache keeps V8's flags (a cache made under this
// one would be refused by every other command). A lint thread's heap puts V8's setting back, so
// the threads set it again once all of them have compiled. Every other command keeps V8's own
// (`babelq lsp` is a long-lived server).
const beforeRun = makingCache ? undefined : mainThread ? (process.argv[2] === 'lint' ? keepYoungGenerationSmall : undefined) : lintThreadCompiled;
runWithCodeCache(join(__dirname, 'cli-main.js'), join(__dirname, 'cli-main.cache'), mainThread && makingCache, beforeRun);

/** In a lint thread (loaded only there: node:worker_threads costs every `babelq` start 3.5 ms). */
function lintThreadCompiled(): void {
  const { workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const youngGeneration = (workerData as { youngGeneration?: { state?: unknown; threads?: unknown } } | null)?.youngGeneration;
  if (youngGeneration?.state instanceof Int32Array && typeof youngGeneration.threads === 'number') threadCompiled(youngGeneration.state, youngGeneration.threads);
}
