/**
 * Formatting, the outline, folding and selection ranges over the protocol, on hostile texts: the
 * editor's final-newline options as LSP defines them, 100,000 levels of nesting, a million keys,
 * broken JSON, CR/CRLF line breaks and lone surrogates. Every answer stays inside the document,
 * selection ranges nest strictly, nothing fails in the log, and an answer cut at a cap says so
 * (once per document, as information) instead of leaving the user to think the file ends there.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MessageType } from 'vscode-languageserver-protocol';
import { applyEdits } from '../../core/model/edits';
import { LineIndex } from '../../core/model/positions';
import { TestLspClient } from '../support/lsp-client';

function applyLspEdits(text: string, edits: { range: { start: any; end: any }; newText: string }[]): string {
  const lines = new LineIndex(text);
  return applyEdits(
    text,
    edits.map((edit) => ({ offset: lines.offsetAt(edit.range.start), end: lines.offsetAt(edit.range.end), newText: edit.newText })),
  );
}

interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

describe('formatting, outline, folding and selection on hostile texts', () => {
  const client = new TestLspClient();
  let version = 1;
  const opened = new Set<string>();
  const show = async (uri: string, text: string): Promise<void> => {
    if (opened.has(uri)) await client.change(uri, text, ++version);
    else await client.open(uri, text, ++version);
    opened.add(uri);
  };
  const format = async (uri: string, text: string, options: Record<string, unknown>): Promise<string> => {
    await show(uri, text);
    return applyLspEdits(text, await client.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true, ...options } }));
  };

  before(() => client.initialize());
  after(() => client.kill());

  test('trimFinalNewlines trims the line breaks after the last one, and keeps that one', async () => {
    const uri = 'file:///workspace/final-newline.babel.json';
    const trim = { insertFinalNewline: false, trimFinalNewlines: true };
    assert.equal(await format(uri, '{"a":1}\n\n\n', trim), '{\n  "a": 1\n}\n');
    assert.equal(await format(uri, '{"a":1}\n', trim), '{\n  "a": 1\n}\n');
    assert.equal(await format(uri, '{"a":1}\r\n\r\n', trim), '{\r\n  "a": 1\r\n}\r\n');
    assert.equal(await format(uri, '{"a":1}', trim), '{\n  "a": 1\n}', 'trimming adds none');
    assert.equal(await format(uri, '{"a":1}', { insertFinalNewline: true, trimFinalNewlines: true }), '{\n  "a": 1\n}\n');
    assert.equal(await format(uri, '{"a":1}\n\n', { insertFinalNewline: true }), '{\n  "a": 1\n}\n');
  });

  test('a formatting request refused says why once per document, as information, and changes nothing', async () => {
    const uri = 'file:///workspace/refused.babel.json';
    const notices = () => client.shown.filter((message) => message.type === MessageType.Info && /refused\.babel\.json/.test(message.message));
    const broken = '{"a":1,,\n"b":2}';
    assert.equal(await format(uri, broken, {}), broken);
    await waitFor(() => notices().length >= 1);
    assert.equal(notices().length, 1);
    assert.match(notices()[0].message, /not formatted/);
    assert.match(notices()[0].message, /syntax error/);
    assert.equal(await format(uri, broken + ' ', {}), broken + ' ');
    // Valid, but laid out its 100,000 levels would be billions of characters.
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    assert.equal(await format(uri, deep, {}), deep);
    await waitFor(() => notices().length >= 2);
    assert.equal(notices().length, 2);
    assert.match(notices()[1].message, /not formatted/);
    assert.match(notices()[1].message, /longer than 67,108,864 characters/);
    await format(uri, deep, {});
    // A formatted or formattable document says nothing.
    assert.equal(await format(uri, '{"a":1}', {}), '{\n  "a": 1\n}');
    assert.equal(await format(uri, '{\n  "a": 1\n}', {}), '{\n  "a": 1\n}');
    assert.equal(notices().length, 2);
  });

  test('broken, deep, CR and surrogate texts: ranges inside the document, strictly nested selections', async () => {
    const uri = 'file:///workspace/hostile.babel.json';
    const samples = [
      '{"a":[1,2,{"b":}\n,"c" 3',
      '{\r\n"a":{\r\n"b":[\r\n1\r\n]\r\n}\r\n}\r\n',
      '{\r"a":{\r"b":[\r1\r]\r}\r}\r',
      '{"\ud800":{"😀":"\udfff"},\n"b":[\n"𝄞"\n]}',
      '\ufeff{"a":{\n"b":1\n}}',
      '{"a":1}}}]]',
      '{"a":['.repeat(100_000),
      '[\n'.repeat(100_000) + ']\n'.repeat(100_000),
      '',
    ];
    for (const text of samples) {
      await show(uri, text);
      const lines = new LineIndex(text);
      const lastLine = lines.positionAt(text.length).line;
      const inside = (range: LspRange) => {
        const start = lines.offsetAt(range.start);
        const end = lines.offsetAt(range.end);
        assert.deepEqual(lines.positionAt(start), range.start, 'a start past the end of its line');
        assert.deepEqual(lines.positionAt(end), range.end, 'an end past the end of its line');
        assert.ok(start <= end);
        return [start, end];
      };
      const label = JSON.stringify(text.slice(0, 40));
      const edits: any[] = await client.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
      if (edits.length > 0) assert.deepEqual(JSON.parse(applyLspEdits(text, edits)), JSON.parse(text), label);
      const folds: any[] = await client.request('textDocument/foldingRange', { textDocument: { uri } });
      for (const fold of folds) assert.ok(fold.startLine >= 0 && fold.startLine < fold.endLine && fold.endLine <= lastLine, label);
      const symbols: any[] = await client.request('textDocument/documentSymbol', { textDocument: { uri } });
      const stack = [...symbols];
      while (stack.length > 0) {
        const symbol = stack.pop();
        const [start, end] = inside(symbol.range);
        const [selectionStart, selectionEnd] = inside(symbol.selectionRange);
        assert.ok(start <= selectionStart && selectionEnd <= end, label);
        stack.push(...(symbol.children ?? []));
      }
      const positions = [0, 1, Math.floor(text.length / 2), text.length].map((offset) => lines.positionAt(Math.min(offset, text.length)));
      const selections: any[] = await client.request('textDocument/selectionRange', { textDocument: { uri }, positions });
      assert.equal(selections.length, positions.length);
      selections.forEach((selection, index) => {
        const [start, end] = inside(selection.range);
        const at = lines.offsetAt(positions[index]);
        assert.ok(start <= at && at <= end, `${label}: the innermost range holds the cursor`);
        for (let child = selection, parent = selection.parent; parent; child = parent, parent = parent.parent) {
          const [childStart, childEnd] = inside(child.range);
          const [parentStart, parentEnd] = inside(parent.range);
          assert.ok(parentStart <= childStart && childEnd <= parentEnd && parentEnd - parentStart > childEnd - childStart, `${label}: a parent that does not strictly contain its child`);
        }
      });
    }
    assert.deepEqual(client.logs.filter((line) => /failed|error/i.test(line)), []);
  });

  test('10,000 cursors in a 2,000-level document: an answer of bounded size, each range holding its cursor, and a word that it was cut', async () => {
    const uri = 'file:///workspace/many-cursors.babel.json';
    const depth = 2000;
    const text = '['.repeat(depth) + ']'.repeat(depth);
    await show(uri, text);
    const positions = Array.from({ length: 10_000 }, (_, i) => ({ line: 0, character: depth - (i % 1000) }));
    const started = Date.now();
    const selections: any[] = await client.request('textDocument/selectionRange', { textDocument: { uri }, positions });
    assert.ok(Date.now() - started < 20_000, `answered in ${Date.now() - started} ms`);
    assert.equal(selections.length, positions.length);
    let ranges = 0;
    selections.forEach((selection, index) => {
      assert.ok(selection.range.start.character <= positions[index].character && positions[index].character <= selection.range.end.character);
      for (let range = selection; range; range = range.parent) ranges++;
    });
    assert.ok(ranges <= 1_000_000, `${ranges} ranges in one answer`);
    await waitFor(() => client.shown.some((message) => /many-cursors\.babel\.json/.test(message.message)));
    assert.equal(client.shown.filter((message) => message.type === MessageType.Info && /selection/i.test(message.message) && /many-cursors\.babel\.json/.test(message.message)).length, 1);
    // The server is still there and answers.
    assert.ok(Array.isArray(await client.request('textDocument/documentSymbol', { textDocument: { uri } })));
  });

  test('an outline, folding or selection cut at its cap says so once per document, as information', async () => {
    const uri = 'file:///workspace/million.babel.json';
    // A million keys, the first 6,000 of them objects that fold.
    const keys = `{\n${Array.from({ length: 1_000_000 }, (_, i) => (i < 6000 ? `"k${i}": {\n"v": ${i}\n}` : `"k${i}":${i}`)).join(',\n')}\n}`;
    await show(uri, keys);
    const before = client.shown.length;
    const symbols: any[] = await client.request('textDocument/documentSymbol', { textDocument: { uri } });
    assert.equal(symbols.length, 1000);
    const folds: any[] = await client.request('textDocument/foldingRange', { textDocument: { uri } });
    assert.equal(folds.length, 5000);
    const notices = () => client.shown.slice(before).filter((message) => message.type === MessageType.Info);
    await waitFor(() => notices().length >= 2);
    assert.equal(notices().filter((message) => /outline/i.test(message.message) && /1,000/.test(message.message) && /million\.babel\.json/.test(message.message)).length, 1, JSON.stringify(notices()));
    assert.equal(notices().filter((message) => /fold/i.test(message.message) && /5,000/.test(message.message)).length, 1, JSON.stringify(notices()));
    // Asked again (the workbench asks after every pause in typing): said once.
    await client.request('textDocument/documentSymbol', { textDocument: { uri } });
    await client.request('textDocument/foldingRange', { textDocument: { uri } });
    await client.change(uri, keys.replace('"k0"', '"k00"'), ++version);
    await client.request('textDocument/documentSymbol', { textDocument: { uri } });
    assert.equal(notices().length, 2);

    const deepUri = 'file:///workspace/deep.babel.json';
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    await show(deepUri, deep);
    const [selection] = await client.request('textDocument/selectionRange', { textDocument: { uri: deepUri }, positions: [{ line: 0, character: 2500 }] });
    let levels = 0;
    for (let range = selection; range; range = range.parent) levels++;
    assert.equal(levels, 1000);
    await waitFor(() => notices().some((message) => /selection/i.test(message.message)));
    assert.equal(notices().filter((message) => /selection/i.test(message.message) && /deep\.babel\.json/.test(message.message)).length, 1);

    // A document under every cap says nothing.
    const smallUri = 'file:///workspace/small.babel.json';
    await show(smallUri, '{\n"a": [\n1\n]\n}');
    const count = client.shown.length;
    await client.request('textDocument/documentSymbol', { textDocument: { uri: smallUri } });
    await client.request('textDocument/foldingRange', { textDocument: { uri: smallUri } });
    await client.request('textDocument/selectionRange', { textDocument: { uri: smallUri }, positions: [{ line: 2, character: 0 }] });
    await client.request('textDocument/hover', { textDocument: { uri: smallUri }, position: { line: 0, character: 0 } });
    assert.equal(client.shown.length, count);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  // Notifications sent before a reply arrive before it; one more round trip settles any stragglers.
  for (let i = 0; i < 50 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}
