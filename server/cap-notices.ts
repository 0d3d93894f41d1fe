/**
 * Says, as information, when an answer was cut at a cap: LSP gives the outline, folding ranges
 * and selection ranges no way to say "there is more", so a capped outline looks like a document
 * that ends there and a block past the folding cap simply does not fold. One `window/showMessage`
 * per open document and feature: the workbench asks for the outline and folding after every
 * pause in typing, and a message at each would bury the editor. Closing the document forgets it.
 */
import { MessageType, type Connection } from 'vscode-languageserver/node';

export type CappedFeature = 'outline' | 'folding' | 'selection';

export class CapNotices {
  private readonly said = new Set<string>();

  constructor(private readonly connection: Pick<Connection, 'sendNotification'>) {}

  /** Shows `message` about `uri` unless this feature of that document has said so already. */
  say(uri: string, feature: CappedFeature, message: string): void {
    const key = `${feature} ${uri}`;
    if (this.said.has(key)) return;
    this.said.add(key);
    void this.connection.sendNotification('window/showMessage', { type: MessageType.Info, message }).catch(() => undefined);
  }

  forget(uri: string): void {
    for (const feature of ['outline', 'folding', 'selection'] as const) this.said.delete(`${feature} ${uri}`);
  }
}

/** The file name an editor shows for a URI (its last path segment, decoded). */
export function shownName(uri: string): string {
  const name = uri.slice(uri.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
