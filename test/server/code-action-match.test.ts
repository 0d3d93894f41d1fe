/**
 * textDocument/codeAction answers for the findings the client names: one of several findings of
 * the same code on the same key gets its own fixes only, and a fix that several findings offer
 * alike comes once, listing them all (a lightbulb with duplicates, or several preferred fixes for
 * one problem, breaks "auto fix" in any editor). Fix all is a source action, offered to a client
 * that asks for its kind or any kind above it, and in the menu a user opens that names no kind
 * (not in a request the client makes by itself, triggerKind Automatic). A finding sent back with its columns in UTF-8
 * bytes (Neovim 0.7's vim.lsp.buf.code_action()) is the same finding. A request that sends back
 * thousands of findings, in an envelope or a schema file, is answered in seconds.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

describe('quick fixes for the findings asked about', () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-actions-'));
  const uri = pathToFileURL(join(root, 'orders.babel.json')).href;
  // Three fields missing at the root (one range) and two from data (one range, the payload-schema
  // findings); and a forbidden key whose suppression expired, which the message says.
  const text = '{\n  "job": "urn:babel:orders:created",\n  "data": {},\n  "timestamp": 1749132727\n}\n';
  let client: TestLspClient;
  let items: { code: string; message: string; range: unknown; source: string }[];

  before(async () => {
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'schemas'));
    writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/orders.json' }] }));
    writeFileSync(
      join(root, 'schemas/orders.json'),
      JSON.stringify({ type: 'object', required: ['order_id', 'customer_id'], properties: { order_id: { type: 'integer' }, customer_id: { type: 'string' } } }),
    );
    writeFileSync(
      join(root, 'babelq-suppressions.json'),
      JSON.stringify({ suppressions: [{ file: 'orders.babel.json', code: 'forbidden-key', pointer: '/timestamp', reason: 'the legacy export', until: '2020-01-01' }] }),
    );
    client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
    await client.initialize();
    await client.open(uri, text);
    items = (await client.pullDiagnostics(uri)).items;
  });
  after(async () => {
    await client.shutdown();
    rmSync(root, { recursive: true, force: true });
  });

  // The quick fixes of the plain menu (no `only`), without the fix all it offers too.
  const actionsFor = async (diagnostics: typeof items) =>
    (
      (await client.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: diagnostics[0].range, context: { diagnostics } })) as {
        title: string;
        kind: string;
        isPreferred: boolean;
        diagnostics: { message: string }[];
      }[]
    ).filter((action) => action.kind === 'quickfix');

  test('one missing field of three on the same brace: its own fix alone', async () => {
    const missing = items.filter((item) => item.code === 'missing-field');
    assert.equal(missing.length, 3, JSON.stringify(items.map((item) => item.message)));
    for (const finding of missing) {
      const actions = await actionsFor([finding]);
      const field = /"(\w+)"/.exec(finding.message)![1];
      assert.deepEqual(actions.map((action) => action.title.split(':')[0]), [`Add "${field}"`], finding.message);
      assert.deepEqual(actions[0].diagnostics.map((diagnostic) => diagnostic.message), [finding.message]);
    }
    // All three asked about together: three fixes, each for its own finding.
    const all = await actionsFor(missing);
    assert.equal(all.length, 3);
    for (const action of all) assert.equal(action.diagnostics.length, 1, action.title);
  });

  test('a finding whose suppression expired (its message says so) gets its fixes', async () => {
    const forbidden = items.filter((item) => item.code === 'forbidden-key');
    assert.equal(forbidden.length, 1, JSON.stringify(items.map((item) => item.message)));
    assert.match(forbidden[0].message, /Its suppression expired on 2020-01-01: "the legacy export"/);
    const actions = await actionsFor(forbidden);
    assert.deepEqual(actions.map((action) => action.title), ['Remove forbidden key "timestamp"']);
  });

  test('the same fix offered by two findings of the payload: once, listing both', async () => {
    const payload = items.filter((item) => item.code === 'payload-schema');
    assert.equal(payload.length, 2, JSON.stringify(items.map((item) => item.message)));
    const actions = await actionsFor(payload);
    const titles = actions.map((action) => action.title);
    assert.equal(new Set(titles).size, titles.length, `duplicate actions: ${titles.join(' | ')}`);
    const addAll = actions.find((action) => action.title.startsWith('Add the missing required data fields'));
    assert.ok(addAll, titles.join(' | '));
    assert.deepEqual(addAll.diagnostics.map((diagnostic) => diagnostic.message).sort(), payload.map((item) => item.message).sort());
  });

  test('fix all for only: source, source.fixAll and source.fixAll.babelqueue; quick fixes for quickfix; both for both; nothing for another kind', async () => {
    const kinds = async (only: string[]) => {
      const actions = (await client.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: items[0].range, context: { diagnostics: items, only } })) as { kind: string }[];
      return [...new Set(actions.map((action) => action.kind))].sort();
    };
    for (const only of [['source'], ['source.fixAll'], ['source.fixAll.babelqueue']]) assert.deepEqual(await kinds(only), ['source.fixAll.babelqueue'], only.join());
    assert.deepEqual(await kinds(['quickfix']), ['quickfix']);
    assert.deepEqual(await kinds(['quickfix', 'source']), ['quickfix', 'source.fixAll.babelqueue']);
    assert.deepEqual(await kinds(['source.fixAll.eslint']), []);
    assert.deepEqual(await kinds(['refactor']), []);
    assert.deepEqual(await kinds(['sourcery']), []);
  });

  // Neovim's vim.lsp.buf.code_action(), eglot's eglot-code-actions and Helix's menu send no
  // `only`: fix all must be in that menu too, as it is when asked for by its kind; but not in a
  // request the client makes by itself (VS Code's lightbulb on a cursor move: triggerKind 2).
  test('fix all in the plain menu: no only, invoked (triggerKind 1 or none sent); not for an automatic request', async () => {
    type Action = { title: string; kind: string; edit?: unknown };
    const ask = (context: Record<string, unknown>) =>
      client.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: items[0].range, context: { diagnostics: items, ...context } }) as Promise<Action[]>;
    // The same action, but for the fresh UUIDs its fixes write (new ones each time).
    const uuids = (actions: Action[]) => JSON.parse(JSON.stringify(actions).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID'));
    const asked = uuids(await ask({ only: ['source.fixAll.babelqueue'] }));
    assert.equal(asked.length, 1);
    assert.match(asked[0].title, /^Fix all safe BabelQueue problems \(\d+\)$/);
    for (const context of [{}, { triggerKind: 1 }]) {
      const actions = await ask(context);
      assert.deepEqual(uuids(actions.filter((action) => action.kind === 'source.fixAll.babelqueue')), asked, JSON.stringify(context));
      assert.ok(actions.some((action) => action.kind === 'quickfix'), JSON.stringify(context));
      assert.equal(actions.at(-1)!.kind, 'source.fixAll.babelqueue', 'after the quick fixes');
    }
    const automatic = await ask({ triggerKind: 2 });
    assert.ok(automatic.length > 0);
    assert.deepEqual([...new Set(automatic.map((action) => action.kind))], ['quickfix']);
    // Asked for quick fixes alone, invoked or not: none.
    assert.deepEqual([...new Set((await ask({ only: ['quickfix'], triggerKind: 1 })).map((action) => action.kind))], ['quickfix']);
  });
});

describe('a client that shows source actions only where asked by kind (the VS Code extension)', () => {
  // VS Code's quick-fix menu (Ctrl+.) names no kind and drops source actions: fix all is not made for it.
  test('fix all by its kind only, not in the plain menu', async () => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-by-kind-'));
    const uri = pathToFileURL(join(root, 'legacy.babel.json')).href;
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], initializationOptions: { sourceActionsByKindOnly: true } });
    try {
      mkdirSync(join(root, '.git'));
      await client.initialize();
      await client.open(uri, GOOD_ENVELOPE.replace('"attempts": 0', '"attempts": 0, "timestamp": 1749132727000'));
      const items = (await client.pullDiagnostics(uri)).items as { range: unknown }[];
      assert.ok(items.length > 0);
      const kinds = async (context: Record<string, unknown>) => {
        const actions = (await client.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: items[0].range, context: { diagnostics: items, ...context } })) as { kind: string }[];
        return [...new Set(actions.map((action) => action.kind))].sort();
      };
      assert.deepEqual(await kinds({ triggerKind: 1 }), ['quickfix']);
      assert.deepEqual(await kinds({}), ['quickfix']);
      assert.deepEqual(await kinds({ only: ['source.fixAll'], triggerKind: 1 }), ['source.fixAll.babelqueue']);
    } finally {
      await client.shutdown();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('fix all leaves a suppressed finding as written', () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-fixall-'));
  const uri = pathToFileURL(join(root, 'legacy.babel.json')).href;
  const text = GOOD_ENVELOPE.replace('"attempts": 0', '"attempts": 0, "timestamp": 1749132727000');
  let client: TestLspClient;

  before(async () => {
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, 'babelq-suppressions.json'), JSON.stringify({ suppressions: [{ file: 'legacy.babel.json', code: 'forbidden-key', pointer: '/timestamp', reason: 'the consumer drop path is tested with it' }] }));
    client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
    await client.initialize();
    await client.open(uri, text);
    assert.deepEqual((await client.pullDiagnostics(uri)).items.map((item: { code: string }) => item.code), [], 'the finding is hidden');
  });
  after(async () => {
    await client.shutdown();
    rmSync(root, { recursive: true, force: true });
  });

  test('source.fixAll.babelqueue offers nothing for a finding the suppressions file accepts', async () => {
    const actions = (await client.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [], only: ['source.fixAll.babelqueue'] } })) as { title: string }[];
    assert.deepEqual(actions.map((action) => action.title), []);
  });
});

describe('quick fixes for a finding sent back in UTF-8 columns', () => {
  // "café 😀" before the forbidden key: its UTF-8 columns are 6 more than its UTF-16 ones.
  const text = GOOD_ENVELOPE.replace('"attempts": 0', '"attempts": 0, "note": "café 😀", "timestamp": 1749132727000');
  const uri = 'file:///workspace/columns.babel.json';
  let client: TestLspClient;
  let forbidden: { code: string; message: string; source: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } };

  before(async () => {
    client = new TestLspClient();
    await client.initialize();
    await client.open(uri, text);
    forbidden = (await client.pullDiagnostics(uri)).items.find((item) => item.code === 'forbidden-key');
    assert.ok(forbidden);
  });
  after(() => client.shutdown());

  const titlesFor = async (shift: (character: number) => number) => {
    const line = text.split('\n')[forbidden.range.start.line];
    const diagnostic = { ...forbidden, range: { start: { line: forbidden.range.start.line, character: shift(forbidden.range.start.character) }, end: { line: forbidden.range.end.line, character: shift(forbidden.range.end.character) } } };
    assert.ok(line.includes('😀'));
    const actions = (await client.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic], only: ['quickfix'] } })) as { title: string }[];
    return actions.map((action) => action.title);
  };

  test('as sent (UTF-16), as Neovim 0.7 sends it back (UTF-8 bytes), and not at another column', async () => {
    const line = text.split('\n')[forbidden.range.start.line];
    const bytes = (character: number) => Buffer.byteLength(line.slice(0, character), 'utf8');
    assert.deepEqual(await titlesFor((character) => character), ['Remove forbidden key "timestamp"']);
    assert.deepEqual(await titlesFor(bytes), ['Remove forbidden key "timestamp"']);
    assert.deepEqual(await titlesFor((character) => character + 1), []);
  });
});

describe('quick fixes over a whole document of findings', () => {
  // 3,000 money floats on one line each, and 3,000 more on one line: the client sends back every
  // finding in the range (a selection of the whole file), each to be matched with its own fix.
  const FLOATS = 3_000;
  const spread = Array.from({ length: FLOATS }, (_, i) => `{ "price": ${i}.5 }`).join(',\n    ');
  const packed = Array.from({ length: FLOATS }, (_, i) => `{"price":${i}.25}`).join(',');
  const text = GOOD_ENVELOPE.replace('{ "order_id": 1042 }', `{ "lines": [\n    ${spread}\n  ], "more": [${packed}] }`);
  const uri = 'file:///workspace/many-findings.babel.json';
  let client: TestLspClient;

  before(async () => {
    client = new TestLspClient();
    await client.initialize();
    await client.open(uri, text);
  });
  after(() => client.kill());

  test('are matched to the findings sent in time, each fix listing its own finding, and the server answers a hover meanwhile', async () => {
    const items: { code: string; range: unknown }[] = (await client.pullDiagnostics(uri)).items;
    const floats = items.filter((item) => item.code === 'float-currency');
    assert.equal(floats.length, 2 * FLOATS);
    const started = Date.now();
    const actions: { title: string; diagnostics?: unknown[] }[] = await client.request('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: text.split('\n').length, character: 0 } },
      context: { diagnostics: items },
    });
    const elapsed = Date.now() - started;
    const sent = new Set(floats.map((item) => JSON.stringify(item)));
    const fixes = actions.filter((action) => action.diagnostics?.length === 1 && sent.has(JSON.stringify(action.diagnostics[0])));
    // Every float offers its fixes, each naming the one finding it fixes.
    assert.equal(new Set(fixes.map((action) => JSON.stringify(action.diagnostics![0]))).size, 2 * FLOATS);
    // Every pair compared: 200 s on a busy machine.
    assert.ok(elapsed < 10_000, `${elapsed} ms`);
    const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
    assert.match(hover?.contents?.value ?? '', /`job`/);
  });
});

describe('quick fixes over a whole schema file of findings', () => {
  test('4,000 findings sent back are matched in time, and the server answers a hover meanwhile', async () => {
    const { uriOf, write } = scratchFolder('babelq-schema-actions-');
    write('.git/HEAD', 'ref: refs/heads/main\n');
    write('registry.json', { schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/orders.json', owner: 'orders', status: 'active' }] });
    // `format` is a keyword bqschema and the SDKs do not enforce: one unenforced-keyword finding per property.
    const schema = `${JSON.stringify({ type: 'object', properties: Object.fromEntries(Array.from({ length: 4_000 }, (_, i) => [`k${i}`, { type: 'string', format: 'email' }])) }, null, 2)}\n`;
    write('schemas/orders.json', schema);
    write('orders.babel.json', GOOD_ENVELOPE);
    const client = new TestLspClient({ workspaceFolders: [uriOf('')] });
    try {
      await client.initialize();
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf('schemas/orders.json'), languageId: 'json', version: 1, text: schema } });
      await client.open(uriOf('orders.babel.json'), GOOD_ENVELOPE);
      const items: { code: string }[] = (await client.pullDiagnostics(uriOf('schemas/orders.json'))).items;
      assert.equal(items.filter((item) => item.code === 'unenforced-keyword').length, 4_000);
      const started = Date.now();
      await client.request('textDocument/codeAction', {
        textDocument: { uri: uriOf('schemas/orders.json') },
        range: { start: { line: 0, character: 0 }, end: { line: schema.split('\n').length, character: 0 } },
        context: { diagnostics: items },
      });
      const elapsed = Date.now() - started;
      // Every pair compared: a minute on a busy machine.
      assert.ok(elapsed < 10_000, `${elapsed} ms`);
      const hover = await client.request('textDocument/hover', { textDocument: { uri: uriOf('orders.babel.json') }, position: { line: 1, character: 4 } });
      assert.match(hover?.contents?.value ?? '', /`job`/);
    } finally {
      client.kill();
    }
  });
});
