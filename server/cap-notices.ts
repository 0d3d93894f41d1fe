/**
 * Says, as information, when an answer is not the whole one: LSP gives the outline, folding ranges
 * and selection ranges no way to say "there is more", so a capped outline looks like a document
 * that ends there and a block past the folding cap simply does not fold; and a formatting request
 * refused answers no edits, which an editor shows as nothing at all. One `window/showMessage` per
 * open document and kind of answer: the workbench asks for the outline and folding after every
 * pause in typing (and an editor may format on every save), and a message at each would bury the
 * editor. Closing the document forgets it.
 */
import { MessageType, type Connection } from 'vscode-languageserver/node';
import { unlinked } from '../core/language/markdown';

export type NoticedAnswer = 'outline' | 'folding' | 'selection' | 'formatting refused: syntax' | 'formatting refused: size';

export class CapNotices {
  private readonly said = new Map<string, Set<NoticedAnswer>>();

  constructor(private readonly connection: Pick<Connection, 'sendNotification'>) {}

  /** Shows `message` about `uri` unless this kind of answer for that document has said so already. */
  say(uri: string, answer: NoticedAnswer, message: string): void {
    let said = this.said.get(uri);
    if (said?.has(answer)) return;
    if (!said) this.said.set(uri, (said = new Set()));
    said.add(answer);
    // The messages name the document as the checkout names it: unlinked, as VS Code makes `[text](command:…)` in a notification a link.
    void this.connection.sendNotification('window/showMessage', { type: MessageType.Info, message: unlinked(message) }).catch(() => undefined);
  }

  forget(uri: string): void {
    this.said.delete(uri);
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
