/**
 * Editor settings of the wrong shape, over real JSON-RPC against dist/server.js, pulled through
 * workspace/configuration and pushed through didChangeConfiguration: the server keeps answering,
 * applies the settings that are right, and tells the user, in a message the editor shows, which
 * setting it left out and what that setting takes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';
import { GOOD_ENVELOPE } from '../support/envelopes';

const MONEY_FLOAT = GOOD_ENVELOPE.replace('{ "order_id": 1042 }', '{ "order_id": 1042, "amount": 49.9, "unit_cost": 1.5 }');

/** Each wrong value, and the words its message must hold. */
const WRONG: Record<string, unknown> = {
  validation: { enable: 'false' },
  diagnostics: { severity: 'off', scope: 3 },
  money: { keyPatterns: { amount: true } },
  registry: { path: 42, validator: ['bqschema'] },
  compat: { base: '--output=/tmp/x' },
  redis: { layout: 'Laravel' },
};
const NAMED = ['babelqueue.validation.enable', 'babelqueue.diagnostics.severity', 'babelqueue.diagnostics.scope', 'babelqueue.money.keyPatterns', 'babelqueue.registry.path', 'babelqueue.registry.validator', 'babelqueue.compat.base', 'babelqueue.redis.layout'];

async function codes(client: TestLspClient, uri: string): Promise<string[]> {
  return (await client.pullDiagnostics(uri)).items.map((item) => `${item.code}:${item.severity}`).sort();
}

/** The shown messages that name `setting`. */
const shownFor = (client: TestLspClient, setting: string) => client.shown.filter((message) => message.message.includes(setting));

describe('settings of the wrong shape, pulled', () => {
  const client = new TestLspClient({ settings: WRONG });
  const uri = 'file:///workspace/orders/money.babel.json';
  before(() => client.initialize());
  after(() => client.kill());

  test('the server answers with the defaults for what is wrong, and shows one warning for each setting it left out, naming it and what it takes', async () => {
    await client.open(uri, MONEY_FLOAT);
    assert.deepEqual(await codes(client, uri), ['float-currency:2', 'float-currency:2']);
    await client.waitForQuiet(200);
    for (const setting of NAMED) {
      const shown = shownFor(client, setting);
      assert.equal(shown.length, 1, `${setting}: ${JSON.stringify(client.shown)}`);
      assert.equal(shown[0].type, 2, 'a warning');
      assert.match(shown[0].message, /must |unknown/);
    }
    assert.match(shownFor(client, 'babelqueue.redis.layout')[0].message, /"babelqueue", "laravel"/);
  });

  test('a setting of the right shape beside wrong ones still applies; the same problem is not shown again for a second document', async () => {
    const before = client.shown.length;
    client.settings = { ...WRONG, diagnostics: { severity: { 'float-currency': 'hint', 'no-such-code': 'off' } } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await client.open('file:///workspace/orders/other.babel.json', MONEY_FLOAT);
    assert.deepEqual(await codes(client, uri), ['float-currency:4', 'float-currency:4']);
    assert.deepEqual(await codes(client, 'file:///workspace/orders/other.babel.json'), ['float-currency:4', 'float-currency:4']);
    await client.waitForQuiet(200);
    const unknown = client.shown.slice(before).filter((message) => message.message.includes('no-such-code'));
    assert.equal(unknown.length, 1, JSON.stringify(client.shown.slice(before)));
  });

  test('a list of money key patterns too long to test every key against is left out and said, and the server stays responsive', async () => {
    const before = client.shown.length;
    client.settings = { money: { keyPatterns: ['*'.repeat(900_000) + 'a'] } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    const started = Date.now();
    assert.deepEqual(await codes(client, uri), ['float-currency:2', 'float-currency:2']);
    assert.ok(Date.now() - started < 2_000, `answered in ${Date.now() - started} ms`);
    await client.waitForQuiet(200);
    assert.match(client.shown.slice(before).map((message) => message.message).join('\n'), /babelqueue\.money\.keyPatterns.*at most 4,096 characters/);
  });
});

describe('settings of the wrong shape, pushed (a client that cannot be asked)', () => {
  const client = new TestLspClient({ capabilities: { textDocument: { diagnostic: {} } } });
  const uri = 'file:///workspace/orders/money.babel.json';
  before(() => client.initialize());
  after(() => client.kill());

  test('null, an array or a number for the section, then wrong values: the server keeps answering and names what it left out', async () => {
    await client.open(uri, MONEY_FLOAT);
    for (const section of [null, [1, 2], 7, 'babelqueue']) {
      await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { babelqueue: section } });
      assert.deepEqual(await codes(client, uri), ['float-currency:2', 'float-currency:2']);
    }
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { babelqueue: { ...WRONG, diagnostics: { severity: { 'float-currency': 'Hint' } } } } });
    assert.deepEqual(await codes(client, uri), ['float-currency:2', 'float-currency:2']);
    await client.waitForQuiet(200);
    assert.ok(client.shown.some((message) => /babelqueue\.diagnostics\.severity/.test(message.message) && /"float-currency" must be one of error, warning, information, hint, off/.test(message.message)), JSON.stringify(client.shown));
  });
});
