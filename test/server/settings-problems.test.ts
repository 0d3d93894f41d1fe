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

describe('settings of the wrong shape, pulled', () => {
  const client = new TestLspClient({ settings: WRONG });
  const uri = 'file:///workspace/orders/money.babel.json';
  before(() => client.initialize());
  after(() => client.kill());

  test('the server answers with the defaults for what is wrong, and shows a warning that names each setting it left out and what it takes', async () => {
    await client.open(uri, MONEY_FLOAT);
    assert.deepEqual(await codes(client, uri), ['float-currency:2', 'float-currency:2']);
    await client.waitForQuiet(200);
    assert.equal(client.shown.length, 1, JSON.stringify(client.shown));
    assert.equal(client.shown[0].type, 2, 'a warning');
    for (const setting of NAMED) assert.match(client.shown[0].message, new RegExp(`${setting.replace(/\./g, '\\.')}: must `), setting);
    assert.match(client.shown[0].message, /babelqueue\.redis\.layout: must be one of "babelqueue", "laravel"/);
    assert.match(client.shown[0].message, /Those values are ignored; the rest of the settings still apply\.$/);
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

describe('a flood of settings problems', () => {
  const client = new TestLspClient({ settings: { diagnostics: { severity: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`no-such-code-${i}`, 'off'])) } } });
  const uri = 'file:///workspace/orders/money.babel.json';
  before(() => client.initialize());
  after(() => client.kill());

  test('20,000 unknown codes: one warning shown, naming the first few and how many more, a bounded log, and the server answering', async () => {
    await client.open(uri, MONEY_FLOAT);
    assert.deepEqual(await codes(client, uri), ['float-currency:2', 'float-currency:2']);
    await client.waitForQuiet(300);
    assert.equal(client.shown.length, 1, `${client.shown.length} messages shown`);
    assert.match(client.shown[0].message, /no-such-code-0.*and 19,99\d more/s);
    assert.ok(client.logs.length < 100, `${client.logs.length} log lines`);
    // The output holds the first twenty and a count: the warning must not send the user there for all of them.
    assert.match(client.shown[0].message, /\(the BabelQueue output lists the first 20\)/);
    assert.equal(client.logs.filter((line) => line.includes('no-such-code-')).length, 20);
  });
});

describe('settings of the wrong shape, pushed (a client that cannot be asked)', () => {
  const client = new TestLspClient({ capabilities: { textDocument: { diagnostic: {} } } });
  const uri = 'file:///workspace/orders/money.babel.json';
  before(() => client.initialize());
  after(() => client.kill());

  test('null, an array or a number for the section, then wrong values: the server keeps answering and names what it left out', async () => {
    await client.open(uri, MONEY_FLOAT);
    // null and an empty list (Neovim writes an empty Lua table `{}` as `[]`) are no settings, said nothing of.
    for (const section of [null, []]) {
      await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { babelqueue: section } });
      assert.deepEqual(await codes(client, uri), ['float-currency:2', 'float-currency:2']);
    }
    await client.waitForQuiet(200);
    assert.equal(client.shown.length, 0, JSON.stringify(client.shown));
    // A section that is no object is left out, as a setting of the wrong shape is, and said.
    for (const section of [[1, 2], 7, 'babelqueue']) {
      await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { babelqueue: section } });
      assert.deepEqual(await codes(client, uri), ['float-currency:2', 'float-currency:2']);
      await client.waitForQuiet(200);
      assert.match(client.shown.at(-1)?.message ?? '', /^BabelQueue: Setting babelqueue: must be an object of settings \(\{ "diagnostics": \{ "scope": "openFiles" \} \}\), not (a list|a number|a string)\. That value is ignored/, JSON.stringify(client.shown));
    }
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { babelqueue: { ...WRONG, diagnostics: { severity: { 'float-currency': 'Hint' } } } } });
    assert.deepEqual(await codes(client, uri), ['float-currency:2', 'float-currency:2']);
    await client.waitForQuiet(200);
    assert.ok(client.shown.some((message) => /babelqueue\.diagnostics\.severity/.test(message.message) && /"float-currency" must be one of error, warning, information, hint, off/.test(message.message)), JSON.stringify(client.shown));
  });
});

describe('a setting\'s problem quoting what a workspace wrote', () => {
  const client = new TestLspClient({ settings: { diagnostics: { severity: { 'no-such\n[Error] forged line\u202e': 'off' } } } });
  before(() => client.initialize());
  after(() => client.kill());

  test('is logged and shown on one line, its line break written \\n and its override \\u202e', async () => {
    await client.open('file:///workspace/orders/a.babel.json', GOOD_ENVELOPE);
    await client.pullDiagnostics('file:///workspace/orders/a.babel.json');
    await client.waitForQuiet(200);
    const said = [...client.logs.filter((line) => line.includes('no-such')), ...client.shown.map((message) => message.message).filter((message) => message.includes('no-such'))];
    assert.equal(said.length, 2, JSON.stringify({ logs: client.logs, shown: client.shown }));
    for (const text of said) {
      assert.doesNotMatch(text, /[\n\u202e]/, text);
      assert.match(text, /no-such\\n\[Error\] forged line\\u202e/);
    }
  });
});
