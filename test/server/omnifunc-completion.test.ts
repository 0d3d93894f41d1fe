/**
 * Completion of a URN as Neovim 0.7's vim.lsp.omnifunc applies it: it takes an item's edit start
 * only when the item has no filterText (else the start of the keyword before the cursor), keeps
 * the items whose text starts with what lies between that start and the cursor, and inserts the
 * text there, leaving everything after the cursor. Through that, the chosen URN must make the
 * fixture's string, not a quoted URN inside it (server/completion-edit.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { NEOVIM_0_7 } from '../support/editor-capabilities';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const { uriOf, write } = scratchFolder('babelq-omnifunc-');
write('.git/HEAD', 'ref: refs/heads/main\n');
write('registry.json', {
  schemas: [
    { urn: 'urn:babel:orders:created', schema: 'schemas/orders.json' },
    { urn: 'urn:babel:billing:invoice.paid', schema: 'schemas/orders.json' },
  ],
});
write('schemas/orders.json', { type: 'object', properties: { address: { type: 'object', required: ['city', 'country'], properties: { city: { type: 'string' }, country: { type: 'string' } } } } });

/** The `job` line holding `value` as written, the cursor at `cursor` characters into that line. */
function fixture(value: string): string {
  return GOOD_ENVELOPE.replace('"job": "urn:babel:orders:created"', `"job": ${value}`);
}

/** What Neovim 0.7's omnifunc makes of `line` when the item whose label is `label` is accepted (ASCII lines: bytes are characters). */
function omnifunc(line: string, cursor: number, items: any[], label: string): string | undefined {
  const keyword = /[A-Za-z0-9_\u00c0-\u00ff]*$/.exec(line.slice(0, cursor))!.index;
  const starts = new Set(items.filter((item) => item.filterText === undefined && item.textEdit).map((item) => item.textEdit.range.start.character));
  const start = starts.size === 1 ? [...starts][0] : keyword;
  const prefix = line.slice(start, cursor);
  const word = (item: any) => item.textEdit?.newText ?? item.insertText ?? item.label;
  const chosen = items.filter((item) => word(item).startsWith(prefix)).find((item) => item.label === label);
  return chosen && line.slice(0, start) + word(chosen) + line.slice(cursor);
}

describe('completion through Neovim 0.7 omnifunc', () => {
  for (const [name, value, column] of [
    ['after a typed prefix', '"urn:babel:bil"', 23],
    ['in an empty string', '""', 10],
  ] as const) {
    test(`${name}: the accepted URN is the string's value`, async () => {
      const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
      try {
        await client.initialize();
        const uri = uriOf('a.babel.json');
        const text = fixture(value);
        await client.open(uri, text);
        const result = await client.request('textDocument/completion', { textDocument: { uri }, position: { line: 1, character: column } });
        const items = Array.isArray(result) ? result : result.items;
        const line = text.split('\n')[1];
        const accepted = omnifunc(line, column, items, 'urn:babel:billing:invoice.paid');
        assert.equal(accepted, '  "job": "urn:babel:billing:invoice.paid",', JSON.stringify(items.map((item: any) => [item.label, item.filterText, item.textEdit])));
      } finally {
        client.kill();
      }
    });
  }

  test('a value typed straight after the colon (`"attempts":0`) is still offered, and accepted as typed', async () => {
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    try {
      await client.initialize();
      const uri = uriOf('c.babel.json');
      const text = GOOD_ENVELOPE.replace('"attempts": 0', '"attempts":0');
      assert.notEqual(text, GOOD_ENVELOPE);
      await client.open(uri, text);
      const line = text.split('\n').findIndex((l) => l.includes('"attempts":0'));
      const column = text.split('\n')[line].length;
      const result = await client.request('textDocument/completion', { textDocument: { uri }, position: { line, character: column } });
      const items = Array.isArray(result) ? result : result.items;
      assert.equal(omnifunc(text.split('\n')[line], column, items, '0'), '  "attempts":0', JSON.stringify(items.map((item: any) => [item.label, item.filterText, item.textEdit])));
    } finally {
      client.kill();
    }
  });

  test('a key being typed: the accepted key and its value', async () => {
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    try {
      await client.initialize();
      const uri = uriOf('b.babel.json');
      const text = '{\n  "job": "urn:babel:orders:created",\n  "da\n}\n';
      await client.open(uri, text);
      const result = await client.request('textDocument/completion', { textDocument: { uri }, position: { line: 2, character: 5 } });
      const items = Array.isArray(result) ? result : result.items;
      assert.equal(omnifunc(text.split('\n')[2], 5, items, 'data'), '  "data": {}', JSON.stringify(items.map((item: any) => [item.label, item.filterText, item.textEdit])));
    } finally {
      client.kill();
    }
  });

  // Vim's complete() puts a NUL character where an item's text breaks a line: a block laid out
  // on lines (meta, dead_letter, an object of the payload schema) left NULs in the buffer.
  test('a key whose value is a block (meta, dead_letter, an object field of the payload schema): its text is on one line', async () => {
    const client = new TestLspClient({ pullDiagnostics: false, workspaceFolders: [uriOf('')], capabilities: NEOVIM_0_7 });
    try {
      await client.initialize();
      const uri = uriOf('c.babel.json');
      const text = '{\n  "job": "urn:babel:orders:created",\n  "data": {\n    \n  },\n  \n}\n';
      await client.open(uri, text);
      const itemsAt = async (line: number, character: number): Promise<any[]> => {
        const result = await client.request('textDocument/completion', { textDocument: { uri }, position: { line, character } });
        return Array.isArray(result) ? result : result.items;
      };
      const keys = await itemsAt(5, 2);
      const payload = await itemsAt(3, 4);
      const blocks = [...keys.filter((item) => item.label === 'meta' || item.label === 'dead_letter'), ...payload.filter((item) => item.label === 'address')];
      assert.deepEqual(blocks.map((item) => item.label).sort(), ['address', 'dead_letter', 'meta']);
      for (const item of blocks) {
        const newText: string = item.textEdit.newText;
        assert.doesNotMatch(newText, /[\r\n]/, `${item.label}: ${JSON.stringify(newText)}`);
        const value = JSON.parse(`{${newText}}`)[item.label];
        assert.equal(typeof value, 'object', newText);
        assert.ok(Object.keys(value).length >= 2, newText);
      }
      assert.match(blocks.find((item) => item.label === 'meta').textEdit.newText, /^"meta": \{ "id": "[0-9a-f-]{36}", "queue": "default", "lang": "node", "schema_version": 1, "created_at": \d+ \}$/);
    } finally {
      client.kill();
    }
  });
});
