/**
 * `babelq compat OLD NEW` and `babelq compat --base REF [--registry R]`: the schema changes that
 * `bqschema compat` rejects (core/rules/registry/breaking-change.ts), each on the NEW file's exact
 * key, in the lint formats, with bqschema's exit codes (0 compatible, 1 breaking, 2 usage or I/O).
 * With `--base`, every schema the registry references is compared with its version at that git
 * revision, read from this clone (no checkout, no fetch: cli/base-files.ts), the file the registry
 * at the base names for its URN (a renamed schema file is compared with the one it was): a URN new since the
 * base is no break, one that vanished is, and an entry the registry marks deprecated is left alone
 * (its successor is the new URN). A base file that a partial clone lacks is an I/O problem (exit 2),
 * as is a schema the registry names outside the repository, or outside the folder `babelq lint`
 * keeps that registry's schemas inside (cli/registry.ts's registryLocation: never read, so never
 * called compatible).
 */
import { dirname, resolve } from 'node:path';
import { LineIndex } from '../core/model/positions';
import type { ParsedText } from '../core/parse/document';
import { messageOutsideEnvelope, parseText } from '../core/parse/parser';
import { readRegistryIndex, registryFileName } from '../core/registry/registry-file';
import { isDeprecatedStatus } from '../core/registry/types';
import { fileDiagnostics } from '../core/rules/file-diagnostics';
import { DEFAULT_SETTINGS } from '../core/rules/settings/settings';
import { readBoundedText } from '../workspace/bounded-read';
import { MAX_REGISTRY_FILE_BYTES, MAX_SCHEMA_FILE_BYTES } from '../workspace/registry-loader';
import { isInside } from '../workspace/path-containment';
import { runGitSync } from '../workspace/git-command';
import { parseArgs, refuseStandardInput } from './args';
import { BaseFiles } from './base-files';
import type { CliEnvironment, Command, CommandResult } from './command';
import { countBySeverity, toOutputDiagnostic, type FileReport } from './diagnostics';
import { CliError, describeFsError, notUtf8ArgumentNote, quoted, quotedPath } from './errors';
import { namedFromCwd } from './paths';
import { projectRegistry, readUsableRegistry } from './project-registry';
import { registryBound, registryLocation, type RegistryBound } from './registry';
import { formatOption, renderReports, type Format } from './formats/render';
import { sarifLeftOutLine } from './formats/sarif';
import { GITHUB_WORKSPACE } from '../workspace/github-workspace';

export const COMPAT_USAGE = `Usage: babelq compat OLD NEW [options]
       babelq compat --base REF [--registry registry.json] [options]

Lists the schema changes that bqschema compat rejects (data valid under the old
schema that the new one can fail), each on the new file's key: a changed type,
an enum added or a value removed, minLength or minimum tightened, a newly
required field, additionalProperties closed, a property removed while it is
closed. A breaking change is not made in place: mint a new URN (…:created.v2).

Options:
  --base <ref>          compare every schema the registry references with its
                        version at this git revision, read from this clone (no
                        checkout, nothing fetched)
  --registry <file>     the registry for --base (default: the one babelq.json
                        names, else the nearest registry.json at or above
                        the current folder, up to the repository's top, as
                        babelq lint finds it)
  --format <name>       stylish (default), json, sarif, github, compact
  -h, --help            show this help

Exit status: 0 compatible, 1 breaking, 2 usage or I/O problem. A base file that
this clone does not hold (a partial clone, git clone --filter, keeps it on its
remote) is an I/O problem: fetch it first (git fetch --refetch --no-filter).
So is a schema the registry names outside the git repository: it is not read
(the breaking changes of the schemas compared are still printed).
With --base, a registry that bqschema's registry load refuses as a whole (a
duplicate URN, a field of another type) is 2 too.
`;

const OPTIONS = { base: { value: true }, registry: { value: true }, format: { value: true }, help: { value: false, aliases: ['-h'] } } as const;

/** One git run may not take longer than this (a huge history must not hang CI). */
const GIT_TIMEOUT_MS = 20_000;

export const compatCommand: Command = {
  synopsis: 'compat OLD NEW | --base REF',
  summary: 'the schema changes bqschema compat rejects (breaking changes need a new URN)',
  run: runCompat,
};

export function runCompat(args: readonly string[], environment: CliEnvironment): CommandResult {
  const { positionals, options } = parseArgs(args, OPTIONS);
  if (options.has('help')) return { stdout: COMPAT_USAGE, stderr: '', exitCode: 0 };
  const format = formatOption(options.get('format'));
  const base = options.get('base');
  let reports: FileReport[];
  // What the registry search says on stderr (--base only): a registry.json passed over.
  let notes = '';
  if (base !== undefined) {
    if (positionals.length > 0) throw new CliError('--base compares the registry\'s schemas; give no files beside it', true);
    if (typeof base !== 'string' || base.trim() === '' || base.startsWith('-')) throw new CliError('--base needs a git revision, such as HEAD or origin/main', true);
    const registry = options.get('registry');
    const chosen = projectRegistry(environment.cwd, environment.env[GITHUB_WORKSPACE], registry);
    notes = chosen.notes;
    const compared = compareWithBase(environment.cwd, base, chosen.path, registryBound(environment.cwd, environment.env[GITHUB_WORKSPACE]));
    // What was compared is reported, a break among it too; the schemas that were not make it exit 2.
    if (compared.notCompared.length > 0) {
      const found = compared.reports.some((report) => report.diagnostics.length > 0);
      return { stdout: found ? render(format, compared.reports, environment) : '', stderr: notes + (found ? leftOutOfSarif(format, compared.reports) : '') + compared.notCompared.map((line) => `babelq: ${line}\n`).join(''), exitCode: 2 };
    }
    reports = compared.reports;
  } else {
    if (positionals.length !== 2) throw new CliError('compat takes two schema files: OLD NEW (or --base REF)', true);
    // OLD NEW reads no registry: a --registry given here would be passed over in silence.
    if (options.has('registry')) throw new CliError('--registry goes with --base: OLD NEW compares the two files and reads no registry', true);
    refuseStandardInput('compat', positionals);
    // Resolved, '' is the current folder: "is a directory" would hide that the argument was empty.
    if (positionals.includes('')) throw new CliError('compat: an empty path names no schema file; give OLD NEW as two paths', true);
    const [oldPath, newPath] = positionals as [string, string];
    reports = [compareTexts(readSchema(environment.cwd, oldPath), oldPath, readSchema(environment.cwd, newPath), newPath)];
  }
  const counts = countBySeverity(reports);
  return { stdout: render(format, reports, environment), stderr: notes + leftOutOfSarif(format, reports), exitCode: counts.error > 0 ? 1 : 0 };
}

/** On stderr, as lint says it: how many breaking changes a SARIF log left out (its cap), or ''. */
function leftOutOfSarif(format: Format, reports: readonly FileReport[]): string {
  return format === 'sarif' ? sarifLeftOutLine(reports.reduce((findings, report) => findings + report.diagnostics.length, 0)) : '';
}

/** OLD against NEW, each named as the command line gave it when it holds no schema. */
function compareTexts(oldText: string, oldShownAs: string, newText: string, shownAs: string): FileReport {
  return compareDocs(schemaDoc(oldText, `the old schema '${quotedPath(oldShownAs)}'`), newText, shownAs);
}

/** `newText` against the old schema's parse; the new schema's problems name it. */
function compareDocs(before: ParsedText, newText: string, shownAs: string, urn?: string): FileReport {
  const after = schemaDoc(newText, `the new schema '${quotedPath(shownAs)}'`);
  const lines = new LineIndex(newText);
  return { file: shownAs, diagnostics: fileDiagnostics('schemaChange', { base: before, current: after, ...(urn ? { urn } : {}) }, DEFAULT_SETTINGS).map((d) => toOutputDiagnostic(d, lines)) };
}

/** A schema file's parse, or a CliError saying why it holds no schema to compare. */
function schemaDoc(text: string, named: string): ParsedText {
  const problem = schemaProblem(text);
  if (typeof problem === 'string') throw new CliError(`${named} ${problem}`);
  return problem;
}

/**
 * Why a text holds no schema to compare (not JSON, or JSON that is no object: `false`, `42`,
 * `[]`, as a registry refuses it, workspace/registry-loader.ts), or its parse.
 */
function schemaProblem(text: string): ParsedText | string {
  const doc = parseText(text);
  const problem = doc.syntaxProblems[0];
  if (problem) {
    const { line, character } = new LineIndex(text).positionAt(problem.offset);
    return `is not valid JSON: ${line + 1}:${character + 1}: ${messageOutsideEnvelope(problem.message)}`;
  }
  if (doc.root?.kind !== 'object') return `must hold a JSON Schema object, not ${describeRoot(doc.root?.kind)}`;
  return doc;
}

function describeRoot(kind: string | undefined): string {
  return kind === 'array' ? 'an array' : kind === 'null' ? 'null' : kind === undefined ? 'nothing' : `a ${kind}`;
}

function readSchema(cwd: string, path: string): string {
  try {
    return readBoundedText(resolve(cwd, path), MAX_SCHEMA_FILE_BYTES);
  } catch (error) {
    throw new CliError(`cannot read '${quotedPath(path)}': ${describeFsError(error)}${notUtf8ArgumentNote(path, error)}`);
  }
}

/** Every registered schema against its version at `ref`; the registry's own vanished URNs as breaks on registry.json. */
/** `notCompared`: why each schema left out was not compared (one outside the repository), which makes the run exit 2. */
/** `bound`: the folder `babelq lint` keeps registries inside (`registryBound`), which bounds the schemas as lint bounds them. */
function compareWithBase(cwd: string, ref: string, registryArg: string, bound: RegistryBound): { reports: FileReport[]; notCompared: string[] } {
  const registryPath = resolve(cwd, registryArg);
  // Its schemas resolve and stay where `babelq lint` resolves and keeps them: inside the bound for a
  // registry inside it, inside its own folder (where it really is) for one outside.
  const location = registryLocation(cwd, registryPath, bound);
  const schemaFolder = dirname(location.path);
  let registryText: string;
  try {
    registryText = readBoundedText(registryPath, MAX_REGISTRY_FILE_BYTES);
  } catch (error) {
    throw new CliError(`cannot read registry '${quotedPath(registryArg)}': ${describeFsError(error)}`);
  }
  const top = git(cwd, ['rev-parse', '--show-toplevel']);
  // In words, as the other messages name the current folder: its absolute path would put the
  // runner's checkout path into a CI log, and a folder name may hold a line break.
  if (top === undefined) throw new CliError('the current folder is not inside a git work tree (or git is not installed): --base needs one');
  const repository = top.trim();
  const commit = git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])?.trim();
  if (!commit) throw new CliError(`'${quoted(ref)}' is not a git revision of this repository`);
  const baseFiles = new BaseFiles(repository, ref, commit, { timeoutMs: GIT_TIMEOUT_MS, maxBytes: MAX_SCHEMA_FILE_BYTES * 8 });
  const atBase = (path: string): string | undefined => baseFiles.textOf(path, namedFromCwd(cwd, path));
  const index = readUsableRegistry(registryText, registryArg, registryPath);
  const { entries } = index;
  const baseRegistry = atBase(registryPath);
  const was = baseRegistry === undefined ? undefined : readRegistryIndex(baseRegistry, registryFileName(registryPath));
  // Each URN's schema at the base is the file the registry at the base names for it: a schema
  // file renamed since (the entry following it) is compared with the file it was renamed from.
  const baseSchemaOf = was?.ok ? new Map(was.entries.map((entry) => [entry.urn, resolve(schemaFolder, entry.schemaRef)])) : undefined;
  const reports: FileReport[] = [];
  const notCompared: string[] = [];
  for (const entry of entries) {
    if (isDeprecatedStatus(entry.status)) continue;
    const schemaPath = resolve(schemaFolder, entry.schemaRef);
    // Never read outside the repository (its base version is read from it), nor outside the folder
    // lint keeps the registry's schemas inside (lint reports it as a registry-error): not compared,
    // so not "compatible" either; an I/O problem, as a schema that cannot be read is.
    if (!isInside(repository, schemaPath)) {
      notCompared.push(`the schema of ${quoted(entry.urn)} ('${quotedPath(entry.schemaRef)}') lies outside the git repository (by its path or through a link); it was not read, so it was not compared with '${quoted(ref)}'`);
      continue;
    }
    if (!isInside(location.root, schemaPath, location.realRoot)) {
      notCompared.push(`the schema of ${quoted(entry.urn)} ('${quotedPath(entry.schemaRef)}') resolves outside ${location.words}; it was not read, so it was not compared with '${quoted(ref)}'`);
      continue;
    }
    // Without a registry at the base to tell (none there, or one it cannot read), the file at the same path.
    const basePath = baseSchemaOf ? baseSchemaOf.get(entry.urn) : schemaPath;
    if (basePath === undefined || !isInside(repository, basePath)) continue; // a URN new since the base: no break
    const before = atBase(basePath);
    if (before === undefined) continue; // new since the base: no break
    // At the base it was no schema (not JSON, or no object): nothing there that a change could break.
    const base = schemaProblem(before);
    if (typeof base === 'string') continue;
    const shown = namedFromCwd(cwd, schemaPath);
    const report = compareDocs(base, readSchema(cwd, schemaPath), shown, entry.urn);
    // Compared, with a break or none: a file checked (json lists it, the summaries count it).
    reports.push(report);
  }
  // A URN registered at the base and gone now breaks its producers and consumers.
  if (was !== undefined) {
    const change = { baseName: ref, baseUrns: was.ok ? was.entries.map((entry) => entry.urn) : [], current: index.doc, currentUrns: new Set(entries.map((entry) => entry.urn)) };
    const diagnostics = fileDiagnostics('registryChange', change, DEFAULT_SETTINGS);
    const lines = new LineIndex(registryText);
    reports.push({ file: namedFromCwd(cwd, registryPath), diagnostics: diagnostics.map((diagnostic) => toOutputDiagnostic(diagnostic, lines)) });
  }
  return { reports, notCompared };
}

/** A git command's standard output, or undefined when it fails (not a repository, no such revision). */
function git(cwd: string, args: readonly string[]): string | undefined {
  return runGitSync(cwd, args, { timeoutMs: GIT_TIMEOUT_MS, maxBytes: 64 * 1024 });
}

function render(format: Format, reports: readonly FileReport[], environment: CliEnvironment): string {
  if (format === 'stylish' && reports.every((report) => report.diagnostics.length === 0)) return 'compatible: no breaking changes\n';
  return renderReports(format, reports, environment);
}
