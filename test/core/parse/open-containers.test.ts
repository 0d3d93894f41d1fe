/**
 * The parser's stack of open containers (core/parse/parser.ts): hostile nesting must cost no more
 * than as many ordinary values, and the stack must give the same parse, problems included, on
 * either side of each time it grows.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseText } from '../../../core/parse/parser';
import { canonical } from '../../oracle/differential';
import { parseJson as referenceParse } from '../../oracle/reference-parser';

/** The fastest of `runs` parses of each text, taken in turns so that both see the same machine load. */
function fastestParses(texts: readonly string[], runs: number): number[] {
  const fastest = texts.map(() => Infinity);
  for (let run = 0; run < runs; run++) {
    texts.forEach((text, i) => {
      const started = performance.now();
      parseText(text);
      fastest[i] = Math.min(fastest[i], performance.now() - started);
    });
  }
  return fastest;
}

describe('open containers', () => {
  test('a million unclosed [ parse in about the time of an array of a million values', () => {
    // Both make a million slots; the nested one also keeps a million containers open, which cost
    // 1.3–1.4 times the flat array's whole parse while the stack was made of growing plain arrays,
    // and costs about 0.75 times it on typed arrays. The bound sits between the two, nearer the old:
    // on a machine busy with other work the two parses' times move apart by a third (1.03 seen).
    const values = 1_000_000;
    const [nested, flat] = fastestParses(['['.repeat(values), `[${'0,'.repeat(values - 1)}0]`], 7);
    assert.ok(nested < 1.25 * flat, `a million [: ${nested.toFixed(1)} ms; a million values: ${flat.toFixed(1)} ms`);
  });

  // Depths on both sides of the stack's first growths (64 and 128 entries), with every way a
  // container leaves it: closed, closed by an outer bracket that does not match, never closed.
  const depths = [63, 64, 65, 127, 128, 129, 300];
  const shapes: Record<string, (depth: number) => string> = {
    closed: (depth) => '['.repeat(depth) + ']'.repeat(depth),
    'objects closed': (depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
    'never closed': (depth) => '[{"a":'.repeat(depth),
    'closed by an outer bracket': (depth) => '{"a":' + '['.repeat(depth) + '}',
    'reopened after a mismatch': (depth) => '{"a":' + '['.repeat(depth) + '},"b":' + '[{"c":'.repeat(depth) + '1' + '}]'.repeat(depth) + '}',
    'trailing commas deep down': (depth) => '['.repeat(depth) + '1,' + ']'.repeat(depth),
    'then garbage': (depth) => '['.repeat(depth) + 'x!@#,]'.repeat(depth),
  };
  for (const [name, make] of Object.entries(shapes)) {
    test(`${name}: the same parse and problems as the reference parser`, () => {
      for (const depth of depths) {
        const text = make(depth);
        assert.equal(canonical(parseText(text)), canonical(referenceParse(text)), `${name} at depth ${depth}`);
      }
    });
  }
});
