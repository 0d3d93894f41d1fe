/** What the language status item says for each server state (no `vscode` import: testable). */
import { showOnOneLine } from '../core/language/markdown';
import { shortened } from '../core/model/describe-value';
import { shownLiterally } from './quoted-text';

/**
 * The longest registry message shown whole: it names the registry's file as the checkout names it
 * (babelq.json's "registry"), which may be long or hold a line break or a bidirectional override.
 */
const MAX_REGISTRY_MESSAGE = 500;

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
    // Cut and on one line (core's showOnOneLine), so no file name of the checkout can reorder the
    // detail; shown literally, as the status item draws `$(name)` in its detail as an icon.
    const shown = (message: string) => shownLiterally(showOnOneLine(shortened(message, MAX_REGISTRY_MESSAGE)));
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
