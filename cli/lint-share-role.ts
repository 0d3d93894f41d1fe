/**
 * How a lint thread knows itself as it starts, before anything else is loaded: `babelq lint
 * --concurrency` starts the bundle's entry with this argument (cli/lint-threads.ts). Reading
 * process.argv costs nothing, where loading node:worker_threads to ask isMainThread added 3.5 ms
 * to every `babelq` start.
 */
export const LINT_SHARE_ARGUMENT = '--babelq-lint-share';

/** Whether this thread was started as a lint share (a user typing the argument gets `babelq`'s own answer to it). */
export function startedAsLintShare(argv: readonly string[] = process.argv): boolean {
  return argv.includes(LINT_SHARE_ARGUMENT);
}
