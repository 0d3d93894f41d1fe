/**
 * A password the broker refuses is forgotten whatever the command that used it (send, peek, dead
 * letters, redrive), under the key it was stored with, so the next command asks again instead of
 * failing with the same stored password forever.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BrokerError } from '../../broker/errors';
import { passwordKey, refusedPasswordKey } from '../../client/send-settings';
import { parseTarget } from '../../broker/target';

describe('refusedPasswordKey', () => {
  const url = 'amqp://guest@127.0.0.1:5672';
  const stored = (() => {
    const target = parseTarget(url);
    return passwordKey(target.display, target.username);
  })();

  test('a login refused: the key the password was stored under', () => {
    assert.equal(refusedPasswordKey(url, new BrokerError('auth', 'Login refused')), stored);
    assert.equal(refusedPasswordKey('redis://alice@127.0.0.1:6379/2', new BrokerError('auth', 'WRONGPASS')), passwordKey(parseTarget('redis://alice@127.0.0.1:6379/2').display, 'alice'));
  });

  test('any other failure, or no user name in the URL: nothing is forgotten', () => {
    assert.equal(refusedPasswordKey(url, new BrokerError('missing-queue', 'no queue')), undefined);
    assert.equal(refusedPasswordKey(url, new Error('Login refused')), undefined);
    assert.equal(refusedPasswordKey('redis://127.0.0.1:6379', new BrokerError('auth', 'NOAUTH')), undefined);
    assert.equal(refusedPasswordKey('not a url', new BrokerError('auth', 'refused')), undefined);
  });
});
