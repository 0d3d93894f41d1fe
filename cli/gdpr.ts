/**
 * `babelq gdpr [--registry R] [--require]`: the personal data of a registry, per URN: the fields
 * its schema marks `x-gdpr-sensitive` (with their category), and the fields named like personal
 * data that are not marked (`pii-unmarked`, where `bqschema gdpr --require` fails). With
 * `--require` an unmarked field fails the run (exit 1), as bqschema's does; 2 is a usage or I/O problem.
 * Each schema file is read and worked out once, however many entries name it, and the files read
 * hold at most MAX_SCHEMA_BYTES_TOGETHER together, as for every registry read: a generated
 * registry.json of 700,000 entries naming one 5 MB schema would otherwise read 3.5 TB.
 */
import { dirname, resolve } from 'node:path';
import { LineIndex } from '../core/model/positions';
import { asObject } from '../core/model/tree';
import type { ParsedText } from '../core/parse/document';
import { messageOutsideEnvelope, parseText } from '../core/parse/parser';
import { piiUnmarkedFindings, sensitiveFields } from '../core/rules/registry/pii-unmarked';
import { megabytes, readBoundedText } from '../workspace/bounded-read';
import { MAX_REGISTRY_FILE_BYTES, MAX_SCHEMA_BYTES_TOGETHER, readSchemaWithin } from '../workspace/registry-loader';
import { isInside } from '../workspace/path-containment';
import { parseArgs } from './args';
import type { CliEnvironment, Command, CommandResult } from './command';
import { printable } from './diagnostics';
import { projectRegistry, readUsableRegistry } from './project-registry';
import { registryBound, registryLocation } from './registry';
import { CliError, describeFsError, quoted, quotedPath } from './errors';
import { namedFromCwd } from './paths';
import { GITHUB_WORKSPACE } from '../workspace/github-workspace';

export const GDPR_USAGE = `Usage: babelq gdpr [--registry registry.json] [--require] [--format stylish|json]

Lists, per registered URN, the data fields its schema marks x-gdpr-sensitive
(BabelQueue's SDKs mask them), and the fields named like personal data (email,
phone, iban, address, … anywhere in the name: bqschema gdpr's pattern) that are
not marked. With --require, an unmarked one fails the run, as
bqschema gdpr --require does.

Options:
  --registry <file>     the registry to read (default: the one babelq.json
                        names, else the nearest registry.json at or above
                        the current folder, up to the repository's top, as
                        babelq lint finds it)
  --require             fail (exit 1) when a field named like personal data is
                        not marked x-gdpr-sensitive
  --format <name>       stylish (default) or json
  -h, --help            show this help

Exit status: 0 (with --require: every such field marked), 1 unmarked fields
with --require, 2 usage or I/O problem, or a registry that bqschema's registry
load refuses as a whole (not JSON, not its shape, a field of another type, an
empty urn or schema, a duplicate URN).
`;

const OPTIONS = { registry: { value: true }, require: { value: false }, format: { value: true }, help: { value: false, aliases: ['-h'] } } as const;

export const gdprCommand: Command = {
  synopsis: 'gdpr [--require]',
  summary: 'the personal-data fields of each URN, and those not marked x-gdpr-sensitive',
  run: runGdpr,
};

interface UrnReport {
  readonly urn: string;
  readonly schema: string;
  readonly sensitive: readonly { readonly path: string; readonly category?: string }[];
  readonly unmarked: readonly { readonly path: string; readonly line: number; readonly character: number; readonly message: string }[];
}

export function runGdpr(args: readonly string[], environment: CliEnvironment): CommandResult {
  const { positionals, options } = parseArgs(args, OPTIONS);
  if (options.has('help')) return { stdout: GDPR_USAGE, stderr: '', exitCode: 0 };
  if (positionals.length > 0) throw new CliError('gdpr reads the registry; give no files (--registry names another one)', true);
  const format = options.get('format') ?? 'stylish';
  if (format !== 'stylish' && format !== 'json') throw new CliError(`--format must be stylish or json, not '${quoted(format)}'`, true);
  const registryArg = options.get('registry');
  const chosen = projectRegistry(environment.cwd, environment.env[GITHUB_WORKSPACE], registryArg);
  const registryPath = resolve(environment.cwd, chosen.path);
  let text: string;
  try {
    text = readBoundedText(registryPath, MAX_REGISTRY_FILE_BYTES);
  } catch (error) {
    throw new CliError(`cannot read registry '${quotedPath(namedFromCwd(environment.cwd, registryPath))}': ${describeFsError(error)}`);
  }
  const index = readUsableRegistry(text, namedFromCwd(environment.cwd, registryPath), registryPath);
  // Its schemas stay inside the folder `babelq lint` holds them to: the repository (or the GitHub
  // workspace, or the current folder) for a registry inside it, its own folder for one outside.
  const location = registryLocation(environment.cwd, registryPath, registryBound(environment.cwd, environment.env[GITHUB_WORKSPACE]));
  const base = dirname(location.path);
  const reports: UrnReport[] = [];
  const worked = new Map<string, Pick<UrnReport, 'sensitive' | 'unmarked'>>();
  const schemaBytes = { left: MAX_SCHEMA_BYTES_TOGETHER };
  for (const entry of index.entries) {
    const schemaPath = resolve(base, entry.schemaRef);
    // Never read outside that folder (by its path or through a link), as lint reads none there.
    if (!isInside(location.root, schemaPath, location.realRoot)) throw new CliError(`the schema of ${quoted(entry.urn)} ('${quotedPath(entry.schemaRef)}') resolves outside ${location.words}; it was not read`);
    let fields = worked.get(schemaPath);
    if (!fields) {
      fields = schemaFields(readSchema(entry, schemaPath, schemaBytes));
      worked.set(schemaPath, fields);
    }
    reports.push({ urn: entry.urn, schema: namedFromCwd(environment.cwd, schemaPath), ...fields });
  }
  const unmarked = reports.reduce((sum, report) => sum + report.unmarked.length, 0);
  const failed = options.has('require') && unmarked > 0;
  const stdout = format === 'json' ? `${JSON.stringify(reports, null, 2)}\n` : stylish(reports);
  const stderr = chosen.notes + (failed ? `babelq: ${unmarked} field${unmarked === 1 ? '' : 's'} named like personal data ${unmarked === 1 ? 'is' : 'are'} not marked x-gdpr-sensitive\n` : '');
  return { stdout, stderr, exitCode: failed ? 1 : 0 };
}

/** A schema file's text and parse, read within the bounds every registry read keeps (workspace/registry-loader.ts). */
function readSchema(entry: { readonly urn: string; readonly schemaRef: string }, schemaPath: string, together: { left: number }): { readonly text: string; readonly doc: ParsedText } {
  const within = readSchemaWithin(schemaPath, readBoundedText, together);
  if ('overTogether' in within) {
    throw new CliError(`the schema of ${quoted(entry.urn)} ('${quotedPath(entry.schemaRef)}') would bring the registry's schema files above ${megabytes(MAX_SCHEMA_BYTES_TOGETHER)} together, more than this tool reads for one registry; it was not read`);
  }
  if ('unread' in within) throw new CliError(`cannot read the schema of ${quoted(entry.urn)} ('${quotedPath(entry.schemaRef)}'): ${describeFsError(within.unread)}`);
  const { text } = within;
  const doc = parseText(text);
  const problem = doc.syntaxProblems[0];
  if (problem) {
    const { line, character } = new LineIndex(text).positionAt(problem.offset);
    throw new CliError(`the schema of ${quoted(entry.urn)} ('${quotedPath(entry.schemaRef)}') is not valid JSON: ${line + 1}:${character + 1}: ${messageOutsideEnvelope(problem.message)}`);
  }
  return { text, doc };
}

/** What the report says of a schema: the fields it marks sensitive, and those named like personal data it does not mark. */
function schemaFields({ text, doc }: { readonly text: string; readonly doc: ParsedText }): Pick<UrnReport, 'sensitive' | 'unmarked'> {
  const schema = asObject(doc.root);
  const lines = new LineIndex(text);
  return {
    sensitive: sensitiveFields(schema).map((field) => (field.category === undefined ? { path: field.path } : { path: field.path, category: field.category })),
    unmarked: piiUnmarkedFindings(schema).map((finding) => ({ path: finding.path, ...lines.positionAt(finding.offset), message: finding.message })),
  };
}

function stylish(reports: readonly UrnReport[]): string {
  // A registry with no entries has nothing to list: said so, not printed as an empty line.
  if (reports.length === 0) return 'no URNs registered: no personal data to list\n';
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(`${printable(report.urn)}  ${printable(report.schema)}`);
    for (const field of report.sensitive) lines.push(`  sensitive  ${printable(field.path)}${field.category ? ` (${printable(field.category)})` : ''}`);
    for (const field of report.unmarked) lines.push(`  UNMARKED   ${printable(field.path)}  ${printable(report.schema)}:${field.line + 1}:${field.character + 1}`);
    if (report.sensitive.length === 0 && report.unmarked.length === 0) lines.push('  no personal data');
  }
  return `${lines.join('\n')}\n`;
}
