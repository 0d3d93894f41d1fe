/**
 * A Redis URL's lone userinfo (`redis://name@host`, `rediss://` alike): ioredis reads it as the ACL
 * user, other Redis clients read it as the password, so it logs in as the user and is shown
 * nowhere: not by the target, the password prompt, nor the secret-storage key. An AMQP one
 * (`amqp://name@host`) is the user name, as amqplib reads it, and is shown. The editor's commands
 * are driven through the fake `vscode` module against the real Redis, with users made for the test.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { before, beforeEach, describe, test } from 'node:test';
import { describeTarget, parseTarget, withPassword } from '../../broker/target';
import { keptPassword, passwordKey, passwordPrompt, passwordToKeep } from '../../client/send-settings';
import { uniqueQueue, uniqueSecret, useRealBrokers } from '../broker/helpers';
import { installFakeVscode } from '../support/fake-vscode';

const fake = installFakeVscode();
const brokers = useRealBrokers();

describe('what is shown of a lone userinfo', () => {
  test('Redis and rediss: used as the user name, in no display, log, JSON, prompt or key', () => {
    for (const scheme of ['redis', 'rediss']) {
      const target = parseTarget(`${scheme}://Qx7vLone@127.0.0.1:6379/2`);
      assert.equal(target.username, 'Qx7vLone');
      assert.equal(target.password, undefined);
      const supplied = withPassword(target, 'from-secret-storage');
      assert.equal(supplied.username, 'Qx7vLone', 'withPassword keeps the user name');
      for (const each of [target, supplied]) {
        for (const shown of [JSON.stringify(each), inspect(each), each.display, describeTarget(each, 'orders'), Object.keys(each).join()]) assert.doesNotMatch(shown, /Qx7vLone/);
      }
      const prompt = passwordPrompt(target);
      assert.doesNotMatch(`${prompt.title} ${prompt.prompt}`, /Qx7vLone/);
      assert.match(prompt.prompt, /redis:\/\/:PASSWORD@host/);
      assert.doesNotMatch(passwordKey(target), /Qx7vLone/);
    }
  });

  test('AMQP: the user name, shown and part of the key', () => {
    const target = parseTarget('amqp://app@127.0.0.1:5672');
    assert.equal(target.username, 'app');
    assert.equal(target.display, 'amqp://app@127.0.0.1:5672');
    assert.match(passwordPrompt(target).title, /^Password for app on amqp:\/\/app@127\.0\.0\.1:5672$/);
    assert.match(passwordKey(target), /:app@amqp:/);
    assert.equal(keptPassword(target, passwordToKeep(target, 'pw')), 'pw');
  });

  test('a Redis slot keeps the password with its user: another user name finds none', () => {
    const alice = parseTarget('redis://alice@127.0.0.1:6379');
    const bob = parseTarget('redis://bob@127.0.0.1:6379');
    assert.equal(passwordKey(alice), passwordKey(bob));
    const kept = passwordToKeep(alice, 'alice-pw');
    assert.equal(keptPassword(alice, kept), 'alice-pw');
    assert.equal(keptPassword(bob, kept), undefined);
    assert.equal(keptPassword(alice, 'not json'), undefined);
  });
});

describe('Peek Queue with a lone Redis userinfo, against the real Redis', () => {
  let messages: typeof import('../../client/commands/messages');
  before(async () => {
    messages = await import('../../client/commands/messages');
  });
  beforeEach(() => fake.reset());

  /** A Redis ACL user whose name looks like a password, so that any place showing it is caught. */
  async function redisUser(): Promise<{ user: string; password: string }> {
    const user = uniqueSecret();
    const password = uniqueSecret();
    await brokers.redis.call('ACL', 'SETUSER', user, 'on', `>${password}`, '~*', '+@all');
    brokers.closers.push(async () => {
      await brokers.redis.call('ACL', 'DELUSER', user);
    });
    return { user, password };
  }

  /** Peek Queue with `url`, answering the password prompt with `password`; what it asked, kept and logged. */
  async function peek(url: string, password: string) {
    fake.events.length = 0;
    fake.settings = { 'babelqueue.broker.url': url };
    fake.answer = (event) => (event.kind === 'input' ? (event.text.startsWith('Password for') ? password : uniqueQueue()) : undefined);
    messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
    await fake.commands.get('babelqueue.peekQueue')!();
    const texts = fake.events.map((event) => `${event.kind}: ${event.text}`);
    return {
      texts,
      asked: fake.events.filter((event) => event.kind === 'input' && event.text.startsWith('Password for')).length,
      errors: fake.events.filter((event) => event.kind === 'log.error' || event.kind === 'error').map((event) => event.text),
    };
  }

  test('logs in as that user with the password asked for, and neither the prompt nor the key names it', async () => {
    const { user, password } = await redisUser();
    const first = await peek(`redis://${user}@127.0.0.1:6379`, password);
    // The default user has no password here: a login that succeeds was AUTH as the named user.
    assert.deepEqual(first.errors, []);
    assert.equal(first.asked, 1);
    for (const text of first.texts) assert.ok(!text.includes(user), `shown: ${text}`);
    for (const key of fake.secrets.keys()) assert.ok(!key.includes(user), `a key names the user: ${key}`);
    const again = await peek(`redis://${user}@127.0.0.1:6379`, 'never-asked');
    assert.deepEqual(again.errors, []);
    assert.equal(again.asked, 0, 'the kept password is used');
  });

  test('another user on the same server is asked for its own password, not sent the one kept', async () => {
    const first = await redisUser();
    const second = await redisUser();
    assert.deepEqual((await peek(`redis://${first.user}@127.0.0.1:6379`, first.password)).errors, []);
    const other = await peek(`redis://${second.user}@127.0.0.1:6379`, second.password);
    assert.equal(other.asked, 1);
    assert.deepEqual(other.errors, []);
  });
});
