/**
 * Positions are UTF-16 code units whatever a client offers in `general.positionEncodings` (LSP
 * 3.17: UTF-16 is the one every client supports, and a server that answers no `positionEncoding`
 * uses it): over stdio against dist/server.js, with `é` (two UTF-8 bytes, one UTF-16 unit) and 😀
 * (four bytes, two units, one code point) before the positions asked about, in a key and a value.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';

/** `"data": { "é😀": "é😀x", "price": 1.5 }`: the key, then the value, then a money float. */
const TEXT = GOOD_ENVELOPE.replace('{ "order_id": 1042 }', '{ "é😀": "é😀x", "price": 1.5 }');
const LINE = 3;
const lineText = TEXT.split('\n')[LINE];
/** A UTF-16 column of `needle` on the data line (what JavaScript's indexOf counts). */
const column = (needle: string, from = 0) => lineText.indexOf(needle, from);

for (const offered of [undefined, ['utf-8'], ['utf-32', 'utf-16'], ['utf-8', 'utf-16', 'utf-32']]) {
  test(`a client offering ${offered ? offered.join(', ') : 'no encodings'}: ranges and positions in UTF-16`, async (t) => {
    const client = new TestLspClient({ capabilities: { ...(offered ? { general: { positionEncodings: offered } } : {}), textDocument: { publishDiagnostics: {} } } });
    t.after(() => client.kill());
    const result = await client.initialize();
    assert.ok([undefined, 'utf-16'].includes(result.capabilities.positionEncoding), JSON.stringify(result.capabilities.positionEncoding));
    const uri = 'file:///workspace/encodings.babel.json';
    await client.open(uri, TEXT);
    const diagnostics = await client.lastPublished(uri);
    // The emoji of the value, and the money float after both: each at its UTF-16 columns.
    const emojiInValue = column('😀', column('"é😀x"'));
    const onValueEmoji = diagnostics.find((d) => d.code === 'encoding-divergence' && d.range.start.character === emojiInValue);
    assert.ok(onValueEmoji, `no encoding-divergence at ${emojiInValue}: ${JSON.stringify(diagnostics.map((d) => [d.code, d.range]))}`);
    assert.deepEqual(onValueEmoji.range, { start: { line: LINE, character: emojiInValue }, end: { line: LINE, character: emojiInValue + 2 } });
    const float = diagnostics.find((d) => d.code === 'float-currency')!;
    assert.deepEqual(float.range, { start: { line: LINE, character: column('1.5') }, end: { line: LINE, character: column('1.5') + 3 } });
    // An incremental change at UTF-16 columns after the emoji: 1.5 becomes 2 (an integer, no finding).
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: LINE, character: column('1.5') }, end: { line: LINE, character: column('1.5') + 3 } }, text: '2' }] });
    await client.waitForPublished((all) => all.at(-1)?.version === 2 && !all.at(-1)!.diagnostics.some((d) => d.code === 'float-currency'));
    // The selection at a UTF-16 position inside "price" is that key.
    const [selection] = await client.request('textDocument/selectionRange', { textDocument: { uri }, positions: [{ line: LINE, character: column('price') + 1 }] });
    assert.deepEqual(selection.range, { start: { line: LINE, character: column('"price"') }, end: { line: LINE, character: column('"price"') + 7 } });
  });
}
