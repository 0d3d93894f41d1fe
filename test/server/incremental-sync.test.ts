/**
 * Incremental text sync, end to end: random keystrokes (seeded) sent to the server as ranged
 * `textDocument/didChange` notifications, one or several changes each, over LF and CRLF texts
 * with characters outside the BMP, while diagnostics are pulled at some versions and not at
 * others (so the parse cache reparses from the version before, or from one several edits back).
 * After every sequence the diagnostics pulled for the edited document must be exactly those of
 * the same text opened fresh under another name, and every published range must name UTF-16
 * positions inside its lines as the editor counts them (vscode-languageserver-textdocument).
 * The edits aim at what the incremental reparse (core/parse/incremental.ts) takes (typing in a
 * string value or a number) and at its edges: an escape typed into a string, a closing quote
 * deleted, half of a surrogate pair, a line break, typing at the very end, an empty document,
 * undoing back to the original.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import type { Diagnostic, Range } from 'vscode-languageserver/node';
import { random } from '../../bench/generate';
import { parseText } from '../../core/parse/parser';
import { ENVELOPE_LANGUAGE_ID } from '../../core/language/protocol';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { startInProcessServer } from '../support/in-process-server';
import { scratchFolder } from '../support/scratch-folder';

const EXAMPLES = resolve(__dirname, '../../examples');
const SEED = 2;
const ROUNDS = 80;
/** The last bases (made for the edges: characters outside the BMP, CRLF, an escape, an empty text) each get a round of their own. */
const EDGES = 5;

/** The examples' fixtures and the catalogue's firing ones that parse cleanly (the incremental reparse starts only from one), then a few made for the edges. */
function baseTexts(): string[] {
  const texts = [GOOD_ENVELOPE];
  for (const folder of ['orders', 'billing', 'identity', 'bad']) {
    for (const name of readdirSync(join(EXAMPLES, folder)).sort()) {
      const text = readFileSync(join(EXAMPLES, folder, name), 'utf8');
      if (parseText(text).syntaxProblems.length === 0) texts.push(text);
    }
  }
  // The catalogue's examples of each code: findings on numbers and strings for the edits to move, keep or end.
  const catalogue = resolve(__dirname, '../fixtures/diagnostics');
  for (const code of readdirSync(catalogue, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()) {
    for (const name of readdirSync(join(catalogue, code)).sort()) {
      if (!name.startsWith('fires-') || !name.endsWith('.babel.json')) continue;
      const text = readFileSync(join(catalogue, code, name), 'utf8');
      if (parseText(text).syntaxProblems.length === 0) texts.push(text);
    }
  }
  const emoji = GOOD_ENVELOPE.replace('"orders"', '"ord😀ers"').replace('"php"', '"😀"');
  return [...texts, emoji, emoji.replace(/\n/g, '\r\n'), GOOD_ENVELOPE.replace(/\n/g, '\r\n'), GOOD_ENVELOPE.replace('"orders"', '"or\\u00e9ders"'), ''];
}

/** What is typed: mostly what keeps a value a plain string or number, then what does not. */
const PLAIN = ['x', 'é', '😀', '抹', '1', '0', '9', ' ', 'ab', '\u2028'];
const BREAKING = ['\\', '"', '\\"', '\\u00e9', '\\n', '\ud83d', '\ude00', '-', '.', 'e', '+', '\r\n', '\n', '\r', ',', '}', '{', ':', ''];

type Change = { range: Range; text: string };

function randomChange(document: TextDocument, rand: () => number): Change {
  const text = document.getText();
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  let at = Math.floor(rand() * (text.length + 1));
  const where = rand();
  if (where < 0.4) {
    // In a string value: just after its opening quote, or a few characters in.
    const value = /: *"/g;
    value.lastIndex = at;
    const found = value.exec(text) ?? /: *"/.exec(text);
    if (found) at = found.index + found[0].length + Math.floor(rand() * 4);
  } else if (where < 0.7) {
    // In a number value: at its start, inside it or at its end (typing on after its last digit).
    const number = /[:[,] *(-?\d[\d.eE+-]*)/g;
    number.lastIndex = at;
    const found = number.exec(text) ?? /[:[,] *(-?\d[\d.eE+-]*)/.exec(text);
    if (found) at = found.index + found[0].length - found[1].length + (rand() < 0.5 ? found[1].length : Math.floor(rand() * (found[1].length + 1)));
  } else if (where < 0.75) {
    at = text.length;
  } else if (where < 0.8) {
    // The closing quote of a string value deleted.
    const closing = text.indexOf('",', at);
    if (closing >= 0) return { range: { start: document.positionAt(closing), end: document.positionAt(closing + 1) }, text: '' };
  }
  at = Math.min(at, text.length);
  const removed = rand() < 0.6 ? 0 : Math.floor(rand() * 3);
  const inserted = rand() < 0.2 ? '' : rand() < 0.93 ? pick(PLAIN) : pick(BREAKING);
  const start = document.positionAt(at);
  const end = document.positionAt(Math.min(text.length, at + removed));
  // Positions may also fall between the two halves of a surrogate pair, as code units count them.
  return { range: rand() < 0.05 ? { start: end, end: start } : { start, end }, text: inserted };
}

/** The change that takes `after` (made by `change` from `before`) back to `before`. */
function inverse(before: TextDocument, change: Change): Change {
  const a = before.offsetAt(change.range.start);
  const b = before.offsetAt(change.range.end);
  const from = Math.min(a, b);
  const after = TextDocument.update(TextDocument.create('x', 'x', 0, before.getText()), [change], 1);
  return { range: { start: after.positionAt(from), end: after.positionAt(from + change.text.length) }, text: before.getText().slice(from, Math.max(a, b)) };
}

/** A diagnostic with the document's own URI in its related information written as one placeholder. */
function comparable(diagnostics: readonly Diagnostic[], uri: string): string {
  return JSON.stringify(diagnostics.map((diagnostic) => ({ ...diagnostic, relatedInformation: diagnostic.relatedInformation?.map((related) => ({ ...related, location: { ...related.location, uri: related.location.uri === uri ? '<self>' : related.location.uri } })) })));
}

/** Every range inside the text's lines, and its ends where the editor's counting puts the same offsets. */
function checkRanges(diagnostics: readonly Diagnostic[], text: string, label: string): void {
  const document = TextDocument.create('x', 'x', 0, text);
  for (const { range, code } of diagnostics) {
    for (const position of [range.start, range.end]) {
      const lineLength = document.getText({ start: { line: position.line, character: 0 }, end: { line: position.line, character: Number.MAX_SAFE_INTEGER } }).length;
      assert.ok(position.line < document.lineCount && position.character <= lineLength, `${label}: ${code} at ${JSON.stringify(position)} is past its line (${lineLength} code units) in ${JSON.stringify(text)}`);
      assert.deepEqual(document.positionAt(document.offsetAt(position)), position, `${label}: ${code}`);
    }
  }
}

test('after random ranged edits (several per change, CRLF, surrogate pairs, undo), the pulled diagnostics are those of the final text opened fresh', async () => {
  const folder = scratchFolder('babelq-incremental-sync-');
  folder.write('registry.json', readFileSync(join(EXAMPLES, 'registry.json'), 'utf8'));
  for (const name of readdirSync(join(EXAMPLES, 'schemas'))) folder.write(`schemas/${name}`, readFileSync(join(EXAMPLES, 'schemas', name), 'utf8'));
  const { client, stop } = await startInProcessServer(folder, 'incremental-sync');
  const pull = async (uri: string): Promise<Diagnostic[]> => (await client.sendRequest<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } })).items;
  const rand = random(SEED);
  const bases = baseTexts();
  let edits = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const original = round < EDGES ? bases[bases.length - 1 - round] : bases[Math.floor(rand() * bases.length)];
      const uri = folder.uriOf(`typed-${round}.babel.json`);
      let version = 1;
      let document = TextDocument.create(uri, ENVELOPE_LANGUAGE_ID, version, original);
      await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: ENVELOPE_LANGUAGE_ID, version, text: original } });
      // Not always analysed as opened: the first analysis may come after edits, from the editor's line starts.
      if (rand() < 0.5) await pull(uri);
      const undo: Change[] = [];
      const steps = 1 + Math.floor(rand() * 40);
      for (let step = 0; step < steps; step++) {
        const changes: TextDocumentContentChangeEvent[] = [];
        // A broken text is often undone (the reparse starts from a clean parse only).
        const broken = parseText(document.getText()).syntaxProblems.length > 0;
        const r = rand();
        if (r < 0.03) {
          changes.push({ text: original });
          undo.length = 0;
        } else if (r < (broken ? 0.6 : 0.15) && undo.length > 0) {
          changes.push(undo.pop()!);
        } else {
          // Several changes in one notification, each against the text the ones before it made.
          const count = rand() < 0.15 ? 2 + Math.floor(rand() * 3) : 1;
          let scratch = document;
          for (let i = 0; i < count; i++) {
            const change = randomChange(scratch, rand);
            if (count === 1) undo.push(inverse(scratch, change));
            changes.push(change);
            scratch = TextDocument.update(TextDocument.create(uri, 'x', 0, scratch.getText()), [change], 1);
          }
          if (count > 1) undo.length = 0;
        }
        version++;
        edits++;
        document = TextDocument.update(document, changes, version);
        await client.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
        // Pulled at some versions only: the next is then reparsed from one several edits back.
        if (rand() < 0.6) await pull(uri);
      }
      const text = document.getText();
      const typed = await pull(uri);
      const freshUri = folder.uriOf(`fresh-${round}.babel.json`);
      await client.sendNotification('textDocument/didOpen', { textDocument: { uri: freshUri, languageId: ENVELOPE_LANGUAGE_ID, version: 1, text } });
      const fresh = await pull(freshUri);
      assert.equal(comparable(typed, uri), comparable(fresh, freshUri), `round ${round}: the edited document's diagnostics differ from a fresh open of ${JSON.stringify(text)} (from ${JSON.stringify(original)})`);
      checkRanges(typed, text, `round ${round}`);
      await client.sendNotification('textDocument/didClose', { textDocument: { uri } });
      await client.sendNotification('textDocument/didClose', { textDocument: { uri: freshUri } });
    }
  } finally {
    await stop();
  }
  assert.ok(edits > 500, `${edits} edits`);
});

test('half of a surrogate pair deleted outside a string (CRLF): one syntax error on the lone surrogate, inside its line, and the next token read as it is', async () => {
  const folder = scratchFolder('babelq-lone-surrogate-');
  const { client, stop } = await startInProcessServer(folder, 'lone-surrogate');
  const pull = async (uri: string): Promise<Diagnostic[]> => (await client.sendRequest<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } })).items;
  try {
    for (const [place, label] of [['",\r\n  "data"', 'at the end of a line, before its CRLF'], ['\r\n  "data"', 'before a property name']] as const) {
      const original = GOOD_ENVELOPE.replace(/\n/g, '\r\n');
      const uri = folder.uriOf(`lone-${label.length}.babel.json`);
      let document = TextDocument.create(uri, ENVELOPE_LANGUAGE_ID, 1, original);
      await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: ENVELOPE_LANGUAGE_ID, version: 1, text: original } });
      // An emoji typed there, then its second code unit deleted (a range between the pair's halves).
      const at = original.indexOf(place) + (place.startsWith('"') ? 2 : place.indexOf('"'));
      const typed: Change = { range: { start: document.positionAt(at), end: document.positionAt(at) }, text: '😀' };
      document = TextDocument.update(document, [typed], 2);
      const lowHalf: Change = { range: { start: document.positionAt(at + 1), end: document.positionAt(at + 2) }, text: '' };
      document = TextDocument.update(document, [lowHalf], 3);
      await client.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [typed] });
      await pull(uri);
      await client.sendNotification('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [lowHalf] });
      const diagnostics = await pull(uri);
      const text = document.getText();
      assert.equal(text.charCodeAt(at), 0xd83d);
      checkRanges(diagnostics, text, label);
      const syntax = diagnostics.filter((diagnostic) => diagnostic.code === 'json-syntax');
      assert.deepEqual(
        syntax.map(({ range, message }) => ({ range, message })),
        [{ range: { start: document.positionAt(at), end: document.positionAt(at + 1) }, message: "Expected a property name in double quotes, found '\ud83d'." }],
        `${label}: ${JSON.stringify(syntax)}`,
      );
      await client.sendNotification('textDocument/didClose', { textDocument: { uri } });
    }
  } finally {
    await stop();
  }
});

test('a digit typed before a number\'s first character leaves a finding that ends there (the bracket before it) where it was', async () => {
  // The .NET depth finding sits on the innermost `[`, which ends where the number `0` starts.
  const original = readFileSync(resolve(__dirname, '../fixtures/diagnostics/encoding-divergence/fires-nesting-beyond-dotnet-limit.babel.json'), 'utf8');
  const folder = scratchFolder('babelq-typed-before-number-');
  const { client, stop } = await startInProcessServer(folder, 'typed-before-number');
  const pull = async (uri: string): Promise<Diagnostic[]> => (await client.sendRequest<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } })).items;
  try {
    const uri = folder.uriOf('typed.babel.json');
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: ENVELOPE_LANGUAGE_ID, version: 1, text: original } });
    const before = await pull(uri);
    const document = TextDocument.create(uri, ENVELOPE_LANGUAGE_ID, 1, original);
    const at = document.positionAt(original.indexOf('[0]') + 1);
    assert.ok(before.some((diagnostic) => diagnostic.code === 'encoding-divergence' && diagnostic.range.end.line === at.line && diagnostic.range.end.character === at.character), JSON.stringify(before));
    await client.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: at, end: at }, text: '1' }] });
    const typed = await pull(uri);
    const text = TextDocument.update(document, [{ range: { start: at, end: at }, text: '1' }], 2).getText();
    const freshUri = folder.uriOf('fresh.babel.json');
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri: freshUri, languageId: ENVELOPE_LANGUAGE_ID, version: 1, text } });
    assert.equal(comparable(typed, uri), comparable(await pull(freshUri), freshUri));
  } finally {
    await stop();
  }
});
