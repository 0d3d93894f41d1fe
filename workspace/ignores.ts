/**
 * What a directory walk leaves out: what git ignores (workspace/gitignore.ts) and the `ignore`
 * globs of the babelq.json files that govern a fixture (workspace/project-config.ts). Both
 * `babelq lint <dir>` and the editor's workspace scan take one of these; `--no-ignore` takes none.
 */
import type { GitIgnores } from './gitignore';
import type { ProjectConfigs } from './project-config';

export interface IgnoreFilter {
  /** A folder the walk does not enter. */
  skipDirectory(absolute: string): boolean;
  /** A fixture the walk leaves out. */
  skipFile(absolute: string): boolean;
}

export const NO_IGNORES: IgnoreFilter = { skipDirectory: () => false, skipFile: () => false };

/** `.gitignore` and babelq.json's `ignore` together; `stopAt` is the editor's workspace folder. */
export function projectIgnores(configs: ProjectConfigs, gitignores: GitIgnores, stopAt?: string): IgnoreFilter {
  return {
    // An `ignore` glob that matches a folder leaves out everything below it: the walk need not enter it.
    skipDirectory: (absolute) => gitignores.isIgnored(absolute, true) || configs.isIgnored(absolute, stopAt),
    skipFile: (absolute) => gitignores.isIgnored(absolute, false) || configs.isIgnored(absolute, stopAt),
  };
}
