/**
 * Time-sliced walks (workspace/time-slices.ts): a background walk (the workspace's report) gives
 * way while a walk someone waits for (find-references) runs, and goes on once it ends; a cancelled
 * walk stops at its next pause, waiting or not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SLICE_MS, TimeSlices } from '../../workspace/time-slices';

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const sleep = (ms: number) => new Promise((resume) => setTimeout(resume, ms));

/**
 * Waits, a slice at a time, until `holds`; fails with `what` after 10 s. A busy machine gives this
 * process's steps less of the clock than a fixed pause would assume.
 */
async function until(holds: () => boolean, what: () => string): Promise<void> {
  const started = Date.now();
  while (!holds()) {
    assert.ok(Date.now() - started < 10_000, what());
    await sleep(SLICE_MS);
  }
}

/** A walk of `step`-millisecond steps until `stop` says so; counts its steps. */
function walk(slices: TimeSlices, step: number, stop: () => boolean): { steps: number; done: Promise<void> } {
  const state = { steps: 0, done: Promise.resolve() };
  state.done = (async () => {
    while (!stop() && (await slices.pause())) {
      busy(step);
      state.steps++;
    }
  })();
  return state;
}

test('the background walk gives way while a foreground walk runs, and goes on after it', async () => {
  let stopped = false;
  const background = walk(new TimeSlices(undefined, true), 2, () => stopped);
  try {
    await until(() => background.steps > 5, () => `the background walk ran before (${background.steps} steps)`);
    // A foreground walk of about 300 ms of work.
    let foregroundSteps = 0;
    const before = background.steps;
    const foreground = walk(new TimeSlices(), 3, () => foregroundSteps++ >= 100);
    await foreground.done;
    const during = background.steps - before;
    // Without giving way it would have had about half of the event loop: some 70 steps.
    assert.ok(during <= 12, `the background walk took ${during} steps while the foreground walk ran`);
    const after = background.steps;
    await until(() => background.steps - after > 5, () => `the background walk went on once the foreground walk ended (${background.steps - after} steps)`);
  } finally {
    stopped = true;
    await background.done;
  }
});

test('two foreground walks share the event loop; a cancelled background walk stops while it waits', async () => {
  let aSteps = 0;
  let bSteps = 0;
  const a = walk(new TimeSlices(), 2, () => aSteps++ >= 60);
  const b = walk(new TimeSlices(), 2, () => bSteps++ >= 60);
  await Promise.all([a.done, b.done]);
  assert.equal(a.steps, 60);
  assert.equal(b.steps, 60);

  const cancellation = { isCancellationRequested: false };
  const background = walk(new TimeSlices(cancellation, true), 2, () => cancellation.isCancellationRequested);
  let foregroundSteps = 0;
  const foreground = walk(new TimeSlices(), 3, () => foregroundSteps++ >= 60);
  await sleep(2 * SLICE_MS);
  cancellation.isCancellationRequested = true;
  // It stops without waiting for the foreground walk to end.
  await background.done;
  assert.ok(foregroundSteps < 60, `the background walk stopped while the foreground one still ran (${foregroundSteps} steps)`);
  await foreground.done;
});
