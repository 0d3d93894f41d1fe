/**
 * client/preview-renderer.ts with client/server-preview.ts against the built server
 * (dist/server.js over stdio): a large envelope's preview comes from the server and equals the
 * one rendered in place, for the options the editor sends (a chosen encoder, pinned fresh ids,
 * the target); versions typed one after another are each previewed as a fresh parse would be;
 * requests made while a render runs collapse into one render of the newest; what the server
 * cannot answer (not running, not holding the document, not answering in time) is rendered in
 * place, and a failure says why; a render asked for right after another waits for as long as that one took.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CancellationToken } from 'vscode-languageserver-protocol';
import { renderPreview, type PreviewOptions } from '../../core/message/preview';
import { parseJson } from '../../core/parse/parser';
import { PreviewRenderer, REMOTE_FROM_LINES, type PreviewSource } from '../../client/preview-renderer';
import { serverPreview } from '../../client/server-preview';
import type { LanguageServer } from '../../client/server-request';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';

const options: PreviewOptions = {
  sdk: 'go',
  freshIds: true,
  fresh: { uuid: () => '5f0c2a8e-1c7b-4f0e-8d51-3a9b7c6d2e10', now: () => 1767225600000 },
  redisLayout: 'laravel',
  redisPrefix: 'app_',
  target: 'amqp://mq.internal:5672/',
} as PreviewOptions;

/** A valid envelope of about `kb` kilobytes (its data holds that many lines of items). */
function envelopeOf(kb: number, sku = 'SKU'): string {
  const envelope = JSON.parse(GOOD_ENVELOPE) as { data: Record<string, unknown> };
  envelope.data = { items: Array.from({ length: kb * 16 }, (_, index) => ({ sku: `${sku}-${index}`, quantity: index % 7 })) };
  return JSON.stringify(envelope, null, 2);
}

const inPlace = (text: string) => renderPreview(parseJson(text), options);
/** The text as the editor's document gives it: its lines counted, its length and text read when asked (and counted). */
function source(text: string, read = { length: 0, text: 0 }): PreviewSource {
  return {
    lineCount: text.split('\n').length,
    length: () => (read.length++, text.length),
    text: () => (read.text++, text),
  };
}

/**
 * The test client's connection as the extension's language client is asked (and how often); with
 * `held`, every answer reaches the caller only once it resolves (the server has answered already).
 */
function asServer(client: TestLspClient, asked: { count: number } = { count: 0 }, held?: Promise<void>): LanguageServer {
  return {
    isRunning: () => true,
    needsStop: () => true,
    sendRequest: <R>(method: string, params: unknown, token: CancellationToken) => {
      asked.count++;
      const answer = client.connection.sendRequest(method, params, token) as Promise<R>;
      return held ? held.then(() => answer) : answer;
    },
  };
}

async function withServer(run: (client: TestLspClient) => Promise<void>): Promise<void> {
  const client = new TestLspClient();
  try {
    await client.initialize();
    await run(client);
  } finally {
    await client.shutdown();
  }
}

test('a large envelope: the server renders it, with the options the editor sends, exactly as it is rendered in place', () =>
  withServer(async (client) => {
    const asked = { count: 0 };
    const renderer = new PreviewRenderer(serverPreview(() => asServer(client, asked)), (message) => assert.fail(message));
    const text = envelopeOf(600);
    assert.ok(text.length > 256 * 1024);
    await client.open('file:///a.babel.json', text);
    const preview = await renderer.render('file:///a.babel.json', source(text), options);
    assert.equal(asked.count, 1, 'rendered by the server');
    assert.equal(preview, inPlace(text));
    assert.match(preview, /with the go encoder, fresh meta\.id/);
    assert.match(preview, /Broker: amqp:\/\/mq\.internal:5672\//);
    assert.match(preview, /"id":"5f0c2a8e-1c7b-4f0e-8d51-3a9b7c6d2e10"/);
    assert.match(preview, /RPUSH app_queues:/);
    // A small one is rendered at once, in place.
    assert.equal(await renderer.render('file:///small.babel.json', source(GOOD_ENVELOPE), options), inPlace(GOOD_ENVELOPE));
    assert.equal(asked.count, 1);
  }));

test('keystrokes in a value: each version the server holds is previewed as a fresh parse would be', () =>
  withServer(async (client) => {
    const renderer = new PreviewRenderer(serverPreview(() => asServer(client)), (message) => assert.fail(message));
    let text = envelopeOf(600);
    await client.open('file:///e.babel.json', text);
    assert.equal(await renderer.render('file:///e.babel.json', source(text), options), inPlace(text));
    const edits: ((text: string) => string)[] = [
      (t) => t.replace('"SKU-7"', '"SKU-7x"'),
      (t) => t.replace('"quantity": 3', '"quantity": 31'),
      (t) => t.replace('"SKU-7x"', '"SKU-7"'),
    ];
    let version = 1;
    for (const edit of edits) {
      const next = edit(text);
      assert.notEqual(next, text);
      // Sent as an editor sends a keystroke: the span replaced, not the whole text.
      let from = 0;
      while (text[from] === next[from]) from++;
      let oldEnd = text.length;
      let newEnd = next.length;
      while (oldEnd > from && newEnd > from && text[oldEnd - 1] === next[newEnd - 1]) (oldEnd--, newEnd--);
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: 'file:///e.babel.json', version: ++version },
        contentChanges: [{ range: positionRange(text, from, oldEnd), text: next.slice(from, newEnd) }],
      });
      text = next;
      assert.equal(await renderer.render('file:///e.babel.json', source(text), options), inPlace(text));
    }
  }));

/** The LSP range of `text[from, to)`. */
function positionRange(text: string, from: number, to: number) {
  const at = (offset: number) => {
    const before = text.slice(0, offset);
    const line = before.split('\n').length - 1;
    return { line, character: offset - (before.lastIndexOf('\n') + 1) };
  };
  return { start: at(from), end: at(to) };
}

test('requests made while a render runs: one render of the newest, which every later caller gets', () =>
  withServer(async (client) => {
    const asked = { count: 0 };
    // The first render's answer is held until the later requests are made, so it is still running
    // then however fast the server answers.
    let release = () => undefined as void;
    const held = new Promise<void>((done) => (release = done));
    const renderer = new PreviewRenderer(serverPreview(() => asServer(client, asked, held)), (message) => assert.fail(message));
    const [first, second, third] = [envelopeOf(400, 'A'), envelopeOf(400, 'B'), envelopeOf(400, 'C')];
    await client.open('file:///b.babel.json', first);
    const one = renderer.render('file:///b.babel.json', source(first), options);
    await client.change('file:///b.babel.json', second, 2);
    const two = renderer.render('file:///b.babel.json', source(second), options);
    await client.change('file:///b.babel.json', third, 3);
    const three = renderer.render('file:///b.babel.json', source(third), options);
    release();
    const results = await Promise.all([one, two, three]);
    // Right after a render, the next waits for as long as it took (bounded), then not at all.
    const wait = renderer.waitBeforeRender('file:///b.babel.json', 60_000);
    assert.ok(wait > 0, String(wait));
    assert.ok(renderer.waitBeforeRender('file:///b.babel.json', 1) <= 1);
    await new Promise((done) => setTimeout(done, wait + 5));
    assert.equal(renderer.waitBeforeRender('file:///b.babel.json', 60_000), 0);
    assert.equal(renderer.waitBeforeRender('file:///never.babel.json', 60_000), 0, 'a first render waits for nothing');
    // The server renders the version it holds when it answers: the first, or one typed since.
    assert.ok([first, second, third].some((text) => results[0] === inPlace(text)));
    assert.equal(results[1], inPlace(third), 'the version typed over is never rendered');
    assert.equal(results[2], inPlace(third));
    assert.equal(asked.count, 2);
  }));

test('which envelopes the server renders: one of many lines without its length measured, one of few but long lines, not a short one', () =>
  withServer(async (client) => {
    const asked = { count: 0 };
    const renderer = new PreviewRenderer(serverPreview(() => asServer(client, asked)), (message) => assert.fail(message));
    // Over REMOTE_FROM_LINES lines but under REMOTE_FROM_CHARS: pretty-printed, one short item a line.
    const envelope = JSON.parse(GOOD_ENVELOPE) as { data: Record<string, unknown> };
    envelope.data = { codes: Array.from({ length: REMOTE_FROM_LINES }, (_, index) => index % 10) };
    const manyLines = JSON.stringify(envelope, null, 1);
    assert.ok(manyLines.split('\n').length >= REMOTE_FROM_LINES && manyLines.length < 256 * 1024);
    await client.open('file:///lines.babel.json', manyLines);
    const read = { length: 0, text: 0 };
    assert.equal(await renderer.render('file:///lines.babel.json', source(manyLines, read), options), inPlace(manyLines));
    assert.deepEqual({ asked: asked.count, ...read }, { asked: 1, length: 0, text: 0 }, 'the server rendered it; neither its length nor its text was read here');

    const longLines = envelopeOf(600).replace(/\n\s*/g, '');
    assert.ok(longLines.split('\n').length < 10 && longLines.length > 256 * 1024);
    await client.open('file:///long.babel.json', longLines);
    assert.equal(await renderer.render('file:///long.babel.json', source(longLines), options), inPlace(longLines));
    assert.equal(asked.count, 2, 'a long text of few lines: measured, and rendered by the server');

    const short = envelopeOf(2);
    const shortRead = { length: 0, text: 0 };
    assert.equal(await renderer.render('file:///short.babel.json', source(short, shortRead), options), inPlace(short));
    assert.equal(asked.count, 2, 'a short one rendered in place, no round trip');
    assert.equal(shortRead.text, 1);
  }));

test('a large envelope the server holds but cannot publish (a syntax error while typing): its reason, not a parse in place', () =>
  withServer(async (client) => {
    const asked = { count: 0 };
    const renderer = new PreviewRenderer(serverPreview(() => asServer(client, asked)), (message) => assert.fail(message));
    const text = envelopeOf(300).replace('"quantity": 3', '"quantity": ');
    await client.open('file:///broken.babel.json', text);
    const read = { length: 0, text: 0 };
    const preview = await renderer.render('file:///broken.babel.json', source(text, read), options);
    assert.equal(preview, inPlace(text));
    assert.match(preview, /^Nothing to publish: /);
    assert.equal(asked.count, 1);
    assert.equal(read.text, 0, 'the text was not read in the extension host');
  }));

test('what the server cannot answer is rendered in place: not running, a document it does not hold, a failure (said), no answer in time (said)', async () => {
  const text = envelopeOf(300);
  const problems: string[] = [];
  const stopped = new PreviewRenderer(serverPreview(() => undefined), (message) => problems.push(message));
  assert.equal(await stopped.render('file:///d.babel.json', source(text), options), inPlace(text));
  await withServer(async (client) => {
    const notHeld = new PreviewRenderer(serverPreview(() => asServer(client)), (message) => problems.push(message));
    assert.equal(await notHeld.render('file:///never-opened.babel.json', source(text), options), inPlace(text));
  });
  assert.equal(problems.length, 0, 'nothing went wrong so far: the server had nothing to give');
  // Faults a real server does not produce on demand: a request that fails, one never answered.
  const failing = new PreviewRenderer(serverPreview(() => ({ isRunning: () => true, needsStop: () => true, sendRequest: <R>() => Promise.reject<R>(new Error('Connection got disposed.')) })), (message) => problems.push(message));
  assert.equal(await failing.render('file:///d.babel.json', source(text), options), inPlace(text));
  let cancelled = false;
  const silent: LanguageServer = {
    isRunning: () => true,
    needsStop: () => true,
    sendRequest: (_method, _params, token) => {
      token.onCancellationRequested(() => (cancelled = true));
      return new Promise<never>(() => undefined);
    },
  };
  const stuck = new PreviewRenderer(serverPreview(() => silent, 100), (message) => problems.push(message));
  assert.equal(await stuck.render('file:///d.babel.json', source(text), options), inPlace(text));
  assert.equal(cancelled, true, 'the unanswered request is cancelled');
  assert.equal(problems.length, 2);
  assert.match(problems[0], /did not render the preview \(Connection got disposed\.\); rendering it in place/);
  assert.match(problems[1], /did not render the preview \(no answer within 100 ms\)/);
});
