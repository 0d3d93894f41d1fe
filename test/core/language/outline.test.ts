import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { documentFolding, foldingRanges, treeFolding, treeFoldingRanges } from '../../../core/language/folding';
import type { ContainerNode } from '../../../core/model/tree';
import { parseJson } from '../../../core/parse/parser';
import { LineIndex } from '../../../core/model/positions';
import { selectionChains, selectionRanges, type OffsetRange } from '../../../core/language/selection';
import { documentOutline, documentSymbols, treeOutline, treeSymbols, type DocumentSymbolNode } from '../../../core/language/symbols';

const DEPTH = 100_000;

/** JSON containers written compact, indented, with CRLF or tabs, or cut short (containers left unclosed, a key without its value). */
const containerTexts = (() => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys: 4 }),
  }));
  return fc.tuple(fc.oneof(json.array, json.object), fc.nat({ max: 3 }), fc.nat()).map(([value, layout, cut]) => {
    const whole = layout === 0 ? JSON.stringify(value) : JSON.stringify(value, null, layout === 3 ? '\t' : layout);
    return cut % 3 === 0 ? whole.slice(0, cut % (whole.length + 1)) : layout === 2 ? whole.replace(/\n/g, '\r\n') : whole;
  });
})();

function folds(text: string, limit?: number) {
  return foldingRanges(parseJson(text), new LineIndex(text), limit);
}

/** Counts symbols and the deepest nesting without recursion. */
function measure(symbols: DocumentSymbolNode[]): { count: number; depth: number } {
  let count = 0;
  let depth = 0;
  const stack: [DocumentSymbolNode, number][] = symbols.map((symbol) => [symbol, 1]);
  while (stack.length > 0) {
    const [symbol, level] = stack.pop()!;
    count++;
    depth = Math.max(depth, level);
    for (const child of symbol.children) stack.push([child, level + 1]);
  }
  return { count, depth };
}

function assertNested(chain: OffsetRange[]): void {
  for (let i = 1; i < chain.length; i++) {
    const inner = chain[i - 1];
    const outer = chain[i];
    assert.ok(outer.offset <= inner.offset && outer.end >= inner.end, `range ${i} must contain range ${i - 1}`);
    assert.ok(outer.offset !== inner.offset || outer.end !== inner.end, `ranges ${i - 1} and ${i} must differ`);
  }
}

describe('foldingRanges', () => {
  const text = [
    '{', //                          0
    '  "job": "urn:x",', //          1
    '  "meta": { "lang": "en" },', // 2
    '  "data": {', //                3
    '    "lines": [', //             4
    '      {', //                    5
    '        "sku": "A"', //         6
    '      }, {', //                 7
    '        "sku": "B"', //         8
    '      }', //                    9
    '    ],', //                     10
    '    "empty": {', //             11
    '    }', //                      12
    '  }', //                        13
    '}', //                          14
  ].join('\n');

  test('folds every multi-line object and array up to the line before its closing bracket', () => {
    assert.deepEqual(folds(text), [
      { startLine: 0, endLine: 13 },
      { startLine: 3, endLine: 12 },
      { startLine: 4, endLine: 9 },
      { startLine: 5, endLine: 6 },
      { startLine: 7, endLine: 8 },
    ]);
  });

  test('counts CRLF line breaks the way the editor does', () => {
    assert.deepEqual(folds(text.replace(/\n/g, '\r\n')), folds(text));
  });

  test('keeps the outermost of several blocks opening on one line', () => {
    const sameLine = ['[{', '  "a": 1', '}, {', '  "b": [', '    2', '  ]}]'].join('\n');
    assert.deepEqual(folds(sameLine), [
      { startLine: 0, endLine: 4 },
      { startLine: 2, endLine: 4 },
      { startLine: 3, endLine: 4 },
    ]);
  });

  test('has nothing to fold in one-line or two-line containers or scalars', () => {
    assert.deepEqual(folds('{"a": [1, 2], "b": {"c": {}}}'), []);
    assert.deepEqual(folds('{\n}'), []);
    assert.deepEqual(folds('"text"'), []);
    assert.deepEqual(folds(''), []);
  });

  test('skips unclosed containers but still folds the closed ones inside', () => {
    assert.deepEqual(folds('{\n  "a": [\n    1,\n    2\n  ],\n  "b": '), [{ startLine: 1, endLine: 3 }]);
  });

  test('stops at the limit, in document order', () => {
    assert.deepEqual(folds(text, 2), [
      { startLine: 0, endLine: 13 },
      { startLine: 3, endLine: 12 },
    ]);
    assert.deepEqual(folds(text, 0), []);
  });

  test('read from the columns, the ranges are the tree walk\'s: pretty, one-line and broken texts, any limit (seeded)', () => {
    let compared = 0;
    fc.assert(
      fc.property(containerTexts, fc.integer({ min: 1, max: 12 }), (text, limit) => {
        const doc = parseJson(text);
        const root = doc.root;
        if (!root || (root.kind !== 'object' && root.kind !== 'array')) return;
        const lines = new LineIndex(text);
        assert.deepEqual(foldingRanges(doc, lines, limit), treeFoldingRanges(root as ContainerNode, lines, limit));
        assert.deepEqual(documentFolding(doc, lines, limit), treeFolding(root as ContainerNode, lines, limit));
        compared++;
      }),
      { seed: 20261203, numRuns: 400 },
    );
    assert.ok(compared > 300, `only ${compared} texts compared`);
  });

  test('100,000 levels of nesting: capped at 5000 by default, complete with a higher limit', () => {
    const arrays = '[\n'.repeat(DEPTH) + ']\n'.repeat(DEPTH);
    const ranges = folds(arrays);
    assert.equal(ranges.length, 5000);
    assert.deepEqual(ranges[0], { startLine: 0, endLine: 2 * DEPTH - 2 });
    assert.deepEqual(ranges[4999], { startLine: 4999, endLine: 2 * DEPTH - 2 - 4999 });
    assert.equal(folds(arrays, Infinity).length, DEPTH - 1);

    const objects = '{"a":\n'.repeat(DEPTH) + '1' + '\n}'.repeat(DEPTH);
    const objectRanges = folds(objects, 10);
    assert.deepEqual(objectRanges[9], { startLine: 9, endLine: 2 * DEPTH - 10 });
    assert.deepEqual(folds('['.repeat(DEPTH) + ']'.repeat(DEPTH)), []);
  });
});

describe('documentSymbols', () => {
  test('read from the columns, the outline is the tree walk\'s: every entry, word and range, any limit and depth (seeded)', () => {
    let compared = 0;
    fc.assert(
      fc.property(containerTexts, fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 4 }), (text, limit, depth) => {
        const doc = parseJson(text);
        const root = doc.root;
        if (!root || (root.kind !== 'object' && root.kind !== 'array')) return;
        assert.deepEqual(documentSymbols(doc, limit, depth), treeSymbols(root as ContainerNode, limit, depth));
        assert.deepEqual(documentSymbols(doc), treeSymbols(root as ContainerNode));
        assert.deepEqual(documentOutline(doc, limit, depth), treeOutline(root as ContainerNode, limit, depth));
        compared++;
      }),
      { seed: 20261203, numRuns: 500 },
    );
    assert.ok(compared > 350, `only ${compared} texts compared`);
  });

  test('one symbol per property and array item, with value previews', () => {
    const text = '{"job":"urn:babel:orders:placed:v1","data":{"lines":[{"sku":"A"},7],"e":{},"x":[]},"ok":true,"n":null,"":1.50}';
    const at = (needle: string): number => {
      const index = text.indexOf(needle);
      assert.ok(index >= 0, needle);
      return index;
    };
    const leaf = (name: string, kind: DocumentSymbolNode['kind'], detail: string, keyText: string, valueText: string): DocumentSymbolNode => {
      const offset = at(`${keyText}:${valueText}`);
      const keyEnd = offset + keyText.length;
      return { name, detail, kind, offset, end: keyEnd + 1 + valueText.length, selectionOffset: offset, selectionEnd: keyEnd, children: [] };
    };
    const lines = at('[{"sku"');
    const expected: DocumentSymbolNode[] = [
      leaf('job', 'string', 'urn:babel:orders:placed:v1', '"job"', '"urn:babel:orders:placed:v1"'),
      {
        name: 'data',
        kind: 'object',
        offset: at('"data"'),
        end: at(',"ok"'),
        selectionOffset: at('"data"'),
        selectionEnd: at('"data"') + 6,
        children: [
          {
            name: 'lines',
            kind: 'array',
            offset: at('"lines"'),
            end: at(',"e"'),
            selectionOffset: at('"lines"'),
            selectionEnd: at('"lines"') + 7,
            children: [
              {
                name: '[0]',
                kind: 'object',
                offset: lines + 1,
                end: at(',7]'),
                selectionOffset: lines + 1,
                selectionEnd: at(',7]'),
                children: [leaf('sku', 'string', 'A', '"sku"', '"A"')],
              },
              { name: '[1]', detail: '7', kind: 'number', offset: at('7]'), end: at('7]') + 1, selectionOffset: at('7]'), selectionEnd: at('7]') + 1, children: [] },
            ],
          },
          leaf('e', 'object', '{}', '"e"', '{}'),
          leaf('x', 'array', '[]', '"x"', '[]'),
        ],
      },
      leaf('ok', 'boolean', 'true', '"ok"', 'true'),
      leaf('n', 'null', 'null', '"n"', 'null'),
      leaf('""', 'number', '1.50', '""', '1.50'),
    ];
    assert.deepEqual(documentSymbols(parseJson(text)), expected);
  });

  test('a root array names its items by index; a scalar root has no outline', () => {
    const symbols = documentSymbols(parseJson('[{"a":1},"b"]'));
    assert.deepEqual(
      symbols.map((symbol) => [symbol.name, symbol.kind, symbol.detail, symbol.children.map((child) => child.name)]),
      [
        ['[0]', 'object', undefined, ['a']],
        ['[1]', 'string', 'b', []],
      ],
    );
    assert.deepEqual(documentSymbols(parseJson('"just text"')), []);
    assert.deepEqual(documentSymbols(parseJson('')), []);
  });

  test('a key still waiting for its value is a property symbol ending at its colon or key', () => {
    const text = '{"id":"x","job": ,"meta"}';
    const symbols = documentSymbols(parseJson(text));
    assert.deepEqual(
      symbols.slice(1).map((symbol) => ({ name: symbol.name, kind: symbol.kind, offset: symbol.offset, end: symbol.end, detail: symbol.detail })),
      [
        { name: 'job', kind: 'property', offset: 10, end: 16, detail: undefined },
        { name: 'meta', kind: 'property', offset: 18, end: 24, detail: undefined },
      ],
    );
  });

  test('previews are one line and bounded', () => {
    const long = 'x'.repeat(1000);
    const text = JSON.stringify({ long, lines: 'a\nb\tc', emoji: '😀'.repeat(40), short: 'é' });
    const [longSymbol, linesSymbol, emojiSymbol, shortSymbol] = documentSymbols(parseJson(text));
    assert.equal(longSymbol.detail, 'x'.repeat(59) + '…');
    assert.equal(linesSymbol.detail, 'a b c');
    assert.equal(emojiSymbol.detail, '😀'.repeat(29) + '…', 'a surrogate pair is never cut in half');
    assert.equal(shortSymbol.detail, 'é');
  });

  test('honours the limit breadth-first, so the top level is always complete', () => {
    const text = JSON.stringify({ a: { a1: 1, a2: 2, a3: 3 }, b: { b1: 1, b2: 2, b3: 3 }, c: { c1: 1, c2: 2, c3: 3 } });
    const symbols = documentSymbols(parseJson(text), 4);
    assert.deepEqual(
      symbols.map((symbol) => [symbol.name, symbol.children.map((child) => child.name)]),
      [
        ['a', ['a1']],
        ['b', []],
        ['c', []],
      ],
    );
    assert.equal(measure(documentSymbols(parseJson(text))).count, 12);
    assert.deepEqual(documentSymbols(parseJson(text), 0), []);
  });

  test('a huge key is named by its beginning, as a huge value is previewed: the outline is sent after every pause in typing', () => {
    const key = 'k'.repeat(1_000_000);
    const emojiKey = 'x'.repeat(118) + '😀' + 'y'.repeat(500);
    for (const text of [JSON.stringify({ [key]: 1, [emojiKey]: { a: 1 }, short: 2 }), `{"${key}":1,"${emojiKey}":{"a":1},"short":2`]) {
      const doc = parseJson(text);
      for (const symbols of [documentSymbols(doc), treeSymbols(doc.root as ContainerNode)]) {
        const [huge, emoji, short] = symbols;
        assert.ok(huge.name.length <= 120 && huge.name.startsWith('kkkk') && huge.name.endsWith('…'), `${huge.name.length} characters`);
        assert.deepEqual([huge.selectionOffset, huge.selectionEnd], [1, key.length + 3], 'the range is still the whole key');
        assert.ok(emoji.name.length <= 120 && !/[\ud800-\udbff]…$/.test(emoji.name), 'no surrogate pair cut in half');
        assert.equal(short.name, 'short');
      }
    }
  });

  test('nests at most maxDepth deep (1000 by default), so the result can still be serialised', () => {
    const text = JSON.stringify({ a: { b: { c: 1 } }, d: [[2]] });
    const names = (symbols: DocumentSymbolNode[]) => symbols.map((symbol) => [symbol.name, symbol.children.map((child) => [child.name, child.children.length])]);
    assert.deepEqual(names(documentSymbols(parseJson(text), 100, 2)), [
      ['a', [['b', 0]]],
      ['d', [['[0]', 0]]],
    ]);
    assert.deepEqual(names(documentSymbols(parseJson(text), 100, 1)), [
      ['a', []],
      ['d', []],
    ]);
    assert.equal(measure(documentSymbols(parseJson(text), 100, 3)).count, 6);
  });

  test('100,000 levels of nesting: stops at the limits without throwing', () => {
    const arrays = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
    const deepest = documentSymbols(parseJson(arrays));
    assert.deepEqual(measure(deepest), { count: 1000, depth: 1000 });
    assert.doesNotThrow(() => JSON.stringify(deepest));
    assert.deepEqual(measure(documentSymbols(parseJson(arrays), 5000, Infinity)), { count: 5000, depth: 5000 });
    const objects = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);
    assert.deepEqual(measure(documentSymbols(parseJson(objects), 250)), { count: 250, depth: 250 });
    assert.deepEqual(measure(documentSymbols(parseJson(objects), Infinity, Infinity)), { count: DEPTH, depth: DEPTH });
  });
});

describe('answers cut at a cap say so', () => {
  test('the outline says whether entries or levels were left out, exactly at the limits', () => {
    const text = JSON.stringify({ a: { a1: 1, a2: 2 }, b: [1] });
    // 5 entries, 2 levels.
    assert.equal(documentOutline(parseJson(text), 5, 2).cut, undefined);
    assert.equal(documentOutline(parseJson(text), 4, 2).cut, 'entries');
    assert.equal(documentOutline(parseJson(text), 5, 1).cut, 'depth');
    assert.equal(documentOutline(parseJson('{"a":{},"b":[]}'), 2, 1).cut, undefined, 'empty containers hide nothing');
    const million = `{${Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    const outline = documentOutline(parseJson(million));
    assert.deepEqual([outline.symbols.length, outline.cut], [1000, 'entries']);
    assert.equal(documentOutline(parseJson('['.repeat(DEPTH) + ']'.repeat(DEPTH))).cut, 'depth');
    // The tree (a document parsed without columns) says the same, also of a broken text.
    const unclosed = parseJson('{"a":{"b":{"c":1}},"d":[[2]]').root as ContainerNode;
    assert.equal(treeOutline(unclosed, 100, 2).cut, 'depth');
    assert.equal(treeOutline(unclosed, 3, 100).cut, 'entries');
    assert.equal(treeOutline(unclosed, 6, 100).cut, undefined);
  });

  test('folding says whether ranges were left out, exactly at the limit', () => {
    const text = '[\n[\n1\n],\n[\n2\n]\n]';
    const fold = (source: string, limit: number) => documentFolding(parseJson(source), new LineIndex(source), limit);
    assert.deepEqual(fold(text, 3), { ranges: folds(text), capped: false });
    assert.equal(fold(text, 2).capped, true);
    assert.equal(fold(text, 2).ranges.length, 2);
    const deep = '[\n'.repeat(DEPTH) + ']\n'.repeat(DEPTH);
    assert.deepEqual([fold(deep, 5000).ranges.length, fold(deep, 5000).capped], [5000, true]);
    const unclosed = text.slice(0, -1);
    assert.equal(fold(unclosed, 1).capped, true);
    assert.equal(fold(unclosed, 2).capped, false, 'the unclosed outer array folds nothing');
    const tree = parseJson(unclosed).root as ContainerNode;
    assert.deepEqual(treeFolding(tree, new LineIndex(unclosed), 1), fold(unclosed, 1));
    assert.deepEqual(treeFolding(tree, new LineIndex(unclosed), 2), fold(unclosed, 2));
  });

  test('10,000 cursors in a document 100,000 levels deep: located in bounded time, each chain as if asked alone', () => {
    const arrays = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
    const doc = parseJson(arrays);
    // Scattered, unsorted, repeated and past both ends.
    const offsets = Array.from({ length: 10_000 }, (_, i) => ((i * 7919) % (2 * DEPTH + 4)) - 2);
    const started = Date.now();
    const { chains, capped } = selectionChains(doc, offsets, 20);
    assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
    assert.equal(capped, true);
    for (const index of [0, 1, 17, 4242, 9999]) assert.deepEqual(chains[index], selectionRanges(doc, [offsets[index]], 20)[0], `offset ${offsets[index]}`);
    chains.forEach((chain, index) => {
      assert.ok(chain[0].offset <= offsets[index] && offsets[index] <= chain[0].end, 'the innermost range holds its offset');
      assertNested(chain);
    });
  });

  test('selection says whether a chain was cut at maxDepth', () => {
    const arrays = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
    const cut = selectionChains(parseJson(arrays), [DEPTH], 1000);
    assert.equal(cut.capped, true);
    assert.equal(cut.chains[0].length, 1000);
    assertNested(cut.chains[0]);
    const whole = selectionChains(parseJson('[[[]]]'), [2], 3);
    assert.deepEqual([whole.chains[0].length, whole.capped], [3, false]);
    assert.equal(selectionChains(parseJson('[[[]]]'), [2], 2).capped, true);
    assert.deepEqual(selectionChains(parseJson('[[[]]]'), [2], 2).chains, selectionRanges(parseJson('[[[]]]'), [2], 2));
  });
});

describe('selectionRanges', () => {
  //            0         1         2         3
  //            0123456789012345678901234567890
  const text = '{"a": {"b": [1, "xy"]}, "c": 2}';
  const chains = (...offsets: number[]): [number, number][][] =>
    selectionRanges(parseJson(text), offsets).map((chain) => chain.map((range) => [range.offset, range.end]));

  test('expands from a value through its property and every container to the root', () => {
    assert.deepEqual(chains(17), [[[16, 20], [12, 21], [7, 21], [6, 22], [1, 22], [0, 31]]]);
    assert.deepEqual(chains(13, 14), [
      [[13, 14], [12, 21], [7, 21], [6, 22], [1, 22], [0, 31]],
      [[13, 14], [12, 21], [7, 21], [6, 22], [1, 22], [0, 31]],
    ]);
    assert.deepEqual(chains(29), [[[29, 30], [24, 30], [0, 31]]]);
  });

  test('starts from the key when the cursor is in (or just before) a key', () => {
    assert.deepEqual(chains(2, 1, 3), [
      [[1, 4], [1, 22], [0, 31]],
      [[1, 4], [1, 22], [0, 31]],
      [[1, 4], [1, 22], [0, 31]],
    ]);
    assert.deepEqual(chains(8), [[[7, 10], [7, 21], [6, 22], [1, 22], [0, 31]]]);
  });

  test('between tokens: the property after its colon, the container between properties', () => {
    assert.deepEqual(chains(4), [[[1, 4], [1, 22], [0, 31]]], 'right after the closing quote still counts as the key');
    assert.deepEqual(chains(5), [[[1, 22], [0, 31]]]);
    assert.deepEqual(chains(23), [[[0, 31]]]);
    assert.deepEqual(chains(22), [[[6, 22], [1, 22], [0, 31]]]);
  });

  test('outside every value: one empty range at the offset', () => {
    assert.deepEqual(selectionRanges(parseJson('  42 '), [0, 3, 5]).map((chain) => chain.map((range) => [range.offset, range.end])), [
      [[0, 0]],
      [[2, 4]],
      [[5, 5]],
    ]);
    assert.deepEqual(selectionRanges(parseJson(''), [0]), [[{ offset: 0, end: 0 }]]);
  });

  test('stays properly nested in broken documents', () => {
    const broken = '{"a": [1, {"b": 2, "c"}, ';
    const parsed = parseJson(broken);
    assert.ok(parsed.syntaxProblems.length > 0);
    for (let offset = 0; offset <= broken.length; offset++) {
      const [chain] = selectionRanges(parsed, [offset]);
      assert.ok(chain.length > 0);
      assertNested(chain);
    }
  });

  test('100,000 levels of nesting: the whole chain, innermost first, without throwing', () => {
    const arrays = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
    const [arrayChain] = selectionRanges(parseJson(arrays), [DEPTH]);
    assert.equal(arrayChain.length, DEPTH);
    assert.deepEqual(arrayChain[0], { offset: DEPTH - 1, end: DEPTH + 1 });
    assert.deepEqual(arrayChain[DEPTH - 1], { offset: 0, end: 2 * DEPTH });
    assertNested(arrayChain);

    const objects = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);
    const [objectChain] = selectionRanges(parseJson(objects), [5 * DEPTH]);
    assert.equal(objectChain.length, 2 * DEPTH + 1);
    assert.deepEqual(objectChain[0], { offset: 5 * DEPTH, end: 5 * DEPTH + 1 });
    assertNested(objectChain);
  });
});
