/**
 * LineIndex's positions are the LSP text document's (vscode-languageserver-textdocument): an
 * offset inside a CRLF, between its CR and its LF, is the end of its line, never a character past
 * it. The same for an index made by LineIndex.afterEdit, moves recorded or not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex } from '../../../core/model/positions';
import { textChange } from '../../../core/parse/incremental';

test('an offset between the CR and the LF of a line end is the end of that line; offsetAt of it is the CR', () => {
  const text = '{\r\n  "a": 1\r\n}';
  const lines = new LineIndex(text);
  assert.deepEqual(lines.positionAt(2), { line: 0, character: 1 }, 'between the first CR and LF');
  assert.deepEqual(lines.positionAt(text.indexOf('1') + 2), { line: 1, character: 8 }, 'between the second CR and LF');
  assert.equal(lines.offsetAt(lines.positionAt(2)), 1);
  // Either side of the line end is as before: the CR is the line's end, the LF's next the next line's start.
  assert.deepEqual(lines.positionAt(1), { line: 0, character: 1 });
  assert.deepEqual(lines.positionAt(3), { line: 1, character: 0 });
  // A range that ends inside the line end ends at the end of its line.
  assert.deepEqual(lines.rangeAt(text.indexOf('"a"'), text.indexOf('1') + 2), { start: { line: 1, character: 2 }, end: { line: 1, character: 8 } });
});

/** Every offset's position, and every position's offset, as the LSP text document gives them. */
function assertAsTextDocument(lines: LineIndex, text: string, what: string): void {
  const document = TextDocument.create('file:///t', 'json', 1, text);
  for (let offset = -1; offset <= text.length + 1; offset++) {
    const position = lines.positionAt(offset);
    assert.deepEqual(position, document.positionAt(offset), `${what}: offset ${offset}`);
    assert.equal(lines.offsetAt(position), document.offsetAt(position), `${what}: back from offset ${offset}`);
  }
  for (let line = -1; line <= document.lineCount; line++) {
    for (let character = -1; character <= 6; character++) assert.equal(lines.offsetAt({ line, character }), document.offsetAt({ line, character }), `${what}: ${line}:${character}`);
  }
}

test('every offset and position of texts with CR, LF and CRLF line ends, scanned or made by afterEdit from a scanned index, is the text document\'s', () => {
  let seed = 20261207;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pieces = ['a', 'b', '\n', '\r', '\r\n', '\r\n', 'é'];
  const random = (length: number) => Array.from({ length }, () => pieces[Math.floor(rand() * pieces.length)]).join('');
  for (let i = 0; i < 3000; i++) {
    const old = random(Math.floor(rand() * 14));
    assertAsTextDocument(new LineIndex(old), old, JSON.stringify(old));
    const at = Math.floor(rand() * (old.length + 1));
    const text = old.slice(0, at) + random(Math.floor(rand() * 3)) + old.slice(at + Math.floor(rand() * 3));
    const previous = new LineIndex(old);
    previous.positionAt(0); // scanned: afterEdit derives from it
    const change = textChange(old, text);
    assertAsTextDocument(LineIndex.afterEdit(previous, text, change.from, change.oldEnd, change.newEnd), text, `${JSON.stringify(old)} → ${JSON.stringify(text)}`);
  }
});

test('typing within lines of a CRLF text (the moves recorded, not applied): every offset and position is the text document\'s', () => {
  let text = Array.from({ length: 40 }, (_, line) => `  "k${line}": "value"`).join('\r\n');
  let index = new LineIndex(text);
  index.positionAt(0);
  for (let keystroke = 0; keystroke < 60; keystroke++) {
    // Inside the value of a line spread over the text: its line end is not touched.
    const line = (keystroke * 7) % 40;
    const at = index.lineStart(line) + text.slice(index.lineStart(line)).indexOf('value') + 2;
    const next = text.slice(0, at) + 'x' + text.slice(at);
    index = LineIndex.afterEdit(index, next, at, at, at + 1);
    text = next;
    assertAsTextDocument(index, text, `keystroke ${keystroke}`);
  }
});
