/**
 * dist/cli.js, what `babelq` runs: starts the CLI bundle (dist/cli-main.js, built from ./main.ts)
 * with the code cache the build made for it (dist/cli-main.cache; see workspace/code-cache.ts).
 * `npm run build` makes the cache by linting examples/ once with BABELQ_WRITE_CODE_CACHE=1.
 */
import { join } from 'node:path';
import { runWithCodeCache } from '../workspace/code-cache';
import { startedAsLintShare } from './lint-share-role';

// A lint thread (cli/lint-threads.ts) starts here too; only the main thread writes the cache.
runWithCodeCache(join(__dirname, 'cli-main.js'), join(__dirname, 'cli-main.cache'), !startedAsLintShare() && process.env.BABELQ_WRITE_CODE_CACHE === '1');
