/**
 * `--format stylish` (the default): for people reading a terminal. A header per file with problems,
 * one aligned row per diagnostic with a 1-based `line:col` (what editors show in their status
 * bar), and a summary line. Files without problems get no header; a clean run prints one line
 * saying how many files were checked, so a person can tell it ran.
 */
import { plural } from '../../core/model/count-words';
import type { Severity } from '../../core/rules/diagnostic';
import { displayWidth, padToWidth } from './display-width';
import { countBySeverity, printable, singleLine, withRelated, type FileReport, type OutputDiagnostic } from '../diagnostics';

export interface StylishOptions {
  readonly color: boolean;
  /** Findings hidden by babelq-suppressions.json, counted in the summary so they stay visible as a number. */
  readonly suppressed?: number;
}

const SEVERITY_LABEL: Record<Severity, string> = { error: 'error', warning: 'warning', information: 'info', hint: 'hint' };
const SEVERITY_COLOR: Record<Severity, number> = { error: 31, warning: 33, information: 36, hint: 90 };

/** The FORCE_COLOR values that ask for colour, as Node's own terminal output reads them ('', '1', 'true': 16 colours; '2', '3': more). */
const FORCE_COLOR_ON = new Set(['', '1', '2', '3', 'true']);

/**
 * Decides on colour as Node does. FORCE_COLOR, when set, decides alone: '', '1', '2', '3' or
 * 'true' is colour even in a pipe (a CI log that renders it), anything else ('0', 'false') none.
 * Otherwise colour only for a terminal, never when NO_COLOR is set to a non-empty value
 * (no-color.org), and not for TERM=dumb (Emacs' compile and shell buffers), which shows the escape
 * codes as text.
 */
export function shouldUseColor(stdoutIsTTY: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return FORCE_COLOR_ON.has(force);
  return stdoutIsTTY && !env.NO_COLOR && env.TERM !== 'dumb';
}

/** Renders the reports for a terminal. */
export function formatStylish(reports: readonly FileReport[], options: StylishOptions): string {
  const paint = (code: number, text: string): string => (options.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const blocks: string[] = [];
  for (const report of reports) {
    if (report.diagnostics.length === 0) continue;
    const rows = report.diagnostics.map((diagnostic) => ({ diagnostic, location: location(diagnostic), message: singleLine(withRelated(diagnostic)) }));
    // Pad the plain text first and colour afterwards: escape codes have no width on screen. A
    // message may quote a key in any script: it is padded by the columns it takes (./display-width.ts).
    // A loop, not Math.max(...rows): a file with 130,000 findings would overflow the call stack.
    const widest = (width: (row: (typeof rows)[number]) => number) => rows.reduce((most, row) => Math.max(most, width(row)), 0);
    const locationWidth = widest((row) => row.location.length);
    const severityWidth = widest((row) => SEVERITY_LABEL[row.diagnostic.severity].length);
    const messageWidth = widest((row) => displayWidth(row.message));
    const lines = [paint(4, printable(report.file))];
    for (const { diagnostic, location, message } of rows) {
      const severity = diagnostic.severity;
      lines.push(
        `  ${paint(2, location.padEnd(locationWidth))}  ${paint(SEVERITY_COLOR[severity], SEVERITY_LABEL[severity].padEnd(severityWidth))}  ${padToWidth(message, messageWidth)}  ${paint(2, diagnostic.code)}`,
      );
    }
    blocks.push(lines.join('\n'));
  }
  const checked = plural(reports.length, 'file');
  const suppressed = options.suppressed ? `, ${options.suppressed} suppressed` : '';
  if (blocks.length === 0) return `${paint(32, '\u2714')} ${checked} checked, no problems${suppressed}\n`;
  const counts = countBySeverity(reports);
  const total = counts.error + counts.warning + counts.information + counts.hint;
  const summary =
    `\u2716 ${plural(total, 'problem')} (${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ` +
    `${plural(counts.information, 'info')}, ${plural(counts.hint, 'hint')}) in ${blocks.length} of ${checked}${suppressed}`;
  const summaryColor = counts.error > 0 ? 31 : counts.warning > 0 ? 33 : 1;
  return `${blocks.join('\n\n')}\n\n${paint(1, paint(summaryColor, summary))}\n`;
}

function location(diagnostic: OutputDiagnostic): string {
  const { line, character } = diagnostic.range.start;
  return `${line + 1}:${character + 1}`;
}
