/**
 * A registry saved as UTF-16 (or any bytes that are not UTF-8) is said to be so, in the words a
 * fixture's such bytes get, wherever a registry is read: lint's search (not passed over as one
 * without a "schemas" key), --registry, and gdpr's read; never "found '\uFFFD'".
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { assertCliBuilt, babelq, envelope, makeTree, removeTree } from './helpers';

const UTF16 = Buffer.from('\uFEFF{"schemas": []}', 'utf16le');
const SAID = 'The file is not valid UTF-8 (it starts with a UTF-16 byte-order mark); registry.json is read as UTF-8. Save it as UTF-8.';

test('lint: a UTF-16 registry.json found by the search is that registry, refused as not UTF-8 (exit 2), not passed over', () => {
  assertCliBuilt();
  const repo = makeTree({ 'registry.json': UTF16, 'fixtures/a.babel.json': envelope() });
  try {
    execFileSync('git', ['init', '-q', repo], { stdio: 'ignore' });
    const result = babelq(['lint', '--format', 'json'], join(repo, 'fixtures'));
    assert.equal(result.status, 2, result.stderr);
    assert.doesNotMatch(result.stderr, /no "schemas" key/);
    const reports = JSON.parse(result.stdout) as { file: string; diagnostics: { code: string; message: string; range: { start: { line: number; character: number } } }[] }[];
    const registry = reports.find((report) => report.file === '../registry.json');
    assert.deepEqual(registry?.diagnostics.map((d) => [d.code, d.message, d.range.start]), [['registry-error', SAID, { line: 0, character: 0 }]]);
    const given = babelq(['lint', '--format', 'json', '--registry', '../registry.json'], join(repo, 'fixtures'));
    assert.equal(given.status, 2, given.stderr);
    assert.match(given.stdout, /not valid UTF-8 \(it starts with a UTF-16 byte-order mark\)/);
  } finally {
    removeTree(repo);
  }
});

test('gdpr: a UTF-16 registry is refused as not UTF-8 (exit 2)', () => {
  assertCliBuilt();
  const repo = makeTree({ 'registry.json': UTF16 });
  try {
    const result = babelq(['gdpr'], repo);
    assert.equal(result.status, 2, result.stdout);
    assert.equal(result.stderr, `babelq: registry 'registry.json' is refused as a whole, as bqschema's registry load refuses it: registry.json:1:1: ${SAID}\n`);
  } finally {
    removeTree(repo);
  }
});

test('lint: another tool\'s registry.json in Latin-1, whose text shows it has no "schemas" key, is passed over as in UTF-8, for the registry above it', () => {
  assertCliBuilt();
  const repo = makeTree({
    'registry.json': JSON.stringify({ schemas: [] }),
    'tool/registry.json': Buffer.concat([Buffer.from('{"name": "caf'), Buffer.from([0xe9]), Buffer.from('", "version": 1}')]),
    'tool/a.babel.json': envelope(),
  });
  try {
    execFileSync('git', ['init', '-q', repo], { stdio: 'ignore' });
    const result = babelq(['lint', '--format', 'json', 'tool'], repo);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stderr, /^babelq: note: tool\/registry\.json was not read as a registry: it has no "schemas" key .* was passed over for registry\.json, the next one up/m);
    assert.deepEqual((JSON.parse(result.stdout) as { file: string }[]).map((report) => report.file), ['tool/a.babel.json']);
  } finally {
    removeTree(repo);
  }
});
