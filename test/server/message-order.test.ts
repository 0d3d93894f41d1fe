/**
 * Messages out of the protocol's order or shape, written raw to dist/server.js over stdio and
 * read back raw (a test client's own library would drop an answer it cannot match): a request
 * before `initialize` is refused with ServerNotInitialized and a notification then is dropped; a
 * second `initialize` is refused with InvalidRequest; a message with an id whose method is no
 * string is answered InvalidRequest under that id; a request whose params are `null` is read as
 * one without params (InvalidParams from a handler that needs them, not an internal error).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { SERVER_PATH } from '../support/lsp-client';

interface Raw {
  readonly process: ChildProcess;
  readonly received: any[];
  send(message: unknown): void;
  answerTo(id: unknown, timeoutMs?: number): Promise<any>;
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];
after(() => started.forEach((child) => child.exitCode === null && child.kill()));

function raw(): Raw {
  const child = spawn(process.execPath, [SERVER_PATH, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  started.push(child);
  const received: any[] = [];
  let buffer = Buffer.alloc(0);
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString('ascii'))![1]);
      if (buffer.length < end + 4 + length) return;
      const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8'));
      buffer = buffer.subarray(end + 4 + length);
      // The server's own requests (configuration, registration) are answered as a plain client would.
      if (typeof message.method === 'string' && message.id !== undefined) send({ jsonrpc: '2.0', id: message.id, result: null });
      received.push(message);
    }
  });
  const send = (message: unknown) => {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    child.stdin!.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  };
  const answerTo = async (id: unknown, timeoutMs = 5000) => {
    const since = Date.now();
    for (;;) {
      const answer = received.find((message) => message.id === id && message.method === undefined);
      if (answer) return answer;
      if (Date.now() - since > timeoutMs) assert.fail(`no answer to ${JSON.stringify(id)}; received ${JSON.stringify(received).slice(0, 2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { process: child, received, send, answerTo, exited: new Promise((resolve) => child.on('exit', resolve)) };
}

const INITIALIZE = { processId: null, rootUri: null, capabilities: {} };
const URI = 'file:///workspace/order.babel.json';
const HOVER = { textDocument: { uri: URI }, position: { line: 1, character: 4 } };

test('before initialize: a request is refused with ServerNotInitialized, a notification is dropped, exit still ends the server', async () => {
  const server = raw();
  server.send({ jsonrpc: '2.0', id: 1, method: 'textDocument/hover', params: HOVER });
  const refused = await server.answerTo(1);
  assert.equal(refused.error?.code, -32002, JSON.stringify(refused));
  assert.match(refused.error.message, /^textDocument\/hover: the server has not been initialized/);
  // A document opened before initialize is not kept: after initialize it is not known.
  server.send({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: URI, languageId: 'babelqueue-envelope', version: 1, text: GOOD_ENVELOPE } } });
  server.send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: INITIALIZE });
  assert.ok((await server.answerTo(2)).result?.capabilities);
  server.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
  server.send({ jsonrpc: '2.0', id: 3, method: 'textDocument/hover', params: HOVER });
  assert.equal((await server.answerTo(3)).result, null, 'the document opened before initialize was dropped');
  assert.ok(!server.received.some((message) => message.method === 'textDocument/publishDiagnostics'), 'nothing published for it');
  const unstarted = raw();
  unstarted.send({ jsonrpc: '2.0', method: 'exit' });
  assert.equal(await unstarted.exited, 1);
  server.send({ jsonrpc: '2.0', id: 4, method: 'shutdown' });
  await server.answerTo(4);
  server.send({ jsonrpc: '2.0', method: 'exit' });
  assert.equal(await server.exited, 0);
});

test('a second initialize is refused with InvalidRequest, and the server goes on as first initialized', async () => {
  const server = raw();
  server.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INITIALIZE });
  await server.answerTo(1);
  server.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
  server.send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: INITIALIZE });
  const again = await server.answerTo(2);
  assert.equal(again.error?.code, -32600, JSON.stringify(again));
  assert.match(again.error.message, /^initialize: the server is already initialized/);
  server.send({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: URI, languageId: 'babelqueue-envelope', version: 1, text: GOOD_ENVELOPE } } });
  server.send({ jsonrpc: '2.0', id: 3, method: 'textDocument/hover', params: HOVER });
  assert.match((await server.answerTo(3)).result?.contents?.value ?? '', /job/);
  server.process.kill();
});

test('a message with an id whose method is no string is answered InvalidRequest under its id; null params are read as none', async () => {
  const server = raw();
  server.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INITIALIZE });
  await server.answerTo(1);
  server.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
  server.send({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: URI, languageId: 'babelqueue-envelope', version: 1, text: GOOD_ENVELOPE } } });
  for (const [id, method] of [[10, 5], ['eleven', null], [12, { name: 'textDocument/hover' }]] as const) {
    server.send({ jsonrpc: '2.0', id, method, params: HOVER });
    const answer = await server.answerTo(id);
    assert.equal(answer.error?.code, -32600, JSON.stringify(answer));
    assert.match(answer.error.message, /method is not a string/);
  }
  // An answer to a request of the server's that carries a method of null is still an answer: not refused.
  server.send({ jsonrpc: '2.0', id: 13, method: null, result: null });
  server.send({ jsonrpc: '2.0', id: 14, method: null, error: { code: -32601, message: 'no such method' } });
  for (const [id, method] of [[20, 'textDocument/hover'], [21, 'textDocument/completion'], [22, 'textDocument/codeAction'], [23, 'textDocument/formatting'], [24, 'textDocument/documentSymbol'], [25, 'workspace/executeCommand']] as const) {
    server.send({ jsonrpc: '2.0', id, method, params: null });
    const answer = await server.answerTo(id);
    assert.equal(answer.error?.code, -32602, `${method}: ${JSON.stringify(answer)}`);
  }
  // shutdown takes no params: null is as good as none.
  server.send({ jsonrpc: '2.0', id: 30, method: 'shutdown', params: null });
  assert.equal((await server.answerTo(30)).result, null);
  server.send({ jsonrpc: '2.0', method: 'exit' });
  assert.equal(await server.exited, 0);
  assert.ok(!server.received.some((message) => message.id === 13 || message.id === 14), 'an answer is not answered');
  assert.ok(!server.received.some((message) => message.method === 'window/logMessage' && /failed/.test(message.params?.message)), JSON.stringify(server.received.filter((message) => message.method === 'window/logMessage')));
});
