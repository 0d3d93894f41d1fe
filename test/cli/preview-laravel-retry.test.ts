/**
 * `babelq preview --layout laravel`: with every encoder (`--sdk all`) the bytes a Laravel retry
 * puts back on the queue follow the Redis commands; with one encoder its exact bytes are printed
 * and a note on stderr says what a retry changes. The default layout says nothing of a retry.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertCliBuilt, babelq, envelope, makeTree, removeTree } from './helpers';

test('preview --layout laravel shows what a Laravel retry leaves on the queue', () => {
  assertCliBuilt();
  const dir = makeTree({ 'order.babel.json': envelope({ data: '{ "order_id": 1042, "ref": 123456789012345, "tags": [] }', lang: 'node' }) });
  try {
    const all = babelq(['preview', 'order.babel.json', '--sdk', 'all', '--layout', 'laravel', '--no-fresh-ids'], dir);
    assert.equal(all.status, 0, all.stderr);
    const redis = all.stdout.indexOf('Redis (laravel layout): MULTI; RPUSH queues:orders');
    const retry = all.stdout.indexOf('── After a Laravel retry (laravel layout) ──');
    assert.ok(redis > 0 && retry > redis, all.stdout);
    assert.match(all.stdout, /"ref":1\.2345678901234e\+14,"tags":\{\}/);
    assert.match(all.stdout, /Changes what a consumer reads: 1 number cut to 14 significant digits \(data\.ref 123456789012345 becomes 1\.2345678901234e\+14\); 1 empty list written as \{\}/);
    const one = babelq(['preview', 'order.babel.json', '--sdk', 'node', '--layout', 'laravel', '--no-fresh-ids'], dir);
    assert.equal(one.status, 0, one.stderr);
    assert.equal(JSON.parse(one.stdout).data.ref, 123456789012345);
    assert.match(one.stderr, /babelq: note: a Laravel retry \(cjson re-encoding\) changes what a consumer reads/);
    const plain = babelq(['preview', 'order.babel.json', '--sdk', 'all', '--no-fresh-ids'], dir);
    assert.equal(plain.status, 0, plain.stderr);
    assert.ok(!plain.stdout.includes('Laravel retry'));
  } finally {
    removeTree(dir);
  }
});
