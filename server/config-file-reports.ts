/**
 * babelq.json's own problems where nobody opened it. A config that cannot be used (not JSON, an
 * unknown key, a directory or a named pipe where the file should be) leaves its fixtures linted on
 * what it could not say, and `babelq lint` reports it as a config-error of the file (exit 1); an
 * editor shows a finding only for a document it knows of, and a directory cannot even be opened.
 * So every babelq.json the workspace's walk and its fixtures' settings read is reported in the
 * workspace's report (`workspace/diagnostic`), as registry.json is (server/registry-file-reports.ts):
 * the findings `babelq lint` gives the file (cli/suppressions.ts, projectFileReports), on the same
 * ranges; for a file that could not be read, empty at 1:1 of babelq.json, where lint puts it.
 *
 * The suppressions file beside it is reported with the findings its own text decides (config-error,
 * unexplained-suppression); stale-suppression needs every fixture it names judged, which the
 * document's own diagnostics do once it is opened.
 *
 * Nothing is read here: ProjectConfigs read each file once, bounded, regular files only, through
 * open editors first, and forgets it when a file event or an edit names it.
 */
import { fileDiagnostics } from '../core/rules/file-diagnostics';
import type { Settings } from '../core/rules/settings/settings';
import type { LoadedConfig } from '../workspace/project-config';
import { isUnder } from '../workspace/path-containment';
import type { ServerContext } from './context';
import { findingSettingsKey, projectFileReport, type ProjectFileReport } from './project-file-report';

/** Each config's reports, made once per config as read and settings (a report runs every poll). */
const reports = new WeakMap<LoadedConfig, { readonly key: string; readonly reports: readonly ProjectFileReport[] }>();

/**
 * The reports of the babelq.json files read so far under `folders` (deepest first; the walk of
 * the folders reads the config of every folder it enters, as lint's walk does) and of their
 * suppressions files, those without a finding included (the caller leaves out a file that never
 * had one). A config whose settings say `diagnostics.scope: openFiles` is left out, as its
 * fixtures are.
 */
export async function configFileReports(context: ServerContext, folders: readonly string[]): Promise<ProjectFileReport[]> {
  const found: ProjectFileReport[] = [];
  for (const loaded of context.configs.loaded()) {
    // The deepest workspace folder holding it, as the settings of a file in it are worked out; a
    // config read for a document outside every folder is not the workspace's.
    const folder = folders.find((candidate) => isUnder(candidate, loaded.path));
    if (folder === undefined) continue;
    // The file's own settings (lint's settingsFor of babelq.json): severities and the switch.
    const settings = await context.settings.forWorkspaceFile(loaded.path, folder);
    if (settings.diagnosticsScope === 'openFiles') continue;
    found.push(...reportsOf(loaded, settings));
  }
  return found;
}

function reportsOf(loaded: LoadedConfig, settings: Settings): readonly ProjectFileReport[] {
  const key = findingSettingsKey(settings);
  const cached = reports.get(loaded);
  if (cached?.key === key) return cached.reports;
  const made: ProjectFileReport[] = [];
  // A folder with a suppressions file and no babelq.json has no config to report.
  if (loaded.present) made.push(projectFileReport(loaded.path, loaded.text, fileDiagnostics('configFile', loaded.config, settings)));
  if (loaded.suppressions) made.push(projectFileReport(loaded.suppressions.path, loaded.suppressions.text, fileDiagnostics('suppressionsFile', { file: loaded.suppressions.file, stale: [] }, settings)));
  reports.set(loaded, { key, reports: made });
  return made;
}

