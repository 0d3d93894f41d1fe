/**
 * Formatting as properties, over every envelope fixture in the repository, seeded random envelopes
 * and seeded mutations of both (re-spaced, CRLF or CR line breaks, tabs, a byte-order mark, lone
 * surrogates and characters outside the BMP, raw number spellings, duplicate keys, broken syntax):
 * - the formatted text has exactly the tokens of the original, in order, byte for byte;
 * - formatting the result again changes nothing;
 * - indentation, trailing whitespace, line breaks and the final newline follow the options;
 * - the edits lie inside the text, do not overlap, replace whitespace with whitespace only, and
 *   applied as an LSP client applies them (vscode-languageserver-textdocument) give the same text;
 * - a text with syntax problems gets no edit at all.
 * Deterministic (seeded) and fast enough for every run of the suite.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { format as jsoncFormat, applyEdits as jsoncApplyEdits } from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { formatDocument, type FormatOptions } from '../../../core/language/format';
import { applyEdits, type TextEdit } from '../../../core/model/edits';
import { LineIndex } from '../../../core/model/positions';
import { parseJson } from '../../../core/parse/parser';
import { random as seededRandom } from '../../../bench/generate';

const REPO_ROOT = join(__dirname, '..', '..', '..');
const FIXTURE_ROOTS = ['examples', 'test/fixtures'];
const SEED = Number(process.env.PROPERTY_SEED ?? 0xf0_4a7);
const MUTANTS_PER_FIXTURE = Number(process.env.PROPERTY_MUTANTS ?? 2);

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

function fixtureTexts(): { name: string; text: string }[] {
  const found: { name: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) found.push({ name: relative(REPO_ROOT, path), text: readFileSync(path).toString('utf8') });
    }
  };
  for (const root of FIXTURE_ROOTS) walk(join(REPO_ROOT, root));
  return found;
}

// A deeper search: PROPERTY_SEED=<n> PROPERTY_MUTANTS=12 PROPERTY_RUNS=20000 node --import tsx --test <this file>.

// ---------------------------------------------------------------- an independent tokenizer

/**
 * The tokens of a JSON text, with whitespace (the four JSON characters) dropped: strings with
 * their raw text (quotes and escapes), numbers and words as written, punctuation one by one.
 * Written apart from the formatter's scanner so that the two do not share a mistake.
 */
function tokens(text: string): string[] {
  const result: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const char = text[pos];
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      pos++;
    } else if (char === '"') {
      let end = pos + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      result.push(text.slice(pos, end + 1));
      pos = end + 1;
    } else if ('{}[],:'.includes(char)) {
      result.push(char);
      pos++;
    } else {
      const match = /^[^ \t\r\n"{}[\],:]+/.exec(text.slice(pos, pos + 4096))!;
      result.push(match[0]);
      pos += match[0].length;
    }
  }
  return result;
}

function nestingOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const token of tokens(text)) {
    if (token === '{' || token === '[') deepest = Math.max(deepest, ++depth);
    else if (token === '}' || token === ']') depth--;
  }
  return deepest;
}

// ---------------------------------------------------------------- inputs

const RAW_NUMBERS = ['0', '-0', '1.0', '1e2', '1E+2', '-1.5e-7', '12345678901234567890', '0.1000', '1e400', '-0.0', '42'];
const STRING_PIECES = ['a', 'é', '\\u00e9', '\\"', '\\\\', '\\/', '\\n', '\\ud83d\\ude00', '😀', '\ud800', '\udfff', '𝄞', ' ', '\\t', 'urn:babel:x:y:v1', '\u2028', '{', ']', ',', ':'];

function randomString(random: Random): string {
  let body = '';
  const length = Math.floor(random() * 5);
  for (let i = 0; i < length; i++) body += pick(random, STRING_PIECES);
  return `"${body}"`;
}

/** A random JSON value as tokens (keys may repeat), at most `depth` deep. */
function randomValue(random: Random, depth: number): string[] {
  const roll = random();
  if (depth > 0 && roll < 0.25) {
    const out = ['{'];
    const count = Math.floor(random() * 4);
    for (let i = 0; i < count; i++) {
      if (i > 0) out.push(',');
      out.push(random() < 0.2 ? '"dup"' : randomString(random), ':', ...randomValue(random, depth - 1));
    }
    out.push('}');
    return out;
  }
  if (depth > 0 && roll < 0.45) {
    const out = ['['];
    const count = Math.floor(random() * 4);
    for (let i = 0; i < count; i++) {
      if (i > 0) out.push(',');
      out.push(...randomValue(random, depth - 1));
    }
    out.push(']');
    return out;
  }
  if (roll < 0.65) return [randomString(random)];
  if (roll < 0.85) return [pick(random, RAW_NUMBERS)];
  return [pick(random, ['true', 'false', 'null'])];
}

const GAPS = ['', '', ' ', '\n', '\r\n', '\t', '  ', '\n\n', ' \n\t ', '\r\n    '];

/** Tokens joined with random whitespace, all line breaks in one style. */
function spaced(random: Random, parts: readonly string[], eol: string): string {
  let text = pick(random, ['', '', '\n', ' ']);
  for (const part of parts) text += part + pick(random, GAPS);
  return text.replace(/\r\n|\n/g, eol);
}

function randomEnvelope(random: Random): string {
  const parts = ['{', '"job"', ':', '"urn:babel:orders:order-placed:v1"', ',', '"data"', ':', ...randomValue(random, 5), ',', '"meta"', ':', ...randomValue(random, 3), '}'];
  return spaced(random, parts, pick(random, ['\n', '\n', '\r\n', '\r']));
}

function mutate(random: Random, text: string): string {
  switch (Math.floor(random() * 9)) {
    case 0:
      return spaced(random, tokens(text), pick(random, ['\n', '\r\n']));
    case 1:
      return text.replace(/\r?\n/g, '\r\n');
    case 2:
      return `\ufeff${text}`;
    case 3:
      return text.replace(/\n( +)/g, (_, spaces: string) => `\n${'\t'.repeat(spaces.length)}`);
    case 4: {
      // Delete one character: usually a syntax problem, sometimes only whitespace.
      const at = Math.floor(random() * text.length);
      return text.slice(0, at) + text.slice(at + 1);
    }
    case 5: {
      const at = Math.floor(random() * text.length);
      return text.slice(0, at) + pick(random, [',', '"', '}', '/* c */', '// c\n', '\u00a0', '\ud800', '1', ' ']) + text.slice(at);
    }
    case 6:
      return text.replace(/"([^"\\]*)"/, (_, body: string) => `"${body}\\u00e9😀"`);
    case 7:
      return text.replace(/\{/, '{"dup":1.0,"dup":-0,');
    default:
      return text.trimEnd() + pick(random, ['', '\n', '\n\n\n', '  \n \n', '\r\n']);
  }
}

// ---------------------------------------------------------------- the properties

const OPTION_SETS: FormatOptions[] = [
  { tabSize: 2, insertSpaces: true },
  { tabSize: 4, insertSpaces: true, finalNewline: true },
  { tabSize: 4, insertSpaces: false, finalNewline: false },
  { tabSize: 3, insertSpaces: true, finalNewline: true },
];

function eolOfFirst(text: string): string {
  const match = /\r\n|\r|\n/.exec(text);
  return match ? match[0] : '\n';
}

/** Applies core edits the way an LSP client does: as ranges, through the LSP text document. */
function applyAsClient(text: string, edits: readonly TextEdit[]): string {
  const lines = new LineIndex(text);
  const document = TextDocument.create('file:///x.babel.json', 'babelqueue-envelope', 1, text);
  return TextDocument.applyEdits(
    document,
    edits.map((edit) => ({ range: { start: lines.positionAt(edit.offset), end: lines.positionAt(edit.end) }, newText: edit.newText })),
  );
}

function checkFormatting(name: string, text: string, options: FormatOptions): void {
  const label = `${name} ${JSON.stringify(options)}: ${JSON.stringify(text.length > 300 ? text.slice(0, 300) + '…' : text)}`;
  const doc = parseJson(text);
  const edits = formatDocument(doc, options);
  if (doc.syntaxProblems.length > 0) {
    assert.deepEqual(edits, [], `a text with syntax problems is not touched: ${label}`);
    return;
  }
  // Edits: inside the text, ascending, not overlapping, whitespace for whitespace.
  let previousEnd = 0;
  for (const edit of edits) {
    assert.ok(edit.offset >= previousEnd && edit.end >= edit.offset && edit.end <= text.length, `edit [${edit.offset}, ${edit.end}) out of order or range: ${label}`);
    previousEnd = edit.end;
    if (edits.length > 1) {
      assert.match(text.slice(edit.offset, edit.end), /^[ \t\r\n]*$/, `an edit replaces more than whitespace: ${label}`);
      assert.match(edit.newText, /^[ \t\r\n]*$/, `an edit writes more than whitespace: ${label}`);
    }
    assert.notEqual(text.slice(edit.offset, edit.end), edit.newText, `an edit that changes nothing: ${label}`);
  }
  const formatted = applyEdits(text, edits);
  assert.equal(applyAsClient(text, edits), formatted, `applied as an LSP client applies them, the edits give another text: ${label}`);

  // Nothing the user wrote is lost, reordered or rewritten.
  assert.deepEqual(tokens(formatted), tokens(text), `the tokens changed: ${label}`);

  // Idempotent.
  assert.deepEqual(formatDocument(parseJson(formatted), options), [], `formatting twice changes the text again: ${label}`);

  // The options and the file's line breaks.
  const eol = options.eol ?? eolOfFirst(text);
  const unit = options.insertSpaces ? ' '.repeat(options.tabSize) : '\t';
  const breaks = formatted.match(/\r\n|\r|\n/g) ?? [];
  for (const lineBreak of breaks) assert.equal(lineBreak, eol, `a line break other than the file's: ${label}`);
  const lines = formatted.split(eol);
  for (const line of lines) {
    assert.doesNotMatch(line, /[ \t]$/, `trailing whitespace left: ${label}`);
    const indent = /^[ \t]*/.exec(line)![0];
    assert.equal(indent, unit.repeat(indent.length / unit.length), `indentation not made of ${JSON.stringify(unit)}: ${label}`);
  }
  assert.ok(!/^[ \t\r\n]/.test(formatted), `leading whitespace left: ${label}`);
  const hadLineBreakAtEnd = /[\r\n][ \t\r\n]*$/.test(text);
  const wantsFinal = options.finalNewline ?? hadLineBreakAtEnd;
  if (wantsFinal) assert.ok(formatted.endsWith(eol) && !formatted.endsWith(eol + eol) && !/[ \t\r\n]/.test(formatted.slice(-eol.length - 1, -eol.length)), `not exactly one final line break: ${label}`);
  else assert.doesNotMatch(formatted, /[ \t\r\n]$/, `whitespace at the end: ${label}`);

  // The layout is VS Code's (jsonc-parser's) whenever the final newline is asked for explicitly.
  // (jsonc-parser's own indentation cache breaks below 60 levels or so: shallower texts only.)
  if (options.finalNewline !== undefined && eol !== '\r' && nestingOf(text) < 40) {
    const expected = jsoncApplyEdits(text, jsoncFormat(text, undefined, { tabSize: options.tabSize, insertSpaces: options.insertSpaces, insertFinalNewline: options.finalNewline, eol }));
    assert.equal(formatted, expected, `not VS Code's layout: ${label}`);
  }
}

test('formatting keeps every token, is idempotent, follows the options and gives LSP-valid edits (fixtures and their mutants)', () => {
  const random = seededRandom(SEED);
  const fixtures = fixtureTexts();
  assert.ok(fixtures.length > 50, 'the fixtures were found');
  let formattable = 0;
  for (const { name, text } of fixtures) {
    const texts = [text];
    for (let i = 0; i < MUTANTS_PER_FIXTURE; i++) texts.push(mutate(random, text));
    for (const sample of texts) {
      if (parseJson(sample).syntaxProblems.length === 0) formattable++;
      checkFormatting(name, sample, pick(random, OPTION_SETS));
    }
  }
  assert.ok(formattable > fixtures.length / 2, 'most inputs were formattable JSON');
});

test('formatting keeps every token of random envelopes (raw numbers, escapes, surrogates, duplicate keys, CR/CRLF)', () => {
  let runs = 0;
  let formattable = 0;
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom(...OPTION_SETS), fc.boolean(), (seed, options, mutated) => {
      const random = seededRandom(seed);
      const text = randomEnvelope(random);
      const sample = mutated ? mutate(random, text) : text;
      runs++;
      if (parseJson(sample).syntaxProblems.length === 0) formattable++;
      checkFormatting(`random ${seed}`, sample, options);
    }),
    { seed: SEED, numRuns: Number(process.env.PROPERTY_RUNS ?? 400) },
  );
  assert.ok(formattable > runs / 2, `most random envelopes were formattable JSON (${formattable} of ${runs})`);
});

test('formatting answers for hostile sizes: 100,000 levels, a 5 MB file, a million keys', () => {
  const options: FormatOptions = { tabSize: 2, insertSpaces: true };
  const deep = '{"a":'.repeat(100_000) + '[' + '1'.repeat(1) + ']' + '}'.repeat(100_000);
  let started = Date.now();
  assert.deepEqual(formatDocument(parseJson(deep), options), []);
  assert.ok(Date.now() - started < 10_000, 'deep nesting is refused in bounded time');

  const random = seededRandom(SEED);
  const items: string[] = [];
  let size = 0;
  while (size < 5 * 1024 * 1024) {
    const item = tokens(randomEnvelope(random)).join('');
    items.push(item);
    size += item.length + 1;
  }
  const big = `[${items.join(',')}]`;
  started = Date.now();
  checkFormatting('5 MB', big, options);
  assert.ok(Date.now() - started < 60_000, 'a 5 MB file formats in bounded time');

  const keys = `{${Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
  const edits = formatDocument(parseJson(keys), options);
  assert.equal(edits.length, 1, 'a million changes go as one edit');
  assert.deepEqual(tokens(applyEdits(keys, edits)), tokens(keys));
});
