/**
 * `--format sarif`: SARIF 2.1.0 for code-scanning dashboards (GitHub, Azure DevOps). One run, one
 * rule per catalogue code (so a dashboard can list rules that did not fire) with the catalogue's
 * words as its help, results with 1-based regions in UTF-16 columns (SARIF's default column kind
 * and what core measures), a fingerprint per result that does not change when lines move, and
 * the preferred quick fix as a SARIF fix. Artifact URIs are relative to the repository root,
 * under the base id %SRCROOT%, which run.originalUriBaseIds resolves (see artifactLocation).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { githubSlug } from '../../core/language/catalogue-links';
import { digitGroups } from '../../core/model/count-words';
import { DEFINITIONS } from '../../core/rules/catalogue';
import { codeHelpMarkdownLines, codeHelpText } from '../../core/rules/code-docs';
import type { Severity } from '../../core/rules/diagnostic';
import { singleLine, type FileReport, type FindingDetail, type OutputPosition } from '../diagnostics';
import { pathFromRoot } from './repository-paths';

export interface SarifOptions {
  /** The folder the reports' file paths are relative to. */
  readonly cwd: string;
  /**
   * The repository root (repositoryRoot), which `artifactLocation.uri` is relative to; `cwd` when
   * unset (outside any repository).
   */
  readonly root?: string;
  readonly version: string;
  /** The diagnostic catalogue on the web (docs/diagnostics.md); each rule's helpUri is its code's anchor there. */
  readonly catalogueUrl?: string;
}

type SarifLevel = 'error' | 'warning' | 'note';

/**
 * The base id of every relative artifact URI: SARIF's conventional name for the root of the
 * sources (what CodeQL writes). GitHub code scanning resolves a relative URI against the checkout's
 * root whatever its base id; other consumers read the base in run.originalUriBaseIds.
 */
export const SOURCE_ROOT_ID = '%SRCROOT%';

const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** The partialFingerprints key; its version changes whenever what is hashed changes. */
export const FINGERPRINT_KEY = 'babelqFinding/v1';

/**
 * GitHub code scanning refuses a whole run with more results than this ("rejected due to result
 * limits"), and stores only the 5,000 most severe of a run it takes; a log within it is accepted.
 */
export const SARIF_MAX_RESULTS = 25_000;

/** Maps a severity to a SARIF level; SARIF has no hint, and `note` is the closest that still shows. */
export function sarifLevel(severity: Severity): SarifLevel {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

/**
 * A finding's identity across runs: its code, where it is in the document (the JSON Pointer, not
 * the line) and its message, plus which occurrence of that triple it is in its file.
 */
export function findingFingerprint(code: string, pointer: string, message: string, occurrence: number): string {
  // node:crypto is loaded here, on the first fingerprint, not at every start of babelq.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return `${createHash('sha256').update(`${code}\0${pointer}\0${message}`).digest('hex').slice(0, 32)}:${occurrence}`;
}

/** Renders the reports as one SARIF 2.1.0 log (pretty-printed; SARIF files are often read by people too). */
export function formatSarif(reports: readonly FileReport[], options: SarifOptions): string {
  const ruleIndex = new Map(DEFINITIONS.map((definition, index) => [definition.code, index]));
  const base = options.root ?? options.cwd;
  const results = reports.flatMap((report) => {
    const location = artifactLocation(report.file, options.cwd, base);
    const occurrences = new Map<string, number>();
    return report.diagnostics.map((diagnostic, index) => {
      const detail: FindingDetail | undefined = report.details?.[index];
      const result: Record<string, unknown> = {
        ruleId: diagnostic.code,
        ruleIndex: ruleIndex.get(diagnostic.code),
        level: sarifLevel(diagnostic.severity),
        // On one line, its control and bidirectional characters escaped, as the editor and the other formats show it.
        message: { text: singleLine(diagnostic.message) },
        locations: [{ physicalLocation: { artifactLocation: location, region: region(diagnostic.range) } }],
      };
      // The same cause's other finding on this token, as SARIF's related locations.
      if (diagnostic.related?.length) result.relatedLocations = diagnostic.related.map((related, id) => ({ id, message: { text: singleLine(`${related.code}: ${related.message}`) }, physicalLocation: { artifactLocation: location, region: region(related.range) } }));
      // Every result has a fingerprint, or a dashboard fed through its API (which computes none)
      // opens a new alert for it on every run. A report without details (babelq.json's and the
      // suppressions file's findings, compat's breaking changes) has no pointer: code, message and
      // occurrence, none of which names a line, identify its findings.
      const pointer = detail?.pointer ?? '';
      const key = `${diagnostic.code}\0${pointer}\0${diagnostic.message}`;
      const occurrence = (occurrences.get(key) ?? 0) + 1;
      occurrences.set(key, occurrence);
      result.partialFingerprints = { [FINGERPRINT_KEY]: findingFingerprint(diagnostic.code, pointer, diagnostic.message, occurrence) };
      if (detail?.fix) result.fixes = [sarifFix(location, detail.fix)];
      return result;
    });
  });
  const kept = mostSevere(results, SARIF_MAX_RESULTS);
  const leftOut = results.length - kept.length;
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'babelq',
            version: options.version,
            rules: DEFINITIONS.map((definition) => ({
              id: definition.code,
              shortDescription: { text: definition.summary },
              fullDescription: { text: `${definition.docs.fires} ${definition.docs.instead}` },
              help: { text: codeHelpText(definition.docs), markdown: codeHelpMarkdownLines(definition.docs).join('\n').trimEnd() },
              ...(options.catalogueUrl ? { helpUri: `${options.catalogueUrl}#${githubSlug(definition.code)}` } : {}),
              defaultConfiguration: { level: sarifLevel(definition.severity) },
            })),
          },
        },
        // Where %SRCROOT% is on this machine, as SARIF requires a base to be given: an absolute file
        // URI ending in '/'. It is the one absolute path in the log when every file is in the base.
        originalUriBaseIds: { [SOURCE_ROOT_ID]: { uri: folderUri(base) } },
        columnKind: 'utf16CodeUnits',
        // Said where a dashboard shows the run's own notes (GitHub: the tool status page).
        ...(leftOut > 0 ? { invocations: [{ executionSuccessful: true, toolExecutionNotifications: [{ level: 'warning', message: { text: sarifLeftOutNote(leftOut) } }] }] } : {}),
        results: kept,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/**
 * The line `babelq lint` and `babelq compat` write on stderr when their SARIF log of `findings`
 * results left some out, '' when it left none: the log says it in its tool notifications, which a
 * CI log does not show.
 */
export function sarifLeftOutLine(findings: number): string {
  return findings > SARIF_MAX_RESULTS ? `babelq: ${sarifLeftOutNote(findings - SARIF_MAX_RESULTS)}\n` : '';
}

/** What a log that left results out says of them (in the log, and on stderr: `sarifLeftOutLine`). */
export function sarifLeftOutNote(leftOut: number): string {
  return `${digitGroups(leftOut)} results were left out of this SARIF log, the least severe (and of those, the last): GitHub code scanning refuses a run of more than ${digitGroups(SARIF_MAX_RESULTS)} (and keeps the 5,000 most severe); the other formats list every finding`;
}

/**
 * At most `limit` results, the most severe first to stay (errors, then warnings, then notes), in
 * their order: each keeps the fingerprint it has in the full log, so its alert stays open.
 */
function mostSevere<T extends { readonly level?: unknown }>(results: readonly T[], limit: number): readonly T[] {
  if (results.length <= limit) return results;
  const rank = (result: T) => (result.level === 'error' ? 0 : result.level === 'warning' ? 1 : 2);
  const counts = [0, 0, 0];
  for (const result of results) counts[rank(result)]++;
  // The least severe level that still fits, and how many of its results fit: counted, not sorted.
  let room = limit;
  let cutRank = 0;
  while (cutRank < 2 && counts[cutRank] <= room) room -= counts[cutRank++];
  const taken = [0, 0, 0];
  return results.filter((result) => {
    const level = rank(result);
    if (level < cutRank) return true;
    if (level > cutRank || taken[level] >= room) return false;
    taken[level]++;
    return true;
  });
}

function region(range: { readonly start: OutputPosition; readonly end: OutputPosition }) {
  return { startLine: range.start.line + 1, startColumn: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1 };
}

function sarifFix(location: ArtifactLocation, fix: NonNullable<FindingDetail['fix']>) {
  return {
    description: { text: singleLine(fix.title) },
    artifactChanges: [
      {
        artifactLocation: location,
        replacements: fix.edits.map((edit) => ({ deletedRegion: region(edit.range), insertedContent: { text: edit.newText } })),
      },
    ],
  };
}

interface ArtifactLocation {
  readonly uri: string;
  readonly uriBaseId?: string;
}

/**
 * A file below `base` (the repository root) as a relative URI with forward slashes under
 * %SRCROOT%: code scanning places it in the repository whichever folder babelq ran in, and no
 * absolute path of the machine is written for it. A file outside the base gets a file: URI, which
 * a relative reference could only name by climbing out of the root.
 */
function artifactLocation(file: string, cwd: string, base: string): ArtifactLocation {
  const path = pathFromRoot(file, cwd, base);
  if (path === undefined) return { uri: pathToFileURL(resolve(cwd, file)).href };
  return { uri: path.split('/').map(encodeURIComponent).join('/'), uriBaseId: SOURCE_ROOT_ID };
}

/** A folder as a file: URI ending in '/', so that relative references resolve inside it, not beside it. */
function folderUri(folder: string): string {
  const href = pathToFileURL(folder).href;
  return href.endsWith('/') ? href : `${href}/`;
}
