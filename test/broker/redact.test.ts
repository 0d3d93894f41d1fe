import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redact } from '../../broker/errors';
import { seededRandom } from '../support/seeded-random';

/** What redact did as regular expressions, kept here as the oracle its one-pass scan must agree with. */
function redactByPattern(text: string): string {
  const mask = (_match: string, scheme: string, userinfo: string): string => {
    const colon = userinfo.indexOf(':');
    if (colon >= 0) return `${scheme}${userinfo.slice(0, colon)}:***@`;
    return /^rediss?:\/\//i.test(scheme) ? `${scheme}***@` : `${scheme}${userinfo}@`;
  };
  return text
    .replace(/\b((?:rediss?|amqps?):\/\/)(\S*)@/gi, mask)
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#]*)@/gi, mask)
    .replace(/([?&;](?:password|passwd|pass|pwd|token|access_token|auth|auth_token|secret|api_key|apikey|key|sig|signature|sas)=)[^&#;\s'"]*/gi, '$1***');
}

const PIECES = ['redis', 'rediss', 'REDIS', 'amqp', 'amqps', 'http', 'x', 'a.b', 'c+d', '-', '_', '://', ':', '@', '/', '?', '#', ' ', '\t', 'pw', 'user', '9', 'host', '.', '&password=', 'é'];

test('redact masks what the patterns it was written as masked, on 20,000 seeded texts made of URL pieces', () => {
  const next = seededRandom(20261207);
  for (let i = 0; i < 20_000; i++) {
    let text = '';
    const length = 1 + Math.floor(next() * 14);
    for (let j = 0; j < length; j++) text += PIECES[Math.floor(next() * PIECES.length)];
    assert.equal(redact(text), redactByPattern(text), `case ${i}: ${JSON.stringify(text)}`);
  }
});

test('redact masks passwords in broker URLs and others, and in query parameters', () => {
  assert.equal(redact('redis://:s3cret@127.0.0.1:6379/0'), 'redis://:***@127.0.0.1:6379/0');
  assert.equal(redact('use amqp://guest:p@ss/w@rd@host/vhost now'), 'use amqp://guest:***@host/vhost now');
  assert.equal(redact('redis://onlysecret@host'), 'redis://***@host');
  assert.equal(redact('https://user:pw@example.com/x?token=abc&y=1'), 'https://user:***@example.com/x?token=***&y=1');
  assert.equal(redact('mailto://user@example.com'), 'mailto://user@example.com');
});

test('redact grows linearly on values full of schemes without a password (40,000 characters against 10,000)', () => {
  for (const unit of ['redis://', 'a.', 'a-', 'x://a ', 'amqp://a/']) {
    const time = (size: number): number => {
      const text = unit.repeat(Math.ceil(size / unit.length));
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        redact(text);
        best = Math.min(best, performance.now() - start);
      }
      return best;
    };
    time(10_000);
    const small = time(10_000);
    const large = time(40_000);
    // Quadratic is 16× and more (the patterns took 30× on `redis://…`); linear is about 4×.
    assert.ok(large < Math.max(small * 8, 2), `${unit}: ${small.toFixed(2)} ms at 10,000, ${large.toFixed(2)} ms at 40,000`);
  }
});
