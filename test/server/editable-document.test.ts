/**
 * The server's document against vscode-languageserver-textdocument's, which it stands in for:
 * the same text, positions, offsets, line ranges and line ends after every edit, on random edits
 * of small texts and of texts large enough to be made through the scratch buffer (Latin-1 and
 * UTF-16, line breaks of every kind, lone surrogates), and the edits an editor sends that the
 * library accepts as they are (a range given end first, positions past a line or the text).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TextDocument, type Position, type Range, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { EditableDocument, LARGE_TEXT_CHARS, releaseEditBuffer, replaceSpan } from '../../server/editable-document';

/** A small deterministic generator, so a failure repeats. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const PIECES = ['a', 'é', '{', '"k": 1', '\n', '\r\n', '\r', 'ÿ', '—', '\ud83d\ude00', '\ud800', '  ', 'İ'];
const LATIN1_PIECES = ['a', 'é', '{', '"k": 1', '\n', '\r\n', '\r', 'ÿ', '  '];

function textOf(next: () => number, length: number, pieces: readonly string[]): string {
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const piece = pieces[Math.floor(next() * pieces.length)];
    parts.push(piece);
    size += piece.length;
  }
  return parts.join('');
}

function positionNear(next: () => number, document: TextDocument): Position {
  const roll = next();
  // Now and then a position the editor should not send but the library takes: past the line, past the text, negative.
  if (roll < 0.04) return { line: document.lineCount + Math.floor(next() * 3), character: Math.floor(next() * 5) };
  if (roll < 0.06) return { line: -1, character: 3 };
  const line = Math.floor(next() * document.lineCount);
  return { line, character: Math.floor(next() * (document.getLineRange(line).end.character + 3)) };
}

function changeOf(next: () => number, document: TextDocument, pieces: readonly string[]): TextDocumentContentChangeEvent {
  if (next() < 0.02) return { text: textOf(next, Math.floor(next() * 40), pieces) };
  const a = positionNear(next, document);
  const b = next() < 0.5 ? a : positionNear(next, document);
  const inserted = next() < 0.4 ? '' : textOf(next, 1 + Math.floor(next() * 6), pieces);
  // Either order: the library reads a range given end first as the same span.
  return { range: { start: a, end: b }, text: inserted };
}

/** Every answer of the two documents agrees (positions sampled on a large text). */
function assertSame(ours: EditableDocument, theirs: TextDocument, next: () => number, context: string): void {
  assert.equal(ours.version, theirs.version, context);
  assert.equal(ours.lineCount, theirs.lineCount, `${context}: lineCount`);
  assert.ok(ours.getText() === theirs.getText(), `${context}: the text differs`);
  const length = theirs.getText().length;
  const samples = length < 2000 ? length + 2 : 400;
  for (let i = 0; i < samples; i++) {
    const offset = length < 2000 ? i - 1 : Math.floor(next() * (length + 2)) - 1;
    assert.deepEqual(ours.positionAt(offset), theirs.positionAt(offset), `${context}: positionAt(${offset})`);
  }
  const lines = theirs.lineCount;
  const lineSamples = lines < 500 ? lines + 2 : 200;
  for (let i = 0; i < lineSamples; i++) {
    const line = lines < 500 ? i - 1 : Math.floor(next() * (lines + 2)) - 1;
    assert.deepEqual(ours.getLineRange(line), theirs.getLineRange(line), `${context}: getLineRange(${line})`);
    assert.equal(ours.getEOLCharacters(line), theirs.getEOLCharacters(line), `${context}: getEOLCharacters(${line})`);
    const position = { line, character: Math.floor(next() * 40) - 2 };
    assert.equal(ours.offsetAt(position), theirs.offsetAt(position), `${context}: offsetAt(${JSON.stringify(position)})`);
  }
  const range: Range = { start: positionNear(next, theirs), end: positionNear(next, theirs) };
  assert.equal(ours.getText(range), theirs.getText(range), `${context}: getText(range)`);
}

function run(seed: number, initial: string, edits: number, pieces: readonly string[]): void {
  const next = random(seed);
  const ours = new EditableDocument('file:///a.babel.json', 'babelqueue-envelope', 1, initial);
  let theirs = TextDocument.create('file:///a.babel.json', 'babelqueue-envelope', 1, initial);
  assertSame(ours, theirs, next, `seed ${seed}, as opened`);
  for (let version = 2; version < edits + 2; version++) {
    const changes = Array.from({ length: next() < 0.15 ? 2 : 1 }, () => changeOf(next, theirs, pieces));
    ours.update(changes, version);
    theirs = TextDocument.update(theirs, changes, version);
    assertSame(ours, theirs, next, `seed ${seed}, version ${version}, ${JSON.stringify(changes).slice(0, 200)}`);
  }
}

describe('EditableDocument', () => {
  test('small texts: the same as the library after every one of many random edits', () => {
    for (let seed = 1; seed <= 60; seed++) run(seed, textOf(random(seed * 7), Math.floor(random(seed)() * 300), PIECES), 40, PIECES);
  });

  test('an empty text, and edits that empty it', () => {
    run(1001, '', 30, PIECES);
    const document = new EditableDocument('file:///a', 'json', 1, 'ab\r\ncd');
    document.update([{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 2 } }, text: '' }], 2);
    assert.equal(document.getText(), '');
    assert.equal(document.lineCount, 1);
    assert.deepEqual(document.positionAt(5), { line: 0, character: 0 });
  });

  test('large UTF-16 texts, made through the scratch buffer: the same as the library, lone surrogates kept', () => {
    for (let seed = 1; seed <= 3; seed++) {
      const next = random(seed);
      run(seed + 500, textOf(next, LARGE_TEXT_CHARS + 50, PIECES), 12, PIECES);
    }
  });

  test('large Latin-1 texts: the same as the library, and a character beyond Latin-1 typed into one is kept', () => {
    const initial = textOf(random(77), LARGE_TEXT_CHARS + 10, LATIN1_PIECES);
    run(700, initial, 10, LATIN1_PIECES);
    const ours = new EditableDocument('file:///a', 'json', 1, initial);
    ours.update([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'x' }], 2);
    assert.equal(ours.getText(), `x${initial}`);
    ours.update([{ range: { start: { line: 0, character: 1 }, end: { line: 0, character: 1 } }, text: '—\ud83d\ude00' }], 3);
    assert.equal(ours.getText(), `x—\ud83d\ude00${initial}`);
    ours.update([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 4 } }, text: 'ÿ' }], 4);
    assert.equal(ours.getText(), `ÿ${initial}`);
  });

  test('prepared for edits when opened (line starts found, the buffer made): answers and edits stay the library\'s', () => {
    const next = random(31);
    const initial = textOf(next, LARGE_TEXT_CHARS + 20, PIECES);
    const ours = new EditableDocument('file:///a', 'json', 1, initial);
    for (const _ of ours.preparationSteps());
    let theirs = TextDocument.create('file:///a', 'json', 1, initial);
    assertSame(ours, theirs, next, 'prepared');
    for (let version = 2; version < 6; version++) {
      const changes = [changeOf(next, theirs, PIECES)];
      ours.update(changes, version);
      theirs = TextDocument.update(theirs, changes, version);
      assertSame(ours, theirs, next, `prepared, version ${version}`);
    }
    const small = new EditableDocument('file:///b', 'json', 1, 'a\r\nb');
    for (const _ of small.preparationSteps());
    assert.equal(small.lineCount, 2);
  });

  test('a large Latin-1 text replaced whole by a large text beyond Latin-1, then typed in: the same as the library', () => {
    const latin1 = textOf(random(5), LARGE_TEXT_CHARS + 7, LATIN1_PIECES);
    const wide = textOf(random(6), LARGE_TEXT_CHARS + 9, PIECES);
    const ours = new EditableDocument('file:///a', 'json', 1, latin1);
    for (const _ of ours.preparationSteps());
    let theirs = TextDocument.create('file:///a', 'json', 1, latin1);
    const steps: TextDocumentContentChangeEvent[][] = [
      [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'x' }],
      [{ text: wide }],
      [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'y' }],
      [{ text: latin1 }, { range: { start: { line: 0, character: 1 }, end: { line: 0, character: 1 } }, text: 'z' }],
    ];
    steps.forEach((changes, i) => {
      ours.update(changes, i + 2);
      theirs = TextDocument.update(theirs, changes, i + 2);
      assert.ok(ours.getText() === theirs.getText(), `step ${i}: the text differs`);
    });
    assert.ok(ours.getText().startsWith(`${latin1[0]}z`));
  });

  test('two large documents typed into by turns (the buffer holds one text at a time), along one line, then another, then a line break: the same as the library', () => {
    const next = random(77);
    const texts = [textOf(random(8), LARGE_TEXT_CHARS + 11, LATIN1_PIECES), textOf(random(9), LARGE_TEXT_CHARS + 13, PIECES)];
    const ours = texts.map((text, i) => new EditableDocument(`file:///${i}`, 'json', 1, text));
    let theirs = texts.map((text, i) => TextDocument.create(`file:///${i}`, 'json', 1, text));
    for (const _ of ours[0].preparationSteps());
    const lines = [500, 501, 20_000, 500];
    let version = 1;
    for (const line of lines) {
      for (let key = 0; key < 6; key++) {
        version++;
        for (let which = 0; which < 2; which++) {
          const character = 2 + key;
          // Typing, with now and then a backspace or a word selected over.
          const change = key === 3 ? { range: { start: { line, character }, end: { line, character: character + 1 } }, text: '' } : key === 5 ? { range: { start: { line, character: 0 }, end: { line, character: 4 } }, text: 'wörd' } : { range: { start: { line, character }, end: { line, character } }, text: which === 0 ? 'x' : '—' };
          ours[which].update([change], version);
          theirs[which] = TextDocument.update(theirs[which], [change], version);
          assertSame(ours[which], theirs[which], next, `document ${which}, line ${line}, key ${key}`);
        }
      }
    }
    version++;
    for (let which = 0; which < 2; which++) {
      const change = { range: { start: { line: 700, character: 1 }, end: { line: 700, character: 1 } }, text: '\n' };
      ours[which].update([change], version);
      theirs[which] = TextDocument.update(theirs[which], [change], version);
      assertSame(ours[which], theirs[which], next, `document ${which}, a line break`);
    }
  });

  for (const [order, stepped, holder] of [
    ['a UTF-16 text prepared beside a Latin-1 one', PIECES, LATIN1_PIECES],
    ['a Latin-1 text prepared beside a UTF-16 one whose buffer is large enough for both', LATIN1_PIECES, PIECES],
  ] as const) {
    test(`prepared in steps, with edits of another large document between them: both the same as the library; ${order}`, () => {
      const next = random(41);
      const step = 100_000;
      // A \r\n across a step's end counts once.
      const first = `${'a'.repeat(step - 1)}\r\n${textOf(random(12), LARGE_TEXT_CHARS + 17, stepped)}`;
      const second = textOf(random(13), LARGE_TEXT_CHARS + 19, holder);
      const ours = [new EditableDocument('file:///1', 'json', 1, first), new EditableDocument('file:///2', 'json', 1, second)];
      let theirs = [TextDocument.create('file:///1', 'json', 1, first), TextDocument.create('file:///2', 'json', 1, second)];
      // The buffer as the holder makes it, whatever the tests before left.
      releaseEditBuffer([]);
      for (const _ of ours[1].preparationSteps());
      const steps = ours[0].preparationSteps(step);
      let taken = 0;
      let version = 1;
      const edit = (which: number) => {
        // Typing (a text replaced whole by a short one would leave the buffer's path).
        const at = positionNear(next, theirs[which]);
        const change = { range: { start: at, end: at }, text: which === 0 ? 'x' : '—' };
        ours[which].update([change], version);
        theirs[which] = TextDocument.update(theirs[which], [change], version);
        assertSame(ours[which], theirs[which], next, `document ${which}, version ${version}`);
      };
      for (let result = steps.next(); !result.done; result = steps.next()) {
        taken++;
        version++;
        // Typing in the other document now and then writes its own text through the buffer.
        if (taken % 2 === 0) edit(1);
      }
      // At least the line starts' steps (the buffer's end early when the other document's typing takes it).
      assert.ok(taken >= Math.floor(first.length / step), `the preparation took ${taken} steps`);
      assertSame(ours[0], theirs[0], next, 'prepared in steps');
      for (let i = 0; i < 4; i++) {
        version++;
        edit(0);
        edit(1);
      }
    });
  }

  test('a preparation in steps ends once its document is edited, and the edits stay the library\'s', () => {
    const next = random(43);
    const initial = textOf(random(14), LARGE_TEXT_CHARS + 23, PIECES);
    const ours = new EditableDocument('file:///a', 'json', 1, initial);
    let theirs = TextDocument.create('file:///a', 'json', 1, initial);
    const steps = ours.preparationSteps(100_000);
    for (let i = 0; i < 15; i++) steps.next();
    const change = changeOf(next, theirs, PIECES);
    ours.update([change], 2);
    theirs = TextDocument.update(theirs, [change], 2);
    let rest = 0;
    while (!steps.next().done) rest++;
    assert.ok(rest <= 1, `${rest} steps ran after the edit`);
    assertSame(ours, theirs, next, 'edited during the preparation');
    const again = changeOf(next, theirs, PIECES);
    ours.update([again], 3);
    theirs = TextDocument.update(theirs, [again], 3);
    assertSame(ours, theirs, next, 'edited after it');
  });

  test('releaseEditBuffer lets go only when no large document is open; an edit after it still works', () => {
    const large = new EditableDocument('file:///a', 'json', 1, 'é'.repeat(LARGE_TEXT_CHARS + 1));
    for (const _ of large.preparationSteps());
    releaseEditBuffer([large, new EditableDocument('file:///b', 'json', 1, '{}')]);
    large.update([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, text: '—' }], 2);
    releaseEditBuffer([new EditableDocument('file:///b', 'json', 1, '{}')]);
    large.update([{ range: { start: { line: 0, character: 1 }, end: { line: 0, character: 2 } }, text: 'a' }], 3);
    assert.ok(large.getText() === `—a${'é'.repeat(LARGE_TEXT_CHARS - 1)}`);
  });

  test('a text that shrinks below the large size, gains a character beyond Latin-1 and grows again keeps it', () => {
    const initial = 'a'.repeat(LARGE_TEXT_CHARS + 5);
    const ours = new EditableDocument('file:///a', 'json', 1, initial);
    const at = (character: number) => ({ line: 0, character });
    ours.update([{ range: { start: at(0), end: at(1) }, text: 'b' }], 2);
    ours.update([{ range: { start: at(0), end: at(10) }, text: '' }], 3);
    ours.update([{ range: { start: at(0), end: at(0) }, text: '€' }], 4);
    ours.update([{ range: { start: at(1), end: at(1) }, text: 'c'.repeat(20) }], 5);
    assert.equal(ours.getText(), `€${'c'.repeat(20)}${'a'.repeat(LARGE_TEXT_CHARS - 5)}`);
  });

  test('replaceSpan gives the concatenation, in both encodings and on either side of the large size', () => {
    for (const length of [10, LARGE_TEXT_CHARS - 1, LARGE_TEXT_CHARS, LARGE_TEXT_CHARS + 3]) {
      const latin1 = 'é'.repeat(length);
      assert.ok(replaceSpan(latin1, 2, 5, 'ab', true) === `${latin1.slice(0, 2)}ab${latin1.slice(5)}`);
      const wide = `\udc00${'—'.repeat(length - 1)}`;
      assert.ok(replaceSpan(wide, 0, 0, '\ud83d', false) === `\ud83d${wide}`);
      assert.ok(replaceSpan(wide, wide.length - 1, wide.length, '', false) === wide.slice(0, -1));
    }
  });
});
