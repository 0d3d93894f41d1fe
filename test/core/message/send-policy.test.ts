/** The send guards, as the editor and the CLI walk them, without VS Code. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideSend, type ConfirmationKind, type SendSituation } from '../../../core/message/send-policy';

const base: SendSituation = { trusted: true, errorCodes: [], loopback: true, host: '127.0.0.1', confirmed: new Set() };
const withConfirmed = (situation: SendSituation, ...kinds: ConfirmationKind[]): SendSituation => ({ ...situation, confirmed: new Set(kinds) });

describe('send guards', () => {
  test('a clean envelope to loopback in a trusted workspace is sent without a question', () => {
    assert.deepEqual(decideSend(base), { action: 'send' });
  });

  test('an untrusted workspace refuses, whatever was confirmed', () => {
    const decision = decideSend(withConfirmed({ ...base, trusted: false }, 'errors', 'remote'));
    assert.equal(decision.action, 'refuse');
    assert.match((decision as { reason: string }).reason, /Restricted Mode/);
  });

  test('errors ask first; once confirmed, the send goes ahead', () => {
    const decision = decideSend({ ...base, errorCodes: ['', ''] });
    assert.equal(decision.action, 'confirm');
    assert.equal((decision as { kind: string }).kind, 'errors');
    assert.equal((decision as { question: string }).question, 'This envelope has 2 errors. Send anyway?');
    assert.deepEqual(decideSend(withConfirmed({ ...base, errorCodes: ['', ''] }, 'errors')), { action: 'send' });
  });

  test('the errors question names their codes and does not claim that consumers reject them (a draft-07 pattern passes every consumer)', () => {
    const decision = decideSend({ ...base, errorCodes: ['payload-schema', 'payload-schema'] });
    assert.equal((decision as { question: string }).question, 'This envelope has 2 errors (payload-schema). Send anyway?');
    assert.doesNotMatch((decision as { question: string }).question, /consumers/);
  });

  test('bytes some consumer rejects ask first, naming the consumers and why; once confirmed, the send goes ahead', () => {
    const rejected = { ...base, rejectedBy: 'Node (data must be an object)' };
    const decision = decideSend(rejected);
    assert.equal((decision as { kind: string }).kind, 'rejected');
    assert.match((decision as { question: string }).question, /Some SDK consumers reject these bytes: Node \(data must be an object\)\. Send anyway\?/);
    assert.deepEqual(decideSend(withConfirmed(rejected, 'rejected')), { action: 'send' });
    assert.deepEqual(decideSend({ ...base, rejectedBy: '' }), { action: 'send' }, 'no rejecting consumer, no question');
  });

  test('a host that is not loopback asks, naming the host; both questions come one after the other', () => {
    const remote = { ...base, loopback: false, host: 'broker.example.com', errorCodes: ['json-syntax'] };
    const first = decideSend(remote);
    assert.equal((first as { kind: string }).kind, 'errors');
    const second = decideSend(withConfirmed(remote, 'errors'));
    assert.equal((second as { kind: string }).kind, 'remote');
    assert.match((second as { question: string }).question, /broker\.example\.com is not this machine/);
    assert.deepEqual(decideSend(withConfirmed(remote, 'errors', 'remote')), { action: 'send' });
  });
});
