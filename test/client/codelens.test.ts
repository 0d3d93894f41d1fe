/**
 * The CodeLenses above an envelope name the broker a send goes to. A broker URL that cannot be
 * used is named as its error names it, scheme and host: whatever it holds before its last '@'
 * (a password typed raw with a '/', '?' or '#' in it is exactly what makes such a URL unusable)
 * is never shown above every envelope.
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { installFakeVscode } from '../support/fake-vscode';

const fake = installFakeVscode();
let lenses: typeof import('../../client/codelens');

before(async () => {
  lenses = await import('../../client/codelens');
});

beforeEach(() => fake.reset());

/** The title of the "Send to …" lens for the broker URL setting `url`. */
function sendTitle(url: string): string {
  fake.settings = { 'babelqueue.broker.url': url };
  const provider = new lenses.EnvelopeCodeLenses('babelqueue.sendTestEnvelope');
  const titles = provider.provideCodeLenses({ uri: { toString: () => 'file:///w/a.babel.json' } } as never).map((lens) => lens.command?.title ?? '');
  const send = titles.find((title) => title.startsWith('Send'));
  assert.ok(send, `a Send lens among ${JSON.stringify(titles)}`);
  return send;
}

describe('the Send lens', () => {
  test('names a usable target without its password', () => {
    assert.equal(sendTitle('amqp://guest:Pw0rd-42@127.0.0.1:5672'), 'Send to amqp://guest@127.0.0.1:5672');
    assert.equal(sendTitle('redis://:Pw0rd-42@127.0.0.1:6379/2'), 'Send to redis://127.0.0.1:6379/2');
  });

  test('never shows any part of the password of a URL that cannot be used', () => {
    const urls = [
      // A password holding '/', '?', '#' or '@' typed raw: refused, as "@ after the host".
      'amqp://guest:Pw0rd/42@127.0.0.1:5672',
      'amqp://guest:Pw0rd#42@127.0.0.1:5672',
      'redis://:Pw0rd?42@127.0.0.1:6379',
      // A port out of range, a scheme that is not a broker's, a broken %-escape.
      'redis://:Pw0rd-42@127.0.0.1:99999',
      'http://admin:Pw0rd-42@127.0.0.1:6379',
      'amqp://admin:Pw0rd-42@127.0.0.1/%zz',
    ];
    for (const url of urls) {
      const title = sendTitle(url);
      for (const part of ['Pw0rd', '42@']) assert.ok(!title.includes(part), `${url} → ${title}`);
      assert.match(title, /^Send to "[a-z]+:\/\/\*\*\*@127\.0\.0\.1(:\d+)?" \(not usable\)$/, `${url} → ${title}`);
    }
  });
});

describe('above a dead letter opened from Dead Letters', () => {
  test('Redrive takes the place of Send (a send would publish the dead_letter block); a peeked work-queue message and a fixture keep Send', () => {
    fake.settings = { 'babelqueue.broker.url': 'redis://127.0.0.1:6379' };
    const deadLetters = new Set(['babelqueue-message:/orders.dlq · 1?1']);
    const provider = new lenses.EnvelopeCodeLenses('babelqueue.sendTestEnvelope', { command: 'babelqueue.redriveMessage', isDeadLetter: (uri) => deadLetters.has(uri.toString()) });
    const lensesOf = (uri: string) => provider.provideCodeLenses({ uri: { toString: () => uri } } as never).map((lens) => [lens.command?.title, lens.command?.command]);
    assert.deepEqual(lensesOf('babelqueue-message:/orders.dlq · 1?1'), [
      ['Preview Published Bytes', 'babelqueue.previewBytes'],
      ['Redrive to its original queue', 'babelqueue.redriveMessage'],
    ]);
    for (const uri of ['babelqueue-message:/orders · 2?2', 'file:///w/a.babel.json']) {
      assert.deepEqual(lensesOf(uri), [
        ['Preview Published Bytes', 'babelqueue.previewBytes'],
        ['Send to redis://127.0.0.1:6379', 'babelqueue.sendTestEnvelope'],
      ], uri);
    }
  });
});

describe('in Restricted Mode, where a send is refused', () => {
  test('the Send lens says so, and names the broker alone again once the workspace is trusted', () => {
    fake.settings = { 'babelqueue.broker.url': 'redis://127.0.0.1:6379' };
    fake.trusted = false;
    const provider = new lenses.EnvelopeCodeLenses('babelqueue.sendTestEnvelope');
    let changes = 0;
    provider.onDidChangeCodeLenses(() => changes++);
    const sendLens = () => provider.provideCodeLenses({ uri: { toString: () => 'file:///w/a.babel.json' } } as never).find((lens) => lens.command?.command === 'babelqueue.sendTestEnvelope')?.command?.title;
    assert.equal(sendLens(), 'Send to redis://127.0.0.1:6379 (refused in Restricted Mode)');
    fake.grantTrust();
    assert.equal(changes, 1, 'the lenses are asked for again');
    assert.equal(sendLens(), 'Send to redis://127.0.0.1:6379');
    provider.dispose();
  });
});
