/**
 * babelq.json's own problems reach the editor without the file being opened, over real JSON-RPC
 * against dist/server.js: the workspace's report (`workspace/diagnostic`) lists each babelq.json
 * (and suppressions file) that `babelq lint` reports, with the same code, message and range, a
 * babelq.json that is a directory, a named pipe or a link to nothing included (none can be opened in an editor);
 * result ids say what changed, and a file event brings the mended file's empty report.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { asPublished, asSentToEditor } from '../support/published';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const ROOT = resolve(__dirname, '../..');
const FIXTURE = readFileSync(join(ROOT, 'examples/bad/data.babel.json'), 'utf8');
const { base, at, uriOf, write } = scratchFolder('babelq-config-reports-');

const pipes = process.platform !== 'win32';
mkdirSync(at('.git'));
write('unknown-key/babelq.json', '{"bogus": 1, "severity": {"float-currency": "off"}}\n');
mkdirSync(at('directory/babelq.json'), { recursive: true });
write('not-json/babelq.json', '{"severity": {"float-currency": "off"}');
// Saved as UTF-16 (a Windows editor's choice): said to be not UTF-8, in CLI and editor alike.
mkdirSync(at('utf16'));
writeFileSync(at('utf16/babelq.json'), Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]));
write('healthy/babelq.json', '{ "severity": { "float-currency": "off" } }\n');
// A suppressions file on its own: an entry without a pointer (config-error), one without a reason (unexplained-suppression).
write('suppressed/babelq-suppressions.json', '{\n  "suppressions": [\n    { "file": "data.babel.json", "code": "non-iso-time", "reason": "legacy" },\n    { "file": "data.babel.json", "code": "unsafe-integer", "pointer": "/data/ledger_entry_id" }\n  ]\n}\n');
for (const folder of ['unknown-key', 'directory', 'not-json', 'utf16', 'healthy', 'suppressed', ...(pipes ? ['pipe'] : [])]) write(`${folder}/data.babel.json`, FIXTURE);
if (pipes) execFileSync('mkfifo', [at('pipe/babelq.json')]);
// A link whose config was moved away: a config that is there by its name, not one that is absent.
if (pipes) {
  write('dangling/data.babel.json', FIXTURE);
  symlinkSync('moved/babelq.json', at('dangling/babelq.json'));
}

type Item = { kind: 'full' | 'unchanged'; uri: string; version?: number | null; resultId?: string; items?: any[] };
const workspaceReport = async (client: TestLspClient, previous: Item[] = []) =>
  (await client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: previous.filter((item) => item.resultId).map((item) => ({ uri: item.uri, value: item.resultId! })) })).items;
/** The report unless the server holds it (nothing new) for longer than `ms`. */
const reportWithin = (client: TestLspClient, previous: Item[], ms = 500) => Promise.race([workspaceReport(client, previous), new Promise<Item[]>((done) => setTimeout(() => done([]), ms))]);
const isProjectFile = (uri: string) => uri.endsWith('/babelq.json') || uri.endsWith('/babelq-suppressions.json');

function lint(): { file: string; diagnostics: unknown[] }[] {
  try {
    return JSON.parse(execFileSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'lint', '.', '--format', 'json'], { cwd: base, encoding: 'utf8' }), asSentToEditor);
  } catch (error) {
    return JSON.parse((error as { stdout: string }).stdout, asSentToEditor);
  }
}

describe('babelq.json\'s problems without opening it', () => {
  test('the workspace report lists each project file babelq lint reports, with lint\'s findings; mended, it is reported empty', async () => {
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(base).href] });
    try {
      await client.initialize();
      const first = await workspaceReport(client);
      const fromLint = lint().filter((report) => isProjectFile(report.file));
      assert.deepEqual(
        fromLint.map((report) => report.file).sort(),
        ['directory/babelq.json', 'not-json/babelq.json', 'suppressed/babelq-suppressions.json', 'unknown-key/babelq.json', 'utf16/babelq.json', ...(pipes ? ['pipe/babelq.json', 'dangling/babelq.json'] : [])].sort(),
        'the project files babelq lint reports',
      );
      const reported = first.filter((item) => isProjectFile(item.uri));
      assert.deepEqual(reported.map((item) => item.uri).sort(), fromLint.map((report) => uriOf(report.file)).sort(), 'the server reports the same files (a healthy babelq.json is not listed)');
      for (const report of fromLint) {
        const item = reported.find((candidate) => candidate.uri === uriOf(report.file))!;
        assert.equal(item.kind, 'full');
        assert.deepEqual(item.items!.map(asPublished), report.diagnostics, report.file);
      }
      // What lint says of a babelq.json it cannot read, the editor says at the same place: 1:1 of the file.
      const directory = reported.find((item) => item.uri === uriOf('directory/babelq.json'))!;
      assert.match(directory.items![0].message, /cannot be read: .* is a directory/);
      assert.deepEqual(directory.items![0].range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });

      const utf16 = reported.find((item) => item.uri === uriOf('utf16/babelq.json'))!;
      assert.deepEqual(utf16.items!.map((item) => item.message), ['The file is not valid UTF-8 (it starts with a UTF-16 byte-order mark); babelq.json is read as UTF-8. Save it as UTF-8.']);

      // Asked again with what it holds: nothing new.
      const again = await reportWithin(client, first);
      assert.deepEqual(again.filter((item) => isProjectFile(item.uri) && item.kind === 'full'), []);

      // Mended on disk (the directory replaced by a file): reported empty after the file events, the others as they were.
      write('not-json/babelq.json', '{"severity": {"float-currency": "off"}}\n');
      rmSync(at('directory/babelq.json'), { recursive: true });
      write('directory/babelq.json', '{}\n');
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('not-json/babelq.json'), type: 2 }, { uri: uriOf('directory/babelq.json'), type: 1 }] });
      const mended = await workspaceReport(client, first);
      const full = mended.filter((item) => isProjectFile(item.uri) && item.kind === 'full');
      assert.deepEqual(full.map((item) => [item.uri, item.items]).sort(), [[uriOf('directory/babelq.json'), []], [uriOf('not-json/babelq.json'), []]], JSON.stringify(mended));
      assert.ok(mended.some((item) => item.uri === uriOf('unknown-key/babelq.json') && item.kind === 'unchanged'));
      const settled = await reportWithin(client, [...first.filter((item) => !full.some((mendedItem) => mendedItem.uri === item.uri)), ...mended]);
      assert.deepEqual(settled.filter((item) => isProjectFile(item.uri) && item.kind === 'full'), []);
    } finally {
      write('not-json/babelq.json', '{"severity": {"float-currency": "off"}');
      rmSync(at('directory/babelq.json'), { recursive: true });
      mkdirSync(at('directory/babelq.json'));
      client.kill();
    }
  });

  test('an open babelq.json is reported as its editor holds it, unsaved edits included', async () => {
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(base).href] });
    try {
      await client.initialize();
      const first = await workspaceReport(client);
      assert.ok(!first.some((item) => item.uri === uriOf('healthy/babelq.json')));
      const uri = uriOf('healthy/babelq.json');
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'jsonc', version: 1, text: '{ "severty": {} }\n' } });
      const edited = await workspaceReport(client, first);
      const item = edited.find((candidate) => candidate.uri === uri);
      assert.equal(item?.version, 1);
      assert.deepEqual(item?.items?.map((d) => d.code), ['config-error']);
      assert.deepEqual(item?.items?.map(asPublished), (await client.pullDiagnostics(uri)).items.map(asPublished), 'as the document\'s own diagnostics');
      // Closed unsaved: what the disk says, which has no problem.
      await client.close(uri);
      const closed = await workspaceReport(client, [...first, ...edited]);
      assert.deepEqual(closed.find((candidate) => candidate.uri === uri)?.items, []);
    } finally {
      client.kill();
    }
  });
});
