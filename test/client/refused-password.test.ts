/**
 * A password the broker refuses is forgotten whatever the command that used it (send, peek, dead
 * letters, redrive), under the key it was stored with, so the next command asks again instead of
 * failing with the same stored password forever. Only a refused login forgets it: a user the
 * broker let in but does not allow what was asked (a Redis ACL, RabbitMQ permissions) keeps the
 * password it accepted, and a URL that holds its own password leaves secret storage alone. The
 * commands are driven through the fake `vscode` module against the real Redis and RabbitMQ, with
 * users made for the test and deleted after it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, beforeEach, describe, test } from 'node:test';
import { BrokerError } from '../../broker/errors';
import { keptPassword, passwordKey, passwordToKeep, refusedPasswordKey } from '../../client/send-settings';
import { parseTarget } from '../../broker/target';
import { uniqueQueue, uniqueSecret, useRealBrokers } from '../broker/helpers';
import { installFakeVscode } from '../support/fake-vscode';

const fake = installFakeVscode();
const brokers = useRealBrokers();

describe('refusedPasswordKey', () => {
  const url = 'amqp://guest@127.0.0.1:5672';
  const stored = (() => {
    const target = parseTarget(url);
    return passwordKey(target);
  })();

  test('a login refused: the key the password was stored under', () => {
    assert.equal(refusedPasswordKey(url, new BrokerError('auth', 'Login refused', { loginRefused: true })), stored);
    assert.equal(refusedPasswordKey('redis://alice@127.0.0.1:6379/2', new BrokerError('auth', 'WRONGPASS', { loginRefused: true })), passwordKey(parseTarget('redis://alice@127.0.0.1:6379/2')));
  });

  test('a user let in but refused what was asked, or a URL holding its own password: nothing is forgotten', () => {
    assert.equal(refusedPasswordKey(url, new BrokerError('auth', 'does not allow this user to read queue q')), undefined);
    assert.equal(refusedPasswordKey('amqp://guest:wrong@127.0.0.1:5672', new BrokerError('auth', 'Login refused', { loginRefused: true })), undefined);
  });

  test('any other failure, or no user name in the URL: nothing is forgotten', () => {
    assert.equal(refusedPasswordKey(url, new BrokerError('missing-queue', 'no queue')), undefined);
    assert.equal(refusedPasswordKey(url, new Error('Login refused')), undefined);
    assert.equal(refusedPasswordKey('redis://127.0.0.1:6379', new BrokerError('auth', 'NOAUTH')), undefined);
    assert.equal(refusedPasswordKey('not a url', new BrokerError('auth', 'refused')), undefined);
  });
});

describe('what a command forgets after the broker said no, against the real brokers', () => {
  let messages: typeof import('../../client/commands/messages');
  const rabbitUsers: string[] = [];

  before(async () => {
    messages = await import('../../client/commands/messages');
  });
  beforeEach(() => fake.reset());
  after(() => {
    for (const user of rabbitUsers) execFileSync('rabbitmqctl', ['delete_user', user], { stdio: 'ignore' });
  });

  /** A Redis ACL user that may log in, and do everything except on keys matching `keys`. */
  async function redisUser(keys: string): Promise<{ url: string; password: string }> {
    const user = `babelq-test-${uniqueQueue().slice(-12)}`;
    const password = uniqueSecret();
    await brokers.redis.call('ACL', 'SETUSER', user, 'on', `>${password}`, 'resetkeys', keys, '+@all');
    brokers.closers.push(async () => {
      await brokers.redis.call('ACL', 'DELUSER', user);
    });
    return { url: `redis://${user}@127.0.0.1:6379`, password };
  }

  /** A RabbitMQ user on vhost / that may configure and write everything and read nothing. */
  function rabbitUser(): { url: string; password: string } {
    const user = `babelq-test-${uniqueQueue().slice(-12)}`;
    const password = uniqueSecret();
    execFileSync('rabbitmqctl', ['add_user', user, password], { stdio: 'ignore' });
    rabbitUsers.push(user);
    execFileSync('rabbitmqctl', ['set_permissions', '-p', '/', user, '.*', '.*', '^$'], { stdio: 'ignore' });
    return { url: `amqp://${user}@127.0.0.1:5672`, password };
  }

  /** Peek Queue on `queue` with `url` as the broker setting and `stored` in secret storage; what it logged and kept. */
  async function peek(url: string, queue: string, stored: string): Promise<{ logged: string; kept: string | undefined }> {
    const target = parseTarget(url);
    const key = passwordKey(target);
    fake.settings = { 'babelqueue.broker.url': url };
    fake.secrets.set(key, passwordToKeep(target, stored));
    fake.answer = (event) => (event.kind === 'input' ? queue : undefined);
    messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
    await fake.commands.get('babelqueue.peekQueue')!();
    const logged = fake.events.filter((event) => event.kind === 'log.error').map((event) => event.text).join('\n');
    return { logged, kept: keptPassword(target, fake.secrets.get(key)) };
  }

  test('Redis: a user whose ACL refuses the key keeps its password; a wrong password is forgotten', async () => {
    const queue = uniqueQueue();
    const { url, password } = await redisUser('~someone-else-*');
    const refused = await peek(url, queue, password);
    assert.match(refused.logged, /does not allow this user to read/);
    assert.equal(refused.kept, password, 'the password Redis accepted is still stored');
    fake.reset();
    const wrong = await peek(url, queue, `${password}-wrong`);
    assert.match(wrong.logged, /Authentication failed .*wrong user name or password/);
    assert.equal(wrong.kept, undefined, 'the password Redis refused is forgotten');
  });

  test('RabbitMQ: a user without read permission keeps its password; a wrong password is forgotten', async () => {
    const queue = uniqueQueue();
    brokers.amqpQueues.add(queue);
    await brokers.channel.assertQueue(queue, { durable: true });
    const { url, password } = rabbitUser();
    const refused = await peek(url, queue, password);
    assert.match(refused.logged, /does not allow this user to read queue/);
    assert.equal(refused.kept, password, 'the password RabbitMQ accepted is still stored');
    fake.reset();
    const wrong = await peek(url, queue, `${password}-wrong`);
    assert.match(wrong.logged, /Login to .* refused: wrong user name or password/);
    assert.equal(wrong.kept, undefined, 'the password RabbitMQ refused is forgotten');
  });

  test('a URL holding its own wrong password leaves the password stored for its user alone', async () => {
    const queue = uniqueQueue();
    const stored = passwordKey(parseTarget('amqp://guest@127.0.0.1:5672'));
    fake.secrets.set(stored, 'guest');
    fake.settings = { 'babelqueue.broker.url': `amqp://guest:${uniqueSecret()}@127.0.0.1:5672` };
    fake.answer = (event) => (event.kind === 'input' ? queue : undefined);
    messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
    await fake.commands.get('babelqueue.peekQueue')!();
    assert.match(fake.events.filter((event) => event.kind === 'log.error').map((event) => event.text).join('\n'), /Login to .* refused/);
    assert.equal(fake.secrets.get(stored), 'guest');
    assert.ok(!fake.events.some((event) => event.kind === 'secret.delete'), 'nothing was deleted from secret storage');
  });
});
