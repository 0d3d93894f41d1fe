/**
 * A babelq.json or babelq-suppressions.json saved as UTF-16, opened in VS Code: the editor decodes
 * the file itself, so the text the server is sent holds no replacement character, yet `babelq lint`
 * refuses the bytes. Over real JSON-RPC against dist/server.js: the open file gets lint's one
 * finding, at offset 0, and nothing of its text is judged.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';

/** The text as VS Code sends it, decoded from UTF-16: an unknown key that would be a finding of its own. */
const CONFIG_TEXT = '{"notASetting": true}\n';
const SUPPRESSIONS_TEXT = '{"suppressions": "not a list"}\n';

function utf16le(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

function utf16be(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
}

interface Finding {
  readonly message: string;
  readonly range: { readonly start: { line: number; character: number }; readonly end: { line: number; character: number } };
}

describe('a project file saved as UTF-16, opened as VS Code opens it', () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-utf16-open-'));
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
  let initialized: Promise<unknown> | undefined;
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });

  for (const [name, text, encode] of [
    ['babelq.json', CONFIG_TEXT, utf16le],
    ['babelq-suppressions.json', SUPPRESSIONS_TEXT, utf16be],
  ] as const) {
    test(`${name}: the one finding lint gives, at the start, and no other`, async () => {
      const path = join(root, name);
      writeFileSync(path, encode(text));
      await (initialized ??= client.initialize());
      const uri = pathToFileURL(path).href;
      // As VS Code opens a project file: in its JSON with Comments language, the text decoded.
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'jsonc', version: 1, text } });
      const items = (await client.pullDiagnostics(uri)).items as Finding[];
      assert.deepEqual(
        items.map((item) => ({ message: item.message, range: item.range })),
        [{ message: `The file is not valid UTF-8 (it starts with a UTF-16 byte-order mark); ${name} is read as UTF-8. Save it as UTF-8.`, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }],
      );
    });
  }
});

describe('a babelq.json saved as UTF-16, open in the editor, gives no settings', () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-utf16-settings-'));
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });

  test('a fixture beside it keeps the finding its text turns off, as lint keeps it', async () => {
    const fixture = join(root, 'data.babel.json');
    writeFileSync(fixture, readFileSync(join(__dirname, '../../examples/bad/data.babel.json')));
    const text = '{"severity": {"float-currency": "off"}}\n';
    const config = join(root, 'babelq.json');
    writeFileSync(config, utf16le(text));
    await client.initialize();
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: pathToFileURL(config).href, languageId: 'jsonc', version: 1, text } });
    await client.pullDiagnostics(pathToFileURL(config).href);
    const fixtureUri = pathToFileURL(fixture).href;
    await client.open(fixtureUri, readFileSync(fixture, 'utf8'));
    const codes = ((await client.pullDiagnostics(fixtureUri)).items as { code: string }[]).map((item) => item.code);
    assert.ok(codes.includes('float-currency'), `float-currency expected among ${codes.join(', ')}`);
  });
});
