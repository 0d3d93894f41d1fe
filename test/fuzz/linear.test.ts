/**
 * Hostile patterns must not freeze analysis, so the matchers that see user- or repository-written
 * patterns run in linear time: schema `pattern`s on RE2 (core/registry/linear-regex.ts), the money
 * key globs from workspace settings and snake_case conversion of a fixture's keys (core/contract/keys.ts).
 * Each is checked here against the backtracking version it replaced (seeded, differential) and
 * timed on the inputs that made the old version take seconds or hours.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { classifyKey, compileKeyPatterns, toSnakeCase } from '../../core/contract/keys';
import { isLinearOnBacktracking, linearRegexProblem, linearRegExpEngine, toRe2Source } from '../../core/registry/linear-regex';
import { compileSchema } from '../../core/registry/schema-compiler';
import { parseJson } from '../../core/parse/parser';

const SEED = 20260315;

/** The regex versions these matchers replaced: the oracle for short inputs. */
function oldSnake(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

function oldKeyPatterns(patterns: readonly string[]): (key: string) => boolean {
  if (patterns.length === 0) return () => false;
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const regex = new RegExp(`^(?:${patterns.map((p) => oldSnake(p).split('*').map(escape).join('.*')).join('|')})$`);
  return (key) => regex.test(oldSnake(key));
}

function elapsed(fn: () => unknown): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

const keyChar = fc.constantFrom('a', 'b', 'A', 'B', 'Z', 'z', '0', '9', '_', '-', ' ', '\t', '\n', '*', '.', 'é', 'É', '\u2028');
const key = fc.array(keyChar, { maxLength: 14 }).map((chars) => chars.join(''));

describe('key names in linear time', () => {
  test('toSnakeCase agrees with the regex version it replaced', () => {
    fc.assert(fc.property(key, (k) => assert.equal(toSnakeCase(k), oldSnake(k))), { seed: SEED, numRuns: 5000 });
    for (const k of ['HTTPServer', 'totalPrice', 'TotalPrice', 'total-price', 'ABCdefGHIjk', 'a1B2C', 'already_snake', 'XMLHttpRequest']) assert.equal(toSnakeCase(k), oldSnake(k));
  });

  test('key globs agree with the regex version they replaced', () => {
    const pattern = fc.array(fc.constantFrom('a', 'b', 'A', '_', '*', '-', '.', '\n'), { minLength: 1, maxLength: 6 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 3 }), fc.array(key, { minLength: 1, maxLength: 5 }), (patterns, keys) => {
        const now = compileKeyPatterns(patterns);
        const before = oldKeyPatterns(patterns);
        for (const k of keys) assert.equal(now(k), before(k), `${JSON.stringify(patterns)} on ${JSON.stringify(k)}`);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  test('a megabyte key of capitals and a glob with many stars stay fast (were quadratic and exponential)', () => {
    const capitals = 'A'.repeat(1024 * 1024);
    assert.ok(elapsed(() => toSnakeCase(capitals)) < 1000, 'toSnakeCase on a 1 MB run of capitals');
    const stars = compileKeyPatterns(['*a*a*a*a*a*a*a*a*a*a*a*a*b']);
    assert.ok(elapsed(() => assert.equal(stars('a'.repeat(10_000)), false)) < 500, 'a 13-star glob on a 10,000-character key');
    const classes = classifyKey(['*a*a*a*a*a*a*a*a*a*a*a*a*b']);
    assert.ok(elapsed(() => classes.isMoney('a'.repeat(100_000))) < 500, 'isMoney with a hostile money pattern');
  });
});

describe('syntax errors in linear time', () => {
  test('keys without their colons: four times the keys cost about four times the parse, not sixteen (the colon was looked for in the text before each key)', () => {
    const keys = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}" ${i}`).join(',')}}`;
    const fastest = (text: string) => Math.min(...Array.from({ length: 5 }, () => elapsed(() => parseJson(text))));
    const small = fastest(keys(10_000));
    const large = fastest(keys(40_000));
    assert.ok(large <= 8 * small + 20, `10,000 keys ${small.toFixed(1)} ms, 40,000 keys ${large.toFixed(1)} ms`);
  });

  const fastest = (text: string) => Math.min(...Array.from({ length: 5 }, () => elapsed(() => parseJson(text))));

  test('arrays without their "[": four times the arrays cost about four times the parse (each object moved into its array once)', () => {
    const arrays = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}": {"x": ${i}, "s": "\\n"}, {"x": 0}]`).join(', ')}}`;
    const problems = parseJson(arrays(3)).syntaxProblems.map((p) => p.message);
    assert.deepEqual(problems, Array(3).fill("Expected '[' before '{': the array's opening bracket is missing."));
    const small = fastest(arrays(10_000));
    const large = fastest(arrays(40_000));
    assert.ok(large <= 8 * small + 20, `10,000 arrays ${small.toFixed(1)} ms, 40,000 arrays ${large.toFixed(1)} ms`);
  });

  test('a stray word before each value: four times the values cost about four times the parse', () => {
    const values = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}": abc ${i % 2 ? `"v${i}"` : i}`).join(', ')}}`;
    const problems = parseJson(values(3)).syntaxProblems.map((p) => p.message);
    assert.deepEqual(problems, [
      'Unexpected word \'abc\' before the value; remove it, or write "abc 0" if they are one string.',
      "Unexpected word 'abc' before the value; remove it.",
      'Unexpected word \'abc\' before the value; remove it, or write "abc 2" if they are one string.',
    ]);
    const small = fastest(values(10_000));
    const large = fastest(values(40_000));
    assert.ok(large <= 8 * small + 20, `10,000 values ${small.toFixed(1)} ms, 40,000 values ${large.toFixed(1)} ms`);
  });

  test('values of words without their quotes, and lines of words that end in no value: four times the words cost about four times the parse', () => {
    const phrases = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}": New York ${i} x`).join(', ')}}`;
    const problems = parseJson(phrases(2)).syntaxProblems.map((p) => p.message);
    assert.deepEqual(problems, ['Unexpected text \'New York 0 x\'. Strings must be double-quoted: write "New York 0 x".', 'Unexpected text \'New York 1 x\'. Strings must be double-quoted: write "New York 1 x".']);
    const small = fastest(phrases(10_000));
    const large = fastest(phrases(40_000));
    assert.ok(large <= 8 * small + 20, `10,000 values ${small.toFixed(1)} ms, 40,000 values ${large.toFixed(1)} ms`);
    // One line of words with no value's end after them: each word after the first starts no phrase scanned again.
    const words = (count: number) => `{"k": ${'w '.repeat(count)}.}`;
    const smallRun = fastest(words(10_000));
    const largeRun = fastest(words(40_000));
    assert.ok(largeRun <= 8 * smallRun + 20, `10,000 words ${smallRun.toFixed(1)} ms, 40,000 words ${largeRun.toFixed(1)} ms`);
  });

  test('values without their opening quote, and lines of words whose first quote ends no value: four times the values cost about four times the parse', () => {
    const values = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}": urn:babel:orders:e${i}"`).join(', ')}}`;
    const problems = parseJson(values(2)).syntaxProblems.map((p) => p.message);
    assert.deepEqual(problems, [0, 1].map((i) => `The string "urn:babel:orders:e${i}" lacks its opening double quote: write "urn:babel:orders:e${i}".`));
    const small = fastest(values(10_000));
    const large = fastest(values(40_000));
    assert.ok(large <= 8 * small + 20, `10,000 values ${small.toFixed(1)} ms, 40,000 values ${large.toFixed(1)} ms`);
    // One line of words before a quote that closes no value: each word after the first looks for no quote again.
    const words = (count: number) => `[${'w, '.repeat(count)}"x"]`;
    const smallRun = fastest(words(10_000));
    const largeRun = fastest(words(40_000));
    assert.ok(largeRun <= 8 * smallRun + 20, `10,000 words ${smallRun.toFixed(1)} ms, 40,000 words ${largeRun.toFixed(1)} ms`);
  });

  test('values that start like a number and lack their opening quote, and a line of such tokens whose first quote ends no value: four times the values cost about four times the parse', () => {
    const values = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}": ${i}-03-14T11:02:17Z"`).join(', ')}}`;
    const problems = parseJson(values(2)).syntaxProblems.map((p) => p.message);
    assert.deepEqual(problems, [0, 1].map((i) => `The string "${i}-03-14T11:02:17Z" lacks its opening double quote: write "${i}-03-14T11:02:17Z".`));
    const small = fastest(values(10_000));
    const large = fastest(values(40_000));
    assert.ok(large <= 8 * small + 20, `10,000 values ${small.toFixed(1)} ms, 40,000 values ${large.toFixed(1)} ms`);
    // One line of malformed numbers and numbers before a word, then a quote that closes no value: each looks for no quote again.
    const tokens = (count: number) => `[${'1 w, 2-3, '.repeat(count)}"x"]`;
    const smallRun = fastest(tokens(10_000));
    const largeRun = fastest(tokens(40_000));
    assert.ok(largeRun <= 8 * smallRun + 20, `10,000 tokens ${smallRun.toFixed(1)} ms, 40,000 tokens ${largeRun.toFixed(1)} ms`);
  });

  test('values without their opening quote that hold escapes or start with a sign (one no value starts with, a "+" or a "."), and a line of such tokens whose first quote ends no value: four times the values cost about four times the parse', () => {
    const values = (count: number) => `{${Array.from({ length: count }, (_, i) => `"p${i}": C:\\\\in\\\\${i}", "r${i}": ^a\\\\d${i}$", "s${i}": \\\\srv${i}", "u${i}": caf\\u00e9${i}", "t${i}": +44 ${i}", "e${i}": .e${i}"`).join(', ')}}`;
    const problems = parseJson(values(1)).syntaxProblems.map((p) => p.message);
    assert.deepEqual(problems, ['C:\\\\in\\\\0', '^a\\\\d0$', '\\\\srv0', 'caf\\u00e90', '+44 0', '.e0'].map((written) => `The string "${written}" lacks its opening double quote: write "${written}".`));
    const small = fastest(values(2_500));
    const large = fastest(values(10_000));
    assert.ok(large <= 8 * small + 20, `15,000 values ${small.toFixed(1)} ms, 60,000 values ${large.toFixed(1)} ms`);
    // One line of such tokens and escapes, then a quote that closes no value: each looks for no quote again.
    const tokens = (count: number) => `[${'^a\\\\d, 1 w, x\\n, \\\\y, +1 w, .x, '.repeat(count)}"x"]`;
    const smallRun = fastest(tokens(2_500));
    const largeRun = fastest(tokens(10_000));
    assert.ok(largeRun <= 8 * smallRun + 20, `15,000 tokens ${smallRun.toFixed(1)} ms, 60,000 tokens ${largeRun.toFixed(1)} ms`);
  });

  test('values without their opening quote whose backslashes stand alone, numbers with a quote after them, and a line of lone backslashes whose first quote ends no value: four times the values cost about four times the parse', () => {
    const values = (count: number) => `{${Array.from({ length: count }, (_, i) => `"p${i}": C:\\orders\\${i}", "n${i}": ${i}"`).join(', ')}}`;
    const problems = parseJson(values(1)).syntaxProblems.map((p) => p.message);
    assert.deepEqual(problems, ['The string "C:\\orders\\0" lacks its opening double quote, and JSON escapes a backslash as \\\\: write "C:\\\\orders\\\\0".', 'Unexpected \'"\' after the number 0; remove it, or write "0" if the value is a string.']);
    const small = fastest(values(5_000));
    const large = fastest(values(20_000));
    assert.ok(large <= 8 * small + 20, `10,000 values ${small.toFixed(1)} ms, 40,000 values ${large.toFixed(1)} ms`);
    // One line of words and lone backslashes, then a quote that closes no value: each looks for no quote again.
    const tokens = (count: number) => `[${'a\\b, \\c, x\\ y, '.repeat(count)}"x"]`;
    const smallRun = fastest(tokens(5_000));
    const largeRun = fastest(tokens(20_000));
    assert.ok(largeRun <= 8 * smallRun + 20, `15,000 tokens ${smallRun.toFixed(1)} ms, 60,000 tokens ${largeRun.toFixed(1)} ms`);
  });

  test('pasted paths ending in a backslash, quoted or not, and a line of escaped quotes after a lone backslash, each with spaces after it: four times the values cost about four times the parse', () => {
    const values = (count: number) => `{${Array.from({ length: count }, (_, i) => `"p${i}": C:\\x\\${i}\\", "q${i}": "D:\\y\\${i}\\", "b${i}": true"`).join(', ')}}`;
    const problems = parseJson(values(1)).syntaxProblems.map((p) => p.message);
    assert.equal(problems.length, 3, problems.join(' | '));
    const small = fastest(values(5_000));
    const large = fastest(values(20_000));
    assert.ok(large <= 8 * small + 20, `15,000 values ${small.toFixed(1)} ms, 60,000 values ${large.toFixed(1)} ms`);
    // After a lone backslash, every `\"` is followed by spaces and no value's end: each looks past its spaces once.
    const quotes = (count: number) => `{"a": C:\\x${'\\"    '.repeat(count)}\n"b": "C:\\x${'\\"    '.repeat(count)}"}`;
    const smallRun = fastest(quotes(5_000));
    const largeRun = fastest(quotes(20_000));
    assert.ok(largeRun <= 8 * smallRun + 20, `5,000 quotes ${smallRun.toFixed(1)} ms, 20,000 quotes ${largeRun.toFixed(1)} ms`);
  });

  test('inner objects whose first key lacks its colon and value, a comma and the next key after it on its line, and "{"s typed before string values: four times the objects cost about four times the parse (the brackets after each are counted once)', () => {
    const objects = (count: number) => `{${Array.from({ length: count }, (_, i) => `"m${i}": {"k${i}", "v": 1}`).join(', ')}}`;
    assert.deepEqual(parseJson(objects(2)).syntaxProblems.map((p) => p.message), [0, 1].map((i) => `Expected ':' after the property name "k${i}".`));
    const small = fastest(objects(10_000));
    const large = fastest(objects(40_000));
    assert.ok(large <= 8 * small + 20, `10,000 objects ${small.toFixed(1)} ms, 40,000 objects ${large.toFixed(1)} ms`);
    const strays = (count: number) => `{"a": {${Array.from({ length: count }, (_, i) => `"s${i}": {"urn${i}", "w": 2`).join(', ')}}}`;
    assert.deepEqual(parseJson(strays(2)).syntaxProblems.map((p) => p.message), [0, 1].map((i) => `Unexpected '{' before the string "urn${i}"; remove it.`));
    const smallRun = fastest(strays(10_000));
    const largeRun = fastest(strays(40_000));
    assert.ok(largeRun <= 8 * smallRun + 20, `10,000 "{"s ${smallRun.toFixed(1)} ms, 40,000 "{"s ${largeRun.toFixed(1)} ms`);
  });

  test('keys broken across two lines: four times the keys cost about four times the parse', () => {
    const keys = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}\n  x": ${i}`).join(', ')}}`;
    const problems = parseJson(keys(3)).syntaxProblems.map((p) => p.message);
    assert.deepEqual(problems, [0, 1, 2].map((i) => `This property name runs onto the next line: join the lines, write "k${i}x".`));
    const small = fastest(keys(10_000));
    const large = fastest(keys(40_000));
    assert.ok(large <= 8 * small + 20, `10,000 keys ${small.toFixed(1)} ms, 40,000 keys ${large.toFixed(1)} ms`);
  });

  test('string items whose closing quote moved past their comma: four times the items cost about four times the parse', () => {
    const items = (count: number) => `[${Array.from({ length: count }, (_, i) => `"x${i},"b${i}"`).join(', ')}]`;
    const problems = parseJson(items(3)).syntaxProblems.map((p) => p.message);
    assert.deepEqual(problems, Array(3).fill('Unterminated string: add the closing double quote.'));
    const small = fastest(items(10_000));
    const large = fastest(items(40_000));
    assert.ok(large <= 8 * small + 20, `10,000 items ${small.toFixed(1)} ms, 40,000 items ${large.toFixed(1)} ms`);
  });

  test('values without their closing quote, a tab after the comma: four times the values cost about four times the parse', () => {
    const values = (count: number) => `{\n${Array.from({ length: count }, (_, i) => `"k${i}": "v${i},\t${i % 2 ? '\n' : ''}`).join('')}"end": 0}`;
    const problems = parseJson(values(4)).syntaxProblems.map((p) => p.message);
    assert.deepEqual(problems, Array(4).fill('Unterminated string: add the closing double quote.'));
    const small = fastest(values(10_000));
    const large = fastest(values(40_000));
    assert.ok(large <= 8 * small + 20, `10,000 values ${small.toFixed(1)} ms, 40,000 values ${large.toFixed(1)} ms`);
  });

  test('an inner object\'s "}" left out in a pretty-printed file: four times the objects cost about four times the parse (the layout is read once)', () => {
    const objects = (count: number) =>
      `{\n${Array.from({ length: count }, (_, i) => `  "k${i}": {\n    "x": ${i},\n    "y": [{\n      "z": 1\n    }]\n  ${i === count - 2 ? '' : '}'},\n`).join('')}  "end": 0\n}\n`;
    const problems = parseJson(objects(3)).syntaxProblems.map((p) => p.message);
    assert.deepEqual(problems, ["Expected '}' before this comma: the object's closing brace is missing."]);
    const small = fastest(objects(10_000));
    const large = fastest(objects(40_000));
    assert.ok(large <= 8 * small + 20, `10,000 objects ${small.toFixed(1)} ms, 40,000 objects ${large.toFixed(1)} ms`);
  });

  test('closing brackets of the kind no open container has, inside deep nesting: four times the brackets and depth cost about four times the parse (each one searched the whole stack)', () => {
    for (const [opener, stray] of [['{"a":', ']'], ['[', '}']] as const) {
      const text = (count: number) => opener.repeat(count) + stray.repeat(count);
      const small = fastest(text(10_000));
      const large = fastest(text(40_000));
      assert.ok(large <= 8 * small + 20, `${opener}…${stray}…: 10,000 ${small.toFixed(1)} ms, 40,000 ${large.toFixed(1)} ms`);
    }
    // A bracket of a kind open further down still closes what is open above it; one of no open kind is passed over.
    assert.deepEqual(parseJson('{"a":[1}').syntaxProblems.map((p) => [p.offset, p.message]), [[7, "Mismatched bracket: expected ']' here."]]);
    assert.deepEqual(parseJson('{"a":{"b":1]}}').syntaxProblems.map((p) => [p.offset, p.message]), [[11, "Mismatched bracket: expected '}' here."]]);
  });

  test('arrays without their "]" before the next key: four times the arrays cost about four times the parse', () => {
    const arrays = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}": [${i}, {"x": 1}, `).join('')}"end": 0}`;
    const problems = parseJson(arrays(3)).syntaxProblems.map((p) => p.message);
    assert.deepEqual(problems, Array(3).fill("Expected ']' before this comma: the array's closing bracket is missing."));
    const small = fastest(arrays(10_000));
    const large = fastest(arrays(40_000));
    assert.ok(large <= 8 * small + 20, `10,000 arrays ${small.toFixed(1)} ms, 40,000 arrays ${large.toFixed(1)} ms`);
  });
});

describe('schema patterns on a linear-time engine', () => {
  // Patterns from a small grammar of what JSON Schema authors write.
  const atom = fc.constantFrom(
    'a', 'b', 'Z', '0', '-', '_', 'é', '😀', '\\.', '\\/', '\\-', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\b', '.', '\\u00e9', '\\u{1F600}',
    '\\ud83d\\ude00', '\\x41', '\\t', '\\n', '\\cJ', '\\0', '[a-z]', '[^a-z]', '[\\s\\d]', '[\\S]', '[^\\s]', '[\\b]', '[^]', '[.]', '[\\]a]', '[a\\-z]',
    '[\\u00e0-\\u00ff]', '\\p{L}', '\\p{Lu}', '\\P{L}', '\\p{Script=Greek}', '(?:a|b)', '(a)', '(?<n>b)', '(?<=a)b', '(?<!a)b', '[[]',
  );
  const quantifier = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?');
  const piece = fc.tuple(atom, quantifier).map(([a, q]) => (a === '\\b' && q ? a : a + q));
  const branch = fc.array(piece, { minLength: 1, maxLength: 5 }).map((pieces) => pieces.join(''));
  const pattern = fc
    .tuple(fc.boolean(), fc.array(branch, { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([start, branches, end]) => `${start ? '^' : ''}${branches.join('|')}${end ? '$' : ''}`);
  const inputChar = fc.constantFrom('a', 'b', 'Z', '0', '5', '-', '_', '.', ' ', '\t', '\n', '\r', '\u000b', '\u00a0', '\u2028', '\u3000', '\ufeff', 'é', 'α', 'Ω', '😀', '\ud800', '\u0000', '\u0008', ']', '[', '/');
  const input = fc.array(inputChar, { maxLength: 10 }).map((chars) => chars.join(''));

  test('matches exactly what the ECMAScript engine matches (differential, seeded)', () => {
    let compared = 0;
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 6 }), (source, inputs) => {
        let native: RegExp;
        try {
          native = new RegExp(source, 'u');
        } catch {
          return; // ajv refuses what Unicode mode refuses, before the engine is asked
        }
        const linear = linearRegExpEngine(source, 'u');
        for (const text of inputs) {
          compared++;
          assert.equal(linear.test(text), native.test(text), `/${source}/u on ${JSON.stringify(text)} (RE2: ${JSON.stringify(toRe2Source(source))})`);
        }
      }),
      { seed: SEED, numRuns: 4000, includeErrorInReport: true },
    );
    assert.ok(compared > 5000, `only ${compared} comparisons`);
  });

  test('(a+)+$ against a long string: milliseconds, not forever', () => {
    const result = compileSchema({ type: 'object', properties: { s: { type: 'string', pattern: '(a+)+$' } }, patternProperties: { '^(a|a)*$': { type: 'integer' } } });
    assert.ok('compiled' in result);
    const evil = 'a'.repeat(100_000) + '!';
    const ms = elapsed(() => {
      const errors = result.compiled.validate({ s: evil, [evil]: 'x', ['a'.repeat(50_000)]: 'not an integer' });
      // `s` ends in "!", so (a+)+$ fails; the 50,000-a key matches ^(a|a)*$ and is not an integer.
      assert.deepEqual(errors.map((e) => e.keyword).sort(), ['pattern', 'type']);
    });
    assert.ok(ms < 1000, `validation took ${ms.toFixed(0)} ms`);
    const matching = compileSchema({ type: 'string', pattern: '^(a+)+$' });
    assert.ok('compiled' in matching);
    assert.deepEqual(matching.compiled.validate('a'.repeat(100_000)), []);
    assert.deepEqual(matching.compiled.validate('a'.repeat(100_000) + 'b').map((e) => e.keyword), ['pattern']);
  });

  test('only start-anchored patterns without groups and with one varying quantifier skip RE2', () => {
    for (const source of ['^ord-[0-9]+$', '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}$', '^a+?b$', '^SKU-\\d{1,6}$', '^[+*?(]*$', '^\\+\\?x*$']) {
      assert.equal(isLinearOnBacktracking(source), true, source);
    }
    for (const source of ['^(a+)+$', '^(a|a)*$', '^a*a*$', '^a?a?$', '[0-9]+x', 'ord-[0-9]+$', '^[a-z]+@[a-z]+$', '^a{1,}b{2,3}$', '^a{2000}$', '^a{1,1001}$', '^(a)\\1$', '^a|b', '^(?=a)a', '^[a-z', '^\\p{L}+$']) {
      assert.equal(isLinearOnBacktracking(source), false, source);
    }
  });

  test('what skips RE2 stays fast on the inputs that make backtracking engines slow', () => {
    let checked = 0;
    fc.assert(
      fc.property(pattern, (source) => {
        if (!isLinearOnBacktracking(source)) return;
        try {
          new RegExp(source, 'u');
        } catch {
          return;
        }
        checked++;
        const engine = linearRegExpEngine(source, 'u');
        for (const filler of ['a', '0', ' ', 'é', '-']) {
          const ms = elapsed(() => engine.test(filler.repeat(20_000) + '!'));
          assert.ok(ms < 200, `/${source}/u took ${ms.toFixed(0)} ms on 20,000 × ${JSON.stringify(filler)}`);
        }
      }),
      { seed: SEED, numRuns: 3000 },
    );
    assert.ok(checked > 100, `only ${checked} fast-path patterns generated`);
  });

  test('what RE2 cannot run is refused with a sentence that says why', () => {
    for (const [source, why] of [
      ['^(?=a)a', /lookahead/],
      ['^(?!a)b', /lookahead/],
      ['^(a)\\1$', /backreference/],
      ['^(?<x>a)\\k<x>$', /backreference/],
      ['^a{1,5000}$', /repeat count/],
    ] as const) {
      assert.match(linearRegexProblem(source) ?? '', why, source);
      const result = compileSchema({ type: 'string', pattern: source });
      assert.ok('error' in result && /linear-time/.test(result.error) && result.error.includes(source), JSON.stringify(result));
    }
    const keyed = compileSchema({ type: 'object', patternProperties: { '^(?=x)': {} } });
    assert.ok('error' in keyed && /patternProperties/.test(keyed.error), JSON.stringify(keyed));
  });

  test('a pattern that runs on V8\'s engine is checked by V8\'s own compile, and refused when that fails', () => {
    for (const source of ['^ord-[0-9]+$', '^[a-z]{2,3}$', '^\\d{4}-\\d{2}$', '^x?$', '^[^\\]]*$']) {
      assert.ok(isLinearOnBacktracking(source), source);
      assert.equal(linearRegexProblem(source), undefined, source);
      assert.equal(linearRegExpEngine(source, 'u').test(''), new RegExp(source, 'u').test(''), source);
    }
    for (const [source, why] of [['^a{2,1}$', /out of order/], ['^[b-a]$', /out of order/], ['^\\c$', /escape/]] as const) {
      assert.ok(isLinearOnBacktracking(source), source);
      assert.match(linearRegexProblem(source) ?? '', why, source);
      const result = compileSchema({ type: 'string', pattern: source });
      assert.ok('error' in result && result.error.includes(source), JSON.stringify(result));
      // The engine ajv uses refuses it too, so the check and the validation agree.
      assert.throws(() => linearRegExpEngine(source, 'u'), source);
    }
  });
});
