/**
 * Broker URLs and what people are shown of them: parsing with defaults, the loopback test behind
 * the "send to a remote host?" question, and redaction of every password form.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { describe, test } from 'node:test';
import { BrokerError, redact, scrub } from '../../broker/errors';
import { describeTarget, isLoopback, parseTarget, withPassword } from '../../broker/target';

describe('parseTarget', () => {
  test('defaults: ports 6379 / 5672 (5671 for amqps), db 0, vhost /', () => {
    const redis = parseTarget('redis://127.0.0.1');
    assert.deepEqual({ ...redis }, { scheme: 'redis', tls: false, host: '127.0.0.1', port: 6379, kind: 'redis', db: 0, display: 'redis://127.0.0.1:6379' });
    assert.equal(parseTarget('rediss://cache.local').tls, true);
    const amqp = parseTarget('amqp://localhost');
    assert.equal(amqp.port, 5672);
    assert.equal(amqp.vhost, '/');
    assert.equal(amqp.username, undefined);
    assert.equal(parseTarget('amqps://mq.local').port, 5671);
  });

  test('user, password, Redis db path and AMQP vhost, percent-decoded', () => {
    const redis = parseTarget('redis://default:p%40ss%3Aword@127.0.0.1:6380/2');
    assert.equal(redis.username, 'default');
    assert.equal(redis.password, 'p@ss:word');
    assert.equal(redis.port, 6380);
    assert.equal(redis.db, 2);
    assert.equal(redis.display, 'redis://127.0.0.1:6380/2');
    const amqp = parseTarget('amqp://app:secret@[::1]:5673/billing%2Fprod');
    assert.equal(amqp.host, '::1');
    assert.equal(amqp.vhost, 'billing/prod');
    assert.equal(amqp.username, 'app');
    assert.equal(amqp.display, 'amqp://app@[::1]:5673/billing%2Fprod');
    assert.equal(parseTarget('amqp://guest:guest@127.0.0.1/%2F').vhost, '/');
  });

  test('the password is not enumerable: logs and JSON never show it', () => {
    const target = parseTarget('redis://:hunter2-pw@127.0.0.1:6379');
    assert.equal(target.password, 'hunter2-pw');
    assert.ok(!JSON.stringify(target).includes('hunter2-pw'));
    assert.ok(!inspect(target).includes('hunter2-pw'));
    assert.ok(!describeTarget(target, 'orders').includes('hunter2-pw'));
  });

  test('a user name equal to the password is not shown either (guest:guest)', () => {
    assert.equal(parseTarget('amqp://guest:guest@127.0.0.1').display, 'amqp://127.0.0.1:5672');
    assert.equal(parseTarget('amqp://guest@127.0.0.1').display, 'amqp://guest@127.0.0.1:5672');
  });

  test('withPassword supplies the password from outside and keeps everything else', () => {
    const base = parseTarget('amqp://app@127.0.0.1:5672/vh');
    const target = withPassword(base, 'from-secret-storage');
    assert.equal(target.password, 'from-secret-storage');
    assert.equal(base.password, undefined, 'the original is untouched');
    assert.deepEqual({ ...target }, { ...base });
    assert.equal(withPassword(target, '').password, undefined);
    assert.ok(!inspect(target).includes('from-secret-storage'));
  });

  test('no part of a password, whatever it holds, is ever in an invalid-url message', () => {
    // Each password is two distinctive halves around a character the URL grammar treats
    // specially; a message may contain neither half, raw or %-encoded.
    for (const special of ['/', '?', '#', '@', ':', '%', ' ', '/@', '?#@:%']) {
      const password = `Qx7v${special}Zk9w`;
      const urls = [
        `redis://:${password}@127.0.0.1:6379`,
        `redis://user:${password}@127.0.0.1:6379/db2`,
        `redis://:${password}@127.0.0.1:99999`,
        `amqp://guest:${password}@127.0.0.1:5672`,
        `amqp://guest:${password}@127.0.0.1:5672/vh@x`,
        `amqp://${password}@[bad`,
        // The host forgotten: with no '@' left in it, the whole password would be the "host".
        ...(special.includes('@') ? [] : [`rediss://:${password}`]),
      ];
      for (const url of urls) {
        let target;
        try {
          target = parseTarget(url);
        } catch (error) {
          assert.ok(error instanceof BrokerError && error.kind === 'invalid-url', url);
          for (const half of ['Qx7v', 'Zk9w']) assert.ok(!error.message.includes(half), `${url}: ${error.message}`);
          continue;
        }
        // Parsed: then the password was read whole (a ':' or '@' typed raw is unambiguous before the host).
        assert.equal(target.password, password, url);
        for (const half of ['Qx7v', 'Zk9w']) assert.ok(!target.display.includes(half), `${url}: ${target.display}`);
      }
    }
  });

  test('a password of digits whose host was forgotten is not quoted as a port', () => {
    for (const url of ['redis://:98765432', 'redis://:4242', 'amqp://admin:98765432', 'rediss://:98765432/']) {
      assert.throws(() => parseTarget(url), (error: unknown) => error instanceof BrokerError && error.kind === 'invalid-url' && !/98765432|4242/.test(error.message), url);
    }
    // A host is still named, its port too when it can be one.
    assert.throws(() => parseTarget('redis://cache.example:99999'), (error: unknown) => error instanceof BrokerError && error.message.includes('"redis://cache.example:…"'));
    assert.throws(() => parseTarget('redis://cache.example:6379/x'), (error: unknown) => error instanceof BrokerError && error.message.includes('"redis://cache.example:6379"'));
  });

  test('an "@" after the host is refused, not read as a path: a password holding "/", "?" or "#" was split there', () => {
    for (const url of ['amqp://guest:12/ab@127.0.0.1:5672', 'redis://:12?ab@127.0.0.1', 'amqp://guest@127.0.0.1/vh@x']) {
      assert.throws(() => parseTarget(url), (error: unknown) => error instanceof BrokerError && error.kind === 'invalid-url' && /must be %-encoded/.test(error.message), url);
    }
    assert.equal(parseTarget('amqp://guest:12%2Fab@127.0.0.1:5672').password, '12/ab');
    assert.equal(parseTarget('amqp://guest@127.0.0.1/vh%40x').vhost, 'vh@x');
  });

  test('unusable URLs are invalid-url errors', () => {
    for (const url of ['', 'localhost:6379', 'http://127.0.0.1', 'redis://127.0.0.1:70000', 'redis://127.0.0.1/db2', 'redis://', 'amqp://u:%zz@h']) {
      assert.throws(() => parseTarget(url), (error: unknown) => error instanceof BrokerError && error.kind === 'invalid-url', url);
    }
  });
});

describe('isLoopback', () => {
  test('127.0.0.0/8, ::1 and localhost, in the spellings a resolver accepts', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '127.1', '2130706433', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::1%lo', 'localhost', 'LocalHost', 'localhost.']) {
      assert.equal(isLoopback(host), true, host);
    }
  });

  test('anything else is not', () => {
    for (const host of ['128.0.0.1', '10.0.0.1', '192.168.1.10', '0.0.0.0', '::', '::2', 'example.com', '127.0.0.1.nip.io', 'localhost.example.com', 'mylocalhost', 'fe80::1%lo0', 'fe80::1%1', '']) {
      assert.equal(isLoopback(host), false, host);
    }
  });
});

test('describeTarget names the broker, the kind of queue and the queue', () => {
  assert.equal(describeTarget(parseTarget('redis://127.0.0.1:6379'), 'orders'), 'redis://127.0.0.1:6379 list orders');
  assert.equal(describeTarget(parseTarget('redis://:pw@127.0.0.1/3'), 'queues:orders'), 'redis://127.0.0.1:6379/3 list queues:orders');
  assert.equal(describeTarget(parseTarget('amqp://guest:pw@127.0.0.1'), 'orders'), 'amqp://guest@127.0.0.1:5672 queue orders');
});

describe('redact', () => {
  test('masks URL passwords, lone Redis userinfo and credential query values, anywhere in a text', () => {
    assert.equal(redact('redis://:pw@127.0.0.1:6379/2'), 'redis://:***@127.0.0.1:6379/2');
    assert.equal(redact('amqp://guest:guest@127.0.0.1:5672/'), 'amqp://guest:***@127.0.0.1:5672/');
    assert.equal(redact('redis://lonesecret@cache:6379'), 'redis://***@cache:6379');
    assert.equal(redact('amqp://guest@127.0.0.1'), 'amqp://guest@127.0.0.1');
    assert.equal(redact('redis://:p@ss@127.0.0.1'), 'redis://:***@127.0.0.1', 'a raw @ inside the password');
    assert.equal(redact('amqps://mq/?heartbeat=10&password=abc&token=xyz#f'), 'amqps://mq/?heartbeat=10&password=***&token=***#f');
    assert.equal(
      redact('sent to amqp://a:b@h1 then redis://:c@h2 failed'),
      'sent to amqp://a:***@h1 then redis://:***@h2 failed',
    );
    assert.equal(redact('no url here'), 'no url here');
  });

  test('a broker URL whose password holds a raw "/", "?" or "#" is masked to its last "@", as parseTarget reads it', () => {
    // parseTarget refuses such a URL (the URL parser would end the password there); a text that
    // quotes it (a usage error naming what it was given) must not show the rest of the password.
    assert.equal(redact("cannot read 'amqp://guest:Pa/Sw0rd@127.0.0.1:5672': no such file"), "cannot read 'amqp://guest:***@127.0.0.1:5672': no such file");
    assert.equal(redact('redis://:Pa?Sw#0rd@127.0.0.1'), 'redis://:***@127.0.0.1');
    assert.equal(redact('rediss://lone/secret@cache'), 'rediss://***@cache');
    assert.equal(redact('amqps://u:a/b@h1 and redis://:c?d@h2'), 'amqps://u:***@h1 and redis://:***@h2');
    // Other schemes keep their authority: a path's "@" is no password ("node_modules/@scope").
    assert.equal(redact('at file:///C:/app/node_modules/@ioredis/x.js:1'), 'at file:///C:/app/node_modules/@ioredis/x.js:1');
    // A broker URL without credentials, followed by text, is left as it is.
    assert.equal(redact('redis://127.0.0.1:6379 list orders'), 'redis://127.0.0.1:6379 list orders');
  });

  test('BrokerError messages and targets are redacted', () => {
    const error = new BrokerError('refused', 'Connection refused by redis://:topsecret@127.0.0.1:1', { target: 'redis://:topsecret@127.0.0.1:1' });
    assert.ok(!error.message.includes('topsecret'));
    assert.ok(!String(error.stack).includes('topsecret'));
    assert.equal(error.target, 'redis://:***@127.0.0.1:1');
    assert.equal(error.name, 'BrokerError');
    assert.match(String(error), /^BrokerError: /);
  });

  test('scrub removes a known secret, raw and URL-encoded', () => {
    assert.equal(scrub('AUTH p@ss and p%40ss', ['p@ss']), 'AUTH *** and ***');
    assert.equal(scrub('unchanged', ['']), 'unchanged');
  });
});
