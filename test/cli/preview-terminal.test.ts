/**
 * `babelq preview --sdk all` is for people: its target lines carry the queue, URN and ids as the
 * file spells them, shown with their control characters as `\uXXXX`; one encoder's output stays the
 * exact bytes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertCliBuilt, babelq, makeTree, removeTree } from './helpers';

test('preview --sdk all writes no raw control character from the fixture; one encoder\'s bytes are unchanged', () => {
  assertCliBuilt();
  const ESC = '\u001b';
  const envelope = JSON.stringify({
    job: `urn:babel:orders:created${ESC}[2J`,
    trace_id: `7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b${ESC}[31m`,
    data: { order_id: 1 },
    meta: { id: '8b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b', queue: `orders${ESC}]0;owned${ESC}\\`, lang: 'php', schema_version: 1, created_at: 1749132727000 },
    attempts: 0,
  });
  const dir = makeTree({ 'esc.babel.json': envelope });
  try {
    const all = babelq(['preview', 'esc.babel.json', '--sdk', 'all', '--no-fresh-ids'], dir);
    assert.equal(all.status, 0, all.stderr);
    assert.ok(!all.stdout.includes(ESC), JSON.stringify(all.stdout));
    assert.match(all.stdout, /routing key "orders\\u001b\]0;owned\\u001b\\"/);
    const one = babelq(['preview', 'esc.babel.json', '--sdk', 'php', '--no-fresh-ids'], dir);
    assert.equal(one.status, 0, one.stderr);
    assert.equal(JSON.parse(one.stdout).meta.queue, `orders${ESC}]0;owned${ESC}\\`);
  } finally {
    removeTree(dir);
  }
});
