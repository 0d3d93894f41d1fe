/**
 * Editor/CLI parity: for every fixture in the test tree and in examples/, the diagnostics the
 * language server publishes equal `babelq lint --format json`, field for field.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { asPublished, asSentToEditor } from './support/published';
import { TestLspClient } from './support/lsp-client';
import { findFixtureFiles } from '../workspace/fixture-files';

const ROOT = resolve(__dirname, '..');

/** How the CLI, run at the repository's top, names the folder registry paths stay inside, and how the editor names the same folder. */
const CLI_BOUND = 'outside the repository, the current folder (it holds .git)';
const EDITOR_BOUND = 'outside the workspace folder';

let files: string[];

/**
 * Text as an editor opens the file: UTF-8, a byte-order mark decoded away (VS Code, Neovim and
 * Emacs hide it; the server finds it on disk). Undefined for non-UTF-8 bytes.
 */
function readText(file: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch {
    return undefined;
  }
}

describe('editor/CLI parity', () => {
  // The repository is the workspace folder for both: the CLI runs in it, the server is told so.
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(ROOT).href] });
  let cliOutput: { file: string; diagnostics: unknown[] }[];

  before(async () => {
    files = [...(await findFixtureFiles(join(ROOT, 'test/fixtures'))), ...(await findFixtureFiles(join(ROOT, 'examples')))];
    await client.initialize();
    // Exit status 1 (errors found) is expected; the JSON is on stdout either way.
    let stdout: string;
    try {
      stdout = execFileSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'lint', '--format', 'json', ...files], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    } catch (error) {
      stdout = (error as { stdout: string }).stdout;
    }
    cliOutput = JSON.parse(stdout, asSentToEditor);
    // The same folder bounds both, named in each one's words: the CLI names the repository it
    // runs in, the editor its workspace folder. Everything else in the message is compared.
    for (const report of cliOutput) {
      for (const diagnostic of report.diagnostics as { message: string }[]) diagnostic.message = diagnostic.message.split(CLI_BOUND).join(EDITOR_BOUND);
    }
  });
  after(() => client.kill());

  /** Opens a JSON file the CLI reported after the fixtures (registry.json, a schema) as plain JSON and compares its diagnostics. */
  async function compareJsonFile(report: { file: string; diagnostics: unknown[] }): Promise<void> {
    const path = resolve(ROOT, report.file);
    const uri = pathToFileURL(path).href;
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: readFileSync(path, 'utf8') } });
    const items = (await client.pullDiagnostics(uri)).items;
    await client.close(uri);
    const fromServer = items.map(asPublished);
    assert.ok(fromServer.length > 0, report.file);
    assert.deepEqual(fromServer, report.diagnostics, report.file);
  }

  test('there are fixtures to compare', () => {
    assert.ok(files.length >= 20, `only ${files.length} fixtures found`);
    // After the envelopes, the CLI reports every registry.json it used that has problems of its own, then their schema files' keyword findings.
    assert.ok(cliOutput.length > files.length, 'the broken test registries are reported');
    assert.deepEqual(cliOutput.slice(0, files.length).map((r) => resolve(ROOT, r.file)), files);
  });

  test('every registry.json with problems: server diagnostics equal the CLI report', async () => {
    for (const report of cliOutput.slice(files.length).filter((r) => r.file.endsWith('registry.json'))) await compareJsonFile(report);
  });

  test('every fixture: server diagnostics equal the CLI json output', async () => {
    let compared = 0;
    for (const [index, file] of files.entries()) {
      const text = readText(file);
      assert.ok(text !== undefined, `${file} is not UTF-8; parity fixtures must be text the editor can open`);
      const uri = pathToFileURL(file).href;
      await client.open(uri, text);
      const report = await client.pullDiagnostics(uri);
      await client.close(uri);
      const fromServer = report.items.map(asPublished);
      assert.deepEqual(fromServer, cliOutput[index].diagnostics, file);
      for (const d of report.items) assert.equal(d.source, 'babelqueue');
      compared++;
    }
    assert.equal(compared, files.length);
  });

  // After the fixtures, so the server has loaded every registry they use (and knows its schema files).
  test('every schema file with keyword findings: server diagnostics equal the CLI report', async () => {
    const schemaReports = cliOutput.slice(files.length).filter((r) => !r.file.endsWith('registry.json'));
    assert.ok(schemaReports.length >= 2, `schema files reported: ${schemaReports.map((r) => r.file).join(', ')}`);
    for (const report of schemaReports) await compareJsonFile(report);
  });
});
