/** A preview render started on the click, taken by the content request that follows (client/early-renders.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EarlyRenders } from '../../client/early-renders';

test('the started render is taken once, for the version it renders', async () => {
  const early = new EarlyRenders<string>(10_000);
  let renders = 0;
  early.start('preview:a', 3, async () => `render ${++renders}`);
  assert.equal(renders, 1, 'the render starts at once, not when taken');
  assert.equal(await early.take('preview:a', 3), 'render 1');
  assert.equal(early.take('preview:a', 3), undefined, 'taken once');
  early.start('preview:a', 3, async () => `render ${++renders}`);
  assert.equal(early.take('preview:a', 4), undefined, 'a render of an older version is not handed out');
  assert.equal(early.take('preview:a', 4), undefined, 'and is dropped');
  assert.equal(early.take('preview:b', 3), undefined);
  early.dispose();
});

test('a newer start replaces the one before; a render nobody takes is dropped after the time kept', async () => {
  const early = new EarlyRenders<string>(30);
  early.start('preview:a', 1, async () => 'first');
  early.start('preview:a', 2, async () => 'second');
  assert.equal(early.take('preview:a', 1), undefined);
  early.start('preview:a', 2, async () => 'second');
  await new Promise((done) => setTimeout(done, 60));
  assert.equal(early.take('preview:a', 2), undefined, 'dropped after 30 ms');
});

test('a failed render nobody takes is no unhandled rejection; the one who takes it sees the failure', async () => {
  const early = new EarlyRenders<string>(10_000);
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', listener);
  try {
    early.start('preview:a', 1, async () => {
      throw new Error('no server');
    });
    early.start('preview:b', 1, async () => {
      throw new Error('no server either');
    });
    await assert.rejects(early.take('preview:b', 1)!, /no server either/);
    early.dispose();
    await new Promise((done) => setTimeout(done, 20));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', listener);
  }
});
