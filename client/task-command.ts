/**
 * What a `babelq` task runs: the CLI bundled in the extension, `babelq lint` with the task's
 * options and `--format compact`, the one format the `$babelq` problem matcher reads. Kept free
 * of the vscode API so the arguments can be tested on their own.
 */

/** The task type of tasks.json (`{ "type": "babelq", … }`), declared in package.json's taskDefinitions. */
export const TASK_TYPE = 'babelq';
/** The problem matcher contributed in package.json (`$babelq` in tasks.json). */
export const PROBLEM_MATCHER = '$babelq';

/** A task's options, as tasks.json writes them. */
export interface LintTaskOptions {
  /** Files, directories or globs, relative to the workspace folder (default: the folder). */
  readonly paths?: readonly string[];
  readonly registry?: string;
  readonly config?: string;
  readonly maxWarnings?: number;
}

/**
 * The arguments after the CLI's path; anything of the wrong type is left out rather than passed on.
 * `absolutePaths`: the output names every file by its absolute path (a task of the whole workspace,
 * whose `$babelq` resolves a relative path against the first folder, not the one it runs in).
 */
export function lintTaskArgs(options: LintTaskOptions, absolutePaths = false): string[] {
  const paths = Array.isArray(options.paths) ? options.paths.filter((path): path is string => typeof path === 'string' && path !== '') : [];
  const args = ['lint', '--format', 'compact'];
  if (absolutePaths) args.push('--absolute-paths');
  if (typeof options.registry === 'string' && options.registry !== '') args.push('--registry', options.registry);
  if (typeof options.config === 'string' && options.config !== '') args.push('--config', options.config);
  if (typeof options.maxWarnings === 'number' && Number.isInteger(options.maxWarnings) && options.maxWarnings >= 0) args.push('--max-warnings', String(options.maxWarnings));
  // The paths after `--`: a folder named `-legacy` or `--fix` is a path, not an option (`--fix`
  // would rewrite every fixture of the folder).
  args.push('--', ...(paths.length > 0 ? paths : ['.']));
  return args;
}
