/**
 * Per-code diagnostic fixtures: `test/fixtures/diagnostics/<code>/`, one folder for every code.
 *
 * - `fires-<what>.babel.json` must produce at least one diagnostic of the folder's code,
 *   `ok-<what>.babel.json` must produce none of it (other codes may appear). A code found in a
 *   registry's schema files has `fires-<what>.schema.json` and `ok-<what>.schema.json` instead; one
 *   found in babelq.json has `*.babelq.json` (a babelq.json's text), one found in
 *   babelq-suppressions.json has `*.suppressions.json`, whose entries name the folder's fixtures; a
 *   schema fixture with `<name>.base.json` beside it is compared with that earlier version too.
 * - A folder with a `registry.json` (and its `schemas/`) lints its fixtures against that registry,
 *   as the editor and `babelq lint` would find it.
 * - `<file>.expected` snapshots every diagnostic of the whole file in the order `analyze` returns
 *   them: `line:col-line:col severity code  message` (zero-based line and UTF-16 character, like
 *   LSP), then one indented line per finding folded into it (`related: severity code  message`)
 *   and per quick fix offered, `fix: <title>`, or `fix*: <title>` for the preferred one. Snapshots are written only by `npm run test:update`; a missing or different
 *   snapshot fails otherwise, so a change of a range, message or fix is always a reviewed diff.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { codeActions } from '../../../core/language/code-actions';
import { LineIndex } from '../../../core/model/positions';
import { parseText } from '../../../core/parse/parser';
import type { RegistryState } from '../../../core/registry/types';
import { analyze } from '../../../core/rules/analyze';
import { definitionOf } from '../../../core/rules/catalogue';
import { CODE_NAMES, isCode, type Code } from '../../../core/rules/code-names';
import { compareDiagnostics, type CoreDiagnostic } from '../../../core/rules/diagnostic';
import type { SchemaOwner } from '../../../core/rules/definition';
import { fileDiagnostics } from '../../../core/rules/file-diagnostics';
import { isDeprecatedStatus } from '../../../core/registry/types';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { pointerAt } from '../../../core/model/json-pointer';
import { readProjectConfig } from '../../../core/rules/settings/project-config';
import { applySuppressions, readSuppressions, type Suppression } from '../../../core/rules/settings/suppressions-file';
import { loadRegistry } from '../../../workspace/registry-loader';
import { stableFresh } from '../../support/fresh';

const REPO_ROOT = join(__dirname, '..', '..', '..');
const FIXTURES_DIR = join(REPO_ROOT, 'test', 'fixtures', 'diagnostics');
const FIXTURE_SUFFIX = '.babel.json';
/** A schema-file code's fixtures are schema documents, checked as a registry's schema files are. */
const SCHEMA_FIXTURE_SUFFIX = '.schema.json';
/** A project-file code's fixtures: a babelq.json's text, or a suppressions file naming the folder's fixtures. */
const CONFIG_FIXTURE_SUFFIX = '.babelq.json';
const SUPPRESSIONS_FIXTURE_SUFFIX = '.suppressions.json';
const isFixture = (name: string): boolean => [FIXTURE_SUFFIX, SCHEMA_FIXTURE_SUFFIX, CONFIG_FIXTURE_SUFFIX, SUPPRESSIONS_FIXTURE_SUFFIX].some((suffix) => name.endsWith(suffix));

/** The diagnostics of one fixture file, checked as the kind of file its name says. */
function fixtureDiagnostics(folder: string, file: string, text: string, registry: RegistryState): CoreDiagnostic[] {
  if (file.endsWith(SCHEMA_FIXTURE_SUFFIX)) {
    // A schema fixture with a `<name>.base.json` beside it is also compared with that earlier version (breaking-change).
    const basePath = join(FIXTURES_DIR, folder, `${file.slice(0, -SCHEMA_FIXTURE_SUFFIX.length)}${BASE_SUFFIX}`);
    const current = parseText(text);
    const urn = ownersOf(folder, file, registry).find((owner) => !isDeprecatedStatus(owner.entry.status))?.entry.urn;
    const compat = existsSync(basePath) ? fileDiagnostics('schemaChange', { base: parseText(readFixture(basePath)), current, ...(urn ? { urn } : {}) }, DEFAULT_SETTINGS) : [];
    return [...fileDiagnostics('schemaFile', current, DEFAULT_SETTINGS), ...compat].sort(compareDiagnostics);
  }
  if (file.endsWith(CONFIG_FIXTURE_SUFFIX)) return fileDiagnostics('configFile', readProjectConfig(text), DEFAULT_SETTINGS);
  if (file.endsWith(SUPPRESSIONS_FIXTURE_SUFFIX)) {
    const suppressions = readSuppressions(text);
    const used = new Set<Suppression>();
    const checked = new Set<string>();
    for (const entry of suppressions.entries) {
      const fixture = join(FIXTURES_DIR, folder, entry.file);
      if (!existsSync(fixture)) continue;
      checked.add(entry.file);
      const doc = parseText(readFixture(fixture));
      for (const hit of applySuppressions(analyze(doc, DEFAULT_SETTINGS, registry), (d) => pointerAt(doc, d.offset), [entry], '2026-01-01').used) used.add(hit);
    }
    return fileDiagnostics('suppressionsFile', { file: suppressions, stale: suppressions.entries.filter((entry) => !used.has(entry)) }, DEFAULT_SETTINGS);
  }
  return analyze(parseText(text), DEFAULT_SETTINGS, registry);
}

/** The entries of the folder's registry whose schema is this schema fixture (none for other fixtures). */
function ownersOf(folder: string, file: string, registry: RegistryState): SchemaOwner[] {
  if (registry.kind !== 'loaded' || !file.endsWith(SCHEMA_FIXTURE_SUFFIX)) return [];
  const path = join(FIXTURES_DIR, folder, file);
  return registry.registry.entries.filter((entry) => resolve(dirname(registry.registry.path), entry.schemaRef) === path).map((entry) => ({ registry: registry.registry, entry }));
}
const SNAPSHOT_SUFFIX = '.expected';
/** The earlier version of a schema fixture, for breaking-change. */
const BASE_SUFFIX = '.base.json';
/** What a code folder may hold besides fixtures and snapshots: its registry. */
const REGISTRY_FILES = new Set(['registry.json', 'schemas']);
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';

/** The snapshot of a file's diagnostics and the titles of their fixes. */
function formatSnapshot(text: string, diagnostics: readonly CoreDiagnostic[], registry: RegistryState, folder: string, owners: readonly SchemaOwner[]): string {
  const index = new LineIndex(text);
  const doc = parseText(text);
  const lines: string[] = [];
  for (const diagnostic of diagnostics) {
    const { start, end } = index.rangeAt(diagnostic.offset, diagnostic.end);
    // Paths in messages (a broken registry's) are shown relative to the code folder, so snapshots travel.
    const message = diagnostic.message.split(folder).join('<folder>').replace(/\r?\n/g, ' ⏎ ');
    lines.push(`${start.line}:${start.character}-${end.line}:${end.character} ${diagnostic.severity} ${diagnostic.code}  ${message}`);
    // A finding of the same cause folded into this one (core/rules/same-cause.ts).
    for (const related of diagnostic.related ?? []) lines.push(`  related: ${related.severity} ${related.code}  ${related.message.split(folder).join('<folder>')}`);
    for (const action of codeActions(doc, [diagnostic], stableFresh(), registry, owners)) lines.push(`  ${action.isPreferred ? 'fix*' : 'fix'}: ${action.title}`);
  }
  return lines.map((line) => `${line}\n`).join('');
}

function codeFolders(): string[] {
  if (!existsSync(FIXTURES_DIR)) return [];
  return readdirSync(FIXTURES_DIR)
    .filter((name) => !name.startsWith('.') && statSync(join(FIXTURES_DIR, name)).isDirectory())
    .sort();
}

function fixturesIn(folder: string): string[] {
  return readdirSync(join(FIXTURES_DIR, folder))
    .filter(isFixture)
    .sort();
}

/** The registry a code folder's fixtures use: its own registry.json, or none. */
function registryOf(folder: string): RegistryState {
  const path = join(FIXTURES_DIR, folder, 'registry.json');
  return existsSync(path) ? loadRegistry(path, join(FIXTURES_DIR, folder)).state : { kind: 'none' };
}

/** Reads a fixture byte-exactly as text (a BOM stays a U+FEFF character, CRLF stays CRLF). */
function readFixture(path: string): string {
  return readFileSync(path).toString('utf8');
}

const folders = codeFolders();

/**
 * Codes whose firing input is too large for a fixture file and its snapshot (more than 10,000
 * findings, more fixture text than the editor judges): the named test generates it. Their folder
 * still holds an ok- fixture.
 */
const GENERATED_FIRES: Partial<Record<Code, string>> = {
  'too-many-findings': 'test/core/rules/too-many-findings.test.ts',
  'unchecked-suppressions': 'test/core/rules/project-files.test.ts',
};

test('every code of the catalogue has a fixture folder with at least one fires- and one ok- file', () => {
  const problems: string[] = [];
  for (const code of CODE_NAMES) {
    if (!folders.includes(code)) {
      problems.push(`${code}: no folder test/fixtures/diagnostics/${code}/`);
      continue;
    }
    const files = fixturesIn(code);
    const generated = GENERATED_FIRES[code];
    if (generated) {
      if (!existsSync(join(REPO_ROOT, generated)) || !readFileSync(join(REPO_ROOT, generated), 'utf8').includes(code)) problems.push(`${code}: ${generated} does not test it`);
    } else if (!files.some((file) => file.startsWith('fires-'))) problems.push(`${code}: no fires-*${FIXTURE_SUFFIX} file`);
    if (!files.some((file) => file.startsWith('ok-'))) problems.push(`${code}: no ok-*${FIXTURE_SUFFIX} file`);
  }
  assert.deepEqual(problems, [], `fixture coverage is incomplete:\n${problems.join('\n')}`);
});

test('every fixture folder is a code, and holds only fixtures, their snapshots and a registry', () => {
  const problems: string[] = [];
  for (const folder of folders) {
    if (!isCode(folder)) problems.push(`${folder}/: not a code of the catalogue`);
    for (const name of readdirSync(join(FIXTURES_DIR, folder)).sort()) {
      if (isFixture(name)) {
        if (!name.startsWith('fires-') && !name.startsWith('ok-')) problems.push(`${folder}/${name}: name must start with fires- or ok-`);
      } else if (name.endsWith(SNAPSHOT_SUFFIX)) {
        const fixture = name.slice(0, -SNAPSHOT_SUFFIX.length);
        if (!isFixture(fixture) || !existsSync(join(FIXTURES_DIR, folder, fixture))) problems.push(`${folder}/${name}: snapshot without a fixture (stale?)`);
      } else if (!REGISTRY_FILES.has(name) && !name.endsWith(BASE_SUFFIX)) {
        problems.push(`${folder}/${name}: neither a *${FIXTURE_SUFFIX} fixture, a snapshot, nor registry.json and schemas/`);
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
    const registry = registryOf(folder);
    for (const file of fixturesIn(folder)) {
      test(file, () => {
        const path = join(FIXTURES_DIR, folder, file);
        const text = readFixture(path);
        const diagnostics = fixtureDiagnostics(folder, file, text, registry);

        for (const diagnostic of diagnostics) {
          assert.ok(0 <= diagnostic.offset && diagnostic.offset <= diagnostic.end && diagnostic.end <= text.length, `range ${diagnostic.offset}..${diagnostic.end} of ${diagnostic.code} lies outside the text`);
          const definition = definitionOf(diagnostic.code);
          // A code takes its default level, or one its definition names (unsafe-integer beyond int64).
          const allowed = [definition.severity, ...(definition.otherSeverities ?? [])];
          assert.ok(allowed.includes(diagnostic.severity), `${diagnostic.code} has severity ${diagnostic.severity}, the catalogue allows ${allowed.join(', ')}`);
        }

        // A finding of the code, shown or carried by another on its token (core/rules/same-cause.ts).
        const ofCode = [
          ...diagnostics.filter((diagnostic) => diagnostic.code === code),
          ...diagnostics.flatMap((diagnostic) => (diagnostic.related ?? []).filter((related) => related.code === code)),
        ];
        if (file.startsWith('fires-')) {
          assert.ok(ofCode.length > 0, `${folder}/${file} must produce ${code}; got: ${diagnostics.map((d) => d.code).join(', ') || 'nothing'}`);
        } else {
          assert.ok(file.startsWith('ok-'), `${file}: name must start with fires- or ok-`);
          assert.deepEqual(ofCode.map((d) => d.message), [], `${folder}/${file} must not produce ${code}`);
        }

        const actual = formatSnapshot(text, diagnostics, registry, join(FIXTURES_DIR, folder), ownersOf(folder, file, registry));
        const snapshotPath = `${path}${SNAPSHOT_SUFFIX}`;
        const shown = relative(REPO_ROOT, snapshotPath);
        const expected = existsSync(snapshotPath) ? readFileSync(snapshotPath, 'utf8').replace(/\r\n/g, '\n') : undefined;
        if (UPDATE) {
          if (expected !== actual) {
            writeFileSync(snapshotPath, actual, 'utf8');
            console.log(`npm run test:update: wrote ${shown}`);
          }
          return;
        }
        assert.notEqual(expected, undefined, `missing snapshot ${shown}: run npm run test:update, then review the diff`);
        assert.equal(actual, expected, `${shown} differs from the diagnostics (run npm run test:update only if the change is intended, and review the diff)`);
      });
    }
  });
}
