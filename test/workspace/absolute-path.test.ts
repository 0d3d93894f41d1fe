/** resolvedPath (workspace/absolute-path.ts) gives what path.resolve gives, taking the short way only for paths already normal. */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { resolvedPath } from '../../workspace/absolute-path';

describe('resolvedPath', () => {
  test('equals path.resolve on the paths that need work and on those that do not', () => {
    const paths = [
      '/', '//', '/a', '/a/', '/a//b', '/a/./b', '/a/../b', '/a/.', '/a/..', '/.', '/..', '/./a', '/../a',
      '/a/.b', '/a/..b', '/a/b.', '/a/b..', '/a/...', '/a/.../b', '/home/x/fixtures/00/order-1.babel.json',
      'relative', './relative', '../up', '', '.', 'a/../..',
    ];
    for (const path of paths) assert.equal(resolvedPath(path), resolve(path), JSON.stringify(path));
  });

  test('equals path.resolve on generated paths of slashes, dots and names', () => {
    const segment = fc.constantFrom('', '.', '..', '...', 'a', '.a', 'a.', 'b..', 'x y');
    fc.assert(
      fc.property(fc.boolean(), fc.array(segment, { maxLength: 8 }), fc.boolean(), (absolute, segments, trailing) => {
        const path = `${absolute ? '/' : ''}${segments.join('/')}${trailing ? '/' : ''}`;
        assert.equal(resolvedPath(path), resolve(path), JSON.stringify(path));
      }),
      { seed: 20261204, numRuns: 5000 },
    );
  });
});
