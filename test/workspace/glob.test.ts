/** The glob matcher of `babelq lint`, tested directly (no files involved). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { globDepth, ignoreGlob, isGlobPattern, matchGlob, splitGlob } from '../../workspace/glob';

describe('matchGlob', () => {
  const cases: [pattern: string, path: string, expected: boolean][] = [
    ['*.babel.json', 'a.babel.json', true],
    ['*.babel.json', 'sub/a.babel.json', false],
    ['*.babel.json', 'a.json', false],
    ['*.babel.json', 'axbabel.json', false],
    ['**/*.babel.json', 'a.babel.json', true],
    ['**/*.babel.json', 'x/y/z/a.babel.json', true],
    ['**/*.babel.json', 'x/y/a.json', false],
    ['a/**/b.json', 'a/b.json', true],
    ['a/**/b.json', 'a/x/y/b.json', true],
    ['a/**/b.json', 'ab.json', false],
    ['a/**', 'a/x/y', true],
    ['a/**', 'b/x', false],
    ['**', 'any/thing/at/all', true],
    ['x**y', 'xaay', true],
    ['x**y', 'xa/ay', false],
    ['?.json', 'a.json', true],
    ['?.json', 'ab.json', false],
    ['?.json', '/.json', false],
    ['{a,b}.json', 'a.json', true],
    ['{a,b}.json', 'b.json', true],
    ['{a,b}.json', 'c.json', false],
    ['{a,b}.json', '{a,b}.json', false],
    ['{a,{b,c}d}.json', 'cd.json', true],
    ['{a,{b,c}d}.json', 'c.json', false],
    ['{*.babel.json,sub/*.json}', 'sub/x.json', true],
    ['{a,b', '{a,b', true],
    ['file(1)+[x].json', 'file(1)+[x].json', true],
    ['file(1)+[x].json', 'file1+x.json', false],
    ['a.b', 'axb', false],
  ];
  for (const [pattern, path, expected] of cases) {
    test(`${pattern} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
      assert.equal(matchGlob(pattern, path), expected);
    });
  }
});

describe('ignoreGlob (babelq.json "ignore")', () => {
  const cases: [pattern: string, path: string, expected: boolean][] = [
    ['fixtures/negative', 'fixtures/negative', true],
    ['fixtures/negative', 'fixtures/negative/a.babel.json', true],
    ['fixtures/negative', 'fixtures/negative/deep/b.babel.json', true],
    ['fixtures/negative/', 'fixtures/negative/a.babel.json', true],
    ['fixtures/negative', 'fixtures/negatives/a.babel.json', false],
    ['fixtures/negative', 'other/fixtures/negative/a.babel.json', false],
    ['fixtures/negative/**', 'fixtures/negative/a.babel.json', true],
    ['*.babel.json', 'a.babel.json', true],
    ['*.babel.json', 'dir/a.babel.json', false],
    ['legacy-*', 'legacy-2024/x/a.babel.json', true],
    ['fixtures/{bad,old}', 'fixtures/old/a.babel.json', true],
    ['fixtures/{bad,old}', 'fixtures/new/a.babel.json', false],
  ];
  for (const [pattern, path, expected] of cases) {
    test(`${pattern} ${expected ? 'leaves out' : 'keeps'} ${path}`, () => {
      assert.equal(ignoreGlob(pattern).test(path), expected);
    });
  }
});

describe('splitGlob', () => {
  test('takes the literal leading segments as the directory to walk', () => {
    assert.deepEqual(splitGlob('fixtures/envelopes/**/*.babel.json', false), { base: 'fixtures/envelopes', pattern: '**/*.babel.json' });
    assert.deepEqual(splitGlob('*.babel.json', false), { base: '.', pattern: '*.babel.json' });
    assert.deepEqual(splitGlob('/abs/dir/*.json', false), { base: '/abs/dir', pattern: '*.json' });
    assert.deepEqual(splitGlob('/*.json', false), { base: '/', pattern: '*.json' });
    assert.deepEqual(splitGlob('a/{b,c/d}/*.json', false), { base: 'a', pattern: '{b,c/d}/*.json' });
  });

  test('reads backslashes as separators only on Windows', () => {
    assert.deepEqual(splitGlob('dir\\sub\\*.json', true), { base: 'dir/sub', pattern: '*.json' });
    assert.deepEqual(splitGlob('dir\\sub\\*.json', false), { base: '.', pattern: 'dir\\sub\\*.json' });
  });
});

describe('isGlobPattern and globDepth', () => {
  test('recognise the glob characters', () => {
    assert.deepEqual(
      ['a.json', 'a/*.json', 'a?.json', '{a,b}.json', 'a[1].json'].map(isGlobPattern),
      [false, true, true, true, false],
    );
  });

  test('bound the walk depth unless ** is used', () => {
    assert.equal(globDepth('*.json'), 1);
    assert.equal(globDepth('*/x/*.json'), 3);
    assert.equal(globDepth('**/*.json'), Infinity);
  });
});

describe('globs cost linear time', () => {
  test('repeated **/ and *a* patterns against deep and long paths answer at once', () => {
    const cases: [string, string, boolean][] = [
      ['**/'.repeat(12) + 'x.babel.json', 'a/'.repeat(200) + 'y.babel.json', false],
      ['**/'.repeat(12) + 'x.babel.json', 'a/'.repeat(200) + 'x.babel.json', true],
      ['*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(5000), false],
      ['{**/,**/}'.repeat(6) + '*.babel.json', 'd/'.repeat(300) + 'e.json', false],
    ];
    for (const [pattern, path, expected] of cases) {
      const started = performance.now();
      assert.equal(matchGlob(pattern, path), expected, pattern);
      const elapsed = performance.now() - started;
      assert.ok(elapsed < 500, `${pattern}: ${elapsed.toFixed(0)} ms`);
    }
  });
});
