/**
 * The extension's declarative parts: the manifest, the TextMate grammar (tokenised by the same
 * engine VS Code uses), the snippets (expanded and linted) and the language configuration.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';
import { analyzeText } from '../../core/rules/analyze';
import { describeState } from '../../client/status';
import { WHOLE_ENVELOPE_SNIPPETS } from '../../client/whole-envelope-snippets';

const ROOT = resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

describe('manifest', () => {
  test('one language for *.babel.json with grammar, snippets and configuration that exist', () => {
    const [language] = manifest.contributes.languages;
    assert.equal(language.id, 'babelqueue-envelope');
    assert.deepEqual(language.filenamePatterns, ['*.babel.json']);
    for (const path of [language.configuration, manifest.contributes.grammars[0].path, manifest.contributes.snippets[0].path, manifest.icon]) {
      assert.doesNotThrow(() => readFileSync(join(ROOT, path)), path);
    }
  });

  test('the byte preview opens in its own language (word wrap on) by its name, with no language change after opening', () => {
    const preview = manifest.contributes.languages.find((language: { id: string }) => language.id === 'babelqueue-preview');
    assert.deepEqual(preview.filenamePatterns, ['* — published bytes']);
    // client/preview.ts names the preview `<file> — published bytes`.
    assert.match(readFileSync(join(ROOT, 'client/preview.ts'), 'utf8'), /path: `\/\$\{name\} — published bytes`/);
    assert.equal(manifest.contributes.configurationDefaults['[babelqueue-preview]']['editor.wordWrap'], 'on');
  });

  test('the byte preview\'s own words (the minus sign of ±(2^53−1)) are not boxed as ambiguous characters', () => {
    assert.equal(manifest.contributes.configurationDefaults['[babelqueue-preview]']['editor.unicodeHighlight.ambiguousCharacters'], false);
    assert.match(readFileSync(join(ROOT, 'README.extension.md'), 'utf8'), /"\[babelqueue-preview\]": \{ "editor\.unicodeHighlight\.ambiguousCharacters": false \}/);
  });

  test('fixtures: VS Code does not rescan them for ambiguous or invisible characters after every pause, as the README says', () => {
    const envelope = manifest.contributes.configurationDefaults['[babelqueue-envelope]'];
    assert.equal(envelope['editor.unicodeHighlight.ambiguousCharacters'], false);
    assert.equal(envelope['editor.unicodeHighlight.invisibleCharacters'], false);
    // Restricted Mode's highlighting of every non-ASCII character is left as VS Code sets it.
    assert.equal(envelope['editor.unicodeHighlight.nonBasicASCII'], undefined);
    assert.match(readFileSync(join(ROOT, 'README.extension.md'), 'utf8'), /editor\.unicodeHighlight\.invisibleCharacters": false/);
  });

  test('validation is allowed in Restricted Mode; two activation events beyond the inferred ones', () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    // The babelq task must be runnable before any envelope has been opened; a folder with
    // fixtures gets its Problems, and registry.json its references, before one is opened too.
    assert.deepEqual(manifest.activationEvents, ['onTaskType:babelq', 'workspaceContains:**/*.babel.json']);
    assert.equal(manifest.main, './dist/extension.js');
    // As npm publishes them: a path without ./ (npm corrects ./bin/… and warns).
    assert.deepEqual(manifest.bin, { babelq: 'bin/babelq.js', 'babelq-language-server': 'bin/babelq-language-server.js' });
  });

  test('engines.vscode matches what the language client library needs', () => {
    const client = JSON.parse(readFileSync(join(ROOT, 'node_modules/vscode-languageclient/package.json'), 'utf8'));
    assert.equal(manifest.engines.vscode, client.engines.vscode);
  });

  test('Redrive and Edit, then Redrive are in the title bar of a dead letter\'s view, not of a message peeked from a work queue', () => {
    // client/message-view.ts titles a view `<queue> · <meta.id>` (each cut, a dead letter's queue keeping its `.dlq`).
    assert.match(readFileSync(join(ROOT, 'client/message-view.ts'), 'utf8'), /path: `\/\$\{queueTitle\} · \$\{title\(message\.row\.metaId\)\}`/);
    for (const command of ['babelqueue.redriveMessage', 'babelqueue.editThenRedrive']) {
      const entry = manifest.contributes.menus['editor/title'].find((item: { command: string }) => item.command === command);
      assert.match(entry.when, /^resourceScheme == babelqueue-message && resourcePath =~ \/.+\/$/, entry.when);
      const pattern = new RegExp(/=~ \/(.+)\/$/.exec(entry.when)![1]!);
      assert.ok(pattern.test('/orders.dlq · 0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d'), `${command}: a dead letter`);
      assert.ok(pattern.test('/queues:orders.dlq · 0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d'), `${command}: a dead letter, Laravel layout`);
      assert.ok(!pattern.test('/orders · 0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d'), `${command}: a message of the work queue`);
      assert.ok(!pattern.test('/orders.dlq.archive · 0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d'), `${command}: another queue`);
    }
  });

  test('the status item describes every server state', () => {
    assert.equal(describeState('running').severity, 'information');
    assert.equal(describeState('starting').busy, true);
    assert.equal(describeState('stopped').severity, 'error');
    assert.match(describeState('stopped').detail, /output/);
  });

  test('a broken registry is said once: "BabelQueue: registry error – <what is wrong>", not "registry error – Registry error: …"', () => {
    const view = describeState('running', { state: 'broken', message: 'Registry error: registry.json is not valid JSON: Expected a value before this comma.' });
    assert.equal(view.text, 'BabelQueue: registry error');
    assert.equal(view.detail, 'registry.json is not valid JSON: Expected a value before this comma.');
    assert.equal(view.severity, 'error');
  });

  test('a registry\'s file name (the checkout\'s text, as babelq.json\'s "registry" names it) is shown on one line, its invisible characters escaped', () => {
    const name = `bad\u202e\n${'y'.repeat(5000)}.json`;
    for (const state of ['broken', 'loaded'] as const) {
      const view = describeState('running', { state, message: `Registry error: ${name} is not valid JSON: This object is never closed.` });
      assert.doesNotMatch(view.detail, /[\n\u202e]/);
      assert.match(view.detail, /^bad\\u202e\\ny|^Registry error: bad\\u202e\\ny/);
      assert.ok(view.detail.length <= 1000, `the detail is ${view.detail.length} characters`);
    }
  });
});

describe('grammar', () => {
  let grammar: textmate.IGrammar;

  before(async () => {
    const wasm = readFileSync(join(ROOT, 'node_modules/vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
    const registry = new textmate.Registry({
      onigLib: Promise.resolve({ createOnigScanner: (p) => new oniguruma.OnigScanner(p), createOnigString: (s) => new oniguruma.OnigString(s) }),
      loadGrammar: async () => textmate.parseRawGrammar(readFileSync(join(ROOT, manifest.contributes.grammars[0].path), 'utf8'), 'grammar.json'),
    });
    grammar = (await registry.loadGrammar('source.babelqueue-envelope'))!;
  });

  /** The scopes of the first token whose text is `text`, tokenising `source` line by line. */
  function scopesOf(source: string, text: string): string[] {
    let state = textmate.INITIAL;
    for (const line of source.split('\n')) {
      const result = grammar.tokenizeLine(line, state);
      for (const token of result.tokens) {
        if (line.slice(token.startIndex, token.endIndex) === text) return token.scopes;
      }
      state = result.ruleStack;
    }
    throw new Error(`no token "${text}"`);
  }

  const source = readFileSync(join(ROOT, 'examples/orders/order-created.babel.json'), 'utf8');

  test('the URN value is scoped so themes can colour it', () => {
    const line = source.split('\n').find((l) => l.includes('"job"'))!;
    const urnContext = /urn:babel:([a-z0-9-]+):/.exec(line)![1];
    const scopes = scopesOf(source, urnContext);
    assert.ok(scopes.some((scope) => scope.includes('urn')), scopes.join(' '));
  });

  test('core keys and forbidden keys have their own scopes; data keys stay plain', () => {
    assert.ok(scopesOf(source, 'trace_id').some((s) => s.includes('core')), 'trace_id');
    const bad = readFileSync(join(ROOT, 'examples/bad/contract.babel.json'), 'utf8');
    assert.ok(scopesOf(bad, 'max_retries').some((s) => s.includes('forbidden')), 'meta.max_retries');
    assert.ok(scopesOf(bad, 'timestamp').some((s) => s.includes('forbidden')), 'timestamp');
    const dataKey = scopesOf('{ "data": { "timestamp": 1 } }', 'timestamp');
    assert.equal(dataKey.some((s) => s.includes('forbidden')), false, dataKey.join(' '));
  });

  test('comments are marked illegal (strict JSON)', () => {
    const scopes = scopesOf('{\n  // note\n  "job": "urn:babel:a:b"\n}', ' note');
    assert.ok(scopes.some((s) => s.startsWith('invalid')), scopes.join(' '));
  });
});

describe('snippets', () => {
  // The contributed fragments and the whole envelopes the completion provider offers (client/whole-envelope-snippets.ts).
  const snippets = { ...JSON.parse(readFileSync(join(ROOT, manifest.contributes.snippets[0].path), 'utf8')), ...WHOLE_ENVELOPE_SNIPPETS } as Record<string, { prefix: string | readonly string[]; body: readonly string[] }>;

  /** Expands a snippet as VS Code would with every placeholder left at its default. */
  function expand(body: readonly string[]): string {
    const defaults = new Map<string, string>();
    let text = body.join('\n');
    text = text.replace(/\$UUID|\$\{UUID\}/g, () => randomUUID());
    text = text.replace(/\$\{CURRENT_SECONDS_UNIX\}|\$CURRENT_SECONDS_UNIX/g, () => String(Math.floor(Date.now() / 1000)));
    text = text.replace(/\$\{(\d+)\|([^|]*)\|\}/g, (_, index: string, choices: string) => {
      defaults.set(index, choices.split(',')[0]);
      return choices.split(',')[0];
    });
    // Innermost placeholders first, so nested ones resolve.
    for (let guard = 0; /\$\{\d+:[^{}]*\}/.test(text) && guard < 20; guard++) {
      text = text.replace(/\$\{(\d+):([^{}]*)\}/g, (_, index: string, value: string) => {
        defaults.set(index, value);
        return value;
      });
    }
    return text.replace(/\$\{(\d+)\}|\$(\d+)/g, (_, braced: string, bare: string) => defaults.get(braced ?? bare) ?? '').replace(/\\([$}\\])/g, '$1');
  }

  test('there are envelope snippets, and each expands to text the linter accepts', () => {
    const prefixes = Object.values(snippets).flatMap((s) => (Array.isArray(s.prefix) ? s.prefix : [s.prefix]));
    assert.ok(prefixes.includes('envelope'));
    assert.ok(prefixes.includes('envelope-dlq'));
    for (const [name, snippet] of Object.entries(snippets)) {
      const expanded = expand(snippet.body);
      if (!expanded.trimStart().startsWith('{')) {
        // A fragment to paste inside an object (e.g. a meta.ext block): it must at least be valid there.
        assert.doesNotThrow(() => JSON.parse(`{${expanded.replace(/,\s*$/, '')}}`), `${name}:\n${expanded}`);
        continue;
      }
      const body = expanded;
      // The snippet leaves data empty for the user to fill; that PHP writes it as [] (which the other
      // consumers reject) is expected then: encoding-divergence says so, or consumer-rejects with lang php.
      const errors = analyzeText(body).filter((d) => (d.severity === 'error' || d.severity === 'warning') && d.code !== 'encoding-divergence' && d.code !== 'consumer-rejects');
      assert.deepEqual(errors.map((d) => `${d.code}: ${d.message}`), [], `${name}:\n${body}`);
    }
  });

  test('trace_id and meta.id are fresh and different, created_at is now in ms', () => {
    const envelope = Object.values(snippets).find((s) => [s.prefix].flat().includes('envelope'))!;
    const parsed = JSON.parse(expand(envelope.body));
    assert.notEqual(parsed.trace_id, parsed.meta.id);
    assert.ok(Math.abs(parsed.meta.created_at - Date.now()) < 5000, String(parsed.meta.created_at));
  });
});

describe('language configuration', () => {
  const configuration = JSON.parse(readFileSync(join(ROOT, 'language-configuration.json'), 'utf8'));

  test('a URN is one word, so completion replaces it whole', () => {
    const pattern = new RegExp(configuration.wordPattern.pattern ?? configuration.wordPattern, 'g');
    const words = '"job": "urn:babel:orders:created.v2"'.match(pattern);
    assert.ok(words?.includes('urn:babel:orders:created.v2'), String(words));
  });

  test('brackets and auto-closing pairs', () => {
    assert.deepEqual(configuration.brackets, [['{', '}'], ['[', ']']]);
    assert.equal(configuration.comments, undefined, 'strict JSON has no comments');
  });
});
