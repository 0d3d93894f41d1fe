/**
 * A folder made in the workspace (or moved into it), told by its own file event, has the
 * workspace's folders walked again only when it holds a fixture: a checkout or an npm install
 * makes thousands of folders holding none, in batch after batch of events, and each batch walked
 * every workspace folder again. The server runs in this process, so its walks can be counted.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { CancellationTokenSource } from 'vscode-languageserver-protocol/node';
import { WorkspaceFixtures } from '../../server/workspace-diagnostics';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { startInProcessServer } from '../support/in-process-server';
import { scratchFolder } from '../support/scratch-folder';

const CREATED = 1;
const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

test('folders made holding no fixture ask for no walk of the workspace; one holding a fixture does', async () => {
  const folder = scratchFolder('babelq-folder-made-walks-');
  folder.write('orders/placed.babel.json', GOOD_ENVELOPE);

  const prototype = WorkspaceFixtures.prototype as unknown as { scan: () => Promise<void> };
  const scan = prototype.scan;
  let walks = 0;
  prototype.scan = function counted(this: unknown) {
    walks++;
    return scan.call(this);
  };
  const { client, stop } = await startInProcessServer(folder, 'made');
  try {
    type Report = { items: { uri: string; kind: string; resultId?: string; items?: unknown[] }[] };
    const first = await client.sendRequest<Report>('workspace/diagnostic', { previousResultIds: [] });
    assert.equal(walks, 1);
    // A report held open, as VS Code keeps one: each change that asks for a walk wakes it.
    const previousResultIds = first.items.filter((item) => item.resultId).map((item) => ({ uri: item.uri, value: item.resultId }));
    const cancel = new CancellationTokenSource();
    const held = client.sendRequest<Report>('workspace/diagnostic', { previousResultIds }, cancel.token);

    // Five batches of events, each of a folder made with a file that is no fixture in it.
    for (let batch = 0; batch < 5; batch++) {
      mkdirSync(folder.at(`src/${batch}`), { recursive: true });
      writeFileSync(folder.at(`src/${batch}/index.ts`), 'export {};\n');
      await client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: folder.uriOf(`src/${batch}`), type: CREATED }, { uri: folder.uriOf(`src/${batch}/index.ts`), type: CREATED }] });
      await wait(100);
    }
    await wait(300);
    assert.equal(walks, 1, 'no folder made held a fixture');

    // A folder moved in holding a fixture (VS Code names the folder alone): walked, and listed.
    folder.write('moved/in/shipped.babel.json', GOOD_ENVELOPE);
    await client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: folder.uriOf('moved'), type: CREATED }] });
    for (const giveUp = Date.now() + 5_000; walks < 2 && Date.now() < giveUp; ) await wait(20);
    cancel.cancel();
    await held.catch(() => undefined);
    assert.equal(walks, 2);
    const after = await client.sendRequest<Report>('workspace/diagnostic', { previousResultIds: [] });
    assert.ok(after.items.some((item) => item.uri === folder.uriOf('moved/in/shipped.babel.json')), JSON.stringify(after.items.map((item) => item.uri)));
  } finally {
    prototype.scan = scan;
    await stop();
  }
});
