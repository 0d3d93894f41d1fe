/**
 * `babelq lint`: files in, diagnostics out. All linting is core's `analyze`, the same call the
 * language server makes (./lint-file.ts); this module reads the options and picks the format.
 */
import { relative } from 'node:path';
import { LineIndex } from '../core/model/positions';
import { parseArgs } from './args';
import type { CliEnvironment, Command, CommandResult } from './command';
import { countBySeverity, toOutputDiagnostic, type FileReport } from './diagnostics';
import { CliError } from './errors';
import { formatJson } from './formats/json';
import { formatSarif } from './formats/sarif';
import { formatStylish, shouldUseColor } from './formats/stylish';
import { lintContext, lintFile } from './lint-file';
import { PAYLOAD_VERDICTS, type PayloadVerdict } from '../core/registry/validators/verdicts';
import { resolveInputs } from './paths';

export { lintBytes } from './lint-file';

const FORMATS = ['stylish', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

/** The text of `babelq lint --help`. */
export const LINT_USAGE = `Usage: babelq lint [paths...] [options]

Checks BabelQueue envelope fixtures and reports the diagnostics the editor shows.
A path is a file, a directory (searched recursively for *.babel.json, skipping
node_modules and .git) or a quoted glob (*, **, ?, {a,b}). Default: the current directory.

Options:
  --format <stylish|json|sarif>  output format (default: stylish)
  --max-warnings <n>             fail when there are more than n warnings
  --config <file>                JSON settings file (the babelqueue.* settings of VS Code)
  --registry <file>              the registry.json to check URNs and payloads against
                                 (default: the nearest registry.json at or above each file,
                                 inside the current directory, as the editor finds it)
  --validator <draft-07|bqschema>  whose verdict payload-schema errors follow (default:
                                 draft-07; bqschema = CI's gate); the other is a
                                 validator-divergence warning
  -h, --help                     show this help

Exit status: 0 no errors, 1 errors or too many warnings, 2 usage or I/O problem.
`;

const OPTIONS = {
  format: { value: true },
  'max-warnings': { value: true },
  config: { value: true },
  registry: { value: true },
  validator: { value: true },
  help: { value: false, aliases: ['-h'] },
} as const;

/** The lint command for the command table of cli/main.ts. */
export const lintCommand: Command = {
  synopsis: 'lint [paths...]',
  summary: 'check *.babel.json envelope files (files, directories or globs)',
  run: runLint,
};

/** Runs `babelq lint` with the arguments after the command name; throws CliError for usage and I/O problems. */
export function runLint(args: readonly string[], environment: CliEnvironment): CommandResult {
  const { positionals, options } = parseArgs(args, OPTIONS);
  if (options.has('help')) return { stdout: LINT_USAGE, stderr: '', exitCode: 0 };

  const format = options.get('format') ?? 'stylish';
  if (!FORMATS.includes(format as Format)) throw new CliError(`--format must be one of ${FORMATS.join(', ')}, not '${String(format)}'`, true);
  const maxWarningsText = options.get('max-warnings');
  let maxWarnings: number | undefined;
  if (maxWarningsText !== undefined) {
    if (typeof maxWarningsText !== 'string' || !/^\d+$/.test(maxWarningsText)) {
      throw new CliError(`--max-warnings needs a whole number of 0 or more, not '${String(maxWarningsText)}'`, true);
    }
    maxWarnings = Number(maxWarningsText);
  }
  const config = options.get('config');
  const registry = options.get('registry');
  const validator = options.get('validator');
  if (validator !== undefined && !PAYLOAD_VERDICTS.includes(validator as PayloadVerdict)) {
    throw new CliError(`--validator must be one of ${PAYLOAD_VERDICTS.join(', ')}, not '${String(validator)}'`, true);
  }
  // Set up before any file is read: a bad --config or --registry is a usage problem.
  const context = lintContext({
    cwd: environment.cwd,
    config: typeof config === 'string' ? config : undefined,
    registry: typeof registry === 'string' ? registry : undefined,
    ...(validator !== undefined ? { validator: validator as PayloadVerdict } : {}),
  });

  const files = resolveInputs(positionals.length > 0 ? positionals : ['.'], environment.cwd);
  // Every file is read before anything is printed: an unreadable one is exit 2 with no partial report.
  const reports: FileReport[] = files.map((file) => lintFile(file, context));
  // A registry the files used is reported after them when it has problems of its own, then its schema files' keyword findings.
  for (const registryReport of [...context.registries.registryReports(context.settings), ...context.registries.schemaReports(context.settings)]) {
    const lineIndex = new LineIndex(registryReport.text);
    const shown = relative(environment.cwd, registryReport.path);
    reports.push({ file: shown.startsWith('..') ? registryReport.path : shown, diagnostics: registryReport.diagnostics.map((d) => toOutputDiagnostic(d, lineIndex)) });
  }

  const counts = countBySeverity(reports);
  const tooManyWarnings = maxWarnings !== undefined && counts.warning > maxWarnings;
  const stdout =
    format === 'json'
      ? formatJson(reports)
      : format === 'sarif'
        ? formatSarif(reports, { cwd: environment.cwd, version: environment.version })
        : formatStylish(reports, { color: shouldUseColor(environment.stdoutIsTTY, environment.env) });
  // On stderr even for stylish, so json and sarif stay pure documents on stdout.
  const stderr = tooManyWarnings ? `babelq: ${counts.warning} warnings exceed --max-warnings ${maxWarnings}\n` : '';
  return { stdout, stderr, exitCode: counts.error > 0 || tooManyWarnings ? 1 : 0 };
}

