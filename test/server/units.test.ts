/** Server pieces that need no process: the handler guard and the bounded parse cache. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS, normalizeSettings } from '../../core/rules/settings/settings';
import { EDIT_TRACKING_DOCUMENTS, ParseCache } from '../../server/documents';
import { asEditable } from '../../server/editable-document';
import { LineIndex } from '../../core/model/positions';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { guard } from '../../server/guard';
import { RegistryService, toUri } from '../../server/registry';
import { TestLspClient } from '../support/lsp-client';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('guard', () => {
  test('an exception becomes the fallback answer and one log line with the request and document', async () => {
    const logged: string[] = [];
    const handler = guard({ error: (line) => logged.push(line) }, 'hover', (_params: { textDocument: { uri: string } }) => {
      throw new Error('boom');
    }, null);
    assert.equal(await handler({ textDocument: { uri: 'file:///a.babel.json' } }), null);
    assert.equal(logged.length, 1);
    assert.match(logged[0], /^\[hover\] file:\/\/\/a\.babel\.json failed: Error: boom/);
  });

  test('the document is named with the password of its URI masked, and a long URI by its start', async () => {
    const logged: string[] = [];
    const handler = guard({ error: (line) => logged.push(line) }, 'hover', () => {
      throw new Error('masked');
    }, null);
    await handler({ textDocument: { uri: 'sftp://deploy:s3cret@example.com/project/a.babel.json' } });
    await handler({ textDocument: { uri: `file:///${'x'.repeat(100_000)}.babel.json` } });
    assert.equal(logged.length, 1, 'the same failure is logged once');
    assert.match(logged[0], /^\[hover\] sftp:\/\/deploy:\*\*\*@example\.com\/project\/a\.babel\.json failed/);
    const long = guard({ error: (line) => logged.push(line) }, 'completion', () => {
      throw new Error('long');
    }, null);
    await long({ textDocument: { uri: `file:///${'x'.repeat(100_000)}.babel.json` } });
    assert.ok(logged[1].length < 2_000, `${logged[1].length} characters`);
  });

  test('a rejected promise is caught too; a normal answer passes through', async () => {
    const logged: string[] = [];
    const failing = guard({ error: (line) => logged.push(line) }, 'completion', async () => Promise.reject(new Error('late')), [] as string[]);
    assert.deepEqual(await failing({}), []);
    const working = guard({ error: (line) => logged.push(line) }, 'completion', () => ['a'], [] as string[]);
    assert.deepEqual(await working({}), ['a']);
    assert.equal(logged.length, 1);
  });
});

describe('ParseCache', () => {
  // Documents as the server makes them, so the edits below go through EditableDocument.
  const open = (uri: string, version: number, text: string) => EDIT_TRACKING_DOCUMENTS.create(uri, 'babelqueue-envelope', version, text);

  test('one parse per URI and version; a new version is parsed again', () => {
    const cache = new ParseCache(4);
    const v1 = open('file:///a', 1, '{}');
    assert.equal(cache.get(v1), cache.get(v1));
    const v2 = open('file:///a', 2, '{"job": 1}');
    assert.notEqual(cache.get(v2), cache.get(v1));
    assert.equal(cache.get(v2).parsed.text, '{"job": 1}');
  });

  test('a document at a cached URI and version with another text (reopened at that version, or sent again by a client) is parsed and analysed again', () => {
    const cache = new ParseCache(4);
    const forbidden = '{ "timestamp": 1 }';
    assert.ok(cache.diagnostics(open('file:///a', 1, forbidden), DEFAULT_SETTINGS).diagnostics.some((d) => d.code === 'forbidden-key'));
    // Another length, then the same length with other characters: both are another text.
    for (const text of ['{', '{ "timeStamp": 1 }']) {
      const reopened = open('file:///a', 1, text);
      const { entry, diagnostics } = cache.diagnostics(reopened, DEFAULT_SETTINGS);
      assert.equal(entry.parsed.text, text);
      assert.ok(!diagnostics.some((d) => d.code === 'forbidden-key'), `${text}: ${diagnostics.map((d) => d.code).join(',')}`);
      assert.equal(cache.get(reopened), entry, `${text}: then kept for that text`);
    }
  });

  test('an edit is carried over only onto the text it was made in: not onto an entry cached from an earlier opening, nor across a change that kept the version', () => {
    const cache = new ParseCache(4);
    const earlier = '{ "timestamp": "abc" }';
    const reopenedText = '{ "timeStamp": "abc" }';
    const typeInValue = (document: ReturnType<typeof open>, version: number) => {
      const at = document.positionAt(document.getText().indexOf('abc') + 3);
      return EDIT_TRACKING_DOCUMENTS.update(document, [{ range: { start: at, end: at }, text: 'd' }], version);
    };
    const fresh = (text: string) => new ParseCache(1).diagnostics(open('file:///fresh', 1, text), DEFAULT_SETTINGS).diagnostics;
    // The earlier opening's version 1 is cached; the document opened again at version 1 is edited before it is read.
    cache.diagnostics(open('file:///a', 1, earlier), DEFAULT_SETTINGS);
    const reopened = typeInValue(open('file:///a', 1, reopenedText), 2);
    assert.deepEqual(cache.diagnostics(reopened, DEFAULT_SETTINGS).diagnostics, fresh(reopened.getText()), 'after a reopening');
    // A change that kept version 2 (a client's breach), then a keystroke to version 3: the keystroke's span is relative to the changed text.
    const changed = EDIT_TRACKING_DOCUMENTS.update(reopened, [{ range: { start: reopened.positionAt(2), end: reopened.positionAt(13) }, text: '"timestamp"' }], 2);
    const typed = typeInValue(changed, 3);
    assert.deepEqual(cache.diagnostics(typed, DEFAULT_SETTINGS).diagnostics, fresh(typed.getText()), 'after a change that kept the version');
  });

  test('a document at a cached URI and version whose text is another string with the same characters keeps the parse and analysis', () => {
    const cache = new ParseCache(4);
    const text = '{ "timestamp": 1 }';
    const first = cache.diagnostics(open('file:///a', 1, text), DEFAULT_SETTINGS);
    // A copy that is not the same string object (as a reopening with the same text sends).
    const copy = Buffer.from(text, 'latin1').toString('latin1');
    const again = cache.diagnostics(open('file:///a', 1, copy), DEFAULT_SETTINGS);
    assert.equal(again.entry, first.entry);
    assert.equal(again.diagnostics, first.diagnostics);
  });

  test('analysis is reused for the same settings and redone when settings change', () => {
    const cache = new ParseCache(4);
    const document = open('file:///a', 1, '{ "timestamp": 1 }');
    const first = cache.diagnostics(document, DEFAULT_SETTINGS).diagnostics;
    assert.equal(cache.diagnostics(document, DEFAULT_SETTINGS).diagnostics, first);
    const quiet = normalizeSettings({ diagnostics: { severity: { 'forbidden-key': 'off' } } }).settings;
    const second = cache.diagnostics(document, quiet).diagnostics;
    assert.ok(first.some((d) => d.code === 'forbidden-key'));
    assert.ok(!second.some((d) => d.code === 'forbidden-key'));
  });

  test('analysis is reused for a fixture with no registry, and for one whose registry the search refuses, as the registry service gives them', (t) => {
    // Caches compare the registry by identity: a fresh "none" or "broken" value per request made
    // every request (a code action at the cursor, each diagnostics pull) analyse the whole text
    // again, and every keystroke lose the analysis of the version before.
    const root = mkdtempSync(join(tmpdir(), 'babelq-registry-identity-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(join(root, 'plain'));
    mkdirSync(join(root, 'outside'));
    const told: string[] = [];
    const registries = new RegistryService(() => undefined, (state) => told.push(state.kind));
    registries.setWorkspaceFolders([toUri(join(root, 'plain')), toUri(join(root, 'outside'))]);
    // A configured path that leaves the folder is refused by the search, unread: a "broken" state.
    const elsewhere = { ...DEFAULT_SETTINGS, registryPath: '../elsewhere/registry.json' };
    const cache = new ParseCache(4);
    for (const [folder, settings, kind] of [['plain', DEFAULT_SETTINGS, 'none'], ['outside', elsewhere, 'broken']] as const) {
      const uri = toUri(join(root, folder, 'a.babel.json'));
      const state = registries.stateFor(uri, settings);
      assert.equal(state.kind, kind);
      assert.equal(registries.stateFor(uri, settings), state, `${folder}: the same state each time`);
      const document = open(uri, 1, '{ "timestamp": 1 }');
      const first = cache.diagnostics(document, settings, state).diagnostics;
      assert.equal(cache.diagnostics(document, settings, registries.stateFor(uri, settings)).diagnostics, first, `${folder}: not analysed again`);
    }
    assert.deepEqual(told, ['none', 'broken'], 'the listener hears each search once');
    // A registry.json that appears makes the search run again: a new state, told again.
    const before = registries.stateFor(toUri(join(root, 'plain', 'a.babel.json')), DEFAULT_SETTINGS);
    assert.ok(registries.invalidate([toUri(join(root, 'plain', 'registry.json'))]));
    assert.equal(registries.stateFor(toUri(join(root, 'plain', 'a.babel.json')), DEFAULT_SETTINGS), before, 'still none: none was written');
    assert.deepEqual(told, ['none', 'broken', 'none']);
  });

  test('a document whose line starts were found (and moved by typing in a line) lends them to its parse: the same positions as a scan', () => {
    const text = `${GOOD_ENVELOPE}\r\n\r${'\n  '.repeat(50)}`;
    const document = asEditable(open('file:///lent', 1, text));
    for (const _ of document.preparationSteps());
    // Typing within a line moves the starts after it without rewriting them (a pending shift).
    const typed = EDIT_TRACKING_DOCUMENTS.update(document, [{ range: { start: { line: 2, character: 4 }, end: { line: 2, character: 4 } }, text: 'xyz' }], 2);
    const lent = asEditable(typed).lineStartsFor(typed.getText());
    assert.ok(lent !== undefined, 'the starts are lent');
    assert.equal(asEditable(typed).lineStartsFor(text), undefined, 'not for another text');
    // Asked of the document when the parse first needs its lines, and used: not scanned again.
    const editable = asEditable(typed);
    const lend = editable.lineStartsFor.bind(editable);
    let asked = 0;
    editable.lineStartsFor = (of: string) => {
      asked++;
      return lend(of);
    };
    const lines = new ParseCache(1).get(typed).lines;
    const scanned = new LineIndex(typed.getText());
    for (let offset = 0; offset <= typed.getText().length; offset++) assert.deepEqual(lines.positionAt(offset), scanned.positionAt(offset), `offset ${offset}`);
    assert.equal(asked, 1, 'the parse asked the document for its line starts once');
  });

  test('bounded: the least recently used document is evicted', () => {
    const cache = new ParseCache(3);
    const documents = [1, 2, 3, 4].map((n) => open(`file:///${n}`, 1, '{}'));
    const entries = documents.slice(0, 3).map((d) => cache.get(d));
    cache.get(documents[0]); // touch 1, so 2 is the oldest
    cache.get(documents[3]);
    assert.equal(cache.size, 3);
    assert.equal(cache.get(documents[0]), entries[0], 'recently used entry kept');
    assert.notEqual(cache.get(documents[1]), entries[1], 'oldest entry was evicted and parsed again');
  });

  test('edits as the editor sends them (its spans, reversed, several at once, the whole text, versions skipped): the same parse, lines and findings as a fresh one', () => {
    const cache = new ParseCache(4);
    let document = open('file:///edited', 1, GOOD_ENVELOPE);
    cache.diagnostics(document, DEFAULT_SETTINGS);
    const at = (needle: string, shift = 0) => {
      const found = document.getText().indexOf(needle);
      assert.ok(found >= 0, `${needle} is in the document`);
      return document.positionAt(found + shift);
    };
    const span = (needle: string, from: number, to: number) => ({ start: at(needle, from), end: at(needle, to) });
    // Each step's spans are found in the text as the step before left it.
    const steps: { what: string; changes: () => Parameters<typeof EDIT_TRACKING_DOCUMENTS.update>[1]; read?: boolean }[] = [
      { what: 'one character typed in a string', changes: () => [{ range: span('"orders"', 3, 3), text: 'x' }] },
      { what: 'a whole word replaced by one that shares its ends', changes: () => [{ range: span('"orxders"', 1, 8), text: 'orders' }] },
      { what: 'a range given end first', changes: () => [{ range: { start: at('"orders"', 7), end: at('"orders"', 1) }, text: 'shipments' }] },
      { what: 'a digit typed into a number', changes: () => [{ range: span('1042', 2, 2), text: '9' }] },
      { what: 'two changes in one event', changes: () => [{ range: span('"shipments"', 1, 1), text: 'a' }, { range: span('10942', 0, 1), text: '2' }] },
      { what: 'a line break typed', changes: () => [{ range: span('"job"', 0, 0), text: '\n  ' }] },
      { what: 'an edit the cache does not see, then one it does', changes: () => [{ range: span('"ashipments"', 1, 2), text: '' }], read: false },
      { what: 'the edit after it', changes: () => [{ range: span('"shipments"', 1, 1), text: 'b' }] },
      { what: 'the whole text', changes: () => [{ text: GOOD_ENVELOPE.replace('1042', '"1042"') }] },
    ];
    for (const step of steps) {
      document = EDIT_TRACKING_DOCUMENTS.update(document, step.changes(), document.version + 1);
      if (step.read === false) continue;
      const { entry, diagnostics } = cache.diagnostics(document, DEFAULT_SETTINGS);
      const fresh = new ParseCache(1).diagnostics(open('file:///fresh', 1, document.getText()), DEFAULT_SETTINGS);
      assert.equal(entry.parsed.text, document.getText(), step.what);
      assert.deepEqual(diagnostics, fresh.diagnostics, step.what);
      for (const offset of [0, 40, document.getText().length >> 1, document.getText().length - 1]) assert.deepEqual(entry.lines.positionAt(offset), fresh.entry.lines.positionAt(offset), `${step.what}: the position of offset ${offset}`);
    }
    assert.match(document.getText(), /"1042"/);
  });
});

describe('TestLspClient', () => {
  test('a request to a server that dies fails at once, saying how the server ended and what it wrote', async () => {
    // A "server" that reads its input and dies without answering, as a crashing server would.
    const client = new TestLspClient({ command: ['-e', "process.stdin.once('data', () => { process.stderr.write('boom'); setTimeout(() => process.exit(3), 50); })"] });
    const started = Date.now();
    await assert.rejects(client.request('textDocument/hover', { textDocument: { uri: 'file:///a.babel.json' }, position: { line: 0, character: 0 } }), (error: Error) => {
      assert.match(error.message, /exited with code 3\. Its stderr:\nboom[\s\S]* before answering textDocument\/hover/);
      assert.match(error.message, /boom/);
      return true;
    });
    assert.ok(Date.now() - started < 5000, 'failed at once, not at a timeout');
  });
});
