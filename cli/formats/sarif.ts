/**
 * `--format sarif`: SARIF 2.1.0 for code-scanning dashboards (GitHub, Azure DevOps). One run, one
 * rule per catalogue code (so a dashboard can list rules that did not fire) with the catalogue's
 * words as its help, results with 1-based regions in UTF-16 columns (SARIF's default column kind
 * and what core measures), a fingerprint per result that does not change when lines move, and
 * the preferred quick fix as a SARIF fix.
 */
import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { githubSlug } from '../../core/language/catalogue-links';
import { DEFINITIONS } from '../../core/rules/catalogue';
import { codeHelpMarkdownLines, codeHelpText } from '../../core/rules/code-docs';
import type { Severity } from '../../core/rules/diagnostic';
import type { FileReport, FindingDetail, OutputPosition } from '../diagnostics';

export interface SarifOptions {
  /** File paths are made relative to this directory for `artifactLocation.uri`. */
  readonly cwd: string;
  readonly version: string;
  /** The diagnostic catalogue on the web (docs/diagnostics.md); each rule's helpUri is its code's anchor there. */
  readonly catalogueUrl?: string;
}

type SarifLevel = 'error' | 'warning' | 'note';

const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** The partialFingerprints key; its version changes whenever what is hashed changes. */
export const FINGERPRINT_KEY = 'babelqFinding/v1';

/** Maps a severity to a SARIF level; SARIF has no hint, and `note` is the closest that still shows. */
export function sarifLevel(severity: Severity): SarifLevel {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

/**
 * A finding's identity across runs: its code, where it is in the document (the JSON Pointer, not
 * the line) and its message, plus which occurrence of that triple it is in its file.
 */
export function findingFingerprint(code: string, pointer: string, message: string, occurrence: number): string {
  return `${createHash('sha256').update(`${code}\0${pointer}\0${message}`).digest('hex').slice(0, 32)}:${occurrence}`;
}

/** Renders the reports as one SARIF 2.1.0 log (pretty-printed; SARIF files are often read by people too). */
export function formatSarif(reports: readonly FileReport[], options: SarifOptions): string {
  const ruleIndex = new Map(DEFINITIONS.map((definition, index) => [definition.code, index]));
  const results = reports.flatMap((report) => {
    const uri = artifactUri(report.file, options.cwd);
    const occurrences = new Map<string, number>();
    return report.diagnostics.map((diagnostic, index) => {
      const detail: FindingDetail | undefined = report.details?.[index];
      const result: Record<string, unknown> = {
        ruleId: diagnostic.code,
        ruleIndex: ruleIndex.get(diagnostic.code),
        level: sarifLevel(diagnostic.severity),
        message: { text: diagnostic.message },
        locations: [{ physicalLocation: { artifactLocation: { uri }, region: region(diagnostic.range) } }],
      };
      // The same cause's other finding on this token, as SARIF's related locations.
      if (diagnostic.related?.length) result.relatedLocations = diagnostic.related.map((related, id) => ({ id, message: { text: `${related.code}: ${related.message}` }, physicalLocation: { artifactLocation: { uri }, region: region(related.range) } }));
      if (detail) {
        const key = `${diagnostic.code}\0${detail.pointer}\0${diagnostic.message}`;
        const occurrence = (occurrences.get(key) ?? 0) + 1;
        occurrences.set(key, occurrence);
        result.partialFingerprints = { [FINGERPRINT_KEY]: findingFingerprint(diagnostic.code, detail.pointer, diagnostic.message, occurrence) };
        if (detail.fix) result.fixes = [sarifFix(uri, detail.fix)];
      }
      return result;
    });
  });
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
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function region(range: { readonly start: OutputPosition; readonly end: OutputPosition }) {
  return { startLine: range.start.line + 1, startColumn: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1 };
}

function sarifFix(uri: string, fix: NonNullable<FindingDetail['fix']>) {
  return {
    description: { text: fix.title },
    artifactChanges: [
      {
        artifactLocation: { uri },
        replacements: fix.edits.map((edit) => ({ deletedRegion: region(edit.range), insertedContent: { text: edit.newText } })),
      },
    ],
  };
}

/**
 * A relative URI with forward slashes for files below `cwd` (dashboards resolve it against the
 * checkout); a file: URI for anything outside, which a relative reference could not name.
 */
function artifactUri(file: string, cwd: string): string {
  const absolute = resolve(cwd, file);
  const path = relative(cwd, absolute);
  if (path === '' || path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path)) return pathToFileURL(absolute).href;
  return path.split(sep).map(encodeURIComponent).join('/');
}
