/**
 * RegistryService.invalidate: which registries a file event forgets (and so loads again), and what
 * a checkout that changes thousands of files costs against a registry of thousands of schema files.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../core/rules/settings/settings';
import { RegistryService, toUri } from '../../server/registry';

function scratch(t: { after(fn: () => void): void }, name: string): string {
  const root = mkdtempSync(join(tmpdir(), `babelq-${name}-`));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** A folder with a registry.json whose `count` entries each name their own schema file (written or not). */
function writeRegistry(folder: string, count: number, writeSchemas: boolean): void {
  mkdirSync(join(folder, 'schemas'), { recursive: true });
  const schemas = [];
  for (let i = 0; i < count; i++) {
    schemas.push({ urn: `urn:babel:bench:event-${i}`, schema: `schemas/s${i}.json` });
    if (writeSchemas) writeFileSync(join(folder, 'schemas', `s${i}.json`), '{"type":"object"}');
  }
  writeFileSync(join(folder, 'registry.json'), JSON.stringify({ schemas }));
}

describe('RegistryService.invalidate', () => {
  test('forgets exactly the registries that read a changed file, and every search when a registry.json changes', (t) => {
    const root = scratch(t, 'invalidate');
    for (const folder of ['a', 'b']) writeRegistry(join(root, folder), 3, true);
    writeFileSync(join(root, 'b', 'schemas', 'shared.json'), '{}');
    const registries = new RegistryService(() => undefined);
    registries.setWorkspaceFolders([toUri(join(root, 'a')), toUri(join(root, 'b'))]);
    const fixture = (folder: string) => toUri(join(root, folder, 'x.babel.json'));
    const state = (folder: string) => registries.stateFor(fixture(folder), DEFAULT_SETTINGS);
    let a = state('a');
    let b = state('b');
    assert.equal(a.kind, 'loaded');
    assert.equal(b.kind, 'loaded');

    // Files no registry read (one that only looks like a schema of b's, a fixture, another scheme): nothing forgotten.
    assert.equal(registries.invalidate([toUri(join(root, 'b', 'schemas', 'shared.json')), fixture('a'), 'untitled:Untitled-1', toUri(join(root, 'a', 'schemas', 's3.json'))]), false);
    assert.equal(state('a'), a, 'a kept');
    assert.equal(state('b'), b, 'b kept');

    // One of a's schema files among unrelated files: a is loaded again, b kept.
    assert.equal(registries.invalidate([fixture('b'), toUri(join(root, 'a', 'schemas', 's1.json')), fixture('a')]), true);
    assert.notEqual(state('a'), a, 'a loaded again');
    assert.equal(state('b'), b, 'b kept');
    a = state('a');

    // b's registry.json: b is loaded again, a kept (its load is not the changed file's).
    assert.equal(registries.invalidate([toUri(join(root, 'b', 'registry.json'))]), true);
    assert.equal(state('a'), a, 'a kept');
    assert.notEqual(state('b'), b, 'b loaded again');
    b = state('b');

    // A registry.json no registry read (it may have just appeared): nothing loaded is forgotten,
    // but the searches are made again, so a fixture below it would find it.
    mkdirSync(join(root, 'a', 'deeper'));
    assert.equal(registries.invalidate([toUri(join(root, 'a', 'deeper', 'registry.json'))]), true);
    assert.equal(state('a'), a, 'a kept');
    assert.equal(state('b'), b, 'b kept');
    writeRegistry(join(root, 'a', 'deeper'), 1, true);
    assert.equal(registries.invalidate([toUri(join(root, 'a', 'deeper', 'registry.json'))]), true);
    const deeper = registries.stateFor(toUri(join(root, 'a', 'deeper', 'x.babel.json')), DEFAULT_SETTINGS);
    assert.equal(deeper.kind === 'loaded' && deeper.registry.path, join(root, 'a', 'deeper', 'registry.json'));

    // Several registries' files in one event: both loaded again.
    assert.equal(registries.invalidate([toUri(join(root, 'b', 'schemas', 's0.json')), toUri(join(root, 'a', 'schemas', 's2.json'))]), true);
    assert.notEqual(state('a'), a);
    assert.notEqual(state('b'), b);
  });

  test('a checkout of 40,000 changed files against a registry of 40,000 schema files: one look per file, not one per pair', (t) => {
    const root = scratch(t, 'invalidate-scale');
    const count = 40_000;
    // The schema files come from the editor's overlay: writing 40,000 files would only slow the test.
    writeRegistry(root, count, false);
    const schemas = join(root, 'schemas');
    const registries = new RegistryService((path) => (path.startsWith(schemas) ? '{"type":"object"}' : undefined));
    registries.setWorkspaceFolders([toUri(root)]);
    const fixture = toUri(join(root, 'x.babel.json'));
    const loaded = registries.stateFor(fixture, DEFAULT_SETTINGS);
    assert.equal(loaded.kind === 'loaded' && loaded.registry.entries.length, count);
    const checkout = Array.from({ length: count }, (_, i) => toUri(join(root, 'src', `file-${i}.ts`)));
    // Comparing every changed path with every schema file took 3 s here; a set lookup takes tens of milliseconds.
    let started = performance.now();
    assert.equal(registries.invalidate(checkout), false);
    const unrelated = performance.now() - started;
    assert.equal(registries.stateFor(fixture, DEFAULT_SETTINGS), loaded, 'kept');
    checkout[checkout.length - 1] = toUri(join(schemas, `s${count - 1}.json`));
    started = performance.now();
    assert.equal(registries.invalidate(checkout), true);
    const withSchema = performance.now() - started;
    assert.notEqual(registries.stateFor(fixture, DEFAULT_SETTINGS), loaded, 'loaded again');
    assert.ok(unrelated < 1000 && withSchema < 1000, `invalidate took ${unrelated.toFixed(0)} ms and ${withSchema.toFixed(0)} ms`);
  });
});
