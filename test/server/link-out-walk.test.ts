/**
 * A `*.babel.json` that is a symbolic link to a file outside the workspace folder, over real
 * JSON-RPC against dist/server.js: the workspace's report does not follow it (the file it leads to
 * is neither read nor listed, as `babelq lint` leaves it), and the log says so once, as it says of
 * a named pipe or a link to nothing.
 */
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

describe('a fixture that is a link leading out of the workspace', () => {
  test('left out of the workspace\'s problems unread, and said in the log once', async () => {
    const elsewhere = scratchFolder('babelq-link-out-target-');
    elsewhere.write('secret.babel.json', GOOD_ENVELOPE.replace(/\}\s*$/, ', "timestamp": 1 }'));
    const { uriOf, write, at } = scratchFolder('babelq-link-out-');
    write('.git/HEAD', 'ref: refs/heads/main\n');
    write('mine.babel.json', GOOD_ENVELOPE.replace(/\}\s*$/, ', "timestamp": 1 }'));
    symlinkSync(elsewhere.at('secret.babel.json'), at('linked.babel.json'));
    const client = new TestLspClient({ workspaceFolders: [uriOf('')], watchesFiles: true });
    try {
      await client.initialize();
      const listed = async () => (await client.request('workspace/diagnostic', { previousResultIds: [] })).items.map((item: { uri: string }) => item.uri);
      assert.deepEqual(await listed(), [uriOf('mine.babel.json')]);
      // Walked again (a fixture created): still left out, and not said again.
      writeFileSync(at('other.babel.json'), GOOD_ENVELOPE);
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('other.babel.json'), type: 1 }] });
      assert.ok(!(await listed()).includes(uriOf('linked.babel.json')));
      assert.deepEqual(client.logs.filter((line) => line.includes('linked.babel.json')), [
        `${at('linked.babel.json')} is a symbolic link that leads out of the workspace folder; it was not read, and is not in the workspace's problems.`,
      ]);
    } finally {
      client.kill();
    }
  });
});
