/**
 * CodeLenses above an envelope: "Preview Published Bytes" and "Send to <target>" (saying "refused in
 * Restricted Mode" until the workspace is trusted, as a send is refused there); above a dead
 * letter opened from Dead Letters, or its edited copy, "Redrive" instead of the send: a send would
 * publish it with its `dead_letter` block and its attempts, where a redrive takes them off and
 * returns it to its queue (the copy in place of the stored one).
 */
import * as vscode from 'vscode';
import { parseTarget, shortUrl } from '../broker/target';
import { readSendSettings } from './send-settings';

export const PREVIEW_COMMAND = 'babelqueue.previewBytes';

export class EnvelopeCodeLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  /** Disposed with the extension: nothing of it is left listening after deactivate. */
  private readonly settingsListener: vscode.Disposable;

  constructor(
    sendCommand: string,
    private readonly redrive?: { readonly command: string; readonly isDeadLetter: (uri: vscode.Uri) => boolean },
    /** Where a document's settings are read: a message view's are those it was read with (it is in no folder). */
    private readonly settingsScope: (uri: vscode.Uri) => vscode.Uri = (uri) => uri,
  ) {
    this.sendCommand = sendCommand;
    this.settingsListener = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('babelqueue.broker')) this.changed.fire();
    });
    // The Send lens says a send is refused in Restricted Mode, until the workspace is trusted.
    this.trustListener = vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire());
  }

  /** Disposed with the extension, as settingsListener. */
  private readonly trustListener: vscode.Disposable;

  dispose(): void {
    this.settingsListener.dispose();
    this.trustListener.dispose();
    this.changed.dispose();
  }

  private readonly sendCommand: string;

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    const preview = new vscode.CodeLens(top, { title: 'Preview Published Bytes', command: PREVIEW_COMMAND, arguments: [document.uri] });
    if (this.redrive?.isDeadLetter(document.uri)) {
      return [preview, new vscode.CodeLens(top, { title: 'Redrive to its original queue', command: this.redrive.command, arguments: [document.uri] })];
    }
    const settings = readSendSettings((key) => vscode.workspace.getConfiguration(undefined, this.settingsScope(document.uri)).get(key));
    let target: string;
    try {
      target = parseTarget(settings.brokerUrl).display;
    } catch {
      // An unusable URL is reported when the user sends; the lens still offers the command. It
      // names the URL as the error will, never as typed: a URL refused for a password holding
      // '/' or '@' typed raw would show that password above every envelope.
      target = `${shortUrl(settings.brokerUrl)} (not usable)`;
    }
    // Still a lens in Restricted Mode: its command says why it is refused, with the way to trust the workspace.
    const refused = vscode.workspace.isTrusted ? '' : ' (refused in Restricted Mode)';
    return [preview, new vscode.CodeLens(top, { title: `Send to ${target}${refused}`, command: this.sendCommand, arguments: [document.uri] })];
  }
}
