/**
 * `--format github`: GitHub Actions workflow commands, one `::error`, `::warning` or `::notice`
 * line per diagnostic, which the runner turns into annotations on the pull request's files.
 * Lines and columns are 1-based. Data and property values are escaped as the runner unescapes
 * them (`%`, CR and LF everywhere; `:` and `,` also in properties), so no file name or message
 * can end a command early or start another one. `file=` is the file's real name, for GitHub to
 * place the annotation, but for characters that would act on a terminal (annotationFile). A
 * message is on one line, as in every text format (core's showOnOneLine): a line break quoted
 * from a fixture's key is written `\n`.
 */
import { sep } from 'node:path';
import { plural } from '../../core/model/count-words';
import type { Severity } from '../../core/rules/diagnostic';
import { countBySeverity, printable, singleLine, withRelated, type FileReport } from '../diagnostics';
import { pathFromRoot } from './repository-paths';

type Command = 'error' | 'warning' | 'notice';

/** GitHub has three annotation levels; information and hint are notices. */
const COMMANDS: Record<Severity, Command> = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' };

/** Escapes a command's message (its data), as the runner expects. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value: the data escapes plus `:` and `,`, which separate properties. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * A file's name for `file=`: GitHub places the annotation only where the name is the file's own, so
 * what the runner gives back after unescaping must be the real name. CR and LF reach it that way
 * (escapeProperty writes them %0D and %0A, which the runner turns back), and a tab, which acts on
 * no terminal beyond moving to the next tab stop, is written as it is. The rest of what printable
 * makes visible stays visible, ESC first: the command line is printed where the log is read (a
 * terminal, the runner's log with ::echo::on or step debugging), and the runner unescapes nothing
 * else, so no escape can carry an ESC, a C1 control, a backspace or a bidirectional override to it
 * without also handing the terminal a sequence to act on or a name shown as another. Such a name
 * is no file GitHub can place: it lists the annotation with the run instead, its finding still said.
 */
function annotationFile(name: string): string {
  return name
    .split('\t')
    .map((part) => printable(part, true))
    .join('\t');
}

/**
 * Where the reports' paths are read from: `cwd`, the folder they are relative to, and `root`, the
 * repository root (repositoryRoot), from which GitHub resolves an annotation's `file=`.
 */
export interface GithubPaths {
  readonly cwd: string;
  readonly root?: string;
  /** The platform's path separator (path.sep when unset): only where it is `\\` is a backslash one. */
  readonly sep?: string;
}

/**
 * Renders the reports as workflow commands, then one plain summary line for the log (other control
 * characters made visible: the log is a terminal). With `paths.root`, a file below the root is named
 * from it, so a run from a subfolder annotates the right file; a file outside it keeps its path as
 * given, which no annotation can place anyway.
 */
export function formatGithub(reports: readonly FileReport[], paths?: GithubPaths): string {
  const lines: string[] = [];
  for (const report of reports) {
    const shown = (paths?.root !== undefined && pathFromRoot(report.file, paths.cwd, paths.root)) || report.file;
    // GitHub names files with '/'; on POSIX a backslash is a character of the name, kept as it is.
    const file = annotationFile((paths?.sep ?? sep) === '\\' ? shown.replace(/\\/g, '/') : shown);
    for (const diagnostic of report.diagnostics) {
      const { start, end } = diagnostic.range;
      const properties = [
        ['file', file],
        ['line', String(start.line + 1)],
        ['col', String(start.character + 1)],
        ['endLine', String(end.line + 1)],
        ['endColumn', String(end.character + 1)],
        ['title', `babelq ${diagnostic.code}`],
      ]
        .map(([name, value]) => `${name}=${escapeProperty(value)}`)
        .join(',');
      // The message on one line, as stylish, compact and the editor show it: a line break in it comes
      // from a quoted key or value, and the annotation, which GitHub shows over two lines at %0A,
      // would name a key the file does not have. escapeData stays for `%`.
      lines.push(`::${COMMANDS[diagnostic.severity]} ${properties}::${escapeData(singleLine(withRelated(diagnostic)))}`);
    }
  }
  const counts = countBySeverity(reports);
  lines.push(`babelq: ${plural(reports.length, 'file')} checked: ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${plural(counts.information + counts.hint, 'notice')}`);
  return `${lines.join('\n')}\n`;
}
