/**
 * `workspace/diagnostic` over real JSON-RPC against dist/server.js: every fixture under the
 * folder, open or not, with what `.gitignore` and babelq.json's `ignore` leave out excepted; the
 * same findings `babelq lint` reports; unchanged results as `unchanged`; an answer with nothing
 * new held until something changes (a schema edited in an editor, unsaved; a fixture created on
 * disk); `babelqueue.diagnostics.scope: "openFiles"` empties the report.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { asPublished, asSentToEditor } from '../support/published';
import { TestLspClient } from '../support/lsp-client';

const ROOT = resolve(__dirname, '..', '..');

describe('every fixture\'s problems in the editor (workspace/diagnostic)', () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-workspace-'));
  const uriOf = (path: string) => pathToFileURL(join(root, path)).href;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  cpSync(join(ROOT, 'examples'), root, { recursive: true });
  write('.git/HEAD', 'ref: refs/heads/main\n');
  write('.gitignore', 'generated/\n');
  write('babelq.json', '{ "ignore": ["bad/syntax.babel.json"] }\n');
  write('generated/copy.babel.json', readFileSync(join(ROOT, 'examples/bad/contract.babel.json'), 'utf8'));
  write('generated/order.babel.json', readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8'));
  write('orders/again.babel.json', readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8'));
  // Bytes that are not UTF-8: the report says so as lint does (one json-syntax where the first invalid byte is), not what a lenient decode made of them.
  const created = readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8');
  writeFileSync(join(root, 'orders/latin1.babel.json'), Buffer.from(created.replace('"attempts": 0', '"attempts": 0, "note": "caf\u00e9"'), 'latin1'));
  writeFileSync(join(root, 'orders/utf16.babel.json'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(created, 'utf16le')]));
  // Above the workspace report's 1 MB: checked when opened, not read into the report.
  write('huge/big.babel.json', readFileSync(join(ROOT, 'examples/bad/contract.babel.json'), 'utf8').replace('"attempts": 0', `"attempts": 0, "pad": "${'x'.repeat(1_100_000)}"`));
  write('huge/order.babel.json', readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8').replace('"attempts": 0', `"attempts": 0, "pad": "${'x'.repeat(1_100_000)}"`));
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
  type Item = { kind: 'full' | 'unchanged'; uri: string; resultId?: string; items?: any[] };
  let first: Item[];

  before(async () => {
    await client.initialize();
    first = (await client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: [] })).items;
  });
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });

  test('the report holds every fixture the walk keeps, with exactly what babelq lint reports', () => {
    let stdout: string;
    try {
      stdout = execFileSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'lint', '.', '--format', 'json'], { cwd: root, encoding: 'utf8' });
    } catch (error) {
      stdout = (error as { stdout: string }).stdout;
    }
    const cli = (JSON.parse(stdout, asSentToEditor) as { file: string; diagnostics: unknown[] }[]).filter((report) => report.file.endsWith('.babel.json') && !report.file.startsWith('huge/'));
    for (const name of ['huge/big.babel.json', 'huge/order.babel.json']) {
      assert.deepEqual(first.find((item) => item.uri === uriOf(name))?.items, [], `${name}: a fixture above 1 MB is listed when it is opened, not read into the workspace report`);
    }
    assert.deepEqual(first.map((item) => item.uri).filter((uri) => !uri.startsWith(uriOf('huge/'))).sort(), cli.map((report) => uriOf(report.file)).sort());
    assert.ok(!first.some((item) => item.uri.includes('/generated/') || item.uri.endsWith('/bad/syntax.babel.json')));
    for (const report of cli) {
      const item = first.find((candidate) => candidate.uri === uriOf(report.file))!;
      assert.equal(item.kind, 'full');
      assert.deepEqual(item.items!.map(asPublished), report.diagnostics, report.file);
    }
    assert.ok(first.some((item) => (item.items ?? []).length > 0), 'some fixtures have problems');
    for (const [name, where] of [['orders/latin1.babel.json', /an invalid sequence starts with byte 0xE9/], ['orders/utf16.babel.json', /it starts with a UTF-16 byte-order mark/]] as const) {
      const items = first.find((item) => item.uri === uriOf(name))!.items!;
      assert.equal(items.length, 1, `${name}: ${JSON.stringify(items)}`);
      assert.equal(items[0].code, 'json-syntax');
      assert.match(items[0].message, where);
    }
    // Where the first invalid byte is, as an editor shows the line: after `"note": "caf`.
    const latin1 = first.find((item) => item.uri === uriOf('orders/latin1.babel.json'))!.items![0];
    const lines = `${created.slice(0, created.indexOf('"attempts": 0'))}"attempts": 0, "note": "caf`.split('\n');
    const at = { line: lines.length - 1, character: lines[lines.length - 1].length };
    assert.deepEqual(latin1.range, { start: at, end: at });
    assert.deepEqual(first.find((item) => item.uri === uriOf('orders/utf16.babel.json'))!.items![0].range.start, { line: 0, character: 0 });
  });

  test('find references after the report: the fixtures it holds that route on the URN, as the walk finds them, ignores and unsaved edits included', async () => {
    const registryUri = uriOf('registry.json');
    const registryText = readFileSync(join(root, 'registry.json'), 'utf8');
    const line = registryText.split('\n').findIndex((text) => text.includes('"urn:babel:orders:created"'));
    const params = { textDocument: { uri: registryUri }, position: { line, character: 16 }, context: { includeDeclaration: false } };
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: registryText } });
    const names = (locations: { uri: string }[]) => locations.map((location) => location.uri.slice(pathToFileURL(root).href.length + 1)).sort();
    const fromReport = await client.request<{ uri: string; range: unknown }[]>('textDocument/references', params);
    // Fixtures that only mention it (bad/contract.babel.json) do not count; generated/ is ignored by
    // .gitignore; the one above the report's 1 MB is read for this answer.
    // latin1.babel.json is not UTF-8 (a json-syntax error in the report) but routes on the URN all the same.
    // bad/structure.babel.json writes "job" twice, this URN last: every decoder routes it on the last copy.
    assert.deepEqual(names(fromReport), ['bad/structure.babel.json', 'huge/order.babel.json', 'orders/again.babel.json', 'orders/latin1.babel.json', 'orders/order-created.babel.json']);
    // A server that has not reported the workspace walks the files: the same locations.
    const walker = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
    try {
      await walker.initialize();
      await walker.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: registryText } });
      const walked = await walker.request<{ uri: string; range: unknown }[]>('textDocument/references', params);
      assert.deepEqual([...walked].sort((a, b) => a.uri.localeCompare(b.uri)), [...fromReport].sort((a, b) => a.uri.localeCompare(b.uri)));
    } finally {
      walker.kill();
    }
    // An unsaved edit that routes the fixture elsewhere takes it out; closing it brings the disk back.
    const fixture = uriOf('orders/order-created.babel.json');
    const text = readFileSync(join(root, 'orders/order-created.babel.json'), 'utf8');
    await client.open(fixture, text.replace('"urn:babel:orders:created"', '"urn:babel:orders:cancelled"'));
    assert.deepEqual(names(await client.request('textDocument/references', params)), ['bad/structure.babel.json', 'huge/order.babel.json', 'orders/again.babel.json', 'orders/latin1.babel.json']);
    await client.close(fixture);
    assert.deepEqual(names(await client.request('textDocument/references', params)), names(fromReport));
    await client.close(registryUri);
    // The edit and its undo gave order-created.babel.json new result ids: what the client holds now.
    first = (await client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: [] })).items;
  });

  test('asked again with the result ids it holds, an unchanged workspace is held open, then the schema edit (unsaved) is reported at once, only for the fixtures it changes', async () => {
    const previousResultIds = first.map((item) => ({ uri: item.uri, value: item.resultId! }));
    const pending = client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds });
    let answered = false;
    void pending.then(() => (answered = true));
    await new Promise((done) => setTimeout(done, 400));
    assert.equal(answered, false, 'nothing changed: the answer waits');
    // Tighten orders-created: a new required field every existing order fixture lacks.
    const schemaPath = 'schemas/orders-created.json';
    const schema = JSON.parse(readFileSync(join(root, schemaPath), 'utf8'));
    schema.required = [...(schema.required ?? []), 'warehouse_code'];
    const started = performance.now();
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf(schemaPath), languageId: 'json', version: 1, text: readFileSync(join(root, schemaPath), 'utf8') } });
    await client.change(uriOf(schemaPath), JSON.stringify(schema, null, 2), 2);
    const { items } = await pending;
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 3_000, `answered ${Math.round(elapsed)} ms after the edit`);
    const full = items.filter((item) => item.kind === 'full');
    assert.ok(full.length > 0);
    assert.ok(full.every((item) => (item.items ?? []).some((d) => d.code === 'payload-schema' && /warehouse_code/.test(d.message))), `only fixtures the edit changes are sent again: ${JSON.stringify(full.map((i) => [i.uri.split('/').slice(-2).join('/'), (i.items ?? []).map((d) => d.code + ':' + d.message.slice(0, 60))]))}`);
    assert.ok(full.some((item) => item.uri.endsWith('/orders/order-created.babel.json')));
    await client.close(uriOf(schemaPath));
  });

  test('a fixture created on disk appears after the file event; scope "openFiles" empties the report', async () => {
    write('orders/new.babel.json', readFileSync(join(ROOT, 'examples/bad/contract.babel.json'), 'utf8'));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('orders/new.babel.json'), type: 1 }] });
    const { items } = await client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: [] });
    const created = items.find((item) => item.uri === uriOf('orders/new.babel.json'));
    assert.ok(created && (created.items ?? []).some((d) => d.code === 'invalid-urn'));
    // Deleted: reported once with no problems (so the panel clears it), then no longer listed.
    rmSync(join(root, 'orders/new.babel.json'));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('orders/new.babel.json'), type: 3 }] });
    const afterDelete = (await client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: [] })).items;
    assert.deepEqual(afterDelete.filter((item) => item.uri === uriOf('orders/new.babel.json')).map((item) => item.items), [[]]);
    const later = (await client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: [] })).items;
    assert.ok(!later.some((item) => item.uri === uriOf('orders/new.babel.json')));

    client.settings = { diagnostics: { scope: 'openFiles' } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    const held = items.map((item) => ({ uri: item.uri, value: item.resultId! }));
    const after = (await client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: held })).items;
    assert.ok(after.length > 0 && after.every((item) => item.kind === 'full' && (item.items ?? []).length === 0), 'every fixture reported before is cleared');
    // Back to the workspace: the cleared fixtures' findings come back, each with a result id.
    client.settings = {};
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    const back = (await client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: [] })).items;
    const contract = back.find((item) => item.uri === uriOf('bad/contract.babel.json'));
    assert.equal(contract?.kind, 'full', JSON.stringify(contract));
    assert.ok(contract.resultId !== undefined && (contract.items ?? []).some((d) => d.code === 'forbidden-key'), JSON.stringify(contract));
    assert.ok(back.every((item) => item.resultId !== undefined || (item.kind === 'full' && (item.items ?? []).length === 0)), 'an unchanged item always names its result id');
  });
});

describe('a fixture changed on disk, in the workspace\'s report', () => {
  const ORDER = readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8');
  const BROKEN = readFileSync(join(ROOT, 'examples/bad/contract.babel.json'), 'utf8');
  type Item = { uri: string; items?: { code?: string }[] };

  /** A folder of two fixtures, a client watching files or not, and what the report says of `order.babel.json`. */
  async function session(watchesFiles: boolean) {
    const root = mkdtempSync(join(tmpdir(), 'babelq-workspace-changed-'));
    writeFileSync(join(root, 'order.babel.json'), ORDER);
    writeFileSync(join(root, 'other.babel.json'), ORDER);
    const uri = pathToFileURL(join(root, 'order.babel.json')).href;
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], watchesFiles });
    await client.initialize();
    const codes = async () => {
      const { items } = await client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: [] });
      const item = items.find((candidate) => candidate.uri === uri);
      assert.ok(item, `the report lists ${uri}`);
      return (item.items ?? []).map((diagnostic) => diagnostic.code).sort();
    };
    const rewrite = (text: string) => writeFileSync(join(root, 'order.babel.json'), text);
    const event = () => client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
    return { root, client, codes, rewrite, event };
  }

  test('a client that watches files: read again when its event names it, and only then (the first read stamped it)', async () => {
    const { root, client, codes, rewrite, event } = await session(true);
    try {
      assert.deepEqual(await codes(), []);
      rewrite(BROKEN);
      assert.deepEqual(await codes(), [], 'no event yet: the findings of the text read before');
      await event();
      const broken = await codes();
      assert.ok(broken.includes('invalid-urn'), JSON.stringify(broken));
      rewrite(ORDER);
      assert.deepEqual(await codes(), broken, 'no event yet: the findings of the text read last');
      await event();
      assert.deepEqual(await codes(), []);
    } finally {
      client.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a client that cannot watch: each report looks at every file and reads again the ones that changed, and only those', async () => {
    const { root, client, codes, rewrite } = await session(false);
    try {
      assert.deepEqual(await codes(), []);
      rewrite(BROKEN);
      const broken = await codes();
      assert.ok(broken.includes('invalid-urn'), JSON.stringify(broken));
      rewrite(ORDER);
      assert.deepEqual(await codes(), []);
      // Same size and modification time, other text (as `cp -p`, `rsync -t` or an archive leave a
      // file): its change time, which no program sets, tells the look it was written.
      const path = join(root, 'order.babel.json');
      const sameSize = ORDER.replace('urn:babel:orders:created', 'urn:babel:ORDERS:created');
      assert.equal(sameSize.length, ORDER.length);
      const time = new Date('2026-01-02T03:04:05Z');
      rewrite(ORDER);
      utimesSync(path, time, time);
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(path).href, type: 2 }] });
      assert.deepEqual(await codes(), []);
      rewrite(sameSize);
      utimesSync(path, time, time);
      assert.ok((await codes()).includes('invalid-urn'), 'read again: its change time moved');
    } finally {
      client.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });

  /** ORDER with its URN in capitals: the same size, and findings where ORDER has none. */
  const SAME_SIZE_BROKEN = ORDER.replace('urn:babel:orders:created', 'urn:babel:ORDERS:created');

  test('a client that cannot watch: a fixture written again within a tick of the write it was read after, same size and time, is read again', async () => {
    const { root, client, codes, rewrite } = await session(false);
    const path = join(root, 'order.babel.json');
    try {
      assert.equal(SAME_SIZE_BROKEN.length, ORDER.length);
      // Written just now (a time the file system could give the next write too), then reported.
      const time = new Date();
      utimesSync(path, time, time);
      assert.deepEqual(await codes(), []);
      rewrite(SAME_SIZE_BROKEN);
      utimesSync(path, time, time);
      const codesNow = await codes();
      assert.ok(codesNow.length > 0, `the text written since is reported: ${JSON.stringify(codesNow)}`);
      // Written back to what was read first, still the same size and time: read again too.
      rewrite(ORDER);
      utimesSync(path, time, time);
      assert.deepEqual(await codes(), []);
    } finally {
      client.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a client that cannot watch: a fixture replaced by another file of the same size and time (a checkout) is read again, however old its time', async () => {
    const { root, client, codes } = await session(false);
    const path = join(root, 'order.babel.json');
    try {
      const old = new Date(Date.now() - 3_600_000);
      utimesSync(path, old, old);
      assert.deepEqual(await codes(), []);
      // A new file renamed over the old one, as git checks a file out: another inode.
      writeFileSync(`${path}.tmp`, SAME_SIZE_BROKEN);
      utimesSync(`${path}.tmp`, old, old);
      renameSync(`${path}.tmp`, path);
      const codesNow = await codes();
      assert.ok(codesNow.length > 0, `the file that replaced it is reported: ${JSON.stringify(codesNow)}`);
    } finally {
      client.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a client that watches files: a fixture its event names is read again even when its size and time are as before', async () => {
    const { root, client, codes, rewrite, event } = await session(true);
    const path = join(root, 'order.babel.json');
    try {
      const time = new Date();
      utimesSync(path, time, time);
      await event();
      assert.deepEqual(await codes(), []);
      rewrite(SAME_SIZE_BROKEN);
      utimesSync(path, time, time);
      await event();
      const codesNow = await codes();
      assert.ok(codesNow.length > 0, `the text its event names is reported: ${JSON.stringify(codesNow)}`);
    } finally {
      client.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a folder of more than 20,000 fixtures', () => {
  test('the report lists the first 20,000 the walk finds, and the log says the others are checked when opened', async () => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-many-'));
    for (let batch = 0; batch < 21; batch++) {
      mkdirSync(join(root, `b${String(batch).padStart(2, '0')}`));
      for (let index = 0; index < 1_000; index++) writeFileSync(join(root, `b${String(batch).padStart(2, '0')}`, `f${String(index).padStart(4, '0')}.babel.json`), '{}');
    }
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
    try {
      await client.initialize();
      const items = (await client.request<{ items: { uri: string }[] }>('workspace/diagnostic', { previousResultIds: [] })).items;
      assert.equal(items.length, 20_000);
      assert.ok(!items.some((item) => item.uri.includes('/b20/')), 'subfolders are walked in name order: the last one is left out');
      assert.ok(client.logs.some((line) => line.includes('holds more than 20,000 fixtures: the workspace\'s problems list the first 20,000 its walk finds')), client.logs.join('\n'));
    } finally {
      client.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a fixture above the report\'s 1 MB, once opened, in the workspace\'s report', () => {
  const BROKEN = readFileSync(join(ROOT, 'examples/bad/contract.babel.json'), 'utf8');
  const ORDER = readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8');
  /** Past 1 MB with whitespace after the envelope, which changes no finding. */
  const padded = (text: string) => `${text}${' '.repeat(1_100_000)}\n`;
  type Item = { uri: string; version?: unknown; items?: { code?: string; message: string }[] };

  /**
   * A fresh folder with `files` (path → text) under a client that watches files; `report(path)` is
   * the workspace report's item for that file. `body` runs after initialize; the folder and the
   * server go afterwards.
   */
  async function inWorkspace(files: Record<string, string>, body: (session: { root: string; client: TestLspClient; report: (path: string) => Promise<Item | undefined> }) => Promise<void>): Promise<void> {
    const root = mkdtempSync(join(tmpdir(), 'babelq-workspace-large-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], watchesFiles: true });
    const report = async (path: string) => {
      const { items } = await client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: [] });
      return items.find((item) => item.uri === pathToFileURL(join(root, path)).href);
    };
    try {
      await client.initialize();
      await body({ root, client, report });
    } finally {
      client.kill();
      rmSync(root, { recursive: true, force: true });
    }
  }

  test('keeps its problems after it closes, as lint reports its text on disk (an unsaved edit is dropped with the editor); one never opened stays out', async () => {
    await inWorkspace({ 'big.babel.json': padded(BROKEN), 'never.babel.json': padded(BROKEN) }, async ({ root, client, report: item }) => {
      const uri = pathToFileURL(join(root, 'big.babel.json')).href;
      const report = async (name: string) => (await item(name))?.items;
      let lint: string;
      try {
        lint = execFileSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'lint', 'big.babel.json', '--format', 'json'], { cwd: root, encoding: 'utf8' });
      } catch (error) {
        lint = (error as { stdout: string }).stdout;
      }
      const onDisk = (JSON.parse(lint, asSentToEditor) as { diagnostics: unknown[] }[])[0]!.diagnostics;
      assert.ok(onDisk.length > 0);
      assert.deepEqual(await report('big.babel.json'), [], 'above 1 MB and never opened: not read into the report');

      // Opened with an unsaved edit that fixes every problem, then closed without saving.
      await client.open(uri, padded(ORDER));
      assert.deepEqual(await report('big.babel.json'), [], 'open: the editor\'s text, which has no problem');
      await client.close(uri);
      assert.deepEqual((await report('big.babel.json'))?.map(asPublished), onDisk, 'closed: the text on disk, read with lint\'s bound');
      assert.deepEqual(await report('never.babel.json'), [], 'a large fixture nobody opened is still left to its opening');

      // Changed on disk after it closed: read again (it was opened, so lint's bound still applies).
      writeFileSync(join(root, 'big.babel.json'), padded(ORDER));
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
      assert.deepEqual(await report('big.babel.json'), []);
      writeFileSync(join(root, 'big.babel.json'), padded(BROKEN));
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
      assert.deepEqual((await report('big.babel.json'))?.map(asPublished), onDisk);

      // Opened and closed with no report in between (VS Code holds its request): listed all the same.
      const never = pathToFileURL(join(root, 'never.babel.json')).href;
      await client.open(never, padded(BROKEN));
      await client.close(never);
      assert.deepEqual((await report('never.babel.json'))?.map(asPublished), onDisk);
    });
  });

  test('opened under a URI the client spells its own way (VS Code writes `(` as %28, `c:` as c%3A): still read with lint\'s bound after it closes', async () => {
    const path = 'orders (v2)/big.babel.json';
    await inWorkspace({ [path]: padded(BROKEN) }, async ({ root, client, report }) => {
      const uri = pathToFileURL(join(root, path)).href;
      const encoded = uri.replace(/\(/g, '%28').replace(/\)/g, '%29');
      assert.notEqual(encoded, uri);
      assert.deepEqual((await report(path))?.items, [], 'above 1 MB and never opened: not read into the report');
      await client.open(encoded, padded(BROKEN));
      await client.close(encoded);
      assert.ok(((await report(path))?.items ?? []).length > 0, 'closed: its problems on disk are listed');
    });
  });

  test('an open fixture under a URI the client spells its own way (`@` as %40) is judged by the editor\'s text, not the disk\'s', async () => {
    const path = '@acme/order.babel.json';
    await inWorkspace({ [path]: BROKEN }, async ({ root, client, report }) => {
      const uri = pathToFileURL(join(root, path)).href;
      const encoded = uri.replace(/@/g, '%40');
      assert.notEqual(encoded, uri);
      assert.ok(((await report(path))?.items ?? []).length > 0, 'on disk: the broken fixture');
      // The editor's text, unsaved: the example order, which has no problem.
      await client.open(encoded, ORDER);
      const open = await report(path);
      assert.deepEqual(open?.items, [], `open: the editor's text is judged, not the disk's: ${JSON.stringify(open?.items?.map((item) => item.code))}`);
      assert.equal(open?.version, 1, 'reported as the open version');
    });
  });
});
