/**
 * The whole-envelope snippets (`envelope`, `envelope-dlq`) are offered only where a whole envelope
 * can go: a document holding nothing but the word being typed. VS Code offers a contributed
 * snippet anywhere in its language, `meta {}` included, so these two are not contributed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { WHOLE_ENVELOPE_SNIPPETS, wholeEnvelopeFits } from '../../client/whole-envelope-snippets';

const ROOT = resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** The text with the cursor at `|`. */
const at = (marked: string) => ({ text: marked.replace('|', ''), offset: marked.indexOf('|') });
const fits = (marked: string) => wholeEnvelopeFits(at(marked).text, at(marked).offset);

test('the manifest contributes no whole-envelope snippet, which VS Code would offer inside meta {}', () => {
  for (const { path } of manifest.contributes.snippets) {
    const contributed = JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, { prefix: string | string[] }>;
    const prefixes = Object.values(contributed).flatMap((snippet) => [snippet.prefix].flat());
    assert.ok(!prefixes.includes('envelope') && !prefixes.includes('envelope-dlq'), `${path}: ${prefixes.join(', ')}`);
  }
  const offered = Object.values(WHOLE_ENVELOPE_SNIPPETS).flatMap((snippet) => snippet.prefix);
  assert.ok(offered.includes('envelope') && offered.includes('envelope-dlq'), offered.join(', '));
});

test('a whole envelope fits an empty document, or one holding only the word being typed', () => {
  assert.ok(fits('|'));
  assert.ok(fits('\n  |\n'));
  assert.ok(fits('env|'));
  assert.ok(fits('  envelope-d|  \n'));
  assert.ok(fits('en|v'));
});

test('a whole envelope does not fit inside an object, nor beside a value already written', () => {
  assert.ok(!fits('{ "meta": { env| } }'));
  assert.ok(!fits('{ "meta": {|} }'));
  assert.ok(!fits('{|}'));
  assert.ok(!fits('{ "job": "urn:babel:orders:created" }\nenv|'));
  assert.ok(!fits('env|\n{ "job": "urn:babel:orders:created" }'));
  assert.ok(!fits('"env|'));
});
