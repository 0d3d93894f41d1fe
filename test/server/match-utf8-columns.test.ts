/**
 * matchDiagnostics (server/convert.ts) on findings sent back in UTF-8 columns (a client using
 * positionEncoding utf-8, or Neovim 0.7's code_action): each finding is looked up at its byte
 * columns, not compared with every finding sent on its line. Thousands of findings of one code and
 * message on one line (a minified fixture) took minutes pair by pair.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver/node';
import { LineIndex } from '../../core/model/positions';
import type { CoreDiagnostic } from '../../core/rules/diagnostic';
import { matchDiagnostics, sameDiagnostic, toLspDiagnostic } from '../../server/convert';

/** One line: a non-ASCII key first (so byte and UTF-16 columns differ), then `count` amounts, each one finding. */
function oneLine(count: number, prefix = '"é😀":0,') {
  const tokens = Array.from({ length: count }, (_, i) => `"k${i}":9.99`);
  const text = `{${prefix}${tokens.join(',')}}`;
  const lines = new LineIndex(text);
  const found: CoreDiagnostic[] = [];
  let from = 0;
  for (const token of tokens) {
    const at = text.indexOf(token, from) + token.indexOf(':') + 1;
    from = at;
    found.push({ code: 'float-currency', severity: 'warning', message: 'A money amount written as a float.', offset: at, end: at + 4 } as CoreDiagnostic);
  }
  const bytes = (offset: number) => Buffer.byteLength(text.slice(0, offset), 'utf8');
  const inBytes: Diagnostic[] = found.map((d) => {
    const lsp = toLspDiagnostic(d, lines);
    return { ...lsp, range: { start: { line: 0, character: bytes(d.offset) }, end: { line: 0, character: bytes(d.end) } } };
  });
  return { text, lines, found, inBytes, inUtf16: found.map((d) => toLspDiagnostic(d, lines)) };
}

test('findings sent back in UTF-8 columns: each matches its own, and only its own', () => {
  const { text, lines, found, inBytes, inUtf16 } = oneLine(50);
  const matched = matchDiagnostics(inBytes, found, lines, text);
  assert.equal(matched.size, found.length);
  found.forEach((d, i) => assert.deepEqual(matched.get(d), [inBytes[i]]));
  // In UTF-16 columns as sent, too; and a mix: the UTF-16 ones where sent, the bytes elsewhere.
  const exact = matchDiagnostics(inUtf16, found, lines, text);
  found.forEach((d, i) => assert.deepEqual(exact.get(d), [inUtf16[i]]));
  const mixed = inUtf16.map((d, i) => (i % 2 === 0 ? d : inBytes[i]));
  const both = matchDiagnostics(mixed, found, lines, text);
  found.forEach((d, i) => assert.deepEqual(both.get(d), [mixed[i]]));
  // A finding sent in bytes and in UTF-16 columns alike: the UTF-16 one is the match, as before.
  const twice = matchDiagnostics([inBytes[3], inUtf16[3]], found, lines, text);
  assert.deepEqual(twice.get(found[3]), [inUtf16[3]]);
  // A column that is neither: no match.
  const off = { ...inBytes[5], range: { start: { line: 0, character: inBytes[5].range.start.character + 1 }, end: inBytes[5].range.end } };
  assert.equal(matchDiagnostics([off], found, lines, text).size, 0);
});

test('a lone surrogate before the findings counts as UTF-8 does (three bytes)', () => {
  const { text, lines, found, inBytes } = oneLine(20, '"\ud800x":0,');
  const matched = matchDiagnostics(inBytes, found, lines, text);
  found.forEach((d, i) => assert.deepEqual(matched.get(d), [inBytes[i]]));
});

test('5,000 findings of one code and message on one line, sent back in UTF-8 columns, are matched well within a generous bound', () => {
  const { text, lines, found, inBytes } = oneLine(5_000);
  const started = performance.now();
  const matched = matchDiagnostics(inBytes, found, lines, text);
  const elapsed = performance.now() - started;
  assert.equal(matched.size, found.length);
  assert.ok(found.every((d, i) => matched.get(d)?.length === 1 && matched.get(d)![0] === inBytes[i]));
  // Pair by pair this took minutes (each of 25 million pairs measured a slice of the line); one lookup each takes milliseconds.
  assert.ok(elapsed < 5000, `${elapsed.toFixed(0)} ms`);
});

/** The pair-by-pair version: every finding compared with each diagnostic sent on its lines with its code and message. */
function pairwise(sent: readonly Diagnostic[], found: readonly CoreDiagnostic[], lines: LineIndex, text: string): Map<CoreDiagnostic, Diagnostic[]> {
  const matches = new Map<CoreDiagnostic, Diagnostic[]>();
  for (const core of found) {
    const range = toLspDiagnostic(core, lines).range;
    const atColumns = sent.filter((lsp) => sameDiagnostic(lsp, core, lines, text) && lsp.range.start.character === range.start.character && lsp.range.end.character === range.end.character);
    const same = atColumns.length > 0 ? atColumns : sent.filter((lsp) => sameDiagnostic(lsp, core, lines, text));
    if (same.length > 0) matches.set(core, same);
  }
  return matches;
}

test('the same matches as pair by pair on varied texts: lines, pairs and lone surrogates, overlapping and repeated findings, columns in either unit or neither', () => {
  let state = 7;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const pieces = ['a', 'é', '😀', '\ud800', '\n', ' ', '"k":', '1.5', '€', '\udc00'];
  for (let round = 0; round < 300; round++) {
    const text = Array.from({ length: 5 + Math.floor(next() * 60) }, () => pick(pieces)).join('');
    const lines = new LineIndex(text);
    const found: CoreDiagnostic[] = Array.from({ length: Math.floor(next() * 12) }, () => {
      const a = Math.floor(next() * (text.length + 1));
      const b = Math.min(text.length, a + Math.floor(next() * 6));
      return { code: pick(['float-currency', 'wrong-type']), severity: 'warning', message: pick(['one', 'two']), offset: a, end: b } as CoreDiagnostic;
    }).sort((x, y) => x.offset - y.offset || x.end - y.end);
    const bytes = (offset: number) => {
      const line = lines.positionAt(offset).line;
      return { line, character: Buffer.byteLength(text.slice(lines.lineStart(line), offset), 'utf8') };
    };
    const sent: Diagnostic[] = [];
    for (const d of found) {
      const lsp = toLspDiagnostic(d, lines);
      const form = next();
      if (form < 0.4) sent.push(lsp);
      else if (form < 0.8) sent.push({ ...lsp, range: { start: bytes(d.offset), end: bytes(d.end) } });
      else if (form < 0.9) sent.push({ ...lsp, range: { start: lsp.range.start, end: { line: lsp.range.end.line, character: lsp.range.end.character + 1 } } });
      if (next() < 0.2) sent.push({ ...lsp });
    }
    const expected = pairwise(sent, found, lines, text);
    const matched = matchDiagnostics(sent, found, lines, text);
    assert.deepEqual([...matched.keys()], [...expected.keys()], `round ${round}: ${JSON.stringify(text)}`);
    for (const [core, list] of expected) assert.ok(list.length === matched.get(core)!.length && list.every((d, i) => d === matched.get(core)![i]), `round ${round}`);
  }
});
