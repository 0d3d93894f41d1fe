/** Server pieces that need no process: the handler guard and the bounded parse cache. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS, normalizeSettings } from '../../core/rules/settings';
import { ParseCache } from '../../server/documents';
import { guard } from '../../server/guard';

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
  const open = (uri: string, version: number, text: string) => TextDocument.create(uri, 'babelqueue-envelope', version, text);

  test('one parse per URI and version; a new version is parsed again', () => {
    const cache = new ParseCache(4);
    const v1 = open('file:///a', 1, '{}');
    assert.equal(cache.get(v1), cache.get(v1));
    const v2 = open('file:///a', 2, '{"job": 1}');
    assert.notEqual(cache.get(v2), cache.get(v1));
    assert.equal(cache.get(v2).parsed.text, '{"job": 1}');
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
});
