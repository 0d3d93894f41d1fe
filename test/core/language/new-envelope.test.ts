/**
 * newEnvelopeText: for every URN in the example registries the new envelope lints clean (with
 * and without the registry's rules), its data validates, and it holds only what the schema
 * requires. Also: registry.schema.json accepts those registries and refuses broken entries.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import Ajv from 'ajv';
import { analyzeText } from '../../../core/rules/analyze';
import type { CoreDiagnostic } from '../../../core/rules/diagnostic';
import { isUuid } from '../../../core/contract/envelope';
import type { Fresh } from '../../../core/model/fresh';
import { urnContext } from '../../../core/contract/urn';
import { newEnvelopeText, pickOrder } from '../../../core/language/new-envelope';
import { parseJson } from '../../../core/parse/parser';
import { compileSchema } from '../../../core/registry/schema-compiler';
import { DEPRECATED_STATUSES, type Registry, type RegistryEntry, type RegistryState } from '../../../core/registry/types';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';

const NOW = Date.UTC(2026, 2, 14, 9, 26, 51);

/** Distinct, valid v4 UUIDs in order, and a fixed clock. */
function counterFresh(now = NOW): Fresh {
  let next = 0;
  return { uuid: () => `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`, now: () => now };
}

interface ExampleEntry {
  readonly urn: string;
  readonly status?: string;
  readonly owner?: string;
  readonly schema: Record<string, unknown>;
}

// The external registry example comes only from the variable .ci/run sets; without it only examples/ is used.
const REGISTRY_DIRS = [resolve('examples'), ...(process.env.BABELQ_REGISTRY_EXAMPLE_DIR ? [resolve(process.env.BABELQ_REGISTRY_EXAMPLE_DIR)] : [])].filter((dir) => existsSync(join(dir, 'registry.json')));
if (!process.env.BABELQ_REGISTRY_EXAMPLE_DIR) console.log('BABELQ_REGISTRY_EXAMPLE_DIR is not set: new envelopes were checked against examples/ only.');

function readEntries(dir: string): ExampleEntry[] {
  const registry = JSON.parse(readFileSync(join(dir, 'registry.json'), 'utf8')) as { schemas: { urn: string; schema: string; owner?: string; status?: string }[] };
  return registry.schemas.map((entry) => ({ ...entry, schema: JSON.parse(readFileSync(join(dir, entry.schema), 'utf8')) }));
}

/** A loaded registry holding one entry, so analyzeText runs payload-schema and pii-in-fixture too. */
function registryWith(entry: ExampleEntry): RegistryState {
  const compiled = compileSchema(entry.schema);
  assert.ok('compiled' in compiled, `${entry.urn}: ${'error' in compiled ? compiled.error : ''}`);
  const loaded: RegistryEntry = {
    urn: entry.urn,
    schemaRef: 'schema.json',
    owner: entry.owner,
    status: entry.status,
    offset: 0,
    end: 0,
    urnOffset: 0,
    urnEnd: 0,
    schemaOffset: 0,
    schemaEnd: 0,
    schema: { path: '/virtual/schema.json', value: entry.schema, compiled: compiled.compiled },
  };
  const registry: Registry = { path: '/virtual/registry.json', doc: parseJson('{"schemas":[]}'), entries: [loaded], byUrn: new Map([[entry.urn, loaded]]), problems: [] };
  return { kind: 'loaded', registry };
}

const loud = (diagnostics: readonly CoreDiagnostic[]) => diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning').map((d) => `${d.code}: ${d.message}`);

/** An independent check of a payload against the schema subset bqschema implements. */
function subsetProblems(schema: unknown, value: unknown, path = 'data'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as Record<string, any>;
  const problems: string[] = [];
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value)) problems.push(`${path}: not the const`);
  if (Array.isArray(s.enum) && !s.enum.some((option: unknown) => JSON.stringify(option) === JSON.stringify(value))) problems.push(`${path}: not in enum`);
  const typeOk: Record<string, (v: unknown) => boolean> = {
    object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
    array: Array.isArray,
    string: (v) => typeof v === 'string',
    integer: Number.isInteger,
    number: (v) => typeof v === 'number',
    boolean: (v) => typeof v === 'boolean',
    null: (v) => v === null,
  };
  if (typeof s.type === 'string' && !typeOk[s.type]?.(value)) return [...problems, `${path}: not ${s.type}`];
  if (typeof value === 'number' && typeof s.minimum === 'number' && value < s.minimum) problems.push(`${path}: below minimum`);
  if (typeof value === 'string' && typeof s.minLength === 'number' && Array.from(value).length < s.minLength) problems.push(`${path}: shorter than minLength`);
  if (typeOk.object(value)) {
    const record = value as Record<string, unknown>;
    const required: string[] = Array.isArray(s.required) ? s.required : [];
    // Exactly the required keys: optional ones are the user's to add.
    assert.deepEqual(Object.keys(record).sort(), [...required].sort(), `${path}: keys`);
    for (const key of Object.keys(record)) problems.push(...subsetProblems(s.properties?.[key], record[key], `${path}.${key}`));
  }
  if (Array.isArray(value)) value.forEach((item, index) => problems.push(...subsetProblems(s.items, item, `${path}[${index}]`)));
  return problems;
}

describe('newEnvelopeText for every example registry entry', () => {
  test('the example registries are there to test against', () => {
    assert.ok(REGISTRY_DIRS.length >= 1 && REGISTRY_DIRS.some((dir) => dir.endsWith('examples')), REGISTRY_DIRS.join(', '));
    assert.ok(readEntries(REGISTRY_DIRS[0]).length >= 5);
  });

  for (const dir of REGISTRY_DIRS) {
    for (const entry of readEntries(dir)) {
      test(`${entry.urn} (${dir.split('/').slice(-1)[0]})`, () => {
        const text = newEnvelopeText({ urn: entry.urn, schema: entry.schema, fresh: counterFresh() });
        assert.deepEqual(loud(analyzeText(text)), [], text);

        // With the registry: payload-schema, pii-in-fixture and the rest must stay quiet too,
        // except the registry's own verdict on a deprecated URN.
        const withRegistry = analyzeText(text, DEFAULT_SETTINGS, registryWith(entry));
        const deprecated = DEPRECATED_STATUSES.includes(entry.status ?? '');
        assert.deepEqual(loud(withRegistry.filter((d) => d.code !== 'deprecated-urn')), [], text);
        assert.equal(withRegistry.some((d) => d.code === 'deprecated-urn'), deprecated, 'the registry rules ran');
        assert.deepEqual(withRegistry.filter((d) => d.code === 'pii-in-fixture').map((d) => d.message), [], 'sensitive fields are masked');

        const data = (JSON.parse(text) as { data: unknown }).data;
        assert.deepEqual(subsetProblems(entry.schema, data), []);
        const compiled = compileSchema(entry.schema);
        assert.ok('compiled' in compiled);
        assert.deepEqual(compiled.compiled.validate(data), []);
      });
    }
  }
});

describe('newEnvelopeText: the envelope', () => {
  const ORDER_SCHEMA = { type: 'object', required: ['order_id'], properties: { order_id: { type: 'integer', minimum: 1 } } };

  test('core fields in contract order, fresh ids that differ, now, attempts 0, schema_version 1', () => {
    const text = newEnvelopeText({ urn: 'urn:babel:orders:created', schema: ORDER_SCHEMA, fresh: counterFresh() });
    const envelope = JSON.parse(text);
    assert.deepEqual(Object.keys(envelope), ['job', 'trace_id', 'data', 'meta', 'attempts']);
    assert.deepEqual(Object.keys(envelope.meta), ['id', 'queue', 'lang', 'schema_version', 'created_at']);
    assert.equal(envelope.job, 'urn:babel:orders:created');
    assert.ok(isUuid(envelope.trace_id) && isUuid(envelope.meta.id));
    assert.notEqual(envelope.trace_id, envelope.meta.id);
    assert.deepEqual(envelope.data, { order_id: 1 });
    assert.deepEqual(envelope.meta, { id: envelope.meta.id, queue: 'orders', lang: 'node', schema_version: 1, created_at: NOW });
    assert.equal(envelope.attempts, 0);
  });

  test('pretty-printed with two spaces by default, one trailing newline', () => {
    const text = newEnvelopeText({ urn: 'urn:babel:orders:created', fresh: counterFresh() });
    assert.ok(text.startsWith('{\n  "job": "urn:babel:orders:created",\n'), text);
    assert.ok(text.endsWith('}\n') && !text.endsWith('\n\n'));
  });

  test('indent is honoured', () => {
    const text = newEnvelopeText({ urn: 'urn:babel:orders:created', fresh: counterFresh(), indent: '\t' });
    assert.ok(text.includes('\n\t"trace_id"') && text.includes('\n\t\t"queue": "orders"'), text);
  });

  test('without a schema, data is {} and the envelope has no error or warning (PHP\'s [] for empty data is information)', () => {
    const text = newEnvelopeText({ urn: 'urn:babel:billing:invoice.paid', fresh: counterFresh() });
    assert.deepEqual(JSON.parse(text).data, {});
    const found = analyzeText(text);
    assert.deepEqual(loud(found), []);
    assert.deepEqual(found.filter((d) => d.code === 'encoding-divergence').map((d) => [d.severity, text.slice(d.offset, d.end)]), [['information', '{']]);
  });

  test('a schema for something other than an object still yields an object data', () => {
    const text = newEnvelopeText({ urn: 'urn:babel:orders:created', schema: { type: 'string' }, fresh: counterFresh() });
    assert.deepEqual(JSON.parse(text).data, {});
  });

  test('queue and lang: given values win, blank ones fall back', () => {
    const given = JSON.parse(newEnvelopeText({ urn: 'urn:babel:orders:created', fresh: counterFresh(), queue: 'orders-high', lang: 'php' }));
    assert.equal(given.meta.queue, 'orders-high');
    assert.equal(given.meta.lang, 'php');
    const blank = JSON.parse(newEnvelopeText({ urn: 'urn:babel:orders:created', fresh: counterFresh(), queue: ' ', lang: '' }));
    assert.equal(blank.meta.queue, 'orders');
    assert.equal(blank.meta.lang, 'node');
  });

  test('a URN without a context gets the default queue', () => {
    assert.equal(JSON.parse(newEnvelopeText({ urn: 'not-a-urn', fresh: counterFresh() })).meta.queue, 'default');
  });

  test('meta.id differs from trace_id even when the UUID source repeats itself once', () => {
    const values = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    const fresh: Fresh = { uuid: () => values.shift() ?? 'exhausted', now: () => NOW };
    const envelope = JSON.parse(newEnvelopeText({ urn: 'urn:babel:orders:created', fresh }));
    assert.equal(envelope.trace_id, '00000000-0000-4000-8000-000000000001');
    assert.equal(envelope.meta.id, '00000000-0000-4000-8000-000000000002');
  });

  test('created_at is whole milliseconds and date-times in data show the same instant', () => {
    const fresh: Fresh = { ...counterFresh(), now: () => NOW + 0.75 };
    const schema = { type: 'object', required: ['placed_at'], properties: { placed_at: { type: 'string', format: 'date-time' } } };
    const envelope = JSON.parse(newEnvelopeText({ urn: 'urn:babel:orders:created', schema, fresh }));
    assert.equal(envelope.meta.created_at, NOW);
    assert.equal(Date.parse(envelope.data.placed_at), NOW);
  });
});

describe('urnContext and pickOrder', () => {
  test('urnContext reads the bounded context', () => {
    assert.equal(urnContext('urn:babel:orders:created'), 'orders');
    assert.equal(urnContext('urn:babel:billing:invoice.paid'), 'billing');
    assert.equal(urnContext('urn:babel::created'), undefined);
    assert.equal(urnContext('urn:other:orders:created'), undefined);
    assert.equal(urnContext('App\\Jobs\\OrderCreated'), undefined);
  });

  test('pickOrder keeps registry order and moves deprecated entries last', () => {
    const entries = [
      { urn: 'a', deprecated: true },
      { urn: 'b', deprecated: false },
      { urn: 'c', deprecated: true },
      { urn: 'd', deprecated: false },
    ];
    assert.deepEqual(pickOrder(entries).map((entry) => entry.urn), ['b', 'd', 'a', 'c']);
  });
});

describe('schemas/registry.schema.json', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const validate = ajv.compile(JSON.parse(readFileSync('schemas/registry.schema.json', 'utf8')));
  const errorsOf = (value: unknown) => (validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`));

  test('is valid draft-07 and describes every property (VS Code shows the descriptions on hover)', () => {
    const schema = JSON.parse(readFileSync('schemas/registry.schema.json', 'utf8'));
    assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    const entryProperties = schema.properties.schemas.items.properties;
    assert.deepEqual(Object.keys(entryProperties).sort(), ['owner', 'schema', 'status', 'urn']);
    for (const [name, property] of Object.entries<Record<string, unknown>>(entryProperties)) assert.ok(typeof property.description === 'string' && property.description.length > 20, name);
  });

  test('accepts the example registries', () => {
    for (const dir of REGISTRY_DIRS) assert.deepEqual(errorsOf(JSON.parse(readFileSync(join(dir, 'registry.json'), 'utf8'))), [], dirname(dir));
  });

  test('status is free text, as in bqschema', () => {
    assert.deepEqual(errorsOf({ schemas: [{ urn: 'urn:babel:orders:created', schema: 's.json', status: 'experimental' }] }), []);
  });

  test('refuses what bqschema refuses or the naming rules forbid', () => {
    const bad: { value: unknown; at: string }[] = [
      { value: {}, at: ' must have required property \'schemas\'' },
      { value: { schemas: [{ schema: 's.json' }] }, at: '/schemas/0 must have required property \'urn\'' },
      { value: { schemas: [{ urn: 'urn:babel:orders:created' }] }, at: '/schemas/0 must have required property \'schema\'' },
      { value: { schemas: [{ urn: 'urn:babel:orders:created', schema: '' }] }, at: '/schemas/0/schema must NOT have fewer than 1 characters' },
      { value: { schemas: [{ urn: 'urn:babel:Orders:created', schema: 's.json' }] }, at: '/schemas/0/urn must match pattern' },
      { value: { schemas: [{ urn: 'urn:babel:orders:created.', schema: 's.json' }] }, at: '/schemas/0/urn must match pattern' },
      { value: { schemas: [{ urn: 'urn:babel:orders:created', schema: 's.json', owner: 7 }] }, at: '/schemas/0/owner must be string' },
    ];
    for (const { value, at } of bad) {
      const errors = errorsOf(value);
      assert.ok(errors.some((error) => error.startsWith(at)), `${JSON.stringify(value)}: ${errors.join('; ')}`);
    }
  });
});
