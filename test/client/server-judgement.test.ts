/**
 * client/server-judgement.ts: how the editor's lists and redrives ask the language server for
 * verdicts. Large messages go in several requests, none over 16 Mi characters (so neither side
 * holds every text again as JSON at once); a text longer than the server judges is not sent; the
 * verdicts come back in the order of the texts whatever the requests were.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonLength, requestBatches, serverJudge } from '../../client/server-judgement';
import type { LanguageServer } from '../../client/server-request';

const MI = 1024 * 1024;

describe('requestBatches', () => {
  test('at most 16 Mi characters a request; a text longer than that alone; one over 64 Mi characters left out', () => {
    const texts = [6 * MI, 6 * MI, 6 * MI, 20 * MI, 65 * MI, 1].map((length) => 'x'.repeat(length));
    assert.deepEqual(requestBatches(texts), [[0, 1], [2], [3], [5]]);
  });

  test('counted as the request writes them: a text of control characters is six times as long there', () => {
    // 3 Mi characters of \u0001 are 18 Mi as JSON: alone in its request, and the next one too.
    const texts = ['\u0001'.repeat(3 * MI), 'x'.repeat(MI), 'y'.repeat(MI)];
    assert.deepEqual(requestBatches(texts), [[0], [1, 2]]);
  });

  test("jsonLength is the length of JSON.stringify's string, without its quotes", () => {
    const random = (seed: number) => () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const next = random(7);
    // Every kind: plain, quote, backslash, short escapes, other controls, pairs, lone halves, DEL, non-ASCII.
    const pieces = ['a', '"', '\\', '\n', '\t', '\b', '\f', '\r', '\u0000', '\u001f', '\u007f', '\ud83d\ude00', '\ud83d', '\ude00', 'é', '€', ' '];
    for (let run = 0; run < 500; run++) {
      let text = '';
      for (let piece = Math.floor(next() * 40); piece > 0; piece--) text += pieces[Math.floor(next() * pieces.length)];
      assert.equal(jsonLength(text), JSON.stringify(text).length - 2, JSON.stringify(text));
    }
  });

  test('at most 1,000 texts a request', () => {
    const batches = requestBatches(new Array(2500).fill('{}'));
    assert.deepEqual(batches.map((batch) => batch.length), [1000, 1000, 500]);
    assert.deepEqual(batches.flat(), [...Array(2500).keys()]);
  });

  test('nothing to send is still one request, which says how a body that is not UTF-8 is judged', () => {
    assert.deepEqual(requestBatches([]), [[]]);
    assert.deepEqual(requestBatches(['x'.repeat(65 * MI)]), [[]]);
  });
});

describe('serverJudge', () => {
  test('verdicts come back in the order of the texts, null for the one not sent, over as many requests as the sizes need', async () => {
    const sent: number[] = [];
    // Answers each text with as many warnings as it has characters, in MiB: the order shows.
    const server: LanguageServer = {
      isRunning: () => true,
      needsStop: () => true,
      sendRequest: async <R>(_method: string, params: unknown) => {
        const { texts } = params as { texts: string[] };
        sent.push(texts.reduce((sum, text) => sum + text.length, 0));
        return { verdicts: texts.map((text) => ({ errors: 0, warnings: Math.round(text.length / MI), errorCodes: [] })), notUtf8: { errors: 1, warnings: 0, errorCodes: ['json-syntax'] } } as R;
      },
    };
    const texts = [10, 3, 65, 12, 2].map((size) => 'x'.repeat(size * MI));
    const answer = await serverJudge(() => server)(texts);
    assert.ok('verdicts' in answer);
    assert.deepEqual(answer.verdicts.map((verdict) => verdict?.warnings ?? null), [10, 3, null, 12, 2]);
    assert.deepEqual(answer.notUtf8, { errors: 1, warnings: 0, errorCodes: ['json-syntax'] });
    assert.deepEqual(sent, [13 * MI, 14 * MI]);
  });

  test('a server that answers a request with the wrong number of verdicts (its empty answer to a failure) judges none', async () => {
    const server: LanguageServer = { isRunning: () => true, needsStop: () => true, sendRequest: async <R>() => ({ verdicts: [] }) as R };
    assert.deepEqual(await serverJudge(() => server)(['{}']), { unjudged: 'the BabelQueue language server could not judge them (see its output)' });
  });

  test('a server that does not answer in time: none judged, and why', async () => {
    const server: LanguageServer = { isRunning: () => true, needsStop: () => true, sendRequest: () => new Promise(() => undefined) };
    assert.deepEqual(await serverJudge(() => server, 50)(['{}']), { unjudged: 'the BabelQueue language server did not answer: no answer within 50 ms' });
  });

  test('a server still starting is asked, and its answer used: the client holds the request until the start is done', async () => {
    let started!: () => void;
    const start = new Promise<void>((resolve) => (started = resolve));
    let state: 'starting' | 'running' = 'starting';
    // As vscode-languageclient's client behaves: not yet running while it starts, and a request
    // made then waits for the start.
    const server: LanguageServer = {
      isRunning: () => state === 'running',
      needsStop: () => true,
      sendRequest: async <R>() => {
        await start;
        return { verdicts: [{ errors: 1, warnings: 0, errorCodes: ['payload-schema'] }] } as R;
      },
    };
    const answer = serverJudge(() => server)(['{}']);
    setTimeout(() => {
      state = 'running';
      started();
    }, 20);
    assert.deepEqual(await answer, { verdicts: [{ errors: 1, warnings: 0, errorCodes: ['payload-schema'] }] });
  });

  test('a server stopped, or never made, is not asked: none judged, and why', async () => {
    let asked = 0;
    const stopped: LanguageServer = {
      isRunning: () => false,
      needsStop: () => false,
      sendRequest: async <R>() => {
        asked++;
        return { verdicts: [] } as R;
      },
    };
    for (const server of [stopped, undefined]) {
      assert.deepEqual(await serverJudge(() => server)(['{}']), { unjudged: 'the BabelQueue language server is not running' });
    }
    assert.equal(asked, 0);
  });
});
