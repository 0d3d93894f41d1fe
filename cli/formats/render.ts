/**
 * The output formats every reporting command shares (`babelq lint`, `babelq compat`): the
 * `--format` value checked once, and the reports rendered in it.
 */
import { catalogueWebUrl } from '../../core/language/catalogue-links';
import type { CliEnvironment } from '../command';
import type { FileReport } from '../diagnostics';
import { CliError, quoted } from '../errors';
import { formatCompact } from './compact';
import { formatGithub } from './github';
import { formatJson } from './json';
import { repositoryRoot } from './repository-paths';
import { formatSarif } from './sarif';
import { formatStylish, shouldUseColor } from './stylish';

export const FORMATS = ['stylish', 'json', 'sarif', 'github', 'compact'] as const;
export type Format = (typeof FORMATS)[number];

/** `--format`'s value (stylish when absent); anything else is a usage error. */
export function formatOption(value: string | true | undefined): Format {
  const format = value ?? 'stylish';
  if (!FORMATS.includes(format as Format)) throw new CliError(`--format must be one of ${FORMATS.join(', ')}, not '${quoted(format)}'`, true);
  return format as Format;
}

/** The reports in `format`; `suppressed` is counted in the stylish summary. */
export function renderReports(format: Format, reports: readonly FileReport[], environment: CliEnvironment, suppressed = 0): string {
  switch (format) {
    case 'json':
      return formatJson(reports);
    // The two formats GitHub reads name files from the repository root (repository-paths.ts); the
    // others keep the paths as typed, relative to the current folder.
    case 'sarif':
      return formatSarif(reports, { ...placedFromRoot(environment), version: environment.version, catalogueUrl: catalogueWebUrl(environment.version) });
    case 'github':
      return formatGithub(reports, placedFromRoot(environment));
    case 'compact':
      return formatCompact(reports);
    case 'stylish':
      return formatStylish(reports, { color: shouldUseColor(environment.stdoutIsTTY, environment.env), suppressed });
  }
}

/** Where the files of a report are named from: the current folder, and the repository root when there is one. */
function placedFromRoot(environment: CliEnvironment): { cwd: string; root?: string } {
  const root = repositoryRoot(environment.cwd, environment.env);
  return { cwd: environment.cwd, ...(root !== undefined ? { root } : {}) };
}
