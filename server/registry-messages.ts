/**
 * The registry's state in standard LSP, for editors that show nothing of the custom
 * `babelqueue/registryStatus` notification: a `window/logMessage` line each time a registry is
 * loaded, found broken or not found, and one `window/showMessage` per broken registry and reason,
 * not one per keystroke (the same break is shown again only after the registry has worked).
 */
import { MessageType, type Connection } from 'vscode-languageserver/node';
import type { RegistryState } from '../core/registry/types';
import type { RegistryListener } from './registry';

export function registryMessages(connection: Pick<Connection, 'sendNotification'>): RegistryListener {
  /** Broken registries already shown, by path, with the reason shown. */
  const shown = new Map<string, string>();
  const log = (type: MessageType, message: string) => void connection.sendNotification('window/logMessage', { type, message }).catch(() => undefined);
  const show = (type: MessageType, message: string) => void connection.sendNotification('window/showMessage', { type, message }).catch(() => undefined);
  return (state: RegistryState, searched) => {
    if (state.kind === 'none') {
      log(MessageType.Info, `No registry.json (bqschema format) at or above ${searched.directory} inside ${searched.root}: URNs and payloads are not checked against a registry.`);
      return;
    }
    if (state.kind === 'broken') {
      const message = `BabelQueue registry ${state.path} cannot be used: ${state.error}`;
      log(MessageType.Error, message);
      if (shown.get(state.path) !== state.error) {
        shown.set(state.path, state.error);
        show(MessageType.Error, message);
      }
      return;
    }
    shown.delete(state.registry.path);
    log(MessageType.Info, describeLoaded(state));
  };
}

function describeLoaded(state: Extract<RegistryState, { kind: 'loaded' }>): string {
  const { path, entries, problems } = state.registry;
  const urns = `${entries.length} URN${entries.length === 1 ? '' : 's'}`;
  const found = problems.length === 0 ? '' : `, ${problems.length} problem${problems.length === 1 ? '' : 's'} (shown as diagnostics on registry.json)`;
  return `BabelQueue registry ${path} loaded: ${urns}${found}.`;
}
