/**
 * The floor of bench/workbench.ts: the smallest extension that shows what the language server
 * shows, with no analysis at all, on a language of its own that has the envelope language's
 * grammar and bracket configuration (bench/workbench.ts copies them in before packaging), so the
 * file is highlighted as ours is. Its times are what VS Code itself costs to carry a keystroke to
 * an extension and the answer back to the screen:
 *
 * - a squiggle on `"schema_version": 2` within the first lines, set again on every change
 *   (reading those lines only, never the whole text);
 * - a constant hover;
 * - a CodeLens that opens a virtual document beside the file, holding the first and last
 *   16 KiB of the file without whitespace, as the byte preview shows a large body by its ends,
 *   and made again after each edit of the file, as the byte preview follows typing.
 */
const vscode = require('vscode');

const SCHEME = 'babelq-bench-floor';
const LANGUAGE = 'babelq-floor-envelope';
const SCANNED_LINES = 50;
const ENDS = 16 * 1024;

function activate(context) {
  const collection = vscode.languages.createDiagnosticCollection('floor');
  const mark = (document) => {
    if (document.languageId !== LANGUAGE || document.uri.scheme !== 'file') return;
    const found = [];
    for (let line = 0; line < Math.min(SCANNED_LINES, document.lineCount); line++) {
      const text = document.lineAt(line).text;
      const at = text.indexOf('"schema_version": 2');
      if (at >= 0) found.push(new vscode.Diagnostic(new vscode.Range(line, at + 18, line, at + 19), 'schema_version must be 1', vscode.DiagnosticSeverity.Error));
    }
    collection.set(document.uri, found);
  };
  vscode.workspace.textDocuments.forEach(mark);
  const changed = new vscode.EventEmitter();
  const previewOf = (source) => vscode.Uri.from({ scheme: SCHEME, path: '/preview', query: source.toString() });
  const provider = {
    onDidChange: changed.event,
    provideTextDocumentContent(uri) {
      const wanted = vscode.Uri.parse(uri.query).toString();
      const source = vscode.workspace.textDocuments.find((document) => document.uri.toString() === wanted);
      if (!source) return 'not open\n';
      const end = source.positionAt(Number.MAX_SAFE_INTEGER);
      const head = source.getText(new vscode.Range(new vscode.Position(0, 0), source.positionAt(ENDS)));
      const tail = source.getText(new vscode.Range(source.positionAt(source.offsetAt(end) - ENDS), end));
      return `floor preview\n${head.replace(/\s+/g, '')}\n…\n${tail.replace(/\s+/g, '')}\n`;
    },
  };
  context.subscriptions.push(
    collection,
    vscode.workspace.onDidOpenTextDocument(mark),
    // A closed file's squiggle goes with it, so that a reopen shows only what this open computed.
    vscode.workspace.onDidCloseTextDocument((document) => collection.delete(document.uri)),
    vscode.workspace.onDidChangeTextDocument((event) => {
      mark(event.document);
      if (event.document.uri.scheme === 'file') changed.fire(previewOf(event.document.uri));
    }),
    changed,
    vscode.languages.registerHoverProvider(LANGUAGE, { provideHover: () => new vscode.Hover(new vscode.MarkdownString('**floor** hover')) }),
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, provider),
    vscode.languages.registerCodeLensProvider(LANGUAGE, {
      provideCodeLenses: (document) => [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: 'Preview Published Bytes', command: 'babelqBenchFloor.preview', arguments: [document.uri] })],
    }),
    vscode.commands.registerCommand('babelqBenchFloor.preview', async (source) => {
      const document = await vscode.workspace.openTextDocument(previewOf(source));
      await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
    }),
  );
}

module.exports = { activate, deactivate() {} };
