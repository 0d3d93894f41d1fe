/**
 * The whole-envelope snippets (`envelope`, `envelope-dlq`) are offered only where a whole envelope
 * can go: a document holding nothing but the word being typed. VS Code offers a contributed
 * snippet anywhere in its language, `meta {}` included, so these two are not contributed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { WHOLE_ENVELOPE_SNIPPETS, wholeEnvelopeFits, wholeEnvelopeFitsInLines } from '../../client/whole-envelope-snippets';

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

test('the editor asks line by line: the same answers, reading only the lines up to the first with something else on it', () => {
  const inLines = (marked: string) => {
    const { text, offset } = at(marked);
    const lines = text.split(/\r?\n/);
    const before = text.slice(0, offset).split(/\r?\n/);
    return wholeEnvelopeFitsInLines(lines.length, (line) => lines[line], before.length - 1, before[before.length - 1].length);
  };
  for (const marked of ['|', '\n  |\n', 'env|', '  envelope-d|  \n', 'en|v', '\r\n\tenv|\r\n\r\n']) assert.ok(inLines(marked), JSON.stringify(marked));
  for (const marked of ['{ "meta": { env| } }', '{|}', '{ "job": "urn:babel:orders:created" }\nenv|', 'env|\n{ "job": "urn:babel:orders:created" }', '"env|', 'x\n\n|', '|\n\n x']) assert.ok(!inLines(marked), JSON.stringify(marked));
  // A large document: a completion asked for on an empty line in it reads a few lines, not all of them.
  const lines = ['{', ...Array.from({ length: 100_000 }, (_, index) => (index === 50_000 ? '' : `  "k${index}": ${index},`)), '}'];
  let read = 0;
  assert.equal(wholeEnvelopeFitsInLines(lines.length, (line) => (read++, lines[line]), 50_001, 0), false);
  assert.ok(read <= 3, `${read} lines read`);
});
