/**
 * A value completed right after a key's colon (the `:` trigger character, or a value typed with no
 * space before it) is laid out as every other line is, one space after the colon, in a client with
 * snippets and insertReplaceSupport (VS Code) and in plain ones (Neovim 0.7's omnifunc, eglot),
 * and the items are still filtered on what the user typed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyEdits } from '../../core/model/edits';
import { LineIndex } from '../../core/model/positions';
import { EGLOT_1_9, NEOVIM_0_7 } from '../support/editor-capabilities';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';

type Item = { label: string; filterText?: string; textEdit: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string } };

/** `text` with the item's edit applied, its snippet placeholders at their defaults. */
function accept(text: string, item: Item): string {
  const lines = new LineIndex(text);
  const applied = applyEdits(text, [{ offset: lines.offsetAt(item.textEdit.range.start), end: lines.offsetAt(item.textEdit.range.end), newText: item.textEdit.newText }]);
  return applied.replace(/\$\{\d+\|([^,|]*)[^}]*\}/g, '$1').replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\d+/g, '');
}

/** What the client filters an item on: the text from its edit's start to the cursor, against its filterText (else its label). */
function kept(text: string, cursor: { line: number; character: number }, item: Item): boolean {
  const line = text.split('\n')[cursor.line];
  const typed = line.slice(item.textEdit.range.start.character, cursor.character);
  return (item.filterText ?? item.label).startsWith(typed);
}

const CLIENTS = [
  ['VS Code (snippets, insertReplaceSupport)', undefined],
  ['Neovim 0.7', NEOVIM_0_7],
  ['eglot 1.9', EGLOT_1_9],
] as const;

describe('a value completed right after the colon', () => {
  for (const [name, capabilities] of CLIENTS) {
    test(`${name}: one space after the colon, as on every other line, and none added where one is`, async () => {
      const client = new TestLspClient({ pullDiagnostics: false, ...(capabilities ? { capabilities } : {}) });
      try {
        await client.initialize();
        const uri = 'file:///workspace/after-colon.babel.json';
        const complete = async (text: string, version: number, value: string, trigger?: string) => {
          const line = text.split('\n').findIndex((l) => l.includes('"lang":'));
          const cursor = { line, character: text.split('\n')[line].indexOf('"lang":') + 7 + value.length };
          await client.change(uri, text, version);
          const result = await client.request('textDocument/completion', { textDocument: { uri }, position: cursor, ...(trigger ? { context: { triggerKind: 2, triggerCharacter: trigger } } : {}) });
          const items: Item[] = Array.isArray(result) ? result : result.items;
          const node = items.find((item) => item.label === 'node');
          assert.ok(node, JSON.stringify(items));
          assert.ok(kept(text, cursor, node), `filtered out: ${JSON.stringify(node)}`);
          return accept(text, node).split('\n')[line];
        };
        await client.open(uri, GOOD_ENVELOPE);
        // Typed `:` after the key (the trigger character).
        assert.equal(await complete(GOOD_ENVELOPE.replace('"lang": "php"', '"lang":'), 2, '', ':'), '    "lang": "node",');
        // With the space typed: none added.
        assert.equal(await complete(GOOD_ENVELOPE.replace('"lang": "php"', '"lang": '), 3, ' ', ':'), '    "lang": "node",');
        assert.equal(await complete(GOOD_ENVELOPE.replace('"lang": "php"', '"lang": "no"'), 4, ' "no', '"'), '    "lang": "node",');
        // A string typed straight after the colon, completed in it: a client that replaces the
        // whole string (VS Code) lays it out; one that completes the string's content keeps the line as typed.
        const inString = await complete(GOOD_ENVELOPE.replace('"lang": "php"', '"lang":"no"'), 5, '"no', '"');
        assert.equal(inString, capabilities ? '    "lang":"node",' : '    "lang": "node",');
      } finally {
        client.kill();
      }
    });
  }

  test('a skeleton value (attempts) after the colon: `"attempts": 0`', async () => {
    const client = new TestLspClient({ pullDiagnostics: false });
    try {
      await client.initialize();
      const uri = 'file:///workspace/attempts-after-colon.babel.json';
      const text = GOOD_ENVELOPE.replace('"attempts": 0', '"attempts":');
      await client.open(uri, text);
      const line = text.split('\n').findIndex((l) => l.includes('"attempts":'));
      const cursor = { line, character: text.split('\n')[line].length };
      const result = await client.request('textDocument/completion', { textDocument: { uri }, position: cursor, context: { triggerKind: 2, triggerCharacter: ':' } });
      const items: Item[] = Array.isArray(result) ? result : result.items;
      assert.deepEqual(items.map((item) => accept(text, item).split('\n')[line]), ['  "attempts": 0']);
      assert.ok(kept(text, cursor, items[0]));
    } finally {
      client.kill();
    }
  });
});
