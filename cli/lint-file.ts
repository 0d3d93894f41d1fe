/**
 * Linting one file for `babelq lint`: read, decode strictly, analyse (core's `analyze`, the call
 * the language server makes) and turn the findings into output diagnostics.
 */
import { basename } from 'node:path';
import { analyze } from '../core/rules/analyze';
import { notUtf8Diagnostics } from '../core/rules/not-utf8';
import { decodeStrictly } from '../workspace/strict-utf8';
import { analyzeStoredText, splitByteOrderMark, withByteOrderMark } from '../core/rules/byte-order-mark';
import { LineIndex } from '../core/model/positions';
import { recycleColumns } from '../core/parse/column-storage';
import { parseText } from '../core/parse/parser';
import { NO_REGISTRY, type RegistryState } from '../core/registry/types';
import { DEFAULT_SETTINGS, type Settings, type SettingsLayer } from '../core/rules/settings/settings';
import { applySuppressions, SUPPRESSIONS_FILE, type Suppression } from '../core/rules/settings/suppressions-file';
import { PROJECT_CONFIG_FILE } from '../core/rules/settings/project-config';
import { pointerAt } from '../core/model/json-pointer';
import { ProjectConfigs } from '../workspace/project-config';
import type { PayloadVerdict } from '../core/registry/validators/verdicts';
import { loadConfig } from './config';
import { toOutputDiagnostic, type FileReport, type FindingDetail, type OutputDiagnostic } from './diagnostics';
import { CliError, describeFsError, quotedPath } from './errors';
import { findingDetails } from './finding-details';
import type { InputFile } from './paths';
import { ENVELOPE_SUFFIX } from '../workspace/fixture-files';
import { CliRegistries, NOTHING_IGNORED_BELOW, walkIgnoresBelow } from './registry';
import type { GitIgnores } from '../workspace/gitignore';
import { MAX_ENVELOPE_FILE_BYTES, readBoundedBytes } from '../workspace/bounded-read';
import { REGISTRY_FILE_NAME } from '../workspace/registry-loader';
import { allowYoungGenerationFor } from './young-generation';

/** What a lint run is set up from: the current directory and the options as given. */
export interface LintSetup {
  readonly cwd: string;
  /** `--config`, as given. */
  readonly config: string | undefined;
  /** `--registry`, as given. */
  readonly registry: string | undefined;
  /** Whether each report also carries its findings' pointers and fixes (for SARIF). */
  readonly details?: boolean;
  /** `--validator`: whose verdict payload-schema follows, over the config files'. */
  readonly validator?: PayloadVerdict;
  /** Today as YYYY-MM-DD, for the suppressions' `until` (default: the clock's date in UTC). */
  readonly today?: string;
  /** GITHUB_WORKSPACE as the run's environment sets it: what bounds the registries without a `.git` (cli/registry.ts). */
  readonly githubWorkspace?: string;
  /** `--no-ignore`: nothing is left out, of the walk nor of the search for the configs naming a registry. */
  readonly noIgnore?: boolean;
}

/** The settings, configs, registries and suppressions of a lint run, made from its setup once. */
export interface LintContext {
  readonly cwd: string;
  readonly configs: ProjectConfigs;
  /** What applies over every babelq.json: `--config`, then `--validator`. */
  readonly top: readonly SettingsLayer[];
  readonly registries: CliRegistries;
  readonly details: boolean;
  readonly today: string;
  /** Filled while files are linted: the suppressions that matched, the files checked, how many findings were hidden. */
  readonly run: { readonly used: Set<Suppression>; readonly checked: Set<string>; suppressed: number };
}

/** `gitignores`: the run's own (its refusals said on stderr); a thread of the run makes its own. */
export function lintContext(setup: LintSetup, gitignores?: GitIgnores): LintContext {
  const top: SettingsLayer[] = [];
  if (setup.config !== undefined) top.push(loadConfig(setup.config, setup.cwd));
  if (setup.validator !== undefined) top.push({ registryValidator: setup.validator });
  return {
    cwd: setup.cwd,
    configs: new ProjectConfigs(),
    top,
    registries: new CliRegistries(setup.cwd, setup.registry, { githubWorkspace: setup.githubWorkspace, ignoresBelow: setup.noIgnore === true ? NOTHING_IGNORED_BELOW : walkIgnoresBelow(gitignores) }),
    details: setup.details === true,
    today: setup.today ?? new Date().toISOString().slice(0, 10),
    run: { used: new Set(), checked: new Set(), suppressed: 0 },
  };
}

/** The settings for one file: defaults, its babelq.json files and their overrides, then the command line. */
export function settingsFor(context: LintContext, absolute: string): Settings {
  return context.configs.settingsFor(absolute, DEFAULT_SETTINGS, context.top);
}

/**
 * What a file named to lint is: an envelope fixture, or a registry (a registry.json, or the file
 * `--registry` or its babelq.json names as the registry) or a schema file of the registry it lies under, or a babelq.json or babelq-suppressions.json, which lint reports as the
 * editor does (their own findings, after the fixtures') instead of as an envelope missing every
 * field. A directory walk finds fixtures only.
 */
export function namedFileKind(file: InputFile, context: LintContext): FileKind {
  const kind = fileKindOf(file, context);
  if (kind === 'project') {
    // Read as the fixtures beside it read it: its findings are reported with the project files, after the fixtures.
    context.configs.suppressionsFor(file.absolute);
    settingsFor(context, file.absolute);
  } else if (kind === 'registry') context.registries.useRegistryFile(file.absolute);
  return kind;
}

export type FileKind = 'envelope' | 'registry' | 'schema' | 'project';

/**
 * What `file` is by its name and the registry above it (a schema file is one that registry names),
 * with nothing of it read and nothing marked for the report: for standard input standing for it.
 */
export function fileKindOf(file: InputFile, context: LintContext): FileKind {
  if (file.absolute.endsWith(ENVELOPE_SUFFIX)) return 'envelope';
  const name = basename(file.absolute);
  if (name === PROJECT_CONFIG_FILE || name === SUPPRESSIONS_FILE) return 'project';
  if (name === REGISTRY_FILE_NAME) return 'registry';
  const settings = settingsFor(context, file.absolute);
  // A registry of another name (`--registry config/sub.json`, or babelq.json's "registry") is
  // known by its path, as the fixtures beside it find it: nothing of it is read to tell.
  if (context.registries.isRegistryNamed(file.absolute, settings.registryPath)) return 'registry';
  const registry = context.registries.stateFor(file.absolute, settings.registryPath);
  if (registry.kind === 'loaded' && registry.registry.entries.some((entry) => entry.schema?.path === file.absolute)) return 'schema';
  // Named by a babelq.json in another folder (a monorepo's package naming the shared registry).
  if (context.registries.isRegistryNamedBelow(file.absolute)) return 'registry';
  return 'envelope';
}

/** Reads and lints one file; an unreadable file is a CliError (exit 2, no partial report). */
export function lintFile(file: InputFile, context: LintContext): FileReport {
  return lintFileBytes(file, readFixture(file), context);
}

/**
 * A fixture's bytes, bounded, regular files only (a named pipe or a device among the paths must not
 * hang the run); an unreadable file is a CliError. The bytes live in a buffer the next read reuses.
 */
export function readFixture(file: InputFile): Uint8Array {
  try {
    const bytes = readBoundedBytes(file.absolute, MAX_ENVELOPE_FILE_BYTES, readInto);
    allowYoungGenerationFor(bytes.length);
    return bytes;
  } catch (error) {
    // A name with bytes that are not UTF-8 (Linux allows them) reaches here with U+FFFD in their
    // place, a name no file has: "no such file" would deny a file the walk has just listed.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && file.absolute.includes('\uFFFD')) {
      throw new CliError(`cannot read '${quotedPath(file.path)}': its name is not valid UTF-8 (the \uFFFD stands for the bytes that are not), and this tool opens files by UTF-8 names; rename it`);
    }
    throw new CliError(`cannot read '${quotedPath(file.path)}': ${describeFsError(error)}`);
  }
}

/** Lints bytes read for `file` (from disk, or standard input for `--stdin-filename`). */
export function lintFileBytes(file: InputFile, bytes: Uint8Array, context: LintContext): FileReport {
  const settings = settingsFor(context, file.absolute);
  const registry = context.registries.stateFor(file.absolute, settings.registryPath);
  const suppressions = context.configs.suppressionsFor(file.absolute);
  context.run.checked.add(file.absolute);
  if (!context.details && suppressions.length === 0) return { file: file.path, diagnostics: lintBytes(bytes, settings, registry) };
  const result = lintBytesWithDetails(bytes, settings, registry, suppressions, context.today);
  for (const entry of result.used) context.run.used.add(entry);
  context.run.suppressed += result.suppressed;
  return { file: file.path, diagnostics: result.diagnostics, ...(context.details ? { details: result.details } : {}) };
}

/** The buffer every file is read into (grown when a file is larger); its bytes are decoded before the next read. */
const readInto = { buffer: Buffer.allocUnsafe(1 << 16) };

/**
 * Lints one file's bytes. Decoding is strict UTF-8; a byte-order mark is split off the text and
 * reported as json-syntax at 1:1, as the editor reports the file (core/rules/byte-order-mark.ts),
 * the rest linted as the editor shows it; bytes that are not UTF-8 give one json-syntax diagnostic
 * at the start instead of guesses about what the text was meant to be.
 */
export function lintBytes(bytes: Uint8Array, settings: Settings, registry: RegistryState = NO_REGISTRY): OutputDiagnostic[] {
  const decoded = decodeStrictly(bytes);
  if (!decoded.ok) return invalidUtf8(decoded.message, decoded.before, settings);
  const { text, diagnostics } = analyzeStoredText(decoded.text, settings, registry);
  // Lines are counted only for a file with something to report (most files in CI have nothing).
  if (diagnostics.length === 0) return [];
  const lineIndex = new LineIndex(text);
  return diagnostics.map((diagnostic) => toOutputDiagnostic(diagnostic, lineIndex));
}

/**
 * lintBytes, plus each finding's pointer and preferred fix, with the file's suppressions applied
 * (they match by pointer): a parse that is kept, paid only by SARIF runs and suppressed files.
 */
export function lintBytesWithDetails(
  bytes: Uint8Array,
  settings: Settings,
  registry: RegistryState,
  suppressions: readonly Suppression[] = [],
  today = '',
): Pick<FileReport, 'diagnostics'> & { details: FindingDetail[]; used: ReadonlySet<Suppression>; suppressed: number } {
  const decoded = decodeStrictly(bytes);
  if (!decoded.ok) {
    const diagnostics = invalidUtf8(decoded.message, decoded.before, settings);
    return { diagnostics, details: diagnostics.map(() => ({ pointer: '' })), used: new Set(), suppressed: 0 };
  }
  const { text, byteOrderMark } = splitByteOrderMark(decoded.text);
  const doc = parseText(text);
  const outcome = applySuppressions(withByteOrderMark(byteOrderMark, analyze(doc, settings, registry), settings), (diagnostic) => pointerAt(doc, diagnostic.offset), suppressions, today);
  const lineIndex = new LineIndex(text);
  const details = findingDetails(doc, outcome.kept, registry, lineIndex);
  const result = {
    diagnostics: outcome.kept.map((diagnostic) => toOutputDiagnostic(diagnostic, lineIndex)),
    details,
    used: outcome.used,
    suppressed: outcome.suppressed,
  };
  recycleColumns(doc.columns);
  return result;
}

/** `before`: the text before the first invalid byte, whose end is where the finding goes. */
function invalidUtf8(message: string, before: string, settings: Settings): OutputDiagnostic[] {
  const lineIndex = new LineIndex(before);
  return notUtf8Diagnostics(message, settings, before).map((kept) => toOutputDiagnostic(kept, lineIndex));
}
