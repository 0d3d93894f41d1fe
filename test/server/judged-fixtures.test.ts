/**
 * The judgements of an open suppressions file's last judging (server/judged-fixtures.ts) are
 * reused while a fixture's file stands as it was read. A file system keeps times in ticks (two
 * seconds on FAT, a second on HFS+ and some network shares, a coarse clock's milliseconds on
 * ext4), so a fixture written again within a tick of the read, at the same size, can keep its
 * stamp: what was read then is told from what is there now by its text, not its stamp alone.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import type { RegistryState } from '../../core/registry/types';
import { DEFAULT_SETTINGS, settingsKey } from '../../core/rules/settings/settings';
import { readSuppressions } from '../../core/rules/settings/suppressions-file';
import { markOf, stampOf } from '../../server/file-stamps';
import { askedOf, JudgedFixtures } from '../../server/judged-fixtures';
import { MAX_WORKSPACE_FIXTURE_BYTES } from '../../workspace/bounded-read';
import { scratchFolder } from '../support/scratch-folder';

const registry = { kind: 'none' } as unknown as RegistryState;

/** Runs `body` while stat of `path` says what `frozen` says (as a file system whose tick the writes fell within). */
function withStatOf<T>(path: string, frozen: fs.Stats, body: () => T): T {
  const original = fs.statSync;
  (fs as { statSync: unknown }).statSync = (asked: fs.PathLike, ...rest: unknown[]) => (asked === path ? frozen : (original as (...args: unknown[]) => unknown)(asked, ...rest));
  try {
    return body();
  } finally {
    (fs as { statSync: unknown }).statSync = original;
  }
}

test('a fixture rewritten within a tick of its read, at the same size and stamp, is judged again; one whose text is as read is reused', () => {
  const { write, at } = scratchFolder('babelq-judged-fixtures-');
  const fixture = at('a.babel.json');
  const before = '{ "ts": 1749132727 }';
  write('a.babel.json', before);
  const read = fs.statSync(fixture);
  const named = readSuppressions(JSON.stringify({ suppressions: [{ file: 'a.babel.json', code: 'forbidden-key', pointer: '/ts', reason: 'legacy' }] })).entries;
  const judged = new JudgedFixtures();
  const first = judged.round(at('babelq-suppressions.json'));
  first.keep(fixture, { stamp: stampOf(read), mark: markOf(read, MAX_WORKSPACE_FIXTURE_BYTES, before), settings: settingsKey(DEFAULT_SETTINGS), registry, asked: askedOf(named), characters: before.length, used: [0] });
  first.finish();

  // Unchanged: its judgement stands.
  assert.ok(withStatOf(fixture, read, () => judged.round(at('babelq-suppressions.json')).reusable(fixture, DEFAULT_SETTINGS, registry, named)));

  // The same size, another text, and (within the tick) the same times and inode.
  write('a.babel.json', '{ "ts": 1749132728 }');
  const again = judged.round(at('babelq-suppressions.json'));
  assert.equal(withStatOf(fixture, read, () => again.reusable(fixture, DEFAULT_SETTINGS, registry, named)), undefined);
});

test('a judgement is not reused once the settings, the registry or the codes, pointers or order of the entries naming the fixture differ; a reason edited keeps it', () => {
  const { write, at } = scratchFolder('babelq-judged-fixtures-inputs-');
  const fixture = at('a.babel.json');
  write('a.babel.json', '{ "ts": 1749132727 }');
  // Read long ago: the stamp alone tells.
  fs.utimesSync(fixture, new Date('2020-01-01'), new Date('2020-01-01'));
  const read = fs.statSync(fixture);
  const entriesOf = (list: { code: string; pointer: string; reason: string }[]) => readSuppressions(JSON.stringify({ suppressions: list.map((entry) => ({ file: 'a.babel.json', ...entry })) })).entries;
  const named = entriesOf([{ code: 'forbidden-key', pointer: '/ts', reason: 'legacy' }, { code: 'non-iso-time', pointer: '/ts', reason: 'legacy' }]);
  const judged = new JudgedFixtures();
  const first = judged.round(at('babelq-suppressions.json'));
  first.keep(fixture, { stamp: stampOf(read), mark: markOf(read, MAX_WORKSPACE_FIXTURE_BYTES, '{ "ts": 1749132727 }'), settings: settingsKey(DEFAULT_SETTINGS), registry, asked: askedOf(named), characters: 20, used: [1] });
  first.finish();
  const reusable = (settings: typeof DEFAULT_SETTINGS, state: RegistryState, entries: typeof named) => judged.round(at('babelq-suppressions.json')).reusable(fixture, settings, state, entries);

  assert.deepEqual(reusable(DEFAULT_SETTINGS, registry, entriesOf([{ code: 'forbidden-key', pointer: '/ts', reason: 'a new reason' }, { code: 'non-iso-time', pointer: '/ts', reason: 'legacy' }]))?.used, [1]);
  assert.equal(reusable({ ...DEFAULT_SETTINGS, severityOverrides: new Map([['non-iso-time', 'off']]) } as typeof DEFAULT_SETTINGS, registry, named), undefined);
  assert.equal(reusable({ ...DEFAULT_SETTINGS, redisLayout: 'laravel' } as typeof DEFAULT_SETTINGS, registry, named), undefined);
  assert.equal(reusable(DEFAULT_SETTINGS, { kind: 'none' } as unknown as RegistryState, named), undefined);
  assert.equal(reusable(DEFAULT_SETTINGS, registry, [named[1], named[0]]), undefined);
  assert.equal(reusable(DEFAULT_SETTINGS, registry, entriesOf([{ code: 'forbidden-key', pointer: '/other', reason: 'legacy' }, { code: 'non-iso-time', pointer: '/ts', reason: 'legacy' }])), undefined);
  fs.rmSync(fixture);
  assert.equal(reusable(DEFAULT_SETTINGS, registry, named), undefined);
});

test('a judging stopped before its end keeps what it judged beside the last judging\'s; the next to finish keeps only its own', () => {
  const { write, at } = scratchFolder('babelq-judged-fixtures-stopped-');
  const paths = ['a', 'b', 'c'].map((name) => {
    write(`${name}.babel.json`, '{ "ts": 1749132727 }');
    fs.utimesSync(at(`${name}.babel.json`), new Date('2020-01-01'), new Date('2020-01-01'));
    return at(`${name}.babel.json`);
  });
  const [a, b, c] = paths;
  const named = readSuppressions(JSON.stringify({ suppressions: [{ file: 'a.babel.json', code: 'forbidden-key', pointer: '/ts', reason: 'legacy' }] })).entries;
  const judgementOf = (path: string) => ({ stamp: stampOf(fs.statSync(path)), settings: settingsKey(DEFAULT_SETTINGS), registry, asked: askedOf(named), characters: 20, used: [] });
  const judged = new JudgedFixtures();
  const file = at('babelq-suppressions.json');
  const reusable = (path: string) => judged.round(file).reusable(path, DEFAULT_SETTINGS, registry, named) !== undefined;

  const finished = judged.round(file);
  finished.keep(a, judgementOf(a));
  finished.finish();
  const stopped = judged.round(file);
  stopped.keep(b, judgementOf(b));
  stopped.stop();
  assert.deepEqual([reusable(a), reusable(b), reusable(c)], [true, true, false]);

  const next = judged.round(file);
  next.keep(c, judgementOf(c));
  next.finish();
  assert.deepEqual([reusable(a), reusable(b), reusable(c)], [false, false, true]);
});

test('a judging that ends after its suppressions file was closed keeps nothing, stopped or finished', () => {
  const { write, at } = scratchFolder('babelq-judged-fixtures-closed-');
  write('a.babel.json', '{ "ts": 1749132727 }');
  fs.utimesSync(at('a.babel.json'), new Date('2020-01-01'), new Date('2020-01-01'));
  const a = at('a.babel.json');
  const named = readSuppressions(JSON.stringify({ suppressions: [{ file: 'a.babel.json', code: 'forbidden-key', pointer: '/ts', reason: 'legacy' }] })).entries;
  const judgement = { stamp: stampOf(fs.statSync(a)), settings: settingsKey(DEFAULT_SETTINGS), registry, asked: askedOf(named), characters: 20, used: [] };
  const file = at('babelq-suppressions.json');
  for (const end of ['stop', 'finish'] as const) {
    const judged = new JudgedFixtures();
    // The first judging of the file, and one after a judging that finished: neither outlives the close.
    for (const judgedBefore of [false, true]) {
      if (judgedBefore) {
        const earlier = judged.round(file);
        earlier.keep(a, judgement);
        earlier.finish();
        judged.forget(file);
      }
      const round = judged.round(file);
      round.keep(a, judgement);
      judged.forget(file);
      round[end]();
      assert.equal(judged.round(file).reusable(a, DEFAULT_SETTINGS, registry, named), undefined, `${end}, judged before: ${judgedBefore}`);
      judged.forget(file);
    }
  }
});
