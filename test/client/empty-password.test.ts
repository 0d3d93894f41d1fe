/**
 * The password prompt of the broker commands (resolveTarget in client/commands/send.ts): an empty
 * answer is "no password". Nothing is stored, a password kept for another user of the same Redis
 * server stays as it is, the command goes on without a password and says so; a login then refused
 * forgets nothing, since no stored password was used. Dismissing the prompt still ends the command
 * without a word, and a typed password is stored as before. No broker is reached.
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { BrokerError } from '../../broker/errors';
import { parseTarget } from '../../broker/target';
import { passwordKey, passwordToKeep } from '../../client/send-settings';
import { installFakeVscode } from '../support/fake-vscode';

const fake = installFakeVscode();
let send: typeof import('../../client/commands/send');

before(async () => {
  send = await import('../../client/commands/send');
});
beforeEach(() => fake.reset());

const settings = (brokerUrl: string) => ({ brokerUrl, timeoutMs: 5000, redisLayout: 'babelqueue' as const, redisPrefix: '', encoder: 'auto' as const, freshIds: true });
const kinds = () => fake.events.map((event) => event.kind);

describe('an empty answer at the password prompt', () => {
  test('AMQP: nothing is stored, the target has no password, and the user is told', async () => {
    fake.answer = (event) => (event.kind === 'input' ? '' : undefined);
    const { context, output } = fake.services();
    const target = await send.resolveTarget({ context, output }, settings('amqp://alice@127.0.0.1:5672'), 'Send');
    assert.ok(target, 'the command goes on');
    assert.equal(target.username, 'alice');
    assert.equal(target.password, undefined);
    assert.equal(fake.secrets.size, 0);
    assert.ok(!kinds().includes('secret.store'), kinds().join(', '));
    const told = fake.events.find((event) => event.kind === 'info');
    assert.ok(told, kinds().join(', '));
    assert.match(told.text, /No password entered/);
    assert.match(told.text, /nothing was stored/i);
  });

  test('Redis: a password kept for another user of the server is left as it is', async () => {
    const other = parseTarget('redis://bob@127.0.0.1:6379');
    const key = passwordKey(other);
    const kept = passwordToKeep(other, 'bobs-secret');
    fake.secrets.set(key, kept);
    fake.answer = (event) => (event.kind === 'input' ? '' : undefined);
    const { context, output } = fake.services();
    const target = await send.resolveTarget({ context, output }, settings('redis://alice@127.0.0.1:6379'), 'Send');
    assert.ok(target);
    assert.equal(target.password, undefined);
    assert.equal(fake.secrets.get(key), kept);
    assert.ok(!kinds().includes('secret.store'), kinds().join(', '));
    // The login then refused: no stored password was used, so none is forgotten.
    await send.forgetRefusedPassword({ context }, settings('redis://alice@127.0.0.1:6379'), new BrokerError('auth', 'WRONGPASS', { loginRefused: true }), target);
    assert.equal(fake.secrets.get(key), kept);
    assert.ok(!kinds().includes('secret.delete'), kinds().join(', '));
  });

  test('no output or message holds the typed password', async () => {
    fake.answer = (event) => (event.kind === 'input' ? 'hunter2-typed' : undefined);
    const { context, output } = fake.services();
    const target = await send.resolveTarget({ context, output }, settings('amqp://alice@127.0.0.1:5672'), 'Send');
    assert.equal(target?.password, 'hunter2-typed');
    assert.ok(kinds().includes('secret.store'));
    for (const event of fake.events) assert.ok(!`${event.text} ${event.detail ?? ''}`.includes('hunter2'), event.text);
  });
});

describe('the prompt dismissed', () => {
  test('ends the command: nothing stored, nothing said', async () => {
    const { context, output } = fake.services();
    const target = await send.resolveTarget({ context, output }, settings('amqp://alice@127.0.0.1:5672'), 'Send');
    assert.equal(target, undefined);
    assert.deepEqual(kinds(), ['secret.get', 'input']);
  });
});
