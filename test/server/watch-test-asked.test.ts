/**
 * The workspace's report asks FileWatchCoverage's test (whether a client's file events report a
 * fixture's changes) only where the answer counts: for a fixture read before, whose disk version
 * it decides whether to look at again, and for one read within a tick of its last write (whose
 * mark it decides whether to keep). In a workspace of a folder per fixture each answer costs a
 * look at that folder, and a first report reads every file anyway. The server runs in this
 * process, so the test's calls can be counted.
 */
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { test } from 'node:test';
import { CancellationTokenSource } from 'vscode-languageserver-protocol/node';
import { FileWatchCoverage } from '../../server/file-watch-coverage';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { startInProcessServer } from '../support/in-process-server';
import { scratchFolder } from '../support/scratch-folder';

const FIXTURES = 20;

test("a first report does not ask whether the client watches a fixture's folder; the next one asks for each fixture", async () => {
  const folder = scratchFolder('babelq-watch-asked-');
  const paths = Array.from({ length: FIXTURES }, (_, n) => `orders/${n}/placed.babel.json`);
  // Written long before (out of the tick within which a read keeps a mark), each in a folder of its own.
  const longAgo = new Date(Date.now() - 60_000);
  for (const path of paths) {
    folder.write(path, GOOD_ENVELOPE);
    utimesSync(folder.at(path), longAgo, longAgo);
  }

  const asked: string[] = [];
  const forOneLook = FileWatchCoverage.prototype.forOneLook;
  FileWatchCoverage.prototype.forOneLook = function counted(this: FileWatchCoverage) {
    const look = forOneLook.call(this);
    return (path: string) => {
      asked.push(path);
      return look(path);
    };
  };
  const { client, stop } = await startInProcessServer(folder, 'watched');
  try {
    type Report = { items: { uri: string; kind: string; resultId?: string; items?: unknown[] }[] };
    const first = await client.sendRequest<Report>('workspace/diagnostic', { previousResultIds: [] });
    assert.equal(first.items.filter((item) => item.uri.endsWith('.babel.json')).length, FIXTURES);
    assert.deepEqual(asked, [], 'the first report read every fixture; none needed the answer');

    // The next report: each fixture was read before, and whether to look at its file again is the
    // test's. Nothing changed, so the answer is held open: it is cancelled once the report has run.
    const previousResultIds = first.items.filter((item) => item.resultId).map((item) => ({ uri: item.uri, value: item.resultId }));
    const cancel = new CancellationTokenSource();
    const second = client.sendRequest<Report>('workspace/diagnostic', { previousResultIds }, cancel.token);
    for (const giveUp = Date.now() + 10_000; new Set(asked).size < FIXTURES && Date.now() < giveUp; ) await new Promise((done) => setTimeout(done, 20));
    cancel.cancel();
    assert.deepEqual((await second).items, [], 'nothing changed');
    assert.deepEqual([...new Set(asked)].sort(), paths.map((path) => folder.at(path)).sort());
  } finally {
    FileWatchCoverage.prototype.forOneLook = forOneLook;
    await stop();
  }
});
