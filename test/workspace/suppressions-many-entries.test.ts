/**
 * A suppressions file whose entries all name one fixture (a baseline of a fixture with many
 * findings, or a file written to stall the tools) is grouped by fixture in one pass: where it is
 * loaded for lint and the editor (workspace/project-config.ts), and where the language server
 * works out its stale entries at each pull of its diagnostics (server/project-files.ts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ProjectConfigs } from '../../workspace/project-config';
import { staleSuppressions } from '../../server/project-files';
import type { ServerContext } from '../../server/context';
import { JudgedFixtures } from '../../server/judged-fixtures';
import { scratchFolder } from '../support/scratch-folder';

const ENTRIES = 50_000;

function suppressionsText(file: string): string {
  return JSON.stringify({ suppressions: Array.from({ length: ENTRIES }, (_, i) => ({ file, code: 'forbidden-key', pointer: `/k${i}`, reason: 'legacy' })) });
}

test('a suppressions file of 50,000 entries naming one fixture is loaded in one pass over its entries (not seconds), each entry kept', () => {
  const { write, at } = scratchFolder('babelq-many-entries-');
  write('.git/HEAD', 'ref: refs/heads/main\n');
  write('babelq-suppressions.json', suppressionsText('mine.babel.json'));
  const started = performance.now();
  const entries = new ProjectConfigs().suppressionsFor(at('mine.babel.json'));
  const ms = performance.now() - started;
  assert.equal(entries.length, ENTRIES);
  assert.ok(ms < 3_000, `loading took ${Math.round(ms)} ms`);
});

test('the stale entries of such a file (its fixture gone) are worked out in one pass over its entries (not seconds), each entry stale', async () => {
  const { at } = scratchFolder('babelq-many-entries-stale-');
  const started = performance.now();
  // The fixture is not there: no entry reads it, so no more of the server is needed.
  const stale = await staleSuppressions({ judgedFixtures: new JudgedFixtures() } as unknown as ServerContext, join(at(''), 'babelq-suppressions.json'), suppressionsText('gone.babel.json'));
  const ms = performance.now() - started;
  assert.equal(stale?.stale.length, ENTRIES);
  assert.ok(ms < 3_000, `working out the stale entries took ${Math.round(ms)} ms`);
});

/** Past the arguments one call may be spread (some 120,000 in Node): a file of 15 MB, under its 32 MiB bound. */
const SPREAD_PAST = 200_000;

test('a suppressions file of 200,000 entries naming one fixture gives that fixture all its entries, and the server all as stale once it is gone', async () => {
  const { write, at } = scratchFolder('babelq-entries-past-spread-');
  write('.git/HEAD', 'ref: refs/heads/main\n');
  const text = JSON.stringify({ suppressions: Array.from({ length: SPREAD_PAST }, (_, i) => ({ file: 'f.babel.json', code: 'forbidden-key', pointer: `/k${i}`, reason: 'r' })) });
  write('babelq-suppressions.json', text);
  assert.equal(new ProjectConfigs().suppressionsFor(at('f.babel.json')).length, SPREAD_PAST);
  assert.equal((await staleSuppressions({ judgedFixtures: new JudgedFixtures() } as unknown as ServerContext, at('babelq-suppressions.json'), text))?.stale.length, SPREAD_PAST);
});
