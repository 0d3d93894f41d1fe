/**
 * How `peek` and `dlq` judge a message read from a queue: as `babelq lint` judges a fixture at the
 * top of the current folder, with the babelq.json and registry found there. A message has no file;
 * the editor judges one it opens at the top of its workspace folder, and the current folder is the
 * CLI's. So a list's verdict, the findings under each body and a redrive's question about errors
 * agree: a `data` that fails its URN's schema is an error in all three.
 */
import { join } from 'node:path';
import type { RegistryState } from '../core/registry/types';
import { DEFAULT_SETTINGS, type Settings } from '../core/rules/settings/settings';
import { STAND_IN_FIXTURE_NAME } from '../workspace/fixture-files';
import { ProjectConfigs } from '../workspace/project-config';
import { NOT_READ_AS_REGISTRY } from '../workspace/registry-loader';
import { namedFromCwd } from './paths';
import { CliRegistries } from './registry';

export interface MessageJudgement {
  readonly settings: Settings;
  readonly registry: RegistryState;
  /**
   * What lint would also say of the registry.json found there, for stderr (empty when nothing):
   * one passed over (no "schemas" key), so the messages were judged without a registry, or one
   * bqschema refuses as a whole. Without it, a registry.json lint does not read as one (a misspelt
   * key) would turn the schema checks, and a redrive's question about them, off unnoticed.
   */
  readonly notes: string;
}

/** The settings and registry a message is judged by when babelq runs in `cwd` (`githubWorkspace`: GITHUB_WORKSPACE, cli/registry.ts). */
export function messageJudgement(cwd: string, githubWorkspace: string | undefined): MessageJudgement {
  // The name only places the message; no file of that name is read.
  const path = join(cwd, STAND_IN_FIXTURE_NAME);
  const configs = new ProjectConfigs();
  const settings = configs.settingsFor(path, DEFAULT_SETTINGS, []);
  const registries = new CliRegistries(cwd, undefined, { githubWorkspace });
  const registry = registries.stateFor(path, settings.registryPath);
  const shown = (file: string) => namedFromCwd(cwd, file);
  let notes = '';
  for (const passed of registries.passedOver.keys()) {
    notes += `babelq: note: ${shown(passed)} ${NOT_READ_AS_REGISTRY}, so the messages were judged without a registry; babelq lint --registry ${shown(passed)} checks it as one\n`;
  }
  // A registry that could not be used at all is each message's registry-error, which says why.
  if (registry.kind === 'loaded') {
    for (const report of registries.registryReports((file) => configs.settingsFor(file, DEFAULT_SETTINGS, []))) {
      if (report.refused) notes += `babelq: note: ${shown(report.path)} is refused as a whole, as bqschema's registry load refuses it (babelq lint ${shown(report.path)} says why); the messages were judged by its entries\n`;
    }
  }
  return { settings, registry, notes };
}
