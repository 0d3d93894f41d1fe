/**
 * "BabelQueue: Preview Published Bytes": a read-only virtual document beside the editor that
 * follows the envelope as it is edited: the body exactly as published, the target and
 * projection, each SDK's bytes with the differences marked, and a hex view. The target is shown
 * without credentials.
 */
import * as vscode from 'vscode';
import type { PreviewRenderer } from './preview-renderer';
import { parseTarget } from '../broker/target';
import type { FreshIds } from './fresh-ids';
import { envelopeState, type SavedBytesCheck } from './file-bytes';
import { readSendSettings, sendSettingsProblems } from './send-settings';
import { EarlyRenders } from './early-renders';
import { DocumentLengths } from './document-lengths';
import { HiddenPreviews } from './hidden-previews';
import { ENVELOPE_LANGUAGE_ID } from '../core/language/protocol';

export const PREVIEW_SCHEME = 'babelqueue-preview';
/**
 * After an edit the preview is rendered again at once, or, while someone types, no sooner than its
 * last render's duration after that render ended (PreviewRenderer.waitBeforeRender): rendering
 * takes at most half the time of typing without a pause, whether a render costs a few
 * milliseconds (a keystroke in a value, built around it) or a tenth of a second (a large envelope
 * rebuilt whole). Never longer than this after the last keystroke:
 */
const MAX_REFRESH_MS = 1000;
/** How long a render started ahead of VS Code's request is kept for it (VS Code asks within milliseconds, or not at all). */
const STARTED_KEPT_MS = 10_000;

/**
 * The envelope the preview command is run for: the URI it is given (the title bar, a CodeLens),
 * else the active editor's document when it is an envelope. Anything else given (a keybinding's
 * `args`) names no document, and the active envelope is meant; an active editor of another kind
 * (an output channel, the preview itself) has no bytes to publish.
 */
export function previewSource(argument: unknown): vscode.Uri | undefined {
  if (argument instanceof vscode.Uri) return argument;
  const document = vscode.window.activeTextEditor?.document;
  return document?.languageId === ENVELOPE_LANGUAGE_ID ? document.uri : undefined;
}

/** The open envelope a preview URI shows, if it is open. */
function sourceDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const source = vscode.Uri.parse(uri.query).toString();
  return vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === source);
}

/** True when an editor on screen shows the preview of the envelope document `source` (its URI as a string). */
export function previewOnScreen(source: string): boolean {
  return vscode.window.visibleTextEditors.some((editor) => editor.document.uri.scheme === PREVIEW_SCHEME && editor.document.uri.query === source);
}

/** The preview URI of an envelope document (the source URI travels in the query). */
export function previewUri(source: vscode.Uri): vscode.Uri {
  const name = source.path.split('/').pop() ?? 'envelope';
  return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${name} — published bytes`, query: source.toString() });
}

/** The preview's first lines when settings it reads cannot be used: each named, with what it takes. */
function unusableSettingsNote(problems: readonly string[]): string {
  if (problems.length === 0) return '';
  return `Settings not usable, shown here by their defaults (Send refuses them until they are fixed): ${problems.join('; ')}.\n\n`;
}

export class PreviewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Sources whose preview is due again at once, when the language server has been sent their edit (changeSent). */
  private readonly dueOnceSent = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Previews VS Code keeps off screen, and which of them are out of date. */
  private readonly hidden = new HiddenPreviews();
  /** Renders started before VS Code asks for them, per preview URI. */
  private readonly early = new EarlyRenders<string>(STARTED_KEPT_MS);
  /** The lengths of the previewed envelopes, carried over their edits. */
  private readonly lengths = new DocumentLengths();

  constructor(
    private readonly freshIds: FreshIds,
    /** Renders a large envelope's preview by the language server, which holds its parse already. */
    private readonly renderer: PreviewRenderer,
    /** Refuses a saved file that is not UTF-8, as `babelq preview` does. */
    private readonly savedBytes: SavedBytesCheck,
    /** Where a document's settings are read: a message view's are those it was read with (it is in no folder). */
    private readonly settingsScope: (uri: vscode.Uri) => vscode.Uri = (uri) => uri,
  ) {
    // Follow edits of the source, and settings that change what is published.
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((event) => {
        this.lengths.changed(event.document.uri.toString(), event.document.version, event.contentChanges);
        this.refreshLater(event.document.uri);
      }),
      // An envelope that closes, or opens again (its file may have changed on disk meanwhile), is
      // previewed again as it now is: "not open", then the text opened, never its bytes from before.
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document.uri.scheme === PREVIEW_SCHEME) {
          this.hidden.settled(document.uri.query);
          return;
        }
        this.lengths.forget(document.uri.toString());
        this.refreshLater(document.uri);
      }),
      vscode.workspace.onDidOpenTextDocument((document) => this.refreshLater(document.uri)),
      // A preview that was hidden while its envelope changed is rendered again when it is shown.
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        for (const editor of editors) {
          if (editor.document.uri.scheme !== PREVIEW_SCHEME) continue;
          const source = editor.document.uri.query;
          if (this.hidden.shown(source)) this.refresh(vscode.Uri.parse(source));
        }
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('babelqueue')) for (const document of vscode.workspace.textDocuments) this.refreshLater(document.uri);
      }),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    return this.early.take(uri.toString(), sourceDocument(uri)?.version) ?? this.render(uri);
  }

  /**
   * Starts rendering the preview of `source` for the request VS Code is about to make: a preview
   * VS Code does not keep is rendered for its first request, one it keeps out of date is rendered
   * again at once, and one it keeps up to date is shown as it is (./hidden-previews.ts).
   */
  startRender(source: vscode.Uri): void {
    const uri = previewUri(source);
    const key = uri.toString();
    const kept = vscode.workspace.textDocuments.some((document) => document.uri.toString() === key);
    const opening = this.hidden.opening(source.toString(), kept);
    if (opening === 'render-early') this.startRenderOf(uri);
    else if (opening === 'render-again') this.refresh(source);
  }

  private startRenderOf(uri: vscode.Uri): void {
    const document = sourceDocument(uri);
    if (document) this.early.start(uri.toString(), document.version, () => this.render(uri));
  }

  private async render(uri: vscode.Uri): Promise<string> {
    const source = vscode.Uri.parse(uri.query);
    const document = sourceDocument(uri);
    if (!document) return `The envelope ${source.fsPath} is not open.\n`;
    // The file's bytes are checked while the preview renders (a 5 MB file takes a moment to read
    // and scan); a refused file's rendering is thrown away.
    const refusal = this.savedBytes.refusal(envelopeState(document));
    // One configuration per render, read by both: the preview re-renders as the envelope is typed.
    const configuration = vscode.workspace.getConfiguration(undefined, this.settingsScope(source));
    const setting = (key: string) => configuration.get(key);
    const settings = readSendSettings(setting);
    // A setting of the wrong shape is shown by its default here, where Send refuses it: said above
    // the bytes, which are otherwise taken for what the settings as written publish.
    const unusable = sendSettingsProblems(setting, 'preview');
    let target: string;
    try {
      target = parseTarget(settings.brokerUrl).display;
    } catch (error) {
      target = `(babelqueue.broker.url is not usable: ${error instanceof Error ? error.message : String(error)})`;
    }
    // Its length only when the renderer asks (not for a document of many lines, which the server
    // renders: client/preview-renderer.ts), without joining its lines, and carried over edits
    // rather than taken from VS Code's line starts again (client/document-lengths.ts).
    const text = {
      lineCount: document.lineCount,
      length: () => this.lengths.of(document.uri.toString(), document.version, () => document.offsetAt(new vscode.Position(document.lineCount, 0))),
      text: () => document.getText(),
    };
    const [refused, rendered] = await Promise.all([
      refusal,
      this.renderer.render(source.toString(), text, {
        sdk: settings.encoder,
        freshIds: settings.freshIds,
        fresh: this.freshIds.for(source.toString()),
        redisLayout: settings.redisLayout,
        redisPrefix: settings.redisPrefix,
        target,
      }),
    ]);
    return refused ? `Nothing to publish: ${refused}\n` : `${unusableSettingsNote(unusable)}${rendered}`;
  }

  /** Re-renders the preview of a source document (after an edit, or new fresh ids). */
  refresh(source: vscode.Uri): void {
    const key = source.toString();
    // This render brings the preview up to date, whatever was pending for it.
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.dueOnceSent.delete(key);
    this.hidden.settled(key);
    const uri = previewUri(source);
    this.startRenderOf(uri);
    this.changed.fire(uri);
  }

  private refreshLater(source: vscode.Uri): void {
    if (source.scheme === PREVIEW_SCHEME) return;
    const key = source.toString();
    // Only a preview on screen is rendered again: VS Code keeps a closed one alive for minutes, and
    // rendering it would cost the server (a large envelope) or the extension host (a small one)
    // work on every pause in typing that nobody looks at. Nor is a kept one brought up to date in
    // the background: VS Code replaces a hidden document's text on its editor worker, and the
    // preview on screen then followed keystrokes later (409 and 865 ms at the median in two runs
    // of the real workbench, up to 1.4 s, against about 300 ms).
    if (!previewOnScreen(key)) {
      if (vscode.workspace.textDocuments.some((document) => document.uri.scheme === PREVIEW_SCHEME && document.uri.query === key)) this.hidden.changedWhileHidden(key);
      return;
    }
    clearTimeout(this.timers.get(key));
    const delay = this.renderer.waitBeforeRender(key, MAX_REFRESH_MS);
    this.timers.set(key, setTimeout(() => this.refresh(source), delay));
    // Due at once: rendered as soon as the server has the edit (changeSent), in this turn of the
    // extension host. A timer, even of 0 ms, runs after the ones other extensions set in their
    // own change listeners, and VS Code's Merge Conflict reads the whole text in one of those
    // (some 80 ms on 5 MB), so the render would start only after that read. The timer stays for
    // a document the server is not sent (it is not running).
    if (delay === 0) this.dueOnceSent.add(key);
    else this.dueOnceSent.delete(key);
  }

  /**
   * The language client has sent the server an edit of `source`: a preview due at once is
   * rendered now. A render asked for before the edit is sent could show the server's text before
   * it: both go over the same connection, in order (the server happens to read the document only
   * when it answers, but nothing promises that).
   */
  changeSent(source: vscode.Uri): void {
    if (this.dueOnceSent.has(source.toString())) this.refresh(source);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.early.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}

/** The preview document's language: no grammar, word wrap on by default. */
export const PREVIEW_LANGUAGE_ID = 'babelqueue-preview';

/** Opens the preview of the active envelope beside it. */
export async function showPreview(source: vscode.Uri): Promise<void> {
  const opened = await vscode.workspace.openTextDocument(previewUri(source));
  // Its own language, whose defaults (package.json configurationDefaults) wrap the long body line
  // instead of cutting it off at the window's edge. The manifest gives it to the preview's name
  // (`* — published bytes`), so the document opens in it; setting it afterwards (an editor that
  // does not match the name) costs a close and a reopen.
  const document = opened.languageId === PREVIEW_LANGUAGE_ID ? opened : await vscode.languages.setTextDocumentLanguage(opened, PREVIEW_LANGUAGE_ID);
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
}
