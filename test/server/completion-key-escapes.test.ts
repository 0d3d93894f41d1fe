/**
 * Completion of a payload key whose name holds a character that means something in a snippet or
 * in JSON (`$`, `}`, a backslash, a quote), over real JSON-RPC against dist/server.js: the key
 * inserted is the schema's, and the fixture stays JSON, for a client with snippets (VS Code: the
 * key escaped for the snippet, so `$type` is no variable and `\\` no lone backslash) and for one
 * without (eglot: the plain text the snippet expands to).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { snippetToPlainText } from '../../core/language/snippet';
import { applyEdits } from '../../core/model/edits';
import { LineIndex } from '../../core/model/positions';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const KEYS = ['$type', 'a}b', 'back\\slash', 'say "hi"'];

function fixture(dataText: string): string {
  return `{
  "job": "urn:babel:odd:keys",
  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
  "data": ${dataText},
  "meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "q", "lang": "go", "schema_version": 1, "created_at": 1749132727000 },
  "attempts": 0
}
`;
}

describe('completion of payload keys that hold snippet or JSON syntax', () => {
  for (const snippets of [true, false]) {
    test(`${snippets ? 'with' : 'without'} snippet support: each key is inserted as the schema names it`, async () => {
      const { uriOf, write } = scratchFolder('babelq-odd-keys-');
      write('.git/HEAD', 'ref: refs/heads/main\n');
      write('registry.json', { schemas: [{ urn: 'urn:babel:odd:keys', schema: 'odd.json', owner: 'odd', status: 'active' }] });
      write('odd.json', { type: 'object', properties: Object.fromEntries(KEYS.map((key) => [key, { type: 'boolean' }])) });
      const client = new TestLspClient({
        workspaceFolders: [uriOf('')],
        capabilities: { textDocument: { completion: { completionItem: { snippetSupport: snippets, insertReplaceSupport: snippets } } } },
      });
      try {
        await client.initialize();
        const text = fixture('{ "" }');
        const uri = uriOf('odd.babel.json');
        await client.open(uri, text);
        const lines = new LineIndex(text);
        const cursor = text.indexOf('{ "" }') + 3;
        const result = await client.request('textDocument/completion', { textDocument: { uri }, position: lines.positionAt(cursor) });
        const items: any[] = Array.isArray(result) ? result : result.items;
        const inserted = new Map<string, unknown>();
        for (const item of items.filter((candidate) => KEYS.includes(candidate.label))) {
          const edit = item.textEdit;
          const range = edit.range ?? edit.replace;
          const newText = item.insertTextFormat === 2 ? snippetToPlainText(edit.newText) : edit.newText;
          const after = applyEdits(text, [{ offset: lines.offsetAt(range.start), end: lines.offsetAt(range.end), newText }]);
          inserted.set(item.label, Object.keys(JSON.parse(after).data)[0]);
          // A `$` left bare in a snippet is a variable or a tab stop to the client, whatever the plain expansion says.
          if (item.insertTextFormat === 2) assert.doesNotMatch(edit.newText.split(':')[0], /(^|[^\\])\$/, edit.newText);
        }
        assert.deepEqual(Object.fromEntries(inserted), Object.fromEntries(KEYS.map((key) => [key, key])));
      } finally {
        client.kill();
      }
    });
  }
});
