/**
 * The parser's scan reads a copy of the text's code units (core/parse/code-units.ts), one array
 * shared by one-shot parses. The copy must be the text's code units exactly, end in the 0 the scan
 * stops at, and leave nothing of a longer text parsed before where a shorter one is read.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createContext, runInContext } from 'node:vm';
import { buildSync } from 'esbuild';
import { codeUnitsOf } from '../../../core/parse/code-units';
import { parseText, parseTextSteps } from '../../../core/parse/parser';
import type { ParsedText } from '../../../core/parse/document';
import type { Steps } from '../../../core/model/steps';

const ROOT = join(__dirname, '../../..');

/** Every kind of code unit: ASCII, Latin-1, the rest of the BMP, a surrogate pair, lone surrogates, NUL and controls. */
const MIXED = 'a"\\\u0000\u001f é—抹 \ud83d\ude00 \ud800 x \udc00\uffff\n\t';

function charCodes(text: string): number[] {
  return Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
}

function finished<T>(steps: Steps<T>): T {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** What a parse found, in plain values: the columns in use and the problems. */
function summary(doc: ParsedText): unknown {
  const { columns } = doc;
  const used = <T>(column: ArrayLike<T>) => Array.from({ length: columns.count }, (_, i) => column[i]);
  return {
    info: used(columns.info),
    start: used(columns.start),
    end: used(columns.end),
    next: used(columns.next),
    keys: used(columns.keys),
    values: used(columns.values),
    decoded: [...columns.decoded],
    problems: doc.syntaxProblems.map((problem) => [problem.offset, problem.end, problem.message]),
  };
}

describe('the code units the scan reads', () => {
  test('are the text’s code units, one for one, followed by a 0', () => {
    for (const text of ['', 'x', MIXED, MIXED.repeat(5000)]) {
      const units = codeUnitsOf(text);
      assert.equal(units.length, text.length + 1);
      assert.deepEqual(Array.from(units.subarray(0, text.length)), charCodes(text));
      assert.equal(units[text.length], 0);
    }
  });

  test('a copy of its own stays as it was while later texts take the shared array', () => {
    const own = codeUnitsOf(MIXED, true);
    codeUnitsOf('z'.repeat(MIXED.length * 3));
    codeUnitsOf('');
    assert.deepEqual(Array.from(own.subarray(0, MIXED.length)), charCodes(MIXED));
    assert.equal(own[MIXED.length], 0);
  });

  test('a text cut short parses as it does with a fresh array, after a longer text left digits, letters and quotes behind', () => {
    // What a read past a cut-short text's end would find, were the longer text still visible there.
    const bait = `{"a": ${'1234567890e+5 truefalse"null'.repeat(400)}}`;
    const whole = '{"job": "urn:babel:orders:created", "n": -12.5e+3, "t": true, "f": false, "z": null, "s": "é\\u00e9", "list": [1, 0.5, 1e9]}';
    for (let cut = 1; cut <= whole.length; cut++) {
      const text = whole.slice(0, cut);
      parseText(bait);
      const shared = summary(parseText(text));
      // In steps the parser copies into a fresh array of its own, zeroed past the text.
      const fresh = summary(finished(parseTextSteps(text)));
      assert.deepEqual(shared, fresh, `cut at ${cut}: ${JSON.stringify(text)}`);
    }
  });

  test('without Node’s Buffer (another host) the copy is made code unit by code unit, with the same result', () => {
    // The parser bundled as the shipped bundles are, run in a context of plain JavaScript: no Buffer there.
    const bundle = buildSync({
      stdin: { contents: "export { codeUnitsOf } from './core/parse/code-units'; export { parseText } from './core/parse/parser';", resolveDir: ROOT, loader: 'ts' },
      bundle: true,
      write: false,
      format: 'iife',
      globalName: 'engine',
      logLevel: 'silent',
    });
    const context = createContext({});
    runInContext(bundle.outputFiles[0].text, context);
    const sample = '{"k": "é抹", "n": [1, 2.5, true], "s": "a\\u00e9", "cut": 1e';
    // Arrays made in the other context have its prototypes: the results cross as plain JSON.
    const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
    context.summary = summary;
    const result = JSON.parse(
      runInContext(`JSON.stringify({ hasBuffer: typeof Buffer, units: Array.from(engine.codeUnitsOf(${JSON.stringify(MIXED)})), doc: summary(engine.parseText(${JSON.stringify(sample)})) })`, context) as string,
    ) as { hasBuffer: string; units: number[]; doc: unknown };
    assert.equal(result.hasBuffer, 'undefined');
    assert.deepEqual(result.units, [...charCodes(MIXED), 0]);
    assert.deepEqual(result.doc, plain(summary(parseText(sample))));
  });
});
