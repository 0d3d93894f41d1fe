/**
 * "BabelQueue: New Envelope…": the URN pick lists the registry's active entries first, then the
 * deprecated ones under a separator, each saying what its status means. The registry names no
 * successor, so the pick must not promise one.
 */
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import type { RegistryEntriesResult } from '../../core/language/protocol';
import { installFakeVscode } from '../support/fake-vscode';

const fake = installFakeVscode();

beforeEach(() => fake.reset());

test('the pick puts active URNs first and marks each deprecated, retired or sunset one with its own status', async () => {
  const entries: RegistryEntriesResult = {
    registryPath: '/project/registry.json',
    entries: [
      { urn: 'urn:babel:orders:placed', owner: 'orders', status: 'retired', deprecated: true },
      { urn: 'urn:babel:orders:created', owner: 'orders', status: 'active', deprecated: false },
      { urn: 'urn:babel:orders:shipped', status: 'sunset', deprecated: true },
    ],
  };
  const requests: string[] = [];
  const client = {
    isRunning: () => true,
    needsStop: () => true,
    sendRequest: async (method: string) => {
      requests.push(method);
      return entries;
    },
  };
  let items: readonly { label: string; detail?: string; urn?: string }[] = [];
  fake.answer = (event, offered) => {
    if (event.kind === 'quickPick') items = offered as typeof items;
    return undefined;
  };
  const { registerNewEnvelopeCommand } = await import('../../client/commands/new-envelope');
  registerNewEnvelopeCommand({ subscriptions: [] } as never, client as never);
  await fake.commands.get('babelqueue.newEnvelope')!();

  assert.deepEqual(requests, ['babelqueue/registryEntries']);
  assert.deepEqual(items.map((item) => item.urn ?? `-- ${item.label}`), ['urn:babel:orders:created', '-- deprecated, retired or sunset', 'urn:babel:orders:placed', 'urn:babel:orders:shipped']);
  assert.equal(items[0]!.detail, undefined);
  assert.match(items[2]!.detail!, /^"retired" in the registry: a new fixture belongs to the URN that replaces it \(mint one if none is registered\)\.$/);
  assert.match(items[3]!.detail!, /^"sunset" in the registry/);
  for (const item of items) assert.doesNotMatch(item.detail ?? '', /its successor/);
});

test('run while the language server starts, New Envelope asks it (the client holds the request until the start is done); stopped, it says so and asks nothing', async () => {
  const requests: string[] = [];
  let running = false;
  let started = true;
  const client = {
    isRunning: () => running,
    needsStop: () => started,
    sendRequest: async (method: string) => {
      requests.push(method);
      running = true;
      return { registryPath: '/project/registry.json', entries: [] } satisfies RegistryEntriesResult;
    },
  };
  const { registerNewEnvelopeCommand } = await import('../../client/commands/new-envelope');
  registerNewEnvelopeCommand({ subscriptions: [] } as never, client as never);
  await fake.commands.get('babelqueue.newEnvelope')!();
  assert.deepEqual(requests, ['babelqueue/registryEntries']);
  assert.deepEqual(fake.events.filter((event) => /not running/.test(event.text ?? '')), []);

  requests.length = 0;
  running = false;
  started = false;
  await fake.commands.get('babelqueue.newEnvelope')!();
  assert.deepEqual(requests, []);
  assert.deepEqual(
    fake.events.filter((event) => event.kind === 'warning').map((event) => event.text),
    ['BabelQueue: New Envelope: the BabelQueue language server is not running; see the BabelQueue output.'],
  );
});

test('a URN, owner and status of the registry (a checkout\'s text) are shown cut and on one line; the URN picked is still the whole one', async () => {
  const urn = `urn:babel:orders:created\n\u202e${'x'.repeat(100_000)}`;
  const entries: RegistryEntriesResult = {
    registryPath: '/project/registry.json',
    entries: [{ urn, owner: `orders\n\u202e${'o'.repeat(100_000)}`, status: `active\u202e${'s'.repeat(100_000)}`, deprecated: false }],
  };
  const asked: unknown[] = [];
  const client = {
    isRunning: () => true,
    needsStop: () => true,
    sendRequest: async (method: string, params: unknown) => {
      asked.push(params);
      return method === 'babelqueue/registryEntries' ? entries : Promise.reject(new Error('no envelope'));
    },
  };
  let items: readonly { label: string; description?: string; urn?: string }[] = [];
  fake.answer = (event, offered) => {
    if (event.kind === 'quickPick') {
      items = offered as typeof items;
      return items[0];
    }
    return undefined;
  };
  const { registerNewEnvelopeCommand } = await import('../../client/commands/new-envelope');
  registerNewEnvelopeCommand({ subscriptions: [] } as never, client as never);
  await fake.commands.get('babelqueue.newEnvelope')!();
  assert.equal(items.length, 1);
  for (const text of [items[0]!.label, items[0]!.description ?? '']) {
    assert.ok(text.length < 1000, `${text.length} characters`);
    assert.doesNotMatch(text, /[\n\u202e]/);
  }
  assert.equal((asked[1] as { urn: string }).urn, urn);
  const error = fake.events.find((event) => event.kind === 'error');
  assert.ok(error, fake.events.map((event) => event.text).join('\n'));
  assert.ok(error.text.length < 1000, `the error is ${error.text.length} characters`);
  assert.doesNotMatch(error.text, /[\n\u202e]/);
});

test('a broken registry is named in the warning cut and on one line (its file name is the checkout\'s)', async () => {
  const registryPath = `/project/bad\u202e\n${'y'.repeat(5000)}.json`;
  const client = {
    isRunning: () => true,
    needsStop: () => true,
    sendRequest: async () => ({ registryPath, entries: [], error: `bad\u202e\n${'y'.repeat(5000)}.json is not valid JSON: This object is never closed.` }) satisfies RegistryEntriesResult,
  };
  const { registerNewEnvelopeCommand } = await import('../../client/commands/new-envelope');
  registerNewEnvelopeCommand({ subscriptions: [] } as never, client as never);
  await fake.commands.get('babelqueue.newEnvelope')!();
  const warning = fake.events.find((event) => event.kind === 'warning');
  assert.ok(warning, fake.events.map((event) => event.text).join('\n'));
  assert.ok(warning.text.length < 1500, `the warning is ${warning.text.length} characters`);
  assert.doesNotMatch(warning.text, /[\n\u202e]/);
});

test('a URN, owner or status written like an icon is shown as written; a deprecated URN keeps the warning icon we put before it', async () => {
  const entries: RegistryEntriesResult = {
    registryPath: '/project/registry.json',
    entries: [
      { urn: 'urn:babel:orders:created$(check)', owner: '$(account) orders', status: 'active', deprecated: false },
      { urn: 'urn:babel:orders:placed', owner: 'orders', status: '$(pass) retired', deprecated: true },
    ],
  };
  const client = { isRunning: () => true, needsStop: () => true, sendRequest: async () => entries };
  let items: readonly { label: string; description?: string; detail?: string; urn?: string }[] = [];
  fake.answer = (event, offered) => {
    if (event.kind === 'quickPick') items = offered as typeof items;
    return undefined;
  };
  const { registerNewEnvelopeCommand } = await import('../../client/commands/new-envelope');
  registerNewEnvelopeCommand({ subscriptions: [] } as never, client as never);
  await fake.commands.get('babelqueue.newEnvelope')!();

  assert.equal(items[0]!.label, 'urn:babel:orders:created\\$(check)');
  assert.equal(items[0]!.description, '\\$(account) orders · active');
  assert.equal(items[0]!.urn, 'urn:babel:orders:created$(check)', 'the URN asked for is the one the registry writes');
  assert.equal(items[2]!.label, '$(warning) urn:babel:orders:placed');
  assert.equal(items[2]!.description, 'orders · \\$(pass) retired');
  assert.match(items[2]!.detail!, /^"\\\$\(pass\) retired" in the registry/);
});
