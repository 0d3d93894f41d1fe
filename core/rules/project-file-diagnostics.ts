/**
 * The findings shown in the project's own files: babelq.json's problems as config-error, and in
 * babelq-suppressions.json its problems (config-error), entries without a reason
 * (unexplained-suppression) and entries that matched nothing (stale-suppression). The user's
 * severity settings apply to them as to every other code.
 */
import { applySettings } from './analyze';
import { definitionOf } from './catalogue';
import type { Code } from './code-names';
import { compareDiagnostics, type CoreDiagnostic } from './diagnostic';
import type { ConfigProblem, ProjectConfig } from './settings/project-config';
import type { Settings } from './settings/settings';
import type { Suppression, SuppressionsFile } from './settings/suppressions-file';

/** config-error for each problem of a babelq.json. */
export function configFileDiagnostics(config: ProjectConfig, settings: Settings): CoreDiagnostic[] {
  return applySettings(config.problems.map(configError), settings).sort(compareDiagnostics);
}

/**
 * The findings of a suppressions file. `stale` lists the entries known to match nothing (the
 * caller knows which files it checked; an entry whose file was not checked is not judged).
 */
export function suppressionFileDiagnostics(file: SuppressionsFile, stale: readonly Suppression[], settings: Settings): CoreDiagnostic[] {
  const diagnostics: CoreDiagnostic[] = file.problems.map(configError);
  for (const entry of file.entries) {
    if (entry.reason === undefined) diagnostics.push(finding('unexplained-suppression', entry, `This suppression of ${entry.code} at "${entry.pointer}" in ${entry.file} has no reason: say why the finding is accepted (and until when, with "until").`));
  }
  for (const entry of stale) {
    diagnostics.push(finding('stale-suppression', entry, `This suppression matches no finding: ${entry.file} has no ${entry.code} at "${entry.pointer}" any more. Remove it (babelq lint --prune-suppressions).`));
  }
  return applySettings(diagnostics, settings).sort(compareDiagnostics);
}

function configError(problem: ConfigProblem): CoreDiagnostic {
  return { code: 'config-error', severity: definitionOf('config-error').severity, message: problem.message, offset: problem.offset, end: problem.end };
}

function finding(code: Code, entry: Suppression, message: string): CoreDiagnostic {
  return { code, severity: definitionOf(code).severity, message, offset: entry.offset, end: entry.end };
}
