/**
 * A suppressions file open in the editor whose entries name more fixture text than one judging may
 * read, over real JSON-RPC against dist/server.js: its stale entries are worked out at every pull
 * of its diagnostics, so the judging stops at its budget of bytes, the entries it did not reach are
 * not called stale, and one note (information, on the first of them) says how many were not
 * checked and that `babelq lint` checks them all. Hovers are answered while it judges. Past 2,000
 * fixtures the same note counts the entries left by that limit.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';
import { judgeWithHover } from '../support/suppressions-judging';

/** An envelope of about 0.9 MiB (under the 1 MiB a fixture no editor holds is read within), without findings of its own. */
function largeEnvelope(): string {
  const envelope = JSON.parse(GOOD_ENVELOPE) as { data: Record<string, unknown> };
  envelope.data.rows = Array.from({ length: 9_500 }, (_, i) => ({ sku: `sku-${i}`, count: i, note: 'a line of text' }));
  return JSON.stringify(envelope, null, 2);
}

const FIXTURES = 40;

describe('a suppressions file naming more fixture text than a judging reads', () => {
  test('the judging stops at its budget, the entries past it are not stale, a note says so, and hovers are answered', async () => {
    const { uriOf, write } = scratchFolder('babelq-suppressions-budget-');
    write('.git/HEAD', 'ref: refs/heads/main\n');
    write('mine.babel.json', GOOD_ENVELOPE);
    const large = largeEnvelope();
    assert.ok(large.length > 900_000 && large.length < 1024 * 1024, `${large.length}`);
    const names = Array.from({ length: FIXTURES }, (_, i) => `large/${String(i).padStart(2, '0')}.babel.json`);
    for (const name of names) write(name, large);
    // Each entry matches nothing: every one judged is stale.
    const suppressions = JSON.stringify({ suppressions: names.map((file) => ({ file, code: 'forbidden-key', pointer: '/other', reason: 'legacy' })) }, null, 2);
    write('babelq-suppressions.json', suppressions);
    const client = new TestLspClient({ workspaceFolders: [uriOf('')], initializationOptions: { workspaceTrusted: false } });
    try {
      await client.initialize();
      const { items, hoverMs } = await judgeWithHover(client, uriOf('mine.babel.json'), uriOf('babelq-suppressions.json'), suppressions);

      const stale = items.filter((item) => item.code === 'stale-suppression');
      const notes = items.filter((item) => item.code === 'unchecked-suppressions');
      assert.equal(notes.length, 1, JSON.stringify(items.map((item) => [item.code, item.message])));
      const [note] = notes;
      // Fixtures are judged in the file's order until the budget is spent: the first entries are stale, the rest unchecked.
      assert.ok(stale.length > 0 && stale.length < FIXTURES, `${stale.length} of ${FIXTURES} judged`);
      const unchecked = FIXTURES - stale.length;
      assert.equal(note.severity, 3, 'information');
      assert.match(note.message, new RegExp(`^${unchecked} suppressions were not checked here`));
      assert.match(note.message, /16 MiB/);
      assert.match(note.message, /babelq lint/);
      assert.ok(note.message.length < 400, note.message);
      // On the first entry not checked, one character, as the entries' own findings.
      const lines = suppressions.split('\n');
      const firstUnchecked = lines.findIndex((line) => line.includes(names[stale.length]));
      assert.deepEqual(note.range, { start: { line: firstUnchecked - 1, character: 4 }, end: { line: firstUnchecked - 1, character: 5 } });
      assert.ok(hoverMs < 2_000, `the hover waited ${hoverMs} ms`);
    } finally {
      client.kill();
    }
  });

  test('past 2,000 fixtures the entries are not judged, and the note counts them by that limit', async () => {
    const { uriOf, write } = scratchFolder('babelq-suppressions-count-');
    write('.git/HEAD', 'ref: refs/heads/main\n');
    const count = 2_003;
    const names = Array.from({ length: count }, (_, i) => `many/${String(i).padStart(4, '0')}.babel.json`);
    for (const name of names) write(name, GOOD_ENVELOPE);
    const suppressions = JSON.stringify({ suppressions: names.map((file) => ({ file, code: 'forbidden-key', pointer: '/other', reason: 'legacy' })) }, null, 2);
    write('babelq-suppressions.json', suppressions);
    const client = new TestLspClient({ workspaceFolders: [uriOf('')], initializationOptions: { workspaceTrusted: false } });
    try {
      await client.initialize();
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf('babelq-suppressions.json'), languageId: 'json', version: 1, text: suppressions } });
      const items = (await client.pullDiagnostics(uriOf('babelq-suppressions.json'))).items;
      assert.equal(items.filter((item) => item.code === 'stale-suppression').length, 2_000);
      const notes = items.filter((item) => item.code === 'unchecked-suppressions');
      assert.equal(notes.length, 1);
      assert.match(notes[0].message, /^3 suppressions were not checked here \(the first is this one\): at each change of this file the editor judges the entries of at most 2,000 fixtures\. babelq lint checks them all/);
      const line = suppressions.split('\n').findIndex((text) => text.includes(names[2_000])) - 1;
      assert.deepEqual(notes[0].range, { start: { line, character: 4 }, end: { line, character: 5 } });
    } finally {
      client.kill();
    }
  });
});
