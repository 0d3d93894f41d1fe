/**
 * workspace/fixture-files.ts: the walk of a workspace folder for its fixtures gives the event loop
 * back between folders and between the entries of one (a folder of `/` or a home folder takes
 * seconds), and ends when it is no longer wanted, with what it found so far.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findFixtureFiles } from '../../workspace/fixture-files';
import { TimeSlices } from '../../workspace/time-slices';

const FOLDERS = 40;
let root: string;

before(() => {
  root = mkdtempSync(join(tmpdir(), 'babelq-walk-'));
  for (let i = 0; i < FOLDERS; i++) {
    const folder = join(root, `f${String(i).padStart(2, '0')}`);
    mkdirSync(join(folder, 'node_modules'), { recursive: true });
    writeFileSync(join(folder, 'a.babel.json'), '{}');
    writeFileSync(join(folder, 'node_modules', 'b.babel.json'), '{}');
    writeFileSync(join(folder, 'other.json'), '{}');
  }
});
after(() => rmSync(root, { recursive: true, force: true }));

/** Slices spent at once: every pause yields, as a slow walk's would, and counts. */
class EveryPauseYields extends TimeSlices {
  pauses = 0;
  constructor(private readonly wantedFor = Number.POSITIVE_INFINITY) {
    super();
  }
  override async pause(): Promise<boolean> {
    this.pauses++;
    await new Promise((resume) => setImmediate(resume));
    return this.pauses <= this.wantedFor;
  }
}

describe('findFixtureFiles', () => {
  test('finds every fixture, in path order, but none in node_modules', async () => {
    const found = await findFixtureFiles(root);
    assert.equal(found.length, FOLDERS);
    assert.deepEqual(found, [...found].sort());
    assert.ok(found.every((path) => path.endsWith('/a.babel.json')));
  });

  test('yields to the event loop between folders: a callback queued as the walk starts runs before it ends', async () => {
    const slices = new EveryPauseYields();
    let timerFired = false;
    let timerFiredBeforeEnd = false;
    // Queued before the walk's first yield, so it runs at that yield (a walk that never yields
    // resolves first, in a microtask).
    setImmediate(() => (timerFired = true));
    const walking = findFixtureFiles(root, { slices }).then((found) => {
      timerFiredBeforeEnd = timerFired;
      return found;
    });
    assert.equal((await walking).length, FOLDERS);
    assert.ok(slices.pauses >= FOLDERS + 1, `paused ${slices.pauses} times for ${FOLDERS + 1} folders`);
    assert.equal(timerFiredBeforeEnd, true);
  });

  test('a walk no longer wanted ends with what it found so far', async () => {
    // The walk pauses before each folder and each entry in it: the root and its FOLDERS entries,
    // then four folders of three entries (the fixture, other.json, node_modules), each with one fixture.
    const found = await findFixtureFiles(root, { slices: new EveryPauseYields(1 + FOLDERS + 4 * (1 + 3)) });
    assert.equal(found.length, 4);
  });
});
