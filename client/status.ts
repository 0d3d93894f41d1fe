/** What the language status item says for each server state (no `vscode` import: testable). */
import { labelText } from './quoted-text';

export type ServerState = 'starting' | 'running' | 'stopped';

export interface StatusView {
  readonly text: string;
  readonly detail: string;
  readonly severity: 'information' | 'warning' | 'error';
  readonly busy: boolean;
}

/** What the server last said about the active envelope's registry. */
export interface RegistryView {
  readonly state: 'none' | 'loaded' | 'broken';
  readonly message: string;
}

/** The setting that turns all of the server's validation on or off. */
export const VALIDATION_SETTING = 'babelqueue.validation.enable';

/**
 * The status item's text, detail and severity for a server state and the active registry;
 * `validating` false when VALIDATION_SETTING is false for the active envelope (the server runs,
 * and checks nothing).
 */
export function describeState(state: ServerState, registry?: RegistryView, validating = true): StatusView {
  if (state === 'running' && !validating) {
    return { text: 'BabelQueue: validation off', detail: `Envelope validation is turned off: set ${VALIDATION_SETTING} to true to turn it on`, severity: 'information', busy: false };
  }
  if (state === 'running' && registry) {
    // The server's line names the registry's file as the checkout names it (babelq.json's
    // "registry"): quoted as a sentence (cut at 500 characters, on one line, so no file name can
    // reorder the detail, and unlinked, as the detail makes `[text](command:…)` a link), then shown
    // literally, as the detail draws `$(name)` as an icon.
    const shown = labelText;
    // The text says it is a registry error already; the server's line starts with the same words.
    if (registry.state === 'broken') return { text: 'BabelQueue: registry error', detail: shown(registry.message.replace(/^Registry error: /, '')), severity: 'error', busy: false };
    return { text: 'BabelQueue', detail: shown(registry.message), severity: 'information', busy: false };
  }
  switch (state) {
    case 'starting':
      return { text: 'BabelQueue: starting', detail: 'The envelope language server is starting', severity: 'information', busy: true };
    case 'running':
      return { text: 'BabelQueue', detail: 'Envelope validation is running', severity: 'information', busy: false };
    case 'stopped':
      return { text: 'BabelQueue: stopped', detail: 'The language server stopped; see the BabelQueue output', severity: 'error', busy: false };
  }
}
