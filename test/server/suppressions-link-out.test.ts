/**
 * A suppressions file that names a fixture through a symbolic link leading out of the workspace
 * folder, over real JSON-RPC against dist/server.js: the file the link leads to is not read, so
 * its findings decide nothing (an entry is not called stale, nor kept, by what a file elsewhere on
 * the machine holds), as `babelq lint` leaves such an entry, whose walk does not follow the link.
 */
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

describe('a suppressions entry for a link that leads out of the workspace', () => {
  test('the file elsewhere is not judged: no stale-suppression from what it holds', async () => {
    const elsewhere = scratchFolder('babelq-suppressed-elsewhere-');
    elsewhere.write('secret.babel.json', GOOD_ENVELOPE.replace(/\}\s*$/, ', "timestamp": 1 }'));
    const { uriOf, write, at } = scratchFolder('babelq-suppressed-link-');
    write('.git/HEAD', 'ref: refs/heads/main\n');
    write('babelq.json', {});
    write('mine.babel.json', GOOD_ENVELOPE);
    symlinkSync(elsewhere.at('secret.babel.json'), at('linked.babel.json'));
    const suppressions = JSON.stringify({
      suppressions: [
        { file: 'linked.babel.json', code: 'forbidden-key', pointer: '/timestamp', reason: 'kept on purpose' },
        { file: 'linked.babel.json', code: 'forbidden-key', pointer: '/other', reason: 'kept on purpose' },
        { file: 'mine.babel.json', code: 'forbidden-key', pointer: '/other', reason: 'kept on purpose' },
      ],
    }, null, 2);
    write('babelq-suppressions.json', suppressions);
    const client = new TestLspClient({ workspaceFolders: [uriOf('')] });
    try {
      await client.initialize();
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf('babelq-suppressions.json'), languageId: 'json', version: 1, text: suppressions } });
      const items = (await client.pullDiagnostics(uriOf('babelq-suppressions.json'))).items;
      // Only the entry of the workspace's own fixture is stale; the linked file's are left alone.
      assert.deepEqual(items.map((item) => [item.code, item.message.includes('mine.babel.json')]), [['stale-suppression', true]], JSON.stringify(items));
    } finally {
      client.kill();
    }
  });
});
