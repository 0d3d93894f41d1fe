/**
 * An `initialize` the protocol library could not read (no capabilities, folders that are not a
 * list of folders, params that are not an object) is repaired before it sees it: the server
 * starts, works as for the plainest client, and says in its log what it assumed.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { readableInitializeParams } from '../../server/initialize-shape';
import { TestLspClient } from '../support/lsp-client';
import { GOOD_ENVELOPE } from '../support/envelopes';

describe('readableInitializeParams', () => {
  test('well-formed params pass as they are, with nothing repaired', () => {
    const params = { processId: 12, rootUri: 'file:///w', capabilities: { workspace: {} }, workspaceFolders: [{ uri: 'file:///w', name: 'w' }] };
    assert.deepEqual(readableInitializeParams(params), { params, repaired: [] });
  });

  test('each malformed part is read as what it most nearly says, and named', () => {
    const { params, repaired } = readableInitializeParams({ processId: 'x', rootUri: 7, workspaceFolders: [{ uri: 'file:///a' }, { name: 'no uri' }, 3] });
    assert.deepEqual(params, { processId: null, rootUri: null, workspaceFolders: [{ uri: 'file:///a' }], capabilities: {} });
    assert.deepEqual(repaired, [
      'there were no capabilities: read as a client that supports nothing optional',
      'processId was not an integer: ignored',
      'rootUri was not a string: ignored',
      '2 of the workspaceFolders had no usable uri: left out',
    ]);
    assert.deepEqual(readableInitializeParams({ capabilities: {}, workspaceFolders: 'file:///w' }).params.workspaceFolders, null);
    assert.deepEqual(readableInitializeParams(null), { params: { capabilities: {} }, repaired: ['the params were not an object: read as empty'] });
  });
});

describe('a server asked to initialize without capabilities', () => {
  const client = new TestLspClient();
  after(() => client.kill());

  test('starts, answers, reports problems, and logs what it assumed', async () => {
    const result = await client.connection.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', { processId: null, rootUri: null, workspaceFolders: 'not a list' });
    // And a client whose capabilities are there but odd inside: a resourceOperations that is no list.
    const odd = new TestLspClient();
    try {
      const answered = await odd.connection.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', { processId: null, rootUri: null, capabilities: { workspace: { workspaceEdit: { documentChanges: true, resourceOperations: {} } } } });
      assert.equal(answered.capabilities.hoverProvider, true);
    } finally {
      odd.kill();
    }
    assert.equal(result.capabilities.hoverProvider, true);
    await client.connection.sendNotification('initialized', {});
    const uri = 'file:///workspace/plain.babel.json';
    await client.open(uri, GOOD_ENVELOPE.replace('"attempts": 0', '"attempts": -1'));
    await client.waitForPublished((all) => all.some((published) => published.uri === uri && published.diagnostics.some((diagnostic) => diagnostic.code === 'invalid-value')));
    const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
    assert.match(hover?.contents?.value ?? JSON.stringify(hover?.contents), /job/);
    assert.ok(client.logs.some((line) => /initialize request was not as the protocol has it.*no capabilities.*workspaceFolders was not a list/.test(line)), client.logs.join('\n'));
  });
});

describe("the client's process id", () => {
  /** A process id no process has: that of a child that has ended. */
  async function endedPid(): Promise<number> {
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.on('exit', resolve));
    return child.pid!;
  }
  const exitedWithin = (client: TestLspClient, ms: number) =>
    Promise.race([new Promise<number | null>((resolve) => client.process.on('exit', resolve)), new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), ms))]);

  test('one this server cannot see (a client in another PID namespace: a container, WSL) is not watched: the server stays up and says so', async (t) => {
    for (const processId of [await endedPid(), -5]) {
      const client = new TestLspClient();
      t.after(() => client.kill());
      await client.request('initialize', { processId, rootUri: null, capabilities: {} });
      await client.connection.sendNotification('initialized', {});
      // The library checks the process every 3 s and ended the server at the first check.
      assert.equal(await exitedWithin(client, 4000), 'running', `processId ${processId}: ${client.stderr.join('')}`);
      const uri = 'file:///workspace/pid.babel.json';
      await client.open(uri, GOOD_ENVELOPE);
      assert.match((await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } }))?.contents?.value ?? '', /job/);
      assert.ok(client.logs.some((line) => line.startsWith(`The client's process id ${processId} is no process this server can see`)), client.logs.join('\n'));
      client.kill();
    }
  });

  test('one it can see is watched: the server ends once that process has', async (t) => {
    const parent = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    t.after(() => parent.kill());
    const client = new TestLspClient();
    t.after(() => client.kill());
    await client.request('initialize', { processId: parent.pid, rootUri: null, capabilities: {} });
    await client.connection.sendNotification('initialized', {});
    assert.ok(!client.logs.some((line) => line.includes('process id')), client.logs.join('\n'));
    parent.kill();
    assert.equal(await exitedWithin(client, 5000), 1);
  });
});
