/**
 * Hostile registries: whatever a cloned repository holds, loading and validating against it is
 * bounded and every problem is reported in a sentence. A catastrophic-backtracking `pattern`,
 * `$ref` cycles, a 50 MB schema, a 40 MB registry.json, 100,000 entries, a symbolic-link loop.
 * (Symbolic links that leave the workspace are refused unread: test/workspace/registry.test.ts.)
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { analyzeText } from '../../core/rules/analyze';
import { complete } from '../../core/language/complete';
import { hover } from '../../core/language/hover';
import { newEnvelopeText } from '../../core/language/new-envelope';
import { parseJson } from '../../core/parse/parser';
import { MAX_ALL_ERRORS_VALUES, MAX_SCHEMA_ERRORS } from '../../core/registry/compiled-schema';
import { MAX_PATTERN_CHARACTERS } from '../../core/registry/schema-problems';
import type { RegistryState } from '../../core/registry/types';
import { EAGER_COMPILE_LIMIT, loadRegistry, MAX_SCHEMA_BYTES_TOGETHER, MAX_SCHEMA_FILE_BYTES, MAX_SCHEMA_FILES, readFromDisk } from '../../workspace/registry-loader';
import { MAX_REGISTRY_PROBLEMS } from '../../core/registry/registry-file';
import { FRESH } from './harness';
import { peakRssMb } from '../support/peak-memory';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A workspace with registry.json listing `entries` and the given schema files. */
function workspace(schemas: Record<string, unknown>, entries?: readonly { urn: string; schema: string }[]): string {
  const root = mkdtempSync(join(tmpdir(), 'babelq-hostile-'));
  roots.push(root);
  mkdirSync(join(root, 'schemas'));
  for (const [name, schema] of Object.entries(schemas)) writeFileSync(join(root, 'schemas', name), typeof schema === 'string' ? schema : JSON.stringify(schema));
  const listed = entries ?? Object.keys(schemas).map((name) => ({ urn: `urn:babel:t:${name.replace(/\.json$/, '')}`, schema: `schemas/${name}` }));
  writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: listed }, null, 2));
  return root;
}

function load(root: string): RegistryState {
  return loadRegistry(join(root, 'registry.json'), root).state;
}

function loaded(state: RegistryState) {
  assert.equal(state.kind, 'loaded', JSON.stringify(state).slice(0, 400));
  return (state as Extract<RegistryState, { kind: 'loaded' }>).registry;
}

function envelope(urn: string, data: unknown): string {
  return JSON.stringify({ job: urn, trace_id: '879d3f59-ee5b-4906-a1ca-d48ee72daa1d', data, meta: { id: '38e69665-58a3-4fd5-9410-76043454db83', queue: 'q', lang: 'node', schema_version: 1, created_at: 1773480413412 }, attempts: 0 }, null, 2);
}

/** Runs `fn` and returns its result with the milliseconds it took. */
function timed<T>(fn: () => T): [T, number] {
  const started = performance.now();
  const value = fn();
  return [value, performance.now() - started];
}

describe('hostile registries: reported and bounded, never a hang', () => {
  test('a pattern catastrophic for backtracking ((a+)+$) against 100,000 characters validates in milliseconds', () => {
    const root = workspace({
      evil: {
        type: 'object',
        properties: { s: { type: 'string', pattern: '(a+)+$' }, e: { type: 'string', format: 'email' }, h: { type: 'string', format: 'hostname' }, u: { type: 'string', format: 'uri' } },
        patternProperties: { '^(a|aa)+$': { type: 'integer' } },
      },
    });
    const state = load(root);
    assert.deepEqual(loaded(state).problems, []);
    const long = 'a'.repeat(100_000);
    const text = envelope('urn:babel:t:evil', { s: `${long}!`, e: `${long}@${long}!`, h: `${long}!`, u: `http://${long}!`, [`${long}!`]: 'x', [long]: 'not an integer' });
    const [diagnostics, ms] = timed(() => analyzeText(text, undefined, state));
    assert.ok(ms < 3000, `analysis took ${ms.toFixed(0)} ms`);
    const messages = diagnostics.filter((d) => d.code === 'payload-schema').map((d) => d.message);
    assert.ok(messages.some((m) => m.includes('must match the pattern (a+)+$')), messages.join('\n'));
    assert.ok(messages.some((m) => m.includes('must be an integer')), messages.join('\n'));
    // Completion, hover and the example generator read patterns too.
    const doc = parseJson(text);
    for (const offset of [10, text.indexOf('"s"') + 1, text.length >> 1]) {
      complete(doc, offset, FRESH, state);
      hover(doc, offset, state);
    }
    const [, exampleMs] = timed(() => newEnvelopeText({ urn: 'urn:babel:t:evil', schema: { type: 'object', required: [`${'a'.repeat(40)}!`], patternProperties: { '^(a+)+$': { type: 'string', pattern: '^(a|a)+$' } } }, fresh: FRESH }));
    assert.ok(exampleMs < 1000, `New Envelope took ${exampleMs.toFixed(0)} ms`);
  });

  test(`patterns above ${MAX_PATTERN_CHARACTERS.toLocaleString('en')} characters together, one of 1 MB or 500 patternProperties keys of 2 KB: refused before anything is compiled, in words, at their place`, () => {
    const root = workspace({
      one: { type: 'object', properties: { s: { type: 'string', pattern: '[ab]*'.repeat(200_000) } } },
      many: { type: 'object', patternProperties: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`${'[ab]*'.repeat(400)}${i}`, { type: 'string' }])) },
      fits: { type: 'object', properties: { s: { type: 'string', pattern: `^${'[ab]*'.repeat(3_000)}$` } } },
    });
    const [state, ms] = timed(() => load(root));
    assert.ok(ms < 3000, `loading took ${ms.toFixed(0)} ms`);
    const problems = loaded(state).problems.map((problem) => problem.message);
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0], /"pattern" at \/properties\/s brings the schema's patterns to more than 16,384 characters together \(1,000,000 in this one: "\[ab\]\*\[ab\]\*.{0,80}…\); compiling that much/);
    assert.match(problems[1], /the "patternProperties" key at the schema root brings the schema's patterns to more than 16,384 characters together \(2,001 in this one/);
    assert.ok(problems.every((message) => message.length < 1000), 'the message quotes the start of the pattern only');
    assert.ok(analyzeText(envelope('urn:babel:t:fits', { s: 'c' }), undefined, state).some((d) => d.code === 'payload-schema'), 'a long pattern within the bound still validates');
  });

  test('a lookahead or backreference (no linear-time engine runs them) is a registry problem that says so', () => {
    const root = workspace({ look: { type: 'string', pattern: '^(?!admin)[a-z]+$' }, back: { type: 'object', patternProperties: { '^(a)\\1$': {} } } });
    const registry = loaded(load(root));
    assert.equal(registry.problems.length, 2);
    for (const problem of registry.problems) assert.match(problem.message, /linear-time regex engine/);
    const diagnostics = analyzeText(envelope('urn:babel:t:look', 'x'), undefined, load(root));
    assert.ok(diagnostics.some((d) => d.code === 'registry-error' && /lookahead/.test(d.message)));
  });

  test('$ref cycles: a loop that never steps into the data is refused; recursion through properties validates', () => {
    const root = workspace({
      self: { $ref: '#' },
      pair: { definitions: { a: { $ref: '#/definitions/b' }, b: { allOf: [{ $ref: '#/definitions/a' }] } }, $ref: '#/definitions/a' },
      tree: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } }, required: ['name'] },
    });
    const [state, ms] = timed(() => load(root));
    assert.ok(ms < 2000, `loading took ${ms.toFixed(0)} ms`);
    const registry = loaded(state);
    const byUrn = (urn: string) => registry.byUrn.get(urn)!.schema!;
    assert.match(byUrn('urn:babel:t:self').error ?? '', /leads back to the schema root .* without stepping into the data/);
    assert.match(byUrn('urn:babel:t:pair').error ?? '', /without stepping into the data/);
    assert.ok(byUrn('urn:babel:t:tree').compiled);
    const tree = { name: 'root', children: [{ name: 'a', children: [{ children: [] }] }] };
    const diagnostics = analyzeText(envelope('urn:babel:t:tree', tree), undefined, state);
    const payload = diagnostics.filter((d) => d.code === 'payload-schema');
    assert.equal(payload.length, 1, JSON.stringify(payload));
    assert.match(payload[0].message, /"name"/);
    for (const urn of ['urn:babel:t:self', 'urn:babel:t:pair']) {
      const text = envelope(urn, { a: { b: 1 } });
      assert.ok(analyzeText(text, undefined, state).some((d) => d.code === 'registry-error'));
      const doc = parseJson(text);
      for (let offset = 0; offset < text.length; offset += 7) {
        complete(doc, offset, FRESH, state);
        hover(doc, offset, state);
      }
      newEnvelopeText({ urn, schema: registry.byUrn.get(urn)!.schema!.value, fresh: FRESH });
    }
  });

  test('a 50 MB schema file is refused unread with its size; the other entries still validate', () => {
    const big = `{"type":"object","description":"${'x'.repeat(50 * 1024 * 1024)}"}`;
    const root = workspace({ big, small: { type: 'object', required: ['id'] } });
    const [state, ms] = timed(() => load(root));
    assert.ok(ms < 2000, `loading took ${ms.toFixed(0)} ms`);
    const registry = loaded(state);
    assert.equal(registry.problems.length, 1);
    assert.match(registry.problems[0].message, new RegExp(`is 50\\.0 MiB, above the ${(MAX_SCHEMA_FILE_BYTES / 1024 / 1024).toFixed(1)} MiB this tool reads; it was not read`));
    const diagnostics = analyzeText(envelope('urn:babel:t:big', {}), undefined, state);
    assert.ok(diagnostics.some((d) => d.code === 'registry-error' && /50\.0 MiB/.test(d.message)));
    assert.ok(analyzeText(envelope('urn:babel:t:small', {}), undefined, state).some((d) => d.code === 'payload-schema'));
  });

  test(`schema files each within their bound but above ${MAX_SCHEMA_BYTES_TOGETHER / 1024 / 1024} MB together: the ones past it are refused unread, with why; the others still validate`, () => {
    // Eight of 4.5 MB each: three fit, the rest would have been parsed and compiled one after the other.
    const large = (index: number) => `{"type":"object","required":["n${index}"],"description":"${'x'.repeat(4.5 * 1024 * 1024)}"}`;
    const root = workspace({ ...Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`large${index}.json`, large(index)])), small: { type: 'object', required: ['id'] } });
    const [state, ms] = timed(() => load(root));
    assert.ok(ms < 10_000, `loading took ${ms.toFixed(0)} ms`);
    const registry = loaded(state);
    assert.deepEqual(registry.problems.map((problem) => problem.message), [3, 4, 5, 6, 7].map((index) => `The schema file ${join(root, 'schemas', `large${index}.json`)} would bring the registry's schema files above 16.0 MiB together, more than this tool reads for one registry; it was not read (that much schema stalls the editor while it is compiled).`));
    assert.ok(analyzeText(envelope('urn:babel:t:small', {}), undefined, state).some((d) => d.code === 'payload-schema'), 'a small file after the bound was reached still fits');
    assert.ok(analyzeText(envelope('urn:babel:t:large2', {}), undefined, state).some((d) => d.code === 'payload-schema' && d.message.includes('n2')));
    assert.ok(analyzeText(envelope('urn:babel:t:large3', {}), undefined, state).some((d) => d.code === 'registry-error' && d.message.includes('above 16.0 MiB together')));
  });

  test('a 40 MB registry.json is a broken registry with its size, not a stall', () => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-hostile-'));
    roots.push(root);
    writeFileSync(join(root, 'registry.json'), `{"schemas":[],"padding":"${'x'.repeat(40 * 1024 * 1024)}"}`);
    const [state, ms] = timed(() => load(root));
    assert.ok(ms < 2000, `loading took ${ms.toFixed(0)} ms`);
    assert.equal(state.kind, 'broken');
    assert.match((state as { error: string }).error, /^registry\.json is 40\.0 MiB, above the 32\.0 MiB this tool reads/);
  });

  test('100,000 entries load in seconds; lookups, unknown-URN suggestions and completion stay fast', () => {
    const entries = Array.from({ length: 100_000 }, (_, i) => ({ urn: `urn:babel:bulk:event${i}`, schema: `schemas/s${i % 100}.json` }));
    const schemas = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`s${i}.json`, { type: 'object', properties: { n: { type: 'integer', minimum: i } }, required: ['n'] }]));
    const root = workspace(schemas, entries);
    const [state, ms] = timed(() => load(root));
    assert.ok(ms < 10_000, `loading took ${ms.toFixed(0)} ms`);
    assert.equal(loaded(state).entries.length, 100_000);
    const [known, knownMs] = timed(() => analyzeText(envelope('urn:babel:bulk:event99999', { n: 1 }), undefined, state));
    assert.ok(known.some((d) => d.code === 'payload-schema' && /≥ 99/.test(d.message)), JSON.stringify(known));
    const [unknown, unknownMs] = timed(() => analyzeText(envelope('urn:babel:bulk:event9999x', { n: 1 }), undefined, state));
    assert.ok(unknown.some((d) => d.code === 'unknown-urn' && /Did you mean/.test(d.message)));
    const text = envelope('urn:babel:bulk:', {});
    const [items, completeMs] = timed(() => complete(parseJson(text), text.indexOf('urn:babel:bulk:') + 3, FRESH, state));
    assert.ok(items.length > 0);
    for (const [what, taken] of [['known URN', knownMs], ['unknown URN', unknownMs], ['URN completion', completeMs]] as const) assert.ok(taken < 3000, `${what} took ${taken.toFixed(0)} ms`);
  });

  test(`more than ${EAGER_COMPILE_LIMIT} distinct schema files: the rest compile on first use, errors included`, () => {
    const count = EAGER_COMPILE_LIMIT + 300;
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) schemas[`e${i}.json`] = { type: 'object', properties: { n: { type: 'integer', maximum: i } } };
    schemas[`e${count - 1}.json`] = { type: 'object', properties: { n: { type: 'integr' } } };
    const state = load(workspace(schemas));
    const registry = loaded(state);
    // Compile errors of lazily compiled schemas show where a fixture uses them, not on registry.json.
    assert.deepEqual(registry.problems, []);
    const late = analyzeText(envelope(`urn:babel:t:e${count - 2}`, { n: count }), undefined, state);
    assert.ok(late.some((d) => d.code === 'payload-schema' && d.message.includes(`≤ ${count - 2}`)), JSON.stringify(late));
    const broken = analyzeText(envelope(`urn:babel:t:e${count - 1}`, { n: 1 }), undefined, state);
    assert.ok(broken.some((d) => d.code === 'registry-error' && d.message.includes('"integr"')), JSON.stringify(broken));
  });

  test(`more than ${MAX_SCHEMA_FILES} distinct schema files: the rest are refused unread, said once on registry.json, not once per entry`, () => {
    const past = 2000;
    const root = workspace({ 'real.json': { type: 'object', required: ['id'] } });
    // Files that do not exist: each one named costs a lookup and an error, which is what the bound stops.
    const entries = [{ urn: 'urn:babel:t:real', schema: 'schemas/real.json' }];
    for (let i = 1; i < MAX_SCHEMA_FILES + past; i++) entries.push({ urn: `urn:babel:t:m${i}`, schema: `schemas/missing/${i}.json` });
    // Past the bound, a file already read is still every entry's that names it.
    entries.push({ urn: 'urn:babel:t:real-again', schema: 'schemas/real.json' });
    writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: entries }));
    let schemaReads = 0;
    const result = loadRegistry(join(root, 'registry.json'), root, (path, limit) => {
      if (!path.endsWith('registry.json')) schemaReads++;
      return readFromDisk(path, limit);
    });
    assert.equal(schemaReads, MAX_SCHEMA_FILES, 'schema files read');
    assert.equal(result.files.length, 1 + MAX_SCHEMA_FILES, 'files the registry depends on: registry.json and the schema files read');
    const registry = loaded(result.state);
    assert.equal(registry.entries.length, MAX_SCHEMA_FILES + past + 1, 'every entry is kept');
    // The first MAX_REGISTRY_PROBLEMS missing files are listed; the one problem for the files not read, then the count of the rest.
    assert.equal(registry.problems.length, MAX_REGISTRY_PROBLEMS + 2);
    const notRead = registry.problems[MAX_REGISTRY_PROBLEMS];
    assert.equal(notRead.message, `registry.json names more than 50,000 distinct schema files, more than this tool reads for one registry: the schema files of the ${past.toLocaleString('en-US')} entries from here on that name another file were not read (so many files stall the editor while they are read; a real registry names far fewer).`);
    assert.equal(registry.doc.text.slice(notRead.offset, notRead.end), `"schemas/missing/${MAX_SCHEMA_FILES}.json"`);
    assert.match(registry.problems[MAX_REGISTRY_PROBLEMS + 1].message, new RegExp(`^registry\\.json has ${(MAX_SCHEMA_FILES - 1 - MAX_REGISTRY_PROBLEMS).toLocaleString('en-US')} more problems than the 1,000 listed`));
    const unread = analyzeText(envelope(`urn:babel:t:m${MAX_SCHEMA_FILES + past - 1}`, {}), undefined, result.state);
    assert.ok(unread.some((d) => d.code === 'registry-error' && d.message.includes('The schema file was not read: registry.json names more than 50,000 distinct schema files')), JSON.stringify(unread));
    const again = analyzeText(envelope('urn:babel:t:real-again', {}), undefined, result.state);
    assert.ok(again.some((d) => d.code === 'payload-schema' && d.message.includes('id')), JSON.stringify(again));
  });

  test('a payload with a million wrong items: validated up to its first error, not into gigabytes of errors', () => {
    const root = workspace({ list: { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } } } });
    const state = load(root);
    const [many, manyMs] = timed(() => analyzeText(envelope('urn:babel:t:list', { items: new Array(1_000_000).fill(1) }), undefined, state));
    const payload = many.filter((d) => d.code === 'payload-schema');
    assert.equal(payload.length, 2, payload.map((d) => d.message).join('\n'));
    assert.ok(payload.some((d) => d.message.includes(`more than the ${MAX_ALL_ERRORS_VALUES} whose errors are all listed`)), payload.map((d) => d.message).join('\n'));
    assert.ok(manyMs < 20_000, `analysis took ${manyMs.toFixed(0)} ms`);
    const some = analyzeText(envelope('urn:babel:t:list', { items: new Array(2_000).fill(1) }), undefined, state).filter((d) => d.code === 'payload-schema');
    assert.equal(some.length, MAX_SCHEMA_ERRORS + 1);
    assert.ok(some.some((d) => d.message.includes(`${2_000 - MAX_SCHEMA_ERRORS} more schema errors that are not listed`)));
  });

  test('a symbolic-link loop in the schema path is an unreadable schema, reported', () => {
    const root = workspace({});
    symlinkSync(join(root, 'schemas/b.json'), join(root, 'schemas/a.json'));
    symlinkSync(join(root, 'schemas/a.json'), join(root, 'schemas/b.json'));
    writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: [{ urn: 'urn:babel:t:loop', schema: 'schemas/a.json' }] }));
    const registry = loaded(load(root));
    assert.equal(registry.problems.length, 1);
    assert.match(registry.problems[0].message, /cannot be read|symbolic link that loops/i);
  });
});

// The 100,000-entry registry is most of it (about 670 MB while it loads).
test('hostile registries: the peak memory of the class is printed, and bounded', () => {
  const peak = peakRssMb();
  console.log(`hostile registries: peak RSS of the test process ${peak.toFixed(0)} MB`);
  assert.ok(peak < 1536, `peak RSS ${peak.toFixed(0)} MB`);
});
