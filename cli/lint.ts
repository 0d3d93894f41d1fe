/**
 * `babelq lint`: files in, diagnostics out. All linting is core's `analyze`, the same call the
 * language server makes (./lint-file.ts); this module reads the options and picks the format.
 */
import { relative, resolve } from 'node:path';
import { isUnder, leavesRoot } from '../workspace/path-containment';
import { LineIndex } from '../core/model/positions';
import { parseText } from '../core/parse/parser';
import { parseArgs, STANDARD_INPUT_ARGUMENT } from './args';
import type { CliEnvironment, Command, CommandResult } from './command';
import { countBySeverity, printable, toOutputDiagnostic, type FileReport } from './diagnostics';
import { findingDetails } from './finding-details';
import { formatOption, renderReports } from './formats/render';
import { sarifLeftOutLine } from './formats/sarif';
import { fileKindOf, lintContext, lintFileBytes, namedFileKind, readFixture, settingsFor, type LintSetup } from './lint-file';
import { allowYoungGenerationFor } from './young-generation';
import { concurrencyOption, lintInThreads, threadCount } from './lint-threads';
import { fixFile, type FixMode } from './fix';
import { projectFileReports, pruneSuppressions, staleSuppressions, writeBaseline } from './suppressions';
import { GitIgnores } from '../workspace/gitignore';
import { GITHUB_WORKSPACE } from '../workspace/github-workspace';
import { NO_IGNORES, projectIgnores } from '../workspace/ignores';
import { MAX_ENVELOPE_FILE_BYTES } from '../workspace/bounded-read';
import { CliError, quoted, quotedPath } from './errors';
import { PAYLOAD_VERDICTS, type PayloadVerdict } from '../core/registry/validators/verdicts';
import { NO_REGISTRY } from '../core/registry/types';
import { leftOutFromHere, namedFromCwd, resolveInputs, type InputFile } from './paths';
import { showOnOneLine } from '../core/language/markdown';
import { NOT_READ_AS_REGISTRY } from '../workspace/registry-loader';

export { lintBytes } from './lint-file';

/** The text of `babelq lint --help`. */
export const LINT_USAGE = `Usage: babelq lint [paths...] [options]

Checks BabelQueue envelope fixtures and reports the diagnostics the editor shows.
A path is a file, a directory (searched recursively for *.babel.json, skipping
node_modules, .git, what .gitignore and .git/info/exclude ignore and babelq.json's
"ignore") or a quoted glob (*, **, ?, {a,b}). A file named as such is always
linted, unless --force-exclude leaves it out. Default: the current directory.
Each fixture's settings come from the babelq.json files above it (the nearest
wins; "root": true stops the walk).

Options:
  --format <name>                output format (default: stylish):
                                 stylish  a table per file, for people
                                 json     [{"file", "diagnostics"}], for tools
                                 sarif    SARIF 2.1.0, for code-scanning dashboards
                                 github   GitHub Actions annotations (::error file=…)
                                 compact  file:line:col-endLine:endCol: severity code: message
  --max-warnings <n>             fail when there are more than n warnings
  --fix                          apply the safe fixes (each finding's preferred quick
                                 fix) and write the files; report what remains
  --fix-dry-run                  print the fixes as a unified diff; write nothing
                                 (what would remain goes to stderr, as stylish)
  --no-ignore                    lint what .gitignore, .git/info/exclude and "ignore"
                                 leave out too
  --force-exclude                leave out a file or folder named here as well when
                                 git or "ignore" leaves it out (for a hook that
                                 names every staged file); a path left out, or whose
                                 fixtures all are, is no error
  --concurrency <n|auto|off>     threads that lint the fixtures (default: auto, a
                                 thread per 30,000 fixtures, up to the cores and 4;
                                 n: at most the cores, or 4 where there are fewer;
                                 the output is the same in any number)
  --stdin, -                     lint standard input instead of files ('-' is a
                                 path of its own: no other paths beside it; ./- names
                                 a file called '-'; not with --fix, --suppress-all or
                                 --prune-suppressions, which work on files on disk)
  --stdin-filename <path>        the path standard input stands for (its babelq.json,
                                 registry and suppressions apply; default: stdin.babel.json);
                                 a registry.json, schema file or babelq.json is not checked
  --absolute-paths               name every file in the output by its absolute path
                                 (fixtures, babelq.json, registry.json and schema files
                                 alike; for a problem matcher that would resolve a
                                 relative one against another folder); sarif and github
                                 still name files from the repository root
  --suppress-all                 write every finding into babelq-suppressions.json
                                 (a baseline); needs --reason
  --reason <text>                the reason written with --suppress-all
  --prune-suppressions           remove suppressions that match no finding any more
  --config <file>                JSON settings file (the babelqueue.* settings of VS Code),
                                 applied over babelq.json as editor settings are
  --registry <file>              the registry.json to check URNs and payloads against
                                 (default: babelq.json's "registry", else the nearest
                                 registry.json at or above each file, inside the current
                                 directory, as the editor finds it)
  --validator <draft-07|bqschema>  whose verdict payload-schema errors follow (default:
                                 draft-07; bqschema = CI's gate); the other is a
                                 validator-divergence warning
  -h, --help                     show this help

Exit status, as bqschema check's for a registry: 0 no errors, 1 errors or too many
warnings (a schema file bqschema cannot use included), 2 a usage or I/O problem, or
a registry.json that bqschema's registry load refuses as a whole (not JSON, not its
shape, a field of another type, an empty urn or schema, a duplicate URN).
`;

const OPTIONS = {
  format: { value: true },
  'max-warnings': { value: true },
  config: { value: true },
  registry: { value: true },
  validator: { value: true },
  fix: { value: false },
  'fix-dry-run': { value: false },
  'no-ignore': { value: false },
  'force-exclude': { value: false },
  stdin: { value: false },
  'stdin-filename': { value: true },
  'absolute-paths': { value: false },
  'suppress-all': { value: false },
  reason: { value: true },
  'prune-suppressions': { value: false },
  concurrency: { value: true },
  help: { value: false, aliases: ['-h'] },
} as const;

/** How the note on standard input names a file it stands for that is no envelope. */
const STANDS_FOR = { registry: 'a registry', schema: 'a schema file of its registry', project: 'a project file (babelq.json or the suppressions file)' } as const;

/** What standard input is called when --stdin-filename does not say. */
const STDIN_NAME = 'stdin.babel.json';

/** The lint command for the command table of cli/main.ts. */
export const lintCommand: Command = {
  synopsis: 'lint [paths...]',
  summary: 'check *.babel.json envelope files (files, directories or globs)',
  run: runLint,
};

/** Runs `babelq lint` with the arguments after the command name; throws CliError for usage and I/O problems. */
export async function runLint(args: readonly string[], environment: CliEnvironment): Promise<CommandResult> {
  const { positionals, options } = parseArgs(args, OPTIONS);
  if (options.has('help')) return { stdout: LINT_USAGE, stderr: '', exitCode: 0 };

  const format = formatOption(options.get('format'));
  const maxWarningsText = options.get('max-warnings');
  let maxWarnings: number | undefined;
  if (maxWarningsText !== undefined) {
    // Beyond 2^53 − 1 the number read is another one (20 nines read as 10^20): a limit that is not the one written.
    if (typeof maxWarningsText !== 'string' || !/^\d+$/.test(maxWarningsText) || !Number.isSafeInteger(Number(maxWarningsText))) {
      throw new CliError(`--max-warnings needs a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, not '${quoted(maxWarningsText)}'`, true);
    }
    maxWarnings = Number(maxWarningsText);
  }
  const config = options.get('config');
  const registry = options.get('registry');
  const validator = options.get('validator');
  if (validator !== undefined && !PAYLOAD_VERDICTS.includes(validator as PayloadVerdict)) {
    throw new CliError(`--validator must be one of ${PAYLOAD_VERDICTS.join(', ')}, not '${quoted(validator)}'`, true);
  }
  const fixMode: FixMode | undefined = options.has('fix') ? 'fix' : options.has('fix-dry-run') ? 'dry-run' : undefined;
  if (options.has('fix') && options.has('fix-dry-run')) throw new CliError('--fix and --fix-dry-run exclude each other: --fix writes, --fix-dry-run shows', true);
  // `babelq lint "$CHANGED"` with nothing in it: resolved, '' is the current folder, which nobody named.
  if (positionals.includes('')) throw new CliError("an empty path names no file or folder; give '.' to lint the current folder", true);
  // Resolved, '' is the current folder: read as a file it is said to be a directory, which nobody named.
  for (const [name, value] of [['config', config], ['registry', registry]] as const) {
    if (value === '') throw new CliError(`--${name} needs a file, not an empty value`, true);
  }
  // `-` is standard input, as --stdin is (the usual convention for a file argument); linted on its own.
  const dash = positionals.includes(STANDARD_INPUT_ARGUMENT);
  if (dash && positionals.length > 1) throw new CliError("'-' stands for standard input, which is linted on its own: give no other paths beside it", true);
  const paths = dash ? [] : positionals;
  const stdin = options.has('stdin') || dash;
  if (stdin && paths.length > 0) throw new CliError('--stdin lints standard input; give no paths beside it', true);
  if (options.has('stdin-filename') && !stdin) throw new CliError("--stdin-filename names standard input; add --stdin or '-'", true);
  if (stdin && fixMode === 'fix') throw new CliError('--fix writes files; for standard input use --fix-dry-run, which prints the diff', true);
  // Piped text is not the file it stands for (an editor's unsaved buffer): a baseline written from
  // it, or an entry pruned because it lacks the finding, would change what the file on disk reports.
  // Said before --reason is asked for, which would only lead here.
  for (const edit of ['suppress-all', 'prune-suppressions']) {
    if (stdin && options.has(edit)) throw new CliError(`--${edit} edits babelq-suppressions.json from the files on disk; lint the files by their paths, not standard input`, true);
  }
  const suppressAll = options.has('suppress-all');
  const reason = options.get('reason');
  if (suppressAll && (typeof reason !== 'string' || reason.trim() === '')) throw new CliError('--suppress-all needs --reason "<why these findings are accepted>"', true);
  if (reason !== undefined && !suppressAll) throw new CliError('--reason goes with --suppress-all', true);

  const concurrency = concurrencyOption(options.get('concurrency'));

  // Set up before any file is read: a bad --config or --registry is a usage problem.
  const setup: LintSetup = {
    cwd: environment.cwd,
    config: typeof config === 'string' ? config : undefined,
    registry: typeof registry === 'string' ? registry : undefined,
    // Pointers are needed for SARIF and for a baseline.
    details: format === 'sarif' || suppressAll,
    ...(validator !== undefined ? { validator: validator as PayloadVerdict } : {}),
    ...(environment.today ? { today: environment.today } : {}),
    ...(environment.env[GITHUB_WORKSPACE] !== undefined ? { githubWorkspace: environment.env[GITHUB_WORKSPACE] } : {}),
    ...(options.has('no-ignore') ? { noIgnore: true } : {}),
  };
  // A .gitignore that is not applied changes which files are linted: said on stderr, not passed over.
  const ignoreWarnings: string[] = [];
  const gitignores = new GitIgnores(undefined, undefined, (path, reason) => ignoreWarnings.push(`babelq: ${namedOnStderr(environment.cwd, path)} ${reason}\n`));
  const context = lintContext(setup, gitignores);
  const ignores = setup.noIgnore === true ? NO_IGNORES : projectIgnores(context.configs, gitignores);
  const forceExclude = options.has('force-exclude');
  const files: InputFile[] = stdin
    ? [stdinFile(options.get('stdin-filename'), environment.cwd)]
    : resolveInputs(paths.length > 0 ? paths : ['.'], environment.cwd, ignores, forceExclude);
  // Standard input standing for a file left out is left out too (an editor that pipes every buffer).
  if (stdin && forceExclude && leftOutFromHere(files[0].absolute, false, environment.cwd, ignores)) files.length = 0;
  // Standard input is linted as an envelope: standing for a registry.json, a schema file or a
  // babelq.json (an editor that pipes every *.json buffer), it would be one missing every field.
  const stdinStandsFor = stdin && files.length > 0 ? fileKindOf(files[0], context) : 'envelope';
  const stdinPassedOver = stdinStandsFor === 'envelope' ? undefined : { name: files.splice(0)[0].path, kind: STANDS_FOR[stdinStandsFor] };
  // Every file is read before anything is printed: an unreadable one is exit 2 with no partial report.
  const reports: FileReport[] = [];
  /** The file of each report above, in step (a registry.json or schema file named among the paths has none). */
  const linted: InputFile[] = [];
  const diffs: string[] = [];
  /** The diff's names of the files outside the current folder (a dry run). */
  const diffedOutside: string[] = [];
  /** A dry run's fixed bytes by real path: a file reached through two links is diffed once. */
  const diffed = new Map<string, Uint8Array>();
  /** Why each file --fix could not write was left as it was. */
  const unwritten: string[] = [];
  let fixed = 0;
  // A registry.json or schema file named among the paths: reported with the registries below, not as an envelope.
  const namedProjectFiles: InputFile[] = [];
  // --fix writes each file as it goes, and standard input is one file: both run in this thread.
  const workerScript = environment.lintWorkerScript;
  const threads = stdin || fixMode || !workerScript ? 1 : threadCount(concurrency, files.length);
  if (workerScript && threads > 1) {
    // Each thread tells a named registry.json or schema file apart as it meets it, as the loop below
    // does: told apart here first, their registries would be loaded, and reported, out of walk order.
    const threaded = await lintInThreads(files, { ...setup, today: context.today }, context, threads, workerScript);
    reports.push(...threaded.reports);
    linted.push(...threaded.linted);
    namedProjectFiles.push(...threaded.named);
  } else {
    for (const file of files) {
      if (!stdin && namedFileKind(file, context) !== 'envelope') {
        namedProjectFiles.push(file);
        continue;
      }
      let bytes = stdin ? readStandardInput(environment) : readFixture(file);
      if (fixMode) {
        try {
          const outcome = fixFile(file, bytes, context, fixMode, diffed);
          bytes = outcome.bytes;
          fixed += outcome.applied;
          if (outcome.diff) diffs.push(outcome.diff);
          if (outcome.outside !== undefined) diffedOutside.push(outcome.outside);
        } catch (error) {
          // A file --fix may not write (read-only, saved meanwhile by an editor) stops no other
          // file's fixes: the files after it are fixed too, and the run says what it wrote.
          if (!(error instanceof CliError)) throw error;
          unwritten.push(error.message);
        }
      }
      reports.push(lintFileBytes(file, bytes, context));
      linted.push(file);
    }
  }
  // Exit 2 with no report, as for any I/O problem, naming each file left as it was and what was written.
  if (unwritten.length > 0) throw new CliError([...unwritten, `${fixed === 0 ? 'no fix' : `${fixed} fix${fixed === 1 ? '' : 'es'}`} applied to the other files; run babelq lint again for the report`].join('\n'));

  let stderr = ignoreWarnings.join('');
  if (stdinPassedOver) stderr += `babelq: standard input stands for ${printable(stdinPassedOver.name)}, ${stdinPassedOver.kind}, and only an envelope is checked from standard input: lint the file by its path\n`;
  if (suppressAll) {
    // A finding carried by the one shown on its token (same cause, core/rules/same-cause.ts) is a
    // finding of its own to the suppressions: an entry for the shown one alone would bring it out
    // as a finding on the next run. It is on the same token, so at the same pointer.
    const findings = reports.flatMap((report, index) =>
      report.diagnostics.flatMap((diagnostic, at) => [diagnostic, ...(diagnostic.related ?? [])].map(({ code }) => ({ fixture: linted[index].absolute, code, pointer: report.details![at].pointer }))),
    );
    const written = writeBaseline(context, findings, (reason as string).trim());
    for (const { path, added } of written) stderr += `babelq: ${added} suppression${added === 1 ? '' : 's'} written to ${namedOnStderr(environment.cwd, path)}\n`;
    const entries = written.reduce((sum, { added }) => sum + added, 0);
    // An entry is a file, a code and a place: the summary below counts findings, so say why the two numbers differ.
    if (entries !== findings.length) stderr += `babelq: they cover all ${findings.length} finding${findings.length === 1 ? '' : 's'}: findings of one code at one place share an entry, and an entry already there is not written again\n`;
    // What was just written is suppressed from now on, this run included.
    context.run.suppressed += findings.length;
    for (let index = 0; index < reports.length; index++) reports[index] = { file: reports[index].file, diagnostics: [] };
  }
  const stale = suppressAll ? new Map() : staleSuppressions(context);
  if (options.has('prune-suppressions')) {
    const removed = pruneSuppressions(stale, context.cwd);
    stderr += `babelq: ${removed} stale suppression${removed === 1 ? '' : 's'} removed\n`;
    stale.clear();
  }
  const projectReports = projectFileReports(context, stale);
  reports.push(...projectReports);
  // A registry the files used is reported after them when it has problems of its own, then its schema files' keyword findings.
  const registrySettings = (path: string) => settingsFor(context, path);
  const registryReports = context.registries.registryReports(registrySettings);
  // As bqschema check: a registry.json its registry load refuses as a whole is exit 2, said on stderr too.
  // Named as the report below names it (from the current folder; a registry outside the repository by its absolute path).
  const refused = registryReports.filter((report) => report.refused).map((report) => shownPath(report.path, environment.cwd, context.registries.top) || report.path);
  // A babelq.json or suppressions file named among the paths is reported here when it has findings.
  const reported = new Set<string>(projectReports.map((report) => resolve(environment.cwd, report.file)));
  for (const registryReport of [...registryReports, ...context.registries.schemaReports(registrySettings)]) {
    reported.add(registryReport.path);
    const lineIndex = new LineIndex(registryReport.text);
    const diagnostics = registryReport.diagnostics.map((d) => toOutputDiagnostic(d, lineIndex));
    // SARIF fingerprints registry.json's findings too; the text is parsed again only for that.
    const details = context.details ? findingDetails(parseText(registryReport.text), registryReport.diagnostics, NO_REGISTRY, lineIndex) : undefined;
    reports.push({ file: shownPath(registryReport.path, environment.cwd, context.registries.top), diagnostics, ...(details ? { details } : {}) });
  }

  // A registry.json, schema file, babelq.json or suppressions file that was named and has nothing to report is still a file checked.
  for (const { absolute } of namedProjectFiles) if (!reported.has(absolute)) reports.push({ file: namedFromCwd(environment.cwd, absolute), diagnostics: [] });

  const counts = countBySeverity(reports);
  const tooManyWarnings = maxWarnings !== undefined && counts.warning > maxWarnings;
  if (fixMode === 'fix' && fixed > 0) stderr += `babelq: ${fixed} fix${fixed === 1 ? '' : 'es'} applied\n`;
  // A dry run's diff is the output (as `git diff` prints it); the findings that would remain go to stderr in stylish.
  // Files are named relative to the current folder (or absolute outside it), unless every one is asked for absolute.
  const shown = options.has('absolute-paths') ? reports.map((report) => ({ ...report, file: resolve(environment.cwd, report.file) })) : reports;
  const stdout = fixMode === 'dry-run' ? diffs.join('') : renderReports(format, shown, environment, context.run.suppressed);
  if (fixMode === 'dry-run') stderr += renderReports('stylish', shown, { ...environment, stdoutIsTTY: false }, context.run.suppressed);
  // git apply takes a patch's paths from the folder it runs in, and neither it nor patch follows one out of it.
  if (diffedOutside.length > 0) {
    const named = diffedOutside.length === 1 ? `'${quotedPath(diffedOutside[0])}'` : `${diffedOutside.length} files ('${quotedPath(diffedOutside[0])}', …)`;
    stderr += `babelq: the diff names ${named}, outside the current folder: git apply and patch refuse a path that leaves it; run --fix-dry-run from a folder that holds every file (such as the repository's top)\n`;
  }
  // On stderr even for stylish, so json and sarif stay pure documents on stdout.
  const findings = counts.error + counts.warning + counts.information + counts.hint;
  if (format === 'sarif' && fixMode !== 'dry-run') stderr += sarifLeftOutLine(findings);
  if (tooManyWarnings) stderr += `babelq: ${counts.warning} ${counts.warning === 1 ? 'warning exceeds' : 'warnings exceed'} --max-warnings ${maxWarnings}\n`;
  for (const path of refused) stderr += `babelq: ${showOnOneLine(path)} is refused as a whole, as bqschema's registry load refuses it (exit 2)\n`;
  // Another tool may keep a registry.json, so it is no finding; but a misspelt one would turn the registry off unnoticed.
  for (const [path, { instead, root }] of context.registries.passedOver) {
    const shown = namedOnStderr(environment.cwd, path);
    // Say what the search really did next: the search stops at the repository's top (else the
    // GitHub workspace's, else the current folder), so a registry.json above it is never used, and
    // "one above was used" would mislead.
    const registries = context.registries;
    const outside = registries.topName;
    const next = instead !== undefined
      ? `was passed over for ${showOnOneLine(shownPath(instead, environment.cwd, context.registries.top))}, the next one up`
      : `no registry.json above it was used: ${root === registries.top ? `the search stops at ${showOnOneLine(registries.boundWords(root))}` : `for a file outside ${outside} the search stops at that file's own folder`}, so the files below it were linted without a registry`;
    stderr += `babelq: note: ${shown} ${NOT_READ_AS_REGISTRY}, and ${next}; --registry ${shown} checks it as one\n`;
  }
  return { stdout, stderr, exitCode: refused.length > 0 ? 2 : counts.error > 0 || tooManyWarnings ? 1 : 0 };
}

/**
 * A file as a note on stderr names it: from the current folder, on one line with its controls as
 * escapes (a folder named with a line break would otherwise start a line of babelq's own, one with
 * an escape sequence act on the terminal), as the reports name it.
 */
function namedOnStderr(cwd: string, path: string): string {
  return showOnOneLine(namedFromCwd(cwd, path));
}

/**
 * A path relative to the current folder, inside the repository `top` too (`../../registry.json`
 * from a package, as the registry's own messages name its files), or absolute outside both.
 */
function shownPath(path: string, cwd: string, top: string): string {
  const shown = relative(cwd, path);
  return leavesRoot(shown) && !isUnder(top, path) ? path : shown;
}

function readStandardInput(environment: CliEnvironment): Uint8Array {
  if (!environment.readStdin) throw new CliError('standard input cannot be read here');
  const bytes = environment.readStdin(MAX_ENVELOPE_FILE_BYTES);
  // A large fixture piped in lives through collections as one read from disk does.
  allowYoungGenerationFor(bytes.length);
  return bytes;
}

/** The file standard input stands for: its path decides config, registry, ignores and suppressions. */
function stdinFile(name: string | true | undefined, cwd: string): InputFile {
  const path = typeof name === 'string' && name.trim() !== '' ? name : STDIN_NAME;
  return { path, absolute: resolve(cwd, path) };
}
