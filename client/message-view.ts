/**
 * A message read from a queue, shown as a read-only envelope document titled `<queue> · <meta.id>`:
 * pretty-printed, in the envelope language (so the server diagnoses it like any fixture), with
 * "Save as Fixture…" (file named from the URN, ids and time kept or renewed as the user picks).
 * The view remembers where each message came from, so a redrive can find its exact stored bytes.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { vsdiag } from 'vscode-languageclient/node';
import { DLQ_SUFFIX, type MessageRow } from '../core/message/dead-letter';
import { fixtureFileName, formattedMessage, withRenewedIds } from '../core/language/message-text';
import { ENVELOPE_LANGUAGE_ID, MESSAGE_SCHEME } from '../core/language/protocol';
import { quotedName, unlinked } from './quoted-text';
import { notUtf8View, type NotUtf8View } from './not-utf8-view';
import { DIAGNOSTIC_SOURCE } from '../core/rules/diagnostic';

export const SAVE_AS_FIXTURE_COMMAND = 'babelqueue.saveMessageAsFixture';

/** VS Code's language of a document with none of its own. */
const PLAIN_TEXT = 'plaintext';

/** How many opened messages are remembered (their text and source). */
const MAX_SHOWN = 200;

/** Where a message was read: the logical queue shown in the title, the list or queue read, whether it is a DLQ. */
export interface MessageSource {
  readonly queue: string;
  readonly key: string;
  readonly deadLetters: boolean;
  /** The document whose settings (broker, layout) were used, if any. */
  readonly settingsUri?: vscode.Uri;
}

/** One message on display. */
export interface ShownMessage {
  readonly row: MessageRow;
  readonly source: MessageSource;
  /** Its bytes exactly as stored: a redrive finds it in the DLQ by them. */
  readonly body: Uint8Array;
}

/** The read-only message documents, and what each one shows. */
export class MessageViews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly shown = new Map<string, ShownMessage>();
  /** The views of messages that are not UTF-8: plain text, with their one finding (client/not-utf8-view.ts). */
  private readonly notUtf8 = new Map<string, NotUtf8View>();
  /** Their findings: the language server never sees these views. Made on the first one. */
  private problems: vscode.DiagnosticCollection | undefined;
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    const key = uri.toString();
    const undecodable = this.notUtf8.get(key);
    if (undecodable) return undecodable.text;
    const message = this.shown.get(key);
    return message ? formattedMessage(message.row.text) : '';
  }

  /** Takes a view's own finding out of the Problems panel (its tab or document closed). */
  dropProblems(uri: vscode.Uri): void {
    this.problems?.delete(uri);
  }

  dispose(): void {
    this.problems?.dispose();
  }

  /** Why the bytes of the message a view shows are not UTF-8 (lint's words), or undefined when they are. */
  notUtf8Reason(uri: vscode.Uri): string | undefined {
    return this.notUtf8.get(uri.toString())?.reason;
  }

  /** The message a document shows, if it is one of these views. */
  messageOf(uri: vscode.Uri): ShownMessage | undefined {
    return this.shown.get(uri.toString());
  }

  /** Opens `message` read-only, formatted and diagnosed, titled `<queue> · <meta.id>`. */
  async open(message: ShownMessage): Promise<vscode.TextEditor> {
    // The query keeps two reads of the same message apart (the DLQ may have changed in between).
    // Its title is the publisher's text: each part cut and on one line, its '/' written \u002f, as
    // one would start the path's last part (the tab's title) inside the meta.id. A dead-letter
    // queue keeps its `.dlq`, which the title bar's Redrive is shown by (package.json).
    const title = (text: string) => quotedName(text).replace(/\//g, '\\u002f');
    const { queue } = message.source;
    const queueTitle = queue.endsWith(DLQ_SUFFIX) ? `${title(queue.slice(0, -DLQ_SUFFIX.length))}${DLQ_SUFFIX}` : title(queue);
    const uri = vscode.Uri.from({ scheme: MESSAGE_SCHEME, path: `/${queueTitle} · ${title(message.row.metaId)}`, query: String(++this.counter) });
    this.shown.set(uri.toString(), message);
    const undecodable = notUtf8View(message.row, message.body);
    if (undecodable) this.notUtf8.set(uri.toString(), undecodable);
    // Bounded, oldest first out. Not forgotten on close: setting the language closes and reopens the document.
    for (const key of this.shown.keys()) {
      if (this.shown.size <= MAX_SHOWN) break;
      this.shown.delete(key);
      this.notUtf8.delete(key);
    }
    if (undecodable) {
      // Plain text, not an envelope: what the server would judge is the replacement characters' JSON.
      // Set, not left to the path: a meta.id ending in .babel.json (or .json) would pick a JSON language.
      const opened = await vscode.workspace.openTextDocument(uri);
      const document = opened.languageId === PLAIN_TEXT ? opened : await vscode.languages.setTextDocumentLanguage(opened, PLAIN_TEXT);
      if (undecodable.problem) {
        this.problems ??= vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
        this.problems.set(uri, [undecodable.problem]);
      }
      return vscode.window.showTextDocument(document, { preview: false });
    }
    const document = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), ENVELOPE_LANGUAGE_ID);
    return vscode.window.showTextDocument(document, { preview: false });
  }
}

/**
 * The document a command on messages is run for: the one whose title bar or CodeLens ran it (VS
 * Code passes its URI, and the active editor may be another message's, in another editor group),
 * else, run from the palette or a keybinding, the active editor's.
 */
export function commandDocument(argument: unknown): vscode.TextDocument | undefined {
  if (!(argument instanceof vscode.Uri)) return vscode.window.activeTextEditor?.document;
  const key = argument.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
}

/** True when a tab still shows the message view `uri`. */
export function messageViewShown(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => {
    const input = tab.input;
    if (input instanceof vscode.TabInputText) return input.uri.toString() === key;
    if (input instanceof vscode.TabInputTextDiff) return input.modified.toString() === key || input.original.toString() === key;
    return false;
  }));
}


/**
 * Takes a closed message view's problems out of the Problems panel. VS Code keeps the view's
 * document for minutes after its tab closes (no didClose), and the language client, pulling
 * workspace diagnostics, answers a tab's close by pulling the document once more and dropping the
 * answer, counting on the workspace report to say what is left; that report covers the files of
 * the workspace, never a message view, so its last problems stayed. The report's own sink (given
 * to the client's workspace-diagnostics middleware) is handed an empty report for the view, again
 * until the client takes it: the client passes over a workspace report for a document it still
 * pulls by itself, until its close is done with.
 */
export class ClosedViewProblems implements vscode.Disposable {
  private sink: vsdiag.ResultReporter | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly scheme: string) {
    this.subscription = vscode.window.tabGroups.onDidChangeTabs((event) => {
      for (const tab of event.closed) {
        const input = tab.input;
        const uris = input instanceof vscode.TabInputText ? [input.uri] : input instanceof vscode.TabInputTextDiff ? [input.original, input.modified] : [];
        for (const uri of uris) if (uri.scheme === this.scheme && !messageViewShown(uri)) void this.clear(uri);
      }
    });
  }

  /** The sink of the latest workspace diagnostics request. */
  useSink(sink: vsdiag.ResultReporter): void {
    this.sink = sink;
  }

  private async clear(uri: vscode.Uri): Promise<void> {
    // 40 tries 250 ms apart: the client's own pull on the close answers in a few milliseconds.
    for (let attempt = 0; attempt < 40 && vscode.languages.getDiagnostics(uri).length > 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (messageViewShown(uri)) return;
      this.sink?.({ items: [{ uri, kind: 'full' as vsdiag.DocumentDiagnosticReportKind.full, items: [], version: null }] });
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** Registers the provider and "Save as Fixture…". */
export function registerMessageViews(context: vscode.ExtensionContext, views: MessageViews): void {
  context.subscriptions.push(
    views,
    vscode.workspace.registerTextDocumentContentProvider(MESSAGE_SCHEME, views),
    // VS Code keeps a closed tab's document for minutes: its finding leaves with the tab.
    vscode.window.tabGroups.onDidChangeTabs((event) => {
      for (const tab of event.closed) if (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === MESSAGE_SCHEME && !messageViewShown(tab.input.uri)) views.dropProblems(tab.input.uri);
    }),
    vscode.workspace.onDidCloseTextDocument((document) => views.dropProblems(document.uri)),
    vscode.commands.registerCommand(SAVE_AS_FIXTURE_COMMAND, (argument?: unknown) => saveAsFixture(views, commandDocument(argument))),
  );
}

async function saveAsFixture(views: MessageViews, document: vscode.TextDocument | undefined): Promise<void> {
  const message = document && views.messageOf(document.uri);
  if (!document || !message) {
    void vscode.window.showInformationMessage('Open a message from Peek Queue or Dead Letters to save it as a fixture.');
    return;
  }
  const notUtf8 = views.notUtf8Reason(document.uri);
  if (notUtf8 !== undefined) {
    // The view's text has U+FFFD where the bytes are not UTF-8: written out, the fixture would hold
    // bytes no producer wrote, and lint it clean where the message is not. Its bytes are written as
    // stored instead, said first, with its ids as they are: renewing them would rewrite the text.
    const saveStored = 'Save Stored Bytes';
    const answer = await vscode.window.showWarningMessage(
      `This message's bytes are not UTF-8; lint says: ${notUtf8} Save as Fixture writes them as stored, not with the view's U+FFFD in their place: lint reports the fixture as it reports the message, and Send refuses it until its bytes are fixed. meta.id and created_at are kept.`,
      { modal: true },
      saveStored,
    );
    if (answer === saveStored) await writeFixture(message, message.body);
    return;
  }
  const keep = { label: 'Keep meta.id, trace_id and created_at', description: 'the fixture is this exact message', renew: false };
  const renew = { label: 'Renew meta.id and created_at', description: 'trace_id is kept: it correlates', renew: true };
  const choice = await vscode.window.showQuickPick([keep, renew], { title: 'Save as Fixture: ids and time' });
  if (!choice) return;
  const text = document.getText();
  await writeFixture(message, new TextEncoder().encode(choice.renew ? withRenewedIds(text, { uuid: randomUUID, now: Date.now }) : text));
}

/** Asks where to save `message` as a fixture, writes `bytes` there and opens it. */
async function writeFixture(message: ShownMessage, bytes: Uint8Array): Promise<void> {
  // The folder whose settings (broker) the message was read with, in a workspace of several.
  const folder = (message.source.settingsUri && vscode.workspace.getWorkspaceFolder(message.source.settingsUri)?.uri) ?? vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = fixtureFileName(message.row.urn);
  const target = await vscode.window.showSaveDialog({
    title: 'Save as Fixture',
    // `json`, not `babel.json`: a save dialog appends a multi-part filter extension to a name that already ends in it ("….babel.json.babel.json").
    filters: { 'BabelQueue envelope (*.babel.json)': ['json'] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
  });
  if (!target) return;
  try {
    await vscode.workspace.fs.writeFile(target, bytes);
  } catch (error) {
    // Said with the file and the file system's reason (a read-only folder, a full disk), not as a command that failed.
    void vscode.window.showErrorMessage(unlinked(`Save as Fixture: ${target.fsPath} was not written: ${error instanceof Error ? error.message : String(error)}`));
    return;
  }
  await vscode.window.showTextDocument(target);
}
