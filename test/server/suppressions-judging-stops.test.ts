/**
 * The judging of an open suppressions file's entries, which runs at every pull of its diagnostics,
 * stops once its pull is cancelled (VS Code cancels a pull when the file changes and pulls again)
 * or its document has a newer version: an older judging is not left running to its end beside the
 * newer one. The server runs in this process, so the fixtures each judging reaches can be counted.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CancellationTokenSource } from 'vscode-languageserver-protocol/node';
import { JudgingRound } from '../../server/judged-fixtures';
import { RegistryService } from '../../server/registry';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { startInProcessServer } from '../support/in-process-server';
import { scratchFolder, type ScratchFolder } from '../support/scratch-folder';

const FIXTURES = 40;
const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A workspace whose suppressions file names 40 fixtures of about 0.9 MiB each: a judging of some fifteen of them before its budget ends it. */
function largeWorkspace(prefix: string): { folder: ScratchFolder; suppressions: string } {
  const folder = scratchFolder(prefix);
  folder.write('.git/HEAD', 'ref: refs/heads/main\n');
  const envelope = JSON.parse(GOOD_ENVELOPE) as { data: Record<string, unknown> };
  envelope.data.rows = Array.from({ length: 9_500 }, (_, i) => ({ sku: `sku-${i}`, count: i, note: 'a line of text' }));
  const large = JSON.stringify(envelope, null, 2);
  const names = Array.from({ length: FIXTURES }, (_, i) => `large/${String(i).padStart(2, '0')}.babel.json`);
  for (const name of names) folder.write(name, large);
  const suppressions = JSON.stringify({ suppressions: names.map((file) => ({ file, code: 'forbidden-key', pointer: '/other', reason: 'legacy' })) }, null, 2);
  folder.write('babelq-suppressions.json', suppressions);
  return { folder, suppressions };
}

/** Counts the large fixtures judged: each judged one has its registry looked up once. */
function countJudged(): { readonly judged: () => number; restore: () => void } {
  const prototype = RegistryService.prototype as unknown as { stateWhenLoaded: (uri: string, ...rest: unknown[]) => Promise<unknown> };
  const original = prototype.stateWhenLoaded;
  let judged = 0;
  prototype.stateWhenLoaded = function counted(this: unknown, uri: string, ...rest: unknown[]) {
    if (uri.includes('/large/')) judged++;
    return original.call(this, uri, ...rest);
  };
  return { judged: () => judged, restore: () => (prototype.stateWhenLoaded = original) };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const giveUp = Date.now() + 10_000; !condition(); ) {
    if (Date.now() > giveUp) throw new Error(`timed out waiting for ${what}`);
    await wait(5);
  }
}

test('a cancelled pull of the suppressions file\'s diagnostics stops judging its entries', async () => {
  const { folder, suppressions } = largeWorkspace('babelq-judging-cancelled-');
  const counter = countJudged();
  const { client, stop } = await startInProcessServer(folder, 'cancelled');
  try {
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri: folder.uriOf('babelq-suppressions.json'), languageId: 'json', version: 1, text: suppressions } });
    const cancel = new CancellationTokenSource();
    const pulled = client.sendRequest('textDocument/diagnostic', { textDocument: { uri: folder.uriOf('babelq-suppressions.json') } }, cancel.token);
    await until(() => counter.judged() >= 2, 'the judging to start');
    cancel.cancel();
    const atCancel = counter.judged();
    await pulled.catch(() => undefined);
    await wait(500);
    // The fixture being judged when the cancellation is read may be finished; none after it is begun.
    assert.ok(counter.judged() - atCancel <= 1, `${counter.judged() - atCancel} fixtures were judged after the pull was cancelled, ${atCancel} before`);
  } finally {
    counter.restore();
    await stop();
  }
});

test('a newer version of the suppressions file stops the judging of the older one', async () => {
  const { folder, suppressions } = largeWorkspace('babelq-judging-superseded-');
  const counter = countJudged();
  const { client, stop } = await startInProcessServer(folder, 'superseded');
  const uri = folder.uriOf('babelq-suppressions.json');
  try {
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: suppressions } });
    // Kept as it settles: answered or refused (a client that does not cancel is answered too).
    const older = client.sendRequest<{ items: unknown[] }>('textDocument/diagnostic', { textDocument: { uri } }).then(
      (report) => ({ report }),
      (error: { code?: number; data?: unknown }) => ({ error: { code: error.code, data: error.data } }),
    );
    await until(() => counter.judged() >= 2, 'the judging to start');
    // The newer version names none of the large fixtures: whatever is judged past here is the older one's.
    await client.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: '{ "suppressions": [] }' }] });
    const atChange = counter.judged();
    const olderAnswer = await older;
    await wait(500);
    assert.ok(counter.judged() - atChange <= 1, `${counter.judged() - atChange} fixtures were judged for version 1 after version 2 came, ${atChange} before`);
    // The older pull, which this client did not cancel, is refused as the server's cancellation
    // (LSP's ServerCancelled, asking for the pull again), not answered with an empty report that a
    // client would show in place of the file's findings until the newer pull's answer came.
    assert.deepEqual(olderAnswer, { error: { code: -32802, data: { retriggerRequest: true } } }, JSON.stringify(olderAnswer));
    // The newer one answers for the newer text.
    const newer = await client.sendRequest<{ items: unknown[] }>('textDocument/diagnostic', { textDocument: { uri } });
    assert.deepEqual(newer.items, []);
  } finally {
    counter.restore();
    await stop();
  }
});

/** Counts the fixtures a judging analysed and those whose last judgement it reused (JudgingRound's keep and reusable). */
function countRounds(): { readonly analysed: () => number; readonly reused: () => number; restore: () => void } {
  const prototype = JudgingRound.prototype as unknown as { keep: (...args: unknown[]) => void; reusable: (...args: unknown[]) => unknown };
  const { keep, reusable } = prototype;
  let analysed = 0;
  let reused = 0;
  prototype.keep = function counted(this: unknown, ...args: unknown[]) {
    analysed++;
    return keep.apply(this, args);
  };
  prototype.reusable = function counted(this: unknown, ...args: unknown[]) {
    const known = reusable.apply(this, args);
    if (known !== undefined) reused++;
    return known;
  };
  return { analysed: () => analysed, reused: () => reused, restore: () => Object.assign(prototype, { keep, reusable }) };
}

test('the fixtures a cancelled judging got through are not analysed again by the next one', async () => {
  const { folder, suppressions } = largeWorkspace('babelq-judging-resumed-');
  const counter = countRounds();
  const { client, stop } = await startInProcessServer(folder, 'resumed');
  const uri = folder.uriOf('babelq-suppressions.json');
  try {
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: suppressions } });
    const cancel = new CancellationTokenSource();
    const pulled = client.sendRequest('textDocument/diagnostic', { textDocument: { uri } }, cancel.token);
    await until(() => counter.analysed() >= 3, 'three fixtures to be judged');
    cancel.cancel();
    await pulled.catch(() => undefined);
    await wait(200);
    const beforeCancel = counter.analysed();
    // A user typing in the file cancels each pull before its judging ends: the next one goes on from where it stopped.
    await client.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    assert.ok(counter.reused() >= beforeCancel, `${counter.reused()} judgements reused of the ${beforeCancel} made before the cancellation`);
  } finally {
    counter.restore();
    await stop();
  }
});
