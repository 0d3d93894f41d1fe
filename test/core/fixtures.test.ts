/**
 * Per-code diagnostic fixtures: `test/fixtures/diagnostics/<code>/`.
 *
 * - `fires-<what>.babel.json` must produce at least one diagnostic of the folder's code,
 *   `ok-<what>.babel.json` must produce none of it (other codes may appear).
 * - `<file>.expected` snapshots every diagnostic of the whole file, one per line, as
 *   `line:col-line:col severity code` (zero-based line and UTF-16 character, like LSP), in the
 *   order `analyze` returns them. Snapshots are written only with `UPDATE_SNAPSHOTS=1`; a missing
 *   or different snapshot fails otherwise, so a behaviour change is always a reviewed diff.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { analyzeText } from '../../core/rules/analyze';
import { definitionOf } from '../../core/rules/catalogue';
import { CODE_NAMES, isCode, type Code } from '../../core/rules/code-names';
import type { CoreDiagnostic } from '../../core/rules/diagnostic';
import { LineIndex } from '../../core/model/positions';

const REPO_ROOT = join(__dirname, '..', '..');
const FIXTURES_DIR = join(REPO_ROOT, 'test', 'fixtures', 'diagnostics');
const FIXTURE_SUFFIX = '.babel.json';
const SNAPSHOT_SUFFIX = '.expected';
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';

/**
 * Codes that need no fixture folder here, and why. Registry codes need a loaded registry (their
 * tests live with the registry); encoding-divergence comes with the encoders and is tested there.
 */
const NOT_COVERED_HERE: ReadonlyMap<Code, string> = new Map<Code, string>([
  ['encoding-divergence', 'tested with the encoders (core/encode)'],
]);

/** The codes this suite must cover: every non-registry code of the catalogue, minus the exclusions. */
const IN_SCOPE: readonly Code[] = CODE_NAMES.filter((code) => definitionOf(code).family !== 'registry' && !NOT_COVERED_HERE.has(code));

/** One snapshot line: `line:col-line:col severity code`. */
function formatDiagnostics(text: string, diagnostics: readonly CoreDiagnostic[]): string {
  const index = new LineIndex(text);
  return diagnostics
    .map((diagnostic) => {
      const { start, end } = index.rangeAt(diagnostic.offset, diagnostic.end);
      return `${start.line}:${start.character}-${end.line}:${end.character} ${diagnostic.severity} ${diagnostic.code}`;
    })
    .map((line) => `${line}\n`)
    .join('');
}

function codeFolders(): string[] {
  if (!existsSync(FIXTURES_DIR)) return [];
  return readdirSync(FIXTURES_DIR)
    .filter((name) => !name.startsWith('.') && statSync(join(FIXTURES_DIR, name)).isDirectory())
    .sort();
}

function fixturesIn(folder: string): string[] {
  return readdirSync(join(FIXTURES_DIR, folder))
    .filter((name) => name.endsWith(FIXTURE_SUFFIX))
    .sort();
}

/** Reads a fixture byte-exactly as text (a BOM stays a U+FEFF character, CRLF stays CRLF). */
function readFixture(path: string): string {
  return readFileSync(path).toString('utf8');
}

const folders = codeFolders();

test('every in-scope code has a fixture folder with at least one fires- and one ok- file', () => {
  const problems: string[] = [];
  for (const code of IN_SCOPE) {
    if (!folders.includes(code)) {
      problems.push(`${code}: no folder test/fixtures/diagnostics/${code}/`);
      continue;
    }
    const files = fixturesIn(code);
    if (!files.some((file) => file.startsWith('fires-'))) problems.push(`${code}: no fires-*${FIXTURE_SUFFIX} file`);
    if (!files.some((file) => file.startsWith('ok-'))) problems.push(`${code}: no ok-*${FIXTURE_SUFFIX} file`);
  }
  assert.deepEqual(problems, [], `fixture coverage is incomplete:\n${problems.join('\n')}`);
});

test('the coverage exclusions name real codes of the catalogue', () => {
  for (const code of NOT_COVERED_HERE.keys()) assert.ok(isCode(code), `"${code}" is excluded from fixture coverage but is not a code of core/codes.ts`);
  assert.ok(IN_SCOPE.length > 0, 'no code is in scope: the catalogue families changed?');
});

test('every fixture folder is a code, and holds only fixtures and their snapshots', () => {
  const problems: string[] = [];
  for (const folder of folders) {
    if (!isCode(folder)) problems.push(`${folder}/: not a code of core/codes.ts`);
    for (const name of readdirSync(join(FIXTURES_DIR, folder)).sort()) {
      if (name.endsWith(FIXTURE_SUFFIX)) {
        if (!name.startsWith('fires-') && !name.startsWith('ok-')) problems.push(`${folder}/${name}: name must start with fires- or ok-`);
      } else if (name.endsWith(SNAPSHOT_SUFFIX)) {
        const fixture = name.slice(0, -SNAPSHOT_SUFFIX.length);
        if (!fixture.endsWith(FIXTURE_SUFFIX) || !existsSync(join(FIXTURES_DIR, folder, fixture))) problems.push(`${folder}/${name}: snapshot without a fixture (stale?)`);
      } else {
        problems.push(`${folder}/${name}: neither a *${FIXTURE_SUFFIX} fixture nor a *${FIXTURE_SUFFIX}${SNAPSHOT_SUFFIX} snapshot`);
      }
    }
  }
  assert.deepEqual(problems, [], problems.join('\n'));
});

test('fixtures named *crlf* really use CRLF line breaks (a checkout must not normalise them)', () => {
  const crlf = folders.flatMap((folder) => fixturesIn(folder).filter((file) => file.includes('crlf')).map((file) => join(folder, file)));
  assert.ok(crlf.length > 0, 'expected at least one CRLF fixture');
  for (const file of crlf) {
    const text = readFixture(join(FIXTURES_DIR, file));
    assert.ok(text.includes('\r\n') && !/[^\r]\n/.test(text), `${file} must use CRLF for every line break`);
  }
});

for (const folder of folders) {
  if (!isCode(folder)) continue;
  const code: Code = folder;
  describe(code, () => {
    for (const file of fixturesIn(folder)) {
      test(file, () => {
        const path = join(FIXTURES_DIR, folder, file);
        const text = readFixture(path);
        const diagnostics = analyzeText(text);

        for (const diagnostic of diagnostics) {
          assert.ok(0 <= diagnostic.offset && diagnostic.offset <= diagnostic.end && diagnostic.end <= text.length, `range ${diagnostic.offset}..${diagnostic.end} of ${diagnostic.code} lies outside the text`);
          const definition = definitionOf(diagnostic.code);
          // A code takes its default level, or one its definition names (unsafe-integer beyond int64).
          const allowed = [definition.severity, ...(definition.otherSeverities ?? [])];
          assert.ok(allowed.includes(diagnostic.severity), `${diagnostic.code} has severity ${diagnostic.severity}, the catalogue allows ${allowed.join(', ')}`);
        }

        const ofCode = diagnostics.filter((diagnostic) => diagnostic.code === code);
        if (file.startsWith('fires-')) {
          assert.ok(ofCode.length > 0, `${folder}/${file} must produce ${code}; got: ${diagnostics.map((d) => d.code).join(', ') || 'nothing'}`);
        } else {
          assert.ok(file.startsWith('ok-'), `${file}: name must start with fires- or ok-`);
          assert.deepEqual(ofCode.map((d) => d.message), [], `${folder}/${file} must not produce ${code}`);
        }

        const actual = formatDiagnostics(text, diagnostics);
        const snapshotPath = `${path}${SNAPSHOT_SUFFIX}`;
        const shown = relative(REPO_ROOT, snapshotPath);
        const expected = existsSync(snapshotPath) ? readFileSync(snapshotPath, 'utf8').replace(/\r\n/g, '\n') : undefined;
        if (UPDATE) {
          if (expected !== actual) {
            writeFileSync(snapshotPath, actual, 'utf8');
            console.log(`UPDATE_SNAPSHOTS: wrote ${shown}`);
          }
          return;
        }
        assert.notEqual(expected, undefined, `missing snapshot ${shown}: run UPDATE_SNAPSHOTS=1 node scripts/run-tests.mjs fixtures, then review it`);
        assert.equal(actual, expected, `${shown} differs from the diagnostics (rerun with UPDATE_SNAPSHOTS=1 only if the change is intended)`);
      });
    }
  });
}
