/**
 * The editor's broker commands (Peek Queue, Dead Letters, Redrive, Send) driven through a fake
 * `vscode` module (test/support/fake-vscode.ts): the order of their questions, what reaches secret
 * storage, and what a failure writes to the BabelQueue output. A host that is not this machine is
 * asked about before any password: nothing is asked for or stored for a host the user declines.
 * Failures use the local RabbitMQ (guest/guest) with unique queue names, and a password that is
 * refused; no message is left behind.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, beforeEach, describe, test } from 'node:test';
import { parseTarget } from '../../broker/target';
import { passwordKey, passwordToKeep } from '../../client/send-settings';
import { installFakeVscode, type UiEvent } from '../support/fake-vscode';

const fake = installFakeVscode();
const ROOT = resolve(__dirname, '../..');
const REMOTE = 'amqp://guest@10.1.2.3:5672';
const NOT_THIS_MACHINE = /10\.1\.2\.3 is not this machine/;
const LOCAL = 'amqp://guest@127.0.0.1:5672';
/** Where resolveTarget keeps the local RabbitMQ's password. */
const LOCAL_KEY = passwordKey(parseTarget(LOCAL));

type Commands = typeof import('../../client/commands/messages');
type Redrive = typeof import('../../client/commands/redrive');
type Send = typeof import('../../client/commands/send');
let messages: Commands;
let redriveModule: Redrive;
let send: Send;
let rows: typeof import('../../core/language/message-rows');

before(async () => {
  messages = await import('../../client/commands/messages');
  redriveModule = await import('../../client/commands/redrive');
  send = await import('../../client/commands/send');
  rows = await import('../../core/language/message-rows');
});

beforeEach(() => fake.reset());

/** The prompts and storage calls, without the reads of secret storage. */
const asked = () => fake.events.filter((event) => event.kind !== 'secret.get' && !event.kind.startsWith('log.')).map((event) => `${event.kind}: ${event.text}`);
const logged = (kind: 'log.error' | 'log.info' = 'log.error') => fake.events.filter((event) => event.kind === kind).map((event) => event.text);

/** Runs a registered command with `services`. */
async function run(command: string, services = fake.services()): Promise<unknown> {
  messages.registerMessageCommands({ ...services, views: { open: async () => undefined } as never });
  return fake.commands.get(command)!();
}

/** The queue typed in the input box; the host question declined or accepted; the password typed. */
function answers(options: { queue: string; host: 'Read' | undefined; password?: string }) {
  return (event: UiEvent) => {
    if (event.kind === 'input' && event.text.startsWith('Password for')) return options.password;
    if (event.kind === 'input') return options.queue;
    if (event.kind === 'warning' && NOT_THIS_MACHINE.test(event.text)) return options.host;
    return undefined;
  };
}

describe('a host that is not this machine is asked about before the password', () => {
  for (const [name, command] of [['Peek Queue', 'babelqueue.peekQueue'], ['Dead Letters', 'babelqueue.deadLetters']] as const) {
    test(`${name}: declined, no password is asked for or stored`, async () => {
      fake.settings = { 'babelqueue.broker.url': REMOTE };
      fake.answer = answers({ queue: 'orders', host: undefined, password: 'never-asked' });
      await run(command);
      const prompts = asked();
      assert.equal(prompts.length, 2, prompts.join('\n'));
      assert.match(prompts[1]!, NOT_THIS_MACHINE);
      assert.equal(fake.secrets.size, 0);
      assert.ok(!fake.events.some((event) => event.kind === 'secret.store'));
    });

    test(`${name}: accepted, the password is asked after the question`, async () => {
      fake.settings = { 'babelqueue.broker.url': REMOTE };
      // The password prompt is dismissed: nothing connects to the made-up host.
      fake.answer = answers({ queue: 'orders', host: 'Read', password: undefined });
      await run(command);
      const prompts = asked();
      assert.equal(prompts.length, 3, prompts.join('\n'));
      assert.match(prompts[1]!, NOT_THIS_MACHINE);
      assert.match(prompts[2]!, /^input: Password for guest on amqp:\/\/guest@10\.1\.2\.3:5672/);
    });
  }

  test('Redrive: declined, no password is asked for or stored', async () => {
    fake.settings = { 'babelqueue.broker.url': REMOTE };
    fake.answer = (event) => (event.kind === 'info' && event.text.startsWith('Redrive ') ? 'Redrive' : undefined);
    const moved = await redriveModule.redrive(fake.services(), [{ message: deadLetter() }]);
    assert.equal(moved, false);
    const prompts = asked();
    assert.equal(prompts.length, 2, prompts.join('\n'));
    assert.match(prompts[1]!, /^warning: .*10\.1\.2\.3/);
    assert.equal(fake.secrets.size, 0);
  });
});

function deadLetter(edit: (text: string) => string = (text) => text) {
  const body = Buffer.from(edit(readFileSync(join(ROOT, 'examples/billing/invoice-paid-dlq.babel.json'), 'utf8')));
  const decoders = { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) };
  const [entry] = rows.lintedRows([rows.messageBody(body, decoders)]);
  return { row: entry!.row, body, source: { queue: 'billing', key: `babelq-h10-${randomUUID().slice(0, 8)}.dlq`, deadLetters: true } };
}

test('Redrive: a target queue named by white space is said first in the question\'s detail', async () => {
  fake.settings = { 'babelqueue.broker.url': LOCAL };
  const message = deadLetter((text) => text.replace(/"original_queue":\s*"billing"/, '"original_queue": "  "'));
  // Dismissed: nothing is moved.
  assert.equal(await redriveModule.redrive(fake.services(), [{ message }], 'node'), false);
  const question = fake.events.find((event) => event.kind === 'info' && event.text.startsWith('Redrive '));
  assert.ok(question, asked().join('\n'));
  assert.match(question.detail ?? '', new RegExp(`^Note: meta\\.id ${message.row.metaId}: dead_letter\\.original_queue is "  ", only white space: the Node redrive sends to the queue of that name, not to meta\\.queue "billing"`));
});

describe('a failure is written to the BabelQueue output, with its own words and no password', () => {
  const password = `refused-${randomUUID()}`;

  for (const [name, command] of [['Peek Queue', 'babelqueue.peekQueue'], ['Dead Letters', 'babelqueue.deadLetters']] as const) {
    test(`${name}: a refused password`, async () => {
      fake.settings = { 'babelqueue.broker.url': LOCAL };
      fake.answer = answers({ queue: `babelq-h10-${randomUUID().slice(0, 8)}`, host: undefined, password });
      await run(command);
      const lines = logged();
      assert.equal(lines.length, 1, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
      assert.match(lines[0]!, /^(Peek Queue|Dead Letters): reading amqp:\/\/guest@127\.0\.0\.1:5672 queue /);
      assert.match(lines[0]!, /refused|login|auth/i);
      assert.ok(!JSON.stringify(fake.events).includes(password), 'the password is in no prompt, notification or log line');
    });

    test(`${name}: a queue that does not exist`, async () => {
      const queue = `babelq-h10-${randomUUID().slice(0, 8)}`;
      fake.settings = { 'babelqueue.broker.url': LOCAL };
      fake.secrets.set(LOCAL_KEY, 'guest');
      fake.answer = answers({ queue, host: undefined });
      await run(command);
      const lines = logged();
      assert.equal(lines.length, 1, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
      assert.ok(lines[0]!.includes(queue), lines[0]);
      assert.ok(!lines[0]!.includes(':guest@'), lines[0]);
    });
  }

  const outside = () => new Error(`socket closed while talking to amqp://guest:${password}@127.0.0.1:5672 (${password})`);

  test('Redrive: a failure outside the broker is logged with its message, the password scrubbed', async () => {
    // On Redis: nothing is asked of it before the progress starts (on RabbitMQ the missing target
    // queues are looked for first, and this password would be refused there).
    const redis = 'redis://default@127.0.0.1:6379';
    fake.settings = { 'babelqueue.broker.url': redis };
    fake.secrets.set(passwordKey(parseTarget(redis)), passwordToKeep(parseTarget(redis), password));
    fake.answer = (event) => (event.kind === 'info' && event.text.startsWith('Redrive ') ? 'Redrive' : undefined);
    fake.progressFails = outside();
    assert.equal(await redriveModule.redrive(fake.services(), [{ message: deadLetter() }]), false);
    const lines = logged();
    assert.equal(lines.length, 1, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
    assert.match(lines[0]!, /socket closed while talking to amqp:\/\/guest:\*\*\*@127\.0\.0\.1:5672 \(\*\*\*\)/);
    assert.ok(!JSON.stringify(fake.events).includes(password));
  });

  test('Send: a failure outside the broker is logged with its message, the password scrubbed', async () => {
    fake.settings = { 'babelqueue.broker.url': LOCAL };
    fake.secrets.set(LOCAL_KEY, password);
    const text = readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8');
    const uri = { scheme: 'untitled', toString: () => 'untitled:Untitled-1', fsPath: '' };
    fake.activeTextEditor = { document: { uri, languageId: 'babelqueue-envelope', isDirty: true, isUntitled: true, getText: () => text } };
    fake.progressFails = outside();
    const services = { ...fake.services(), freshIds: new (await import('../../client/fresh-ids')).FreshIds(), savedBytes: { refusal: async () => undefined } as never, sent: () => {} };
    send.registerSendCommands(services);
    await fake.commands.get('babelqueue.sendTestEnvelope')!();
    const lines = logged();
    assert.equal(lines.length, 1, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
    assert.match(lines[0]!, /socket closed while talking to amqp:\/\/guest:\*\*\*@127\.0\.0\.1:5672 \(\*\*\*\)/);
    assert.ok(!JSON.stringify(fake.events).includes(password));
  });
});

describe('a message view whose tab closed', () => {
  test('is shown while a tab shows it, and not once none does (its problems are then answered empty)', async () => {
    const { messageViewShown } = await import('../../client/message-view');
    const view = 'babelqueue-message:/orders.dlq%20%C2%B7%201?2';
    const uri = { toString: () => view } as never;
    fake.tabs = ['file:///w/a.babel.json', view];
    assert.equal(messageViewShown(uri), true);
    fake.tabs = ['file:///w/a.babel.json'];
    assert.equal(messageViewShown(uri), false);
  });
});

describe('a broker setting that cannot be used as written stops the command, named, before anything is asked or sent', () => {
  const text = () => readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8');
  const WRONG: readonly [string, unknown, RegExp][] = [
    ['babelqueue.redis.layout', 'Laravel', /babelqueue\.redis\.layout must be "babelqueue" or "laravel", not "Laravel"/],
    ['babelqueue.broker.timeoutMs', -5, /babelqueue\.broker\.timeoutMs must be a number of milliseconds from 100 to 120000, not -5/],
    ['babelqueue.preview.sdk', 'rust', /babelqueue\.preview\.sdk must be one of .*"auto", not "rust"/],
    ['babelqueue.redis.prefix', 7, /babelqueue\.redis\.prefix must be text, not 7/],
    ['babelqueue.send.freshIds', 'no', /babelqueue\.send\.freshIds must be true or false, not "no"/],
    ['babelqueue.broker.url', 42, /babelqueue\.broker\.url must be a URL such as redis:\/\/127\.0\.0\.1:6379 or amqp:\/\/guest@127\.0\.0\.1:5672, not a number/],
    // A URL written inside a list or an object may hold a password: the setting is named by its shape, never echoed.
    ['babelqueue.broker.url', ['redis://:hunter2@127.0.0.1:6379'], /babelqueue\.broker\.url must be a URL .*, not a list(?![^]*hunter2)/],
    ['babelqueue.broker.url', { url: 'amqp://guest:hunter2@127.0.0.1:5672' }, /babelqueue\.broker\.url must be a URL .*, not an object(?![^]*hunter2)/],
    // A broker URL set in another setting by mistake is quoted with its password masked, also where the quote is cut inside it.
    ['babelqueue.redis.layout', 'redis://:hunter2@127.0.0.1:6379', /babelqueue\.redis\.layout must be "babelqueue" or "laravel", not "redis:\/\/:\*\*\*@127\.0\.0\.1:6379"(?![^]*hunter2)/],
    ['babelqueue.preview.sdk', `amqp://guest:Lk7${'w'.repeat(80)}@127.0.0.1:5672`, /babelqueue\.preview\.sdk must be one of .*, not "amqp:\/\/guest:\*\*\*@127\.0\.0\.1:5672"(?![^]*(Lk7|wwww))/],
    // A workspace's value with a bidirectional override or an isolate: quoted with them shown as \uXXXX, so they cannot reorder the message.
    ['babelqueue.broker.timeoutMs', '5000\u202e\u2066 ms', /babelqueue\.broker\.timeoutMs must be a number of milliseconds from 100 to 120000, not "5000\\u202e\\u2066 ms"/],
    // Set, but to nothing: refused as the other bad values are, not read as the default broker (which is no URL written here).
    ['babelqueue.broker.url', '', /babelqueue\.broker\.url must be a URL such as redis:\/\/127\.0\.0\.1:6379 or amqp:\/\/guest@127\.0\.0\.1:5672, not an empty value \(remove the setting for the default, redis:\/\/127\.0\.0\.1:6379\)/],
    ['babelqueue.broker.url', '   ', /babelqueue\.broker\.url must be a URL .*, not an empty value/],
  ];
  // What Send alone reads: Peek Queue, Dead Letters and Redrive read the broker's settings only.
  const SEND_ONLY = new Set(['babelqueue.preview.sdk', 'babelqueue.send.freshIds']);
  for (const [key, value, words] of WRONG) {
    test(`Send and Peek Queue with ${key} = ${JSON.stringify(value)}${SEND_ONLY.has(key) ? ' (Send alone refuses it)' : ''}`, async () => {
      fake.reset();
      fake.settings = { 'babelqueue.broker.url': LOCAL, [key]: value };
      // Any broker work started would fail with this, and be logged.
      fake.progressFails = new Error('broker work started');
      const uri = { scheme: 'untitled', toString: () => 'untitled:Untitled-1', fsPath: '' };
      fake.activeTextEditor = { document: { uri, languageId: 'babelqueue-envelope', isDirty: true, isUntitled: true, getText: text } };
      const services = { ...fake.services(), freshIds: new (await import('../../client/fresh-ids')).FreshIds(), savedBytes: { refusal: async () => undefined } as never, sent: () => {} };
      send.registerSendCommands(services);
      await fake.commands.get('babelqueue.sendTestEnvelope')!();
      const queue = `settings-${randomUUID()}`;
      fake.answer = (event) => (event.kind === 'quickPick' ? { typed: queue } : event.kind === 'input' ? queue : undefined);
      await run('babelqueue.peekQueue');
      const shown = fake.events.filter((event) => event.kind === 'error').map((event) => event.text);
      const passwordAsked = fake.events.filter((event) => event.kind === 'input' && /^Password/.test(event.text));
      if (SEND_ONLY.has(key)) {
        // A setting only Send reads stops Send alone: Peek Queue goes on to the broker (whose password it asks for).
        const aboutTheSetting = shown.filter((message) => message.includes(key));
        assert.equal(aboutTheSetting.length, 1, shown.join('\n'));
        assert.match(aboutTheSetting[0]!, words);
        assert.equal(passwordAsked.length, 1, asked().join('\n'));
        return;
      }
      assert.deepEqual(passwordAsked, [], 'no password asked');
      assert.equal(shown.length, 2, asked().join('\n'));
      for (const message of shown) assert.match(message, words);
      assert.deepEqual(logged(), [], 'no broker work started');
    });
  }
});

describe('Redis settings a broker command does not use are said in the output, not refused', () => {
  // Often set once for every workspace: a command goes on, and says which setting it left aside.
  const CASES: [string, Record<string, unknown>, RegExp | undefined][] = [
    ['a prefix with the babelqueue layout', { 'babelqueue.broker.url': 'redis://127.0.0.1:6379', 'babelqueue.redis.prefix': 'laravel_database_' }, /^Peek Queue: babelqueue\.redis\.prefix \("laravel_database_"\) is not used: the babelqueue layout keys a queue by its name alone; the prefix is Laravel's connection prefix, for babelqueue\.redis\.layout "laravel"\.$/],
    ['the laravel layout and a prefix with RabbitMQ', { 'babelqueue.broker.url': LOCAL, 'babelqueue.redis.layout': 'laravel', 'babelqueue.redis.prefix': 'x_' }, /^Peek Queue: babelqueue\.redis\.layout \("laravel"\) and babelqueue\.redis\.prefix \("x_"\) are not used with RabbitMQ \(amqp:\/\/guest@127\.0\.0\.1:5672\): a queue there is reached by its name alone\.$/],
    ['a prefix with the laravel layout (used)', { 'babelqueue.broker.url': 'redis://127.0.0.1:6379', 'babelqueue.redis.layout': 'laravel', 'babelqueue.redis.prefix': 'laravel_database_' }, undefined],
  ];
  for (const [name, settings, note] of CASES) {
    test(`Peek Queue with ${name}`, async () => {
      fake.settings = settings;
      const queue = `settings-${randomUUID()}`;
      fake.answer = (event) => (event.kind === 'input' && event.text.startsWith('Password') ? 'guest' : event.kind === 'input' ? queue : undefined);
      await run('babelqueue.peekQueue');
      const warned = fake.events.filter((event) => event.kind === 'log.warn').map((event) => event.text);
      if (note === undefined) assert.deepEqual(warned, []);
      else assert.deepEqual(warned.filter((text) => note.test(text)).length, 1, warned.join('\n'));
      // The read went on: the queue is empty (RabbitMQ's does not exist).
      assert.ok(fake.events.some((event) => /^No messages on |does not exist/.test(event.text)), asked().join('\n'));
    });
  }
});
