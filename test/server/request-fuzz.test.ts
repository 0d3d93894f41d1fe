/**
 * Every request and notification the server handles, sent with generated params that do not have
 * the protocol's shape (wrong types in every field, missing and extra fields, positions past the
 * end and negative, prototype keys, huge numbers and arrays), interleaved with valid requests:
 * each request gets an answer (a result or an error) within a bound, the server stays up, and the
 * valid requests answer exactly as on a server that saw no garbage (server/request.ts, guard.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';
import { childPeakRssMb } from '../support/peak-memory';

const EXAMPLES = resolve(__dirname, '../../examples');
const FIXTURE = join(EXAMPLES, 'bad/contract.babel.json');
const REQUEST_BOUND_MS = 2000;

const REQUESTS = [
  'textDocument/hover',
  'textDocument/completion',
  'textDocument/codeAction',
  'textDocument/formatting',
  'textDocument/foldingRange',
  'textDocument/documentSymbol',
  'textDocument/selectionRange',
  'textDocument/definition',
  'textDocument/references',
  'textDocument/documentLink',
  'textDocument/diagnostic',
  'workspace/executeCommand',
  'babelqueue/registryEntries',
  'babelqueue/newEnvelope',
  'babelqueue/preview',
];
const NOTIFICATIONS = ['workspace/didChangeConfiguration', 'workspace/didChangeWatchedFiles', '$/cancelRequest', 'babelqueue/workspaceTrusted', '$/setTrace'];

/** A small seeded generator of values of every JSON shape, with a bias to the shapes params expect. */
function generator(seed: number) {
  let state = seed;
  const rand = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(values: readonly T[]): T => values[Math.floor(rand() * values.length)];
  const scalars: unknown[] = [null, true, false, 0, -1, 1e308, -2147483649, 2 ** 53 + 1, 0.5, '', 'x', '__proto__', 'file:///nowhere.babel.json', 'file://%zz', '\u0000', '😀'.repeat(3)];
  const value = (depth: number): unknown => {
    const r = rand();
    if (depth > 3 || r < 0.45) return pick(scalars);
    if (r < 0.6) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
    if (r < 0.65) return Array.from({ length: 2000 }, () => 1);
    const keys = ['textDocument', 'uri', 'position', 'line', 'character', 'range', 'start', 'end', 'context', 'diagnostics', 'only', 'options', 'positions', 'command', 'arguments', 'settings', 'changes', 'id', 'urn', 'constructor', 'toString'];
    const object: Record<string, unknown> = {};
    for (let i = 0, n = Math.floor(rand() * 5); i < n; i++) object[pick(keys)] = value(depth + 1);
    return object;
  };
  return { value, rand };
}

describe('request and notification params that do not have the protocol\'s shape', () => {
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(EXAMPLES).href] });
  const uri = pathToFileURL(FIXTURE).href;
  const text = readFileSync(FIXTURE, 'utf8');
  const position = { line: 2, character: 5 };

  before(async () => {
    await client.initialize();
    await client.open(uri, text);
  });
  after(() => client.kill());

  /** What the valid requests answer: diagnostics, a hover and the outline of the open fixture. */
  const answers = async () => JSON.stringify([
    (await client.pullDiagnostics(uri)).items.map((item) => [item.code, item.range]),
    await client.request('textDocument/hover', { textDocument: { uri }, position }),
    await client.request('textDocument/documentSymbol', { textDocument: { uri } }),
  ]);

  test('3,000 generated requests and notifications: each request answered within the bound, the valid ones as before', async () => {
    const expected = await answers();
    const { value, rand } = generator(20261201);
    let answered = 0;
    let slowest = 0;
    for (let round = 0; round < 3000; round++) {
      if (rand() < 0.25) {
        await client.connection.sendNotification(NOTIFICATIONS[Math.floor(rand() * NOTIFICATIONS.length)], value(0));
        continue;
      }
      const method = REQUESTS[Math.floor(rand() * REQUESTS.length)];
      // Half aimed at the open document, so the handlers past the gate see the garbage too.
      const params = rand() < 0.5 ? { ...(value(1) as object), textDocument: { uri } } : value(0);
      const started = performance.now();
      const answer = client.request(method, params).then(() => 'result', () => 'error');
      const outcome = await Promise.race([answer, new Promise((done) => setTimeout(() => done('no answer'), REQUEST_BOUND_MS))]);
      assert.notEqual(outcome, 'no answer', `${method} ${JSON.stringify(params).slice(0, 300)}`);
      slowest = Math.max(slowest, performance.now() - started);
      answered++;
      if (round % 500 === 0) assert.equal(await answers(), expected, `after round ${round}`);
    }
    assert.ok(answered > 2000);
    assert.equal(await answers(), expected);
    assert.equal(client.process.exitCode, null, 'the server is still running');
    // Each kind of problem logged once: the log says what was wrong without repeating it per message.
    const firstLines = client.logs.map((line) => line.split('\n')[0]);
    assert.equal(new Set(firstLines).size, firstLines.length, firstLines.filter((line, index) => firstLines.indexOf(line) !== index).slice(0, 3).join('\n'));
    assert.ok(client.logs.length < 100, `${client.logs.length} log lines for ${answered} requests`);
    const peak = childPeakRssMb(client.process.pid!);
    console.log(`${answered} malformed requests answered, the slowest in ${slowest.toFixed(0)} ms; ${client.logs.length} log lines; server peak RSS ${peak.toFixed(0)} MB`);
    assert.ok(!(peak > 300), `server peak RSS ${peak.toFixed(0)} MB`);
  });
});
