/**
 * The registry status the client's status item shows for an envelope (which registry it uses, or
 * why none), sent when it changes. Every diagnostics pull looks it up, and a keystroke's pull must
 * not send the same words again: each notification updates the status item in the workbench, on
 * the page thread that the keystroke's squiggle is waiting for.
 */
import type { Connection } from 'vscode-languageserver/node';
import { REGISTRY_STATUS_METHOD, type RegistryStatusParams } from '../core/language/protocol';
import { registryProblemCount, type RegistryState } from '../core/registry/types';
import { registryFileName } from '../core/registry/registry-file';
import { NOT_READ_AS_REGISTRY } from '../workspace/registry-loader';

export class RegistryStatusReporter {
  /** Per document URI, the status last sent (as JSON), until the document closes. */
  private readonly sent = new Map<string, string>();
  /** Whether the client asked for the notification (ServerInitializationOptions.registryStatus). */
  enabled = false;

  constructor(
    private readonly connection: Pick<Connection, 'sendNotification'>,
    /** Whether a document is open now: a pull answered after its document closed sends nothing. */
    private readonly isOpen: (uri: string) => boolean,
  ) {}

  /**
   * Sends the status of `uri`'s registry, unless the client already has exactly this one;
   * `passedOverBelow`: a registry.json passed over for the registry used (RegistryService.passedOverBelow).
   */
  report(uri: string, state: RegistryState, passedOverBelow?: string): void {
    if (!this.enabled || !this.isOpen(uri)) return;
    const params = statusOf(uri, state, passedOverBelow);
    const json = JSON.stringify(params);
    if (this.sent.get(uri) === json) return;
    this.sent.set(uri, json);
    // Not sent after all (the connection is closing): the next pull tries again.
    this.connection.sendNotification(REGISTRY_STATUS_METHOD, params).catch(() => {
      if (this.sent.get(uri) === json) this.sent.delete(uri);
    });
  }

  /** Forgets a closed document: reopened, its status is sent again. */
  forget(uri: string): void {
    this.sent.delete(uri);
  }
}

function statusOf(uri: string, state: RegistryState, passedOverBelow: string | undefined): RegistryStatusParams {
  if (state.kind === 'none') return { uri, state: 'none', message: state.passedOver === undefined ? 'No registry.json found for this file' : `No registry for this file: ${state.passedOver} ${NOT_READ_AS_REGISTRY}` };
  if (state.kind === 'broken') return { uri, state: 'broken', message: `Registry error: ${state.error}`, registryPath: state.path };
  // As babelq lint's note says it: a misspelt "schemas" key below would otherwise go unnoticed behind the registry above.
  const passedOver = passedOverBelow === undefined ? '' : ` (${passedOverBelow} ${NOT_READ_AS_REGISTRY}, and was passed over for the next one up)`;
  return { uri, state: 'loaded', message: `${describeLoaded(state)}${passedOver}`, registryPath: state.registry.path };
}

function describeLoaded(state: Extract<RegistryState, { kind: 'loaded' }>): string {
  const { entries } = state.registry;
  const count = `${entries.length} URN${entries.length === 1 ? '' : 's'}`;
  const problems = registryProblemCount(state.registry);
  return problems === 0 ? `Registry: ${count}` : `Registry: ${count}, ${problems} problem${problems === 1 ? '' : 's'} in ${registryFileName(state.registry.path)}`;
}
