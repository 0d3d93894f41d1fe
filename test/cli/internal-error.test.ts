/**
 * cli/internal-error.ts: `babelq`'s last resort, an error nobody expected, is printed with its
 * stack for a report but without a password the run was given: a client library's error can
 * quote what it was sent (a connection URL, an AUTH command), and the text is meant to be pasted
 * into an issue.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { internalErrorText } from '../../cli/internal-error';

test('names no password: from a URL among the arguments (--broker <url> or --broker=<url>), BABELQ_BROKER_URL or BABELQ_BROKER_PASSWORD, raw or URL-encoded, nor a Redis URL\'s lone user name', () => {
  const cases = [
    { argv: ['peek', '--queue', 'orders', '--broker', 'amqp://guest:p%40ss-1@127.0.0.1'], env: {}, secret: 'p@ss-1' },
    { argv: ['send', 'a.babel.json', '--broker=rediss://app:s%2Fcret@127.0.0.1'], env: {}, secret: 's/cret' },
    { argv: ['peek', '--queue', 'orders'], env: { BABELQ_BROKER_URL: 'redis://only-a-secret@127.0.0.1:6379' }, secret: 'only-a-secret' },
    { argv: ['peek', '--queue', 'orders'], env: { BABELQ_BROKER_PASSWORD: 'pw from env' }, secret: 'pw from env' },
  ];
  for (const { argv, env, secret } of cases) {
    const text = internalErrorText(new Error(`AUTH failed for ${secret} (sent ${encodeURIComponent(secret)}) at amqp://user:${encodeURIComponent(secret)}@127.0.0.1`), argv, env);
    assert.match(text, /^Error: AUTH failed for \*\*\* \(sent \*\*\*\) at amqp:\/\/user:\*\*\*@127\.0\.0\.1\n\s+at /);
    assert.ok(!text.includes(secret) && !text.includes(encodeURIComponent(secret)), text);
  }
});

test('keeps what is no secret: the message, its stack, a user name outside Redis, and a value that is not thrown as an Error', () => {
  const text = internalErrorText(new Error('guest could not read byte 12'), ['peek', '--queue', 'orders', '--broker', 'amqp://guest@127.0.0.1'], {});
  assert.match(text, /^Error: guest could not read byte 12\n\s+at /);
  assert.equal(internalErrorText('a string thrown', ['lint', '--broker', 'not a url %zz'], {}), 'a string thrown');
});
