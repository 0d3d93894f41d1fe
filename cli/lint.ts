/**
 * `babelq lint`: files in, diagnostics out. All linting is core's `analyze`, the same call the
 * language server makes (./lint-file.ts); this module reads the options and picks the format.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineIndex } from '../core/model/positions';
import { parseText } from '../core/parse/parser';
import { parseArgs } from './args';
import type { CliEnvironment, Command, CommandResult } from './command';
import { countBySeverity, toOutputDiagnostic, type FileReport } from './diagnostics';
import { CliError } from './errors';
import { findingDetails } from './finding-details';
import { formatCompact } from './formats/compact';
import { formatGithub } from './formats/github';
import { formatJson } from './formats/json';
import { formatSarif } from './formats/sarif';
import { formatStylish, shouldUseColor } from './formats/stylish';
import { lintContext, lintFile } from './lint-file';
import { PAYLOAD_VERDICTS, type PayloadVerdict } from '../core/registry/validators/verdicts';
import { resolveInputs } from './paths';

export { lintBytes } from './lint-file';

const FORMATS = ['stylish', 'json', 'sarif', 'github', 'compact'] as const;
type Format = (typeof FORMATS)[number];

/** The text of `babelq lint --help`. */
export const LINT_USAGE = `Usage: babelq lint [paths...] [options]

Checks BabelQueue envelope fixtures and reports the diagnostics the editor shows.
A path is a file, a directory (searched recursively for *.babel.json, skipping
node_modules and .git) or a quoted glob (*, **, ?, {a,b}). Default: the current directory.

Options:
  --format <name>                output format (default: stylish):
                                 stylish  a table per file, for people
                                 json     [{"file", "diagnostics"}], for tools
                                 sarif    SARIF 2.1.0, for code-scanning dashboards
                                 github   GitHub Actions annotations (::error file=…)
                                 compact  file:line:col-endLine:endCol: severity code: message
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
    details: format === 'sarif',
    ...(validator !== undefined ? { validator: validator as PayloadVerdict } : {}),
  });

  const files = resolveInputs(positionals.length > 0 ? positionals : ['.'], environment.cwd);
  // Every file is read before anything is printed: an unreadable one is exit 2 with no partial report.
  const reports: FileReport[] = files.map((file) => lintFile(file, context));
  // A registry the files used is reported after them when it has problems of its own, then its schema files' keyword findings.
  for (const registryReport of [...context.registries.registryReports(context.settings), ...context.registries.schemaReports(context.settings)]) {
    const lineIndex = new LineIndex(registryReport.text);
    const shown = relative(environment.cwd, registryReport.path);
    const diagnostics = registryReport.diagnostics.map((d) => toOutputDiagnostic(d, lineIndex));
    // SARIF fingerprints registry.json's findings too; the text is parsed again only for that.
    const details = context.details ? findingDetails(parseText(registryReport.text), registryReport.diagnostics, { kind: 'none' }, lineIndex) : undefined;
    reports.push({ file: shown.startsWith('..') ? registryReport.path : shown, diagnostics, ...(details ? { details } : {}) });
  }

  const counts = countBySeverity(reports);
  const tooManyWarnings = maxWarnings !== undefined && counts.warning > maxWarnings;
  const stdout = render(format as Format, reports, environment);
  // On stderr even for stylish, so json and sarif stay pure documents on stdout.
  const stderr = tooManyWarnings ? `babelq: ${counts.warning} warnings exceed --max-warnings ${maxWarnings}\n` : '';
  return { stdout, stderr, exitCode: counts.error > 0 || tooManyWarnings ? 1 : 0 };
}


function render(format: Format, reports: readonly FileReport[], environment: CliEnvironment): string {
  switch (format) {
    case 'json':
      return formatJson(reports);
    case 'sarif':
      return formatSarif(reports, { cwd: environment.cwd, version: environment.version, catalogueUri: catalogueUri() });
    case 'github':
      return formatGithub(reports);
    case 'compact':
      return formatCompact(reports);
    case 'stylish':
      return formatStylish(reports, { color: shouldUseColor(environment.stdoutIsTTY, environment.env) });
  }
}

/**
 * The diagnostic catalogue shipped beside the CLI (docs/diagnostics.md one folder above the bundle,
 * in the npm package, the .vsix and a checkout alike) as a file: URI; undefined when it is absent.
 */
function catalogueUri(): string | undefined {
  const path = join(__dirname, '..', 'docs', 'diagnostics.md');
  return existsSync(path) ? pathToFileURL(path).href : undefined;
}
