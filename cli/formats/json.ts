/**
 * `--format json`: the documented machine-readable output, one array with an entry per file in
 * lint order. Compact, one line: CI pipes it into tools, people use `--format stylish`.
 */
import type { FileReport } from '../diagnostics';

/** Serialises the reports as `[{"file", "diagnostics"}]`, exactly the shape of docs/diagnostics.md. */
export function formatJson(reports: readonly FileReport[]): string {
  return `${JSON.stringify(reports.map((report) => ({ file: report.file, diagnostics: report.diagnostics })))}\n`;
}
