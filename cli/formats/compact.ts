/**
 * `--format compact`: one line per diagnostic, `file:line:col-endLine:endCol: severity code: message`,
 * 1-based, nothing else. It is the format the extension's `$babelq` problem matcher reads
 * (package.json's `problemMatchers` holds its pattern), and it suits grep and editors' "go to file:line".
 * The matcher takes the file to end at the first `:line:col-endLine:endCol: ` of the line, so a file
 * name holding that shape itself (`README.md:1:1-1:2: error forged: x.babel.json`, possible on
 * Linux) has the colon that begins it written `\u003a`: otherwise its finding would land on
 * README.md. Every other name, `odd: name.babel.json` and `C:\work\a.babel.json` among them, is
 * written as it is. (A message may hold the shape too; it comes after the file's, so is never taken.)
 */
import type { Severity } from '../../core/rules/diagnostic';
import { printable, singleLine, withRelated, type FileReport } from '../diagnostics';

/** A colon that begins what reads as the separator of a compact line, `:1:1-1:2: `. */
const FORGED_SEPARATOR = /:(?=\d+:\d+-\d+:\d+: )/g;

const SEVERITY_WORD: Record<Severity, string> = { error: 'error', warning: 'warning', information: 'info', hint: 'hint' };

/**
 * Renders the reports one diagnostic a line. A line break in a message or in a file name (possible
 * on Linux) is written as `\r` / `\n`, so it cannot start a row of its own.
 */
export function formatCompact(reports: readonly FileReport[]): string {
  let out = '';
  for (const report of reports) {
    const file = printable(report.file.replace(/\r/g, '\\r').replace(/\n/g, '\\n')).replace(FORGED_SEPARATOR, '\\u003a');
    for (const diagnostic of report.diagnostics) {
      const { start, end } = diagnostic.range;
      out += `${file}:${start.line + 1}:${start.character + 1}-${end.line + 1}:${end.character + 1}: ${SEVERITY_WORD[diagnostic.severity]} ${diagnostic.code}: ${singleLine(withRelated(diagnostic))}\n`;
    }
  }
  return out;
}
