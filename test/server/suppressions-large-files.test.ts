/**
 * A suppressions file open in the editor whose entries name large files, over real JSON-RPC
 * against dist/server.js: its stale entries are worked out at every pull of its diagnostics, so a
 * file the workspace's report would not read unopened (above 1 MiB) is not read for them either,
 * and the server answers other requests while it judges the fixtures it does read.
 */
import assert from 'node:assert/strict';
import { truncateSync, writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';
import { judgeWithHover } from '../support/suppressions-judging';

describe('a suppressions file naming large files', () => {
  test('files above 1 MiB that no editor holds are not read to judge their entries; the others are, and hovers are answered', async () => {
    const { uriOf, write, at } = scratchFolder('babelq-suppressed-large-');
    write('.git/HEAD', 'ref: refs/heads/main\n');
    write('mine.babel.json', GOOD_ENVELOPE);
    // Sparse files of zeros: nothing on disk, but tens of megabytes for a reader.
    for (const name of ['big1.babel.json', 'big2.babel.json', 'big3.bin']) {
      writeFileSync(at(name), '');
      truncateSync(at(name), 30 * 1024 * 1024);
    }
    const suppressions = JSON.stringify({
      suppressions: [
        ...['big1.babel.json', 'big2.babel.json', 'big3.bin'].map((file) => ({ file, code: 'invalid-urn', pointer: '/job', reason: 'legacy' })),
        { file: 'mine.babel.json', code: 'forbidden-key', pointer: '/other', reason: 'legacy' },
      ],
    }, null, 2);
    write('babelq-suppressions.json', suppressions);
    const client = new TestLspClient({ workspaceFolders: [uriOf('')], initializationOptions: { workspaceTrusted: false } });
    try {
      await client.initialize();
      const { items, hoverMs, pullMs } = await judgeWithHover(client, uriOf('mine.babel.json'), uriOf('babelq-suppressions.json'), suppressions);
      // Only the workspace's small fixture is judged: its entry is stale; the large files' are left alone.
      assert.deepEqual(items.map((item) => [item.code, item.message.includes('mine.babel.json')]), [['stale-suppression', true]], JSON.stringify(items));
      assert.ok(hoverMs < 2_000, `the hover waited ${hoverMs} ms`);
      assert.ok(pullMs < 2_000, `the suppressions file's diagnostics took ${pullMs} ms`);
    } finally {
      client.kill();
    }
  });
});
