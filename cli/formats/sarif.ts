/**
 * `--format sarif`: SARIF 2.1.0 for code-scanning dashboards (GitHub, Azure DevOps). One run, one
 * rule per catalogue code (so a dashboard can list rules that did not fire), results with 1-based
 * regions in UTF-16 columns, which is SARIF's default column kind and what core measures.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFINITIONS } from '../../core/rules/catalogue';
import type { Severity } from '../../core/rules/diagnostic';
import type { FileReport } from '../diagnostics';

export interface SarifOptions {
  /** File paths are made relative to this directory for `artifactLocation.uri`. */
  readonly cwd: string;
  readonly version: string;
}

type SarifLevel = 'error' | 'warning' | 'note';

const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** Maps a severity to a SARIF level; SARIF has no hint, and `note` is the closest that still shows. */
export function sarifLevel(severity: Severity): SarifLevel {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

/** Renders the reports as one SARIF 2.1.0 log (pretty-printed; SARIF files are often read by people too). */
export function formatSarif(reports: readonly FileReport[], options: SarifOptions): string {
  const ruleIndex = new Map(DEFINITIONS.map((definition, index) => [definition.code, index]));
  const results = reports.flatMap((report) => {
    const uri = artifactUri(report.file, options.cwd);
    return report.diagnostics.map((diagnostic) => ({
      ruleId: diagnostic.code,
      ruleIndex: ruleIndex.get(diagnostic.code),
      level: sarifLevel(diagnostic.severity),
      message: { text: diagnostic.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri },
            region: {
              startLine: diagnostic.range.start.line + 1,
              startColumn: diagnostic.range.start.character + 1,
              endLine: diagnostic.range.end.line + 1,
              endColumn: diagnostic.range.end.character + 1,
            },
          },
        },
      ],
    }));
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
