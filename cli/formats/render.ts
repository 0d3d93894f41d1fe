/**
 * The output formats every reporting command shares (`babelq lint`, `babelq compat`): the
 * `--format` value checked once, and the reports rendered in it.
 */
import { catalogueWebUrl } from '../../core/language/catalogue-links';
import type { CliEnvironment } from '../command';
import type { FileReport } from '../diagnostics';
import { CliError } from '../errors';
import { formatCompact } from './compact';
import { formatGithub } from './github';
import { formatJson } from './json';
import { formatSarif } from './sarif';
import { formatStylish, shouldUseColor } from './stylish';

export const FORMATS = ['stylish', 'json', 'sarif', 'github', 'compact'] as const;
export type Format = (typeof FORMATS)[number];

/** `--format`'s value (stylish when absent); anything else is a usage error. */
export function formatOption(value: string | true | undefined): Format {
  const format = value ?? 'stylish';
  if (!FORMATS.includes(format as Format)) throw new CliError(`--format must be one of ${FORMATS.join(', ')}, not '${String(format)}'`, true);
  return format as Format;
}

/** The reports in `format`; `suppressed` is counted in the stylish summary. */
export function renderReports(format: Format, reports: readonly FileReport[], environment: CliEnvironment, suppressed = 0): string {
  switch (format) {
    case 'json':
      return formatJson(reports);
    case 'sarif':
      return formatSarif(reports, { cwd: environment.cwd, version: environment.version, catalogueUrl: catalogueWebUrl(environment.version) });
    case 'github':
      return formatGithub(reports);
    case 'compact':
      return formatCompact(reports);
    case 'stylish':
      return formatStylish(reports, { color: shouldUseColor(environment.stdoutIsTTY, environment.env), suppressed });
  }
}
