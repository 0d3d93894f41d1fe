/**
 * cli/fix.ts writes a fixed fixture only over the bytes the fixes were made from: a file saved by
 * someone else (an editor) between lint's read and its write keeps what they saved.
 */
import assert from 'node:assert/strict';
import { linkSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CliError } from '../../cli/errors';
import { fixFile } from '../../cli/fix';
import { lintContext } from '../../cli/lint-file';
import { pruneSuppressions, writeBaseline } from '../../cli/suppressions';
import { FORBIDDEN_TIMESTAMP } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'babelq-fix-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a fixture changed on disk after it was read is not written over: its new text stays, and the run says why', () => {
  const path = join(dir, 'a.babel.json');
  const file = { path: 'a.babel.json', absolute: path };
  const context = lintContext({ cwd: dir, config: undefined, registry: undefined });
  writeFileSync(path, FORBIDDEN_TIMESTAMP);
  const read = readFileSync(path);
  const saved = FORBIDDEN_TIMESTAMP.replace('"timestamp"', '"timestamp_saved_by_the_editor"');
  writeFileSync(path, saved);
  assert.throws(() => fixFile(file, read, context, 'fix'), (error: unknown) => error instanceof CliError && /'a\.babel\.json' changed after it was read; it was not written/.test(error.message));
  assert.equal(readFileSync(path, 'utf8'), saved);
  assert.deepEqual(readdirSync(dir).filter((name) => name.includes('babelq-tmp')), [], 'no temporary file is left');
  // Unchanged since the read: written.
  writeFileSync(path, FORBIDDEN_TIMESTAMP);
  const outcome = fixFile(file, readFileSync(path), context, 'fix');
  assert.ok(outcome.applied > 0);
  assert.ok(!readFileSync(path, 'utf8').includes('"timestamp"'));
});

test('a hard-linked fixture (written in place) changed on disk after it was read is not written over either', () => {
  const path = join(dir, 'linked.babel.json');
  const file = { path: 'linked.babel.json', absolute: path };
  const context = lintContext({ cwd: dir, config: undefined, registry: undefined });
  writeFileSync(path, FORBIDDEN_TIMESTAMP);
  linkSync(path, join(dir, 'linked-too.json'));
  const read = readFileSync(path);
  const saved = FORBIDDEN_TIMESTAMP.replace('"timestamp"', '"timestamp_saved_by_the_editor"');
  writeFileSync(path, saved);
  assert.throws(() => fixFile(file, read, context, 'fix'), (error: unknown) => error instanceof CliError && /'linked\.babel\.json' changed after it was read; it was not written/.test(error.message));
  assert.equal(readFileSync(path, 'utf8'), saved);
  // The same length, other bytes: still refused (the length alone does not tell).
  const sameLength = FORBIDDEN_TIMESTAMP.replace('"timestamp"', '"timestamq"');
  writeFileSync(path, sameLength);
  assert.throws(() => fixFile(file, read, context, 'fix'), (error: unknown) => error instanceof CliError && /changed after it was read/.test(error.message));
  assert.equal(readFileSync(join(dir, 'linked-too.json'), 'utf8'), sameLength);
  // A longer text replaced by the fix's shorter one: no tail of the old text is left.
  writeFileSync(path, FORBIDDEN_TIMESTAMP);
  fixFile(file, readFileSync(path), context, 'fix');
  const fixed = readFileSync(join(dir, 'linked-too.json'), 'utf8');
  assert.ok(!fixed.includes('"timestamp"'));
  assert.doesNotThrow(() => JSON.parse(fixed));
});

test('a suppressions file changed (or made) on disk after it was read is not written over by a prune or a baseline', () => {
  const folder = mkdtempSync(join(dir, 'suppressions-'));
  const fixture = join(folder, 'a.babel.json');
  const suppressions = join(folder, 'babelq-suppressions.json');
  writeFileSync(fixture, FORBIDDEN_TIMESTAMP);
  writeFileSync(suppressions, '{ "suppressions": [ { "file": "a.babel.json", "code": "invalid-urn", "pointer": "/job", "reason": "stale" } ] }\n');
  const context = lintContext({ cwd: folder, config: undefined, registry: undefined });
  const loaded = context.configs.configIn(folder)!;
  const saved = '{ "suppressions": [ { "file": "a.babel.json", "code": "invalid-urn", "pointer": "/job", "reason": "stale" }, { "file": "a.babel.json", "code": "forbidden-key", "pointer": "/timestamp", "reason": "saved by the editor" } ] }\n';
  writeFileSync(suppressions, saved);
  assert.throws(() => pruneSuppressions(new Map([[loaded, loaded.suppressions!.file.entries]]), folder), (error: unknown) => error instanceof CliError && /^'babelq-suppressions\.json' changed after it was read; it was not written/.test(error.message));
  assert.equal(readFileSync(suppressions, 'utf8'), saved);

  // None when babelq looked, one made by someone else before the baseline is written: it stays.
  const other = mkdtempSync(join(dir, 'baseline-'));
  writeFileSync(join(other, 'a.babel.json'), FORBIDDEN_TIMESTAMP);
  const fresh = lintContext({ cwd: other, config: undefined, registry: undefined });
  assert.equal(fresh.configs.configIn(other)?.suppressions, undefined);
  const made = '{ "suppressions": [] }\n';
  writeFileSync(join(other, 'babelq-suppressions.json'), made);
  assert.throws(() => writeBaseline(fresh, [{ fixture: join(other, 'a.babel.json'), code: 'forbidden-key', pointer: '/timestamp' }], 'legacy'), (error: unknown) => error instanceof CliError && /was made by someone else after babelq looked for it; it was not written/.test(error.message));
  assert.equal(readFileSync(join(other, 'babelq-suppressions.json'), 'utf8'), made);
  assert.deepEqual([...readdirSync(folder), ...readdirSync(other)].filter((name) => name.includes('babelq-tmp')), [], 'no temporary file is left');
});

test('a suppressions file that is not valid UTF-8 is not pruned: its bytes stay, and the run says why', () => {
  const folder = mkdtempSync(join(dir, 'not-utf8-'));
  writeFileSync(join(folder, 'a.babel.json'), FORBIDDEN_TIMESTAMP);
  const bytes = Buffer.concat([Buffer.from('{ "suppressions": [ { "file": "a.babel.json", "code": "invalid-urn", "pointer": "/job", "reason": "caf'), Buffer.from([0xe9]), Buffer.from('" } ] }\n')]);
  writeFileSync(join(folder, 'babelq-suppressions.json'), bytes);
  const context = lintContext({ cwd: folder, config: undefined, registry: undefined });
  const loaded = context.configs.configIn(folder)!;
  // Named from the run's folder, as every other message names a file.
  assert.throws(() => pruneSuppressions(new Map([[loaded, loaded.suppressions!.file.entries]]), folder), (error: unknown) => error instanceof CliError && /^'babelq-suppressions\.json' is not valid UTF-8; it was not written/.test(error.message));
  assert.deepEqual(readFileSync(join(folder, 'babelq-suppressions.json')), bytes);
});
