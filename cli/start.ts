/**
 * dist/cli.js, what `babelq` runs: starts the CLI bundle (dist/cli-main.js, built from ./main.ts)
 * with the code cache the build made for it (dist/cli-main.cache; see workspace/code-cache.ts).
 * `npm run build` makes the cache by linting examples/ once with BABELQ_WRITE_CODE_CACHE=1.
 */
import { join } from 'node:path';
import { runWithCodeCache } from '../workspace/code-cache';
import { startedAsLintShare } from './lint-share-role';
import { keepYoungGenerationSmall } from './young-generation';

// A lint thread (cli/lint-threads.ts) starts here too; only the main thread writes the cache.
const mainThread = !startedAsLintShare();
const writeCache = mainThread && process.env.BABELQ_WRITE_CODE_CACHE === '1';
// A lint process keeps a report per file and drops the rest (./young-generation.ts): set before the
// bundle runs, whose own start would grow the young generation once, and after it is compiled: V8
// checks a code cache against its flags as they were when it first compared any, so the cache is
// checked under the flags it was made with. The build's run that makes the cache keeps V8's flags
// (a cache made under this one would be refused by every other command). The lint threads share
// the setting; every other command keeps V8's own (`babelq lsp` is a long-lived server).
const beforeRun = mainThread && !writeCache && process.argv[2] === 'lint' ? keepYoungGenerationSmall : undefined;
runWithCodeCache(join(__dirname, 'cli-main.js'), join(__dirname, 'cli-main.cache'), writeCache, beforeRun);
