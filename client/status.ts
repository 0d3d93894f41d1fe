/** What the language status item says for each server state (no `vscode` import: testable). */

export type ServerState = 'starting' | 'running' | 'stopped';

export interface StatusView {
  readonly text: string;
  readonly detail: string;
  readonly severity: 'information' | 'error';
  readonly busy: boolean;
}

/** The status item's text, detail and severity for a server state. */
export function describeState(state: ServerState): StatusView {
  switch (state) {
    case 'starting':
      return { text: 'BabelQueue: starting', detail: 'The envelope language server is starting', severity: 'information', busy: true };
    case 'running':
      return { text: 'BabelQueue', detail: 'Envelope validation is running', severity: 'information', busy: false };
    case 'stopped':
      return { text: 'BabelQueue: stopped', detail: 'The language server stopped; see the BabelQueue output', severity: 'error', busy: false };
  }
}
