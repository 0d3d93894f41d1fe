/**
 * `babelq lint`: files in, diagnostics out. All linting is core's `analyze`, the same call the
 * language server makes; this module only reads bytes, decodes them strictly and picks the format.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { analyze, applySettings } from '../core/analyze';
import { CODES } from '../core/codes';
import type { CoreDiagnostic } from '../core/diagnostic';
import { parseJson } from '../core/parse/parser';
import { LineIndex } from '../core/positions';
import { DEFAULT_SETTINGS, type Settings } from '../core/settings';
import { parseArgs } from './args';
import type { CliEnvironment, Command, CommandResult } from './command';
import { loadConfig } from './config';
import { countBySeverity, toOutputDiagnostic, type FileReport, type OutputDiagnostic } from './diagnostics';
import { CliError, describeFsError } from './errors';
import { formatJson } from './formats/json';
import { formatSarif } from './formats/sarif';
import { formatStylish, shouldUseColor } from './formats/stylish';
import { resolveInputs } from './paths';
import { CliRegistries } from './registry';
import type { RegistryState } from '../core/registry/types';

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
  -h, --help                     show this help

Exit status: 0 no errors, 1 errors or too many warnings, 2 usage or I/O problem.
`;

const OPTIONS = {
  format: { value: true },
  'max-warnings': { value: true },
  config: { value: true },
  registry: { value: true },
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
  const settings = typeof config === 'string' ? loadConfig(config, environment.cwd) : DEFAULT_SETTINGS;

  const registryOption = options.get('registry');
  const registries = new CliRegistries(environment.cwd, typeof registryOption === 'string' ? registryOption : undefined, settings);

  const files = resolveInputs(positionals.length > 0 ? positionals : ['.'], environment.cwd);
  // Read everything before printing anything: an unreadable file is exit 2 with no partial report.
  const contents = files.map((file) => {
    try {
      return readFileSync(file.absolute);
    } catch (error) {
      throw new CliError(`cannot read '${file.path}': ${describeFsError(error)}`);
    }
  });
  const reports: FileReport[] = files.map((file, i) => ({ file: file.path, diagnostics: lintBytes(contents[i], settings, registries.stateFor(file.absolute)) }));
  // A registry the files used is reported after them when it has problems of its own.
  for (const registry of registries.registryReports(settings)) {
    const lineIndex = new LineIndex(registry.text);
    const shown = relative(environment.cwd, registry.path);
    reports.push({ file: shown.startsWith('..') ? registry.path : shown, diagnostics: registry.diagnostics.map((d) => toOutputDiagnostic(d, lineIndex)) });
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

/**
 * Lints one file's bytes. Decoding is strict UTF-8 and keeps a BOM in the text, so core reports
 * the BOM as json-syntax exactly as the editor does; bytes that are not UTF-8 give one json-syntax
 * diagnostic at the start instead of guesses about what the text was meant to be.
 */
export function lintBytes(bytes: Uint8Array, settings: Settings, registry: RegistryState = { kind: 'none' }): OutputDiagnostic[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return invalidUtf8(bytes, settings);
  }
  const lineIndex = new LineIndex(text);
  return analyze(parseJson(text), settings, registry).map((diagnostic) => toOutputDiagnostic(diagnostic, lineIndex));
}

function invalidUtf8(bytes: Uint8Array, settings: Settings): OutputDiagnostic[] {
  // analyze() never sees this file, so the same on/off switch and severity override apply here.
  const diagnostic: CoreDiagnostic = {
    code: 'json-syntax',
    severity: CODES['json-syntax'].severity,
    message: `The file is not valid UTF-8 (${describeInvalidUtf8(bytes)}); strict JSON is UTF-8. Save it as UTF-8 without BOM.`,
    offset: 0,
    end: 0,
  };
  const lineIndex = new LineIndex('');
  return applySettings([diagnostic], settings).map((kept) => toOutputDiagnostic(kept, lineIndex));
}

/** Where decoding fails, for a message that lets a person find the bad byte. */
function describeInvalidUtf8(bytes: Uint8Array): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return 'it starts with a UTF-16 byte-order mark';
  // A streaming decode fails only at a byte that cannot go on, so bisection finds the longest
  // prefix that still decodes; the failing byte is the next one.
  let low = 0;
  let high = bytes.length;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (decodes(bytes.subarray(0, middle), true)) low = middle;
    else high = middle - 1;
  }
  if (low >= bytes.length) return 'it ends in the middle of a character';
  // When that prefix ends inside an unfinished character (`caf\xE9"`), the culprit is the byte that
  // started it, which is what a person looking at the file needs to find.
  let bad = low;
  if (!decodes(bytes.subarray(0, low), false)) {
    while (bad > 0 && low - bad < 3 && (bytes[bad - 1] & 0xc0) === 0x80) bad--;
    bad--;
  }
  let line = 1;
  for (let i = 0; i < bad; i++) if (bytes[i] === 0x0a) line++;
  return `an invalid sequence starts with byte 0x${bytes[bad].toString(16).toUpperCase().padStart(2, '0')} at byte offset ${bad}, line ${line}`;
}

function decodes(bytes: Uint8Array, stream: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream });
    return true;
  } catch {
    return false;
  }
}
