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
import { ProjectConfigs } from '../workspace/project-config';
import { CliRegistries } from './registry';

export interface MessageJudgement {
  readonly settings: Settings;
  readonly registry: RegistryState;
}

/** The settings and registry a message is judged by when babelq runs in `cwd`. */
export function messageJudgement(cwd: string): MessageJudgement {
  // The name only places the message; no file of that name is read.
  const path = join(cwd, 'message.babel.json');
  const settings = new ProjectConfigs().settingsFor(path, DEFAULT_SETTINGS, []);
  return { settings, registry: new CliRegistries(cwd, undefined).stateFor(path, settings.registryPath) };
}
