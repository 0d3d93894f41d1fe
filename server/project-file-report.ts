/**
 * A project file reported with its own findings where nobody opened it (registry.json,
 * babelq.json, the suppressions file): its findings on the lines of the text they were found in,
 * made once per file state and settings (a report runs every poll).
 */
import type { Diagnostic } from 'vscode-languageserver/node';
import { LineIndex } from '../core/model/positions';
import type { CoreDiagnostic } from '../core/rules/diagnostic';
import type { Settings } from '../core/rules/settings/settings';
import { toLspDiagnostic } from './convert';
import { toUri } from './registry';

export interface ProjectFileReport {
  readonly path: string;
  readonly uri: string;
  readonly items: Diagnostic[];
}

/** What of the settings changes a project file's findings: the on/off switch and the severities. */
export function findingSettingsKey(settings: Settings): string {
  return `${settings.validationEnabled};${[...settings.severityOverrides].join(',')}`;
}

/**
 * The report of the file at `path` whose findings are `diagnostics`, offsets into `text` as it was
 * read (nothing is read again here); lines are counted only for a file with something to report.
 */
export function projectFileReport(path: string, text: string, diagnostics: readonly CoreDiagnostic[]): ProjectFileReport {
  const lines = new LineIndex(diagnostics.length > 0 ? text : '');
  return { path, uri: toUri(path), items: diagnostics.map((diagnostic) => toLspDiagnostic(diagnostic, lines)) };
}
