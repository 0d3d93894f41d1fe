/**
 * The registry's state in standard LSP, for editors that show nothing of the custom
 * `babelqueue/registryStatus` notification: a `window/logMessage` line each time a registry is
 * loaded, found broken or not found, and one `window/showMessage` per broken registry file for
 * the server's life: while registry.json is edited it breaks and mends at many keystrokes, and a
 * message at each would bury the editor; every later state is in the log and in the diagnostics
 * of registry.json itself. A folder without a registry is logged once per workspace folder (a
 * workspace report searches each folder of fixtures, and a hundred folders made a hundred lines),
 * and again once a registry has been loaded or found broken in it since.
 */
import { MessageType, type Connection } from 'vscode-languageserver/node';
import { registryProblemCount, type RegistryState } from '../core/registry/types';
import { MAX_REGISTRY_PROBLEMS, registryFileName } from '../core/registry/registry-file';
import { showOnOneLine, unlinked } from '../core/language/markdown';
import type { RegistryListener } from './registry';
import { NOT_READ_AS_REGISTRY } from '../workspace/registry-loader';

export function registryMessages(connection: Pick<Connection, 'sendNotification'>): RegistryListener {
  /** Registry files whose break has been shown. */
  const shown = new Set<string>();
  /** Workspace folders whose folder without a registry has been logged, since their last registry. */
  const noneLogged = new Set<string>();
  // Each message names files and folders as the checkout names them: on one line (a line break
  // written \n, every other invisible character \uXXXX), so no name begins a line of the log of
  // its own or reorders the notification; and unlinked in the notification, where VS Code makes
  // `[text](command:…)` a link.
  const log = (type: MessageType, message: string) => void connection.sendNotification('window/logMessage', { type, message: showOnOneLine(message) }).catch(() => undefined);
  const show = (type: MessageType, message: string) => void connection.sendNotification('window/showMessage', { type, message: unlinked(showOnOneLine(message)) }).catch(() => undefined);
  return (state: RegistryState, searched) => {
    if (state.kind === 'none') {
      if (noneLogged.has(searched.root)) return;
      noneLogged.add(searched.root);
      const passedOver = state.passedOver === undefined ? '' : ` (${state.passedOver} ${NOT_READ_AS_REGISTRY})`;
      log(MessageType.Info, `No registry.json (bqschema format) at or above ${searched.directory} inside ${searched.root}${passedOver}: URNs and payloads are not checked against a registry. (Other folders of ${searched.root} without one are not logged.)`);
      return;
    }
    noneLogged.delete(searched.root);
    if (state.kind === 'broken') {
      const message = `BabelQueue registry ${state.path} cannot be used: ${state.error}`;
      log(MessageType.Error, message);
      if (!shown.has(state.path)) {
        shown.add(state.path);
        show(MessageType.Error, `${message} (later changes are in the language server's log)`);
      }
      return;
    }
    log(MessageType.Info, describeLoaded(state));
  };
}

function describeLoaded(state: Extract<RegistryState, { kind: 'loaded' }>): string {
  const { path, entries } = state.registry;
  const urns = `${entries.length} URN${entries.length === 1 ? '' : 's'}`;
  const problems = registryProblemCount(state.registry);
  const name = registryFileName(path);
  const shown = problems === state.registry.problems.length ? `shown as diagnostics on ${name}` : `the first ${MAX_REGISTRY_PROBLEMS} shown as diagnostics on ${name}, the rest summed up in one`;
  const found = problems === 0 ? '' : `, ${problems} problem${problems === 1 ? '' : 's'} (${shown})`;
  return `BabelQueue registry ${path} loaded: ${urns}${found}.`;
}
