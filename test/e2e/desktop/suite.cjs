// Runs inside desktop VS Code's extension host (loaded by @vscode/test-electron, see run.ts):
// the extension activates on a *.babel.json file, publishes the expected diagnostics, and the
// byte preview opens. Plain CommonJS because VS Code loads it with require().
const assert = require('node:assert/strict');
const path = require('node:path');
const vscode = require('vscode');

async function waitFor(what, probe, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

async function run() {
  const folder = vscode.workspace.workspaceFolders[0].uri.fsPath;
  const file = vscode.Uri.file(path.join(folder, 'bad', 'contract.babel.json'));
  const document = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(document);
  assert.equal(document.languageId, 'babelqueue-envelope');

  const diagnostics = await waitFor('diagnostics', () => {
    const found = vscode.languages.getDiagnostics(file).filter((d) => d.source === 'babelqueue');
    return found.length > 0 && found;
  });
  const codes = new Set(diagnostics.map((d) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code))));
  for (const code of ['forbidden-key', 'invalid-urn', 'unsupported-schema-version']) assert.ok(codes.has(code), `missing ${code}`);

  const extension = vscode.extensions.getExtension('babelqueue-tools.babelqueue-envelope-tools');
  assert.ok(extension && extension.isActive, 'the extension is active');

  const valid = vscode.Uri.file(path.join(folder, 'orders', 'order-created.babel.json'));
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(valid));
  await vscode.commands.executeCommand('babelqueue.previewBytes');
  const preview = await waitFor('the preview', () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'babelqueue-preview'));
  assert.match(preview.getText(), /── Body: \d+ bytes/);
  assert.match(preview.getText(), /── Per SDK ──/);
  console.log('desktop VS Code: diagnostics, activation and preview ok');
}

module.exports = { run };
