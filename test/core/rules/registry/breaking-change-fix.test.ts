/** "Register as a new URN…": the registry edits that mint the next URN for a schema's new shape. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nextSchemaRef, registerNewUrn } from '../../../../core/rules/registry/breaking-change';
import { applyEdits } from '../../../../core/model/edits';
import { readRegistryIndex } from '../../../../core/registry/registry-file';
import { codeActions } from '../../../../core/language/code-actions';
import { parseText } from '../../../../core/parse/parser';
import type { Registry } from '../../../../core/registry/types';
import type { SchemaOwner } from '../../../../core/rules/definition';
import type { CoreDiagnostic } from '../../../../core/rules/diagnostic';
import { stableFresh } from '../../../support/fresh';

const REGISTRY = `{
  "schemas": [
    {
      "urn": "urn:babel:orders:created",
      "schema": "schemas/orders-created.json",
      "owner": "orders",
      "status": "active"
    },
    {
      "urn": "urn:babel:orders:cancelled",
      "schema": "schemas/orders-cancelled.json"
    }
  ]
}
`;

function register(text: string, urn: string): { text: string; urn: string; schemaRef: string } {
  const index = readRegistryIndex(text);
  assert.ok(index.ok);
  const entry = index.entries.find((candidate) => candidate.urn === urn)!;
  const registered = new Set(index.entries.map((candidate) => candidate.urn));
  const registration = registerNewUrn(index.doc, entry, (candidate) => registered.has(candidate));
  assert.ok(registration, 'the entry is found');
  return { text: applyEdits(text, registration.registryEdits), urn: registration.urn, schemaRef: registration.schemaRef };
}

describe('register a new URN', () => {
  test('the next schema file name', () => {
    assert.equal(nextSchemaRef('schemas/orders-created.json'), 'schemas/orders-created.v2.json');
    assert.equal(nextSchemaRef('schemas/orders-created.v2.json'), 'schemas/orders-created.v3.json');
    assert.equal(nextSchemaRef('orders.schema'), 'orders.schema.v2');
  });

  test('an entry with a status: the old one deprecated, the new one copied after it, active, same owner', () => {
    const { text, urn, schemaRef } = register(REGISTRY, 'urn:babel:orders:created');
    assert.equal(urn, 'urn:babel:orders:created.v2');
    assert.equal(schemaRef, 'schemas/orders-created.v2.json');
    const after = JSON.parse(text) as { schemas: Record<string, string>[] };
    assert.deepEqual(after.schemas, [
      { urn: 'urn:babel:orders:created', schema: 'schemas/orders-created.json', owner: 'orders', status: 'deprecated' },
      { urn: 'urn:babel:orders:created.v2', schema: 'schemas/orders-created.v2.json', owner: 'orders', status: 'active' },
      { urn: 'urn:babel:orders:cancelled', schema: 'schemas/orders-cancelled.json' },
    ]);
    // The layout is kept: the new entry is indented as the old one.
    assert.match(text, /\n {4}\{\n {6}"urn": "urn:babel:orders:created\.v2",\n {6}"schema"/);
  });

  test('an entry without a status gets "status": "deprecated" on a line of its own; the registry still reads', () => {
    const { text } = register(REGISTRY, 'urn:babel:orders:cancelled');
    assert.match(text, /"schema": "schemas\/orders-cancelled\.json",\n {6}"status": "deprecated"\n/);
    const index = readRegistryIndex(text);
    assert.ok(index.ok);
    assert.deepEqual(index.entries.map((entry) => [entry.urn, entry.status]), [
      ['urn:babel:orders:created', 'active'],
      ['urn:babel:orders:cancelled', 'deprecated'],
      ['urn:babel:orders:cancelled.v2', undefined],
    ]);
  });

  test('a versioned URN moves to the next version', () => {
    const text = REGISTRY.replace('"urn:babel:orders:created"', '"urn:babel:orders:created.v2"').replace('orders-created.json', 'orders-created.v2.json');
    const registered = register(text, 'urn:babel:orders:created.v2');
    assert.equal(registered.urn, 'urn:babel:orders:created.v3');
    assert.equal(registered.schemaRef, 'schemas/orders-created.v3.json');
  });

  test('a next version already registered: the next free one, so the registry keeps one entry per URN', () => {
    const text = REGISTRY.replace('"urn:babel:orders:cancelled"', '"urn:babel:orders:created.v2"').replace('orders-cancelled.json', 'v2/orders.json');
    const registered = register(text, 'urn:babel:orders:created');
    assert.equal(registered.urn, 'urn:babel:orders:created.v3');
    assert.equal(registered.schemaRef, 'schemas/orders-created.v3.json');
    const index = readRegistryIndex(registered.text);
    assert.ok(index.ok, index.ok ? '' : index.error);
    assert.equal(new Set(index.entries.map((entry) => entry.urn)).size, index.entries.length);
  });

  test('a CRLF registry stays CRLF', () => {
    const { text } = register(REGISTRY.replace(/\n/g, '\r\n'), 'urn:babel:orders:cancelled');
    assert.ok(!/[^\r]\n/.test(text), 'no bare LF added');
    assert.ok(readRegistryIndex(text).ok);
  });

  test('a registry whose lines end in a lone CR is laid out as the LF one, with CR line breaks', () => {
    for (const urn of ['urn:babel:orders:cancelled', 'urn:babel:orders:created']) {
      const lf = register(REGISTRY, urn).text;
      assert.equal(register(REGISTRY.replace(/\n/g, '\r'), urn).text, lf.replace(/\n/g, '\r'), urn);
    }
  });
});

describe('the fix as the definition offers it (codeActions with the schema file\'s owners)', () => {
  const SCHEMA = '{ "type": "object", "properties": { "order_id": { "type": "string" } } }\n';
  const finding: CoreDiagnostic = { code: 'breaking-change', severity: 'error', message: 'type changed', offset: 2, end: 8 };
  function owners(text: string): SchemaOwner[] {
    const index = readRegistryIndex(text);
    assert.ok(index.ok);
    const entries = index.entries.map((entry) => ({ ...entry }));
    const registry: Registry = { path: '/project/registry.json', doc: index.doc, entries, byUrn: new Map(entries.map((entry) => [entry.urn, entry])), problems: [] };
    return entries.filter((entry) => entry.urn === 'urn:babel:orders:created').map((entry) => ({ registry, entry }));
  }

  test('one preferred fix per owner: the schema as typed created beside registry.json, and registry.json edited', () => {
    const [action, ...rest] = codeActions(parseText(SCHEMA), [finding], stableFresh(), undefined, owners(REGISTRY));
    assert.equal(rest.length, 0);
    assert.equal(action.title, 'Register as a new URN: urn:babel:orders:created.v2 with schemas/orders-created.v2.json (this shape), urn:babel:orders:created deprecated');
    assert.equal(action.isPreferred, true);
    assert.deepEqual(action.edits, []);
    const [create, edit] = action.otherFiles!;
    assert.deepEqual(create, { kind: 'create', beside: '/project/registry.json', ref: 'schemas/orders-created.v2.json', text: SCHEMA });
    assert.equal(edit.kind, 'edit');
    assert.ok(edit.kind === 'edit' && applyEdits(edit.text, edit.edits).includes('"urn": "urn:babel:orders:created.v2"'));
  });

  test('no fix without an owner, nor for an entry already deprecated (its successor carries the new shape)', () => {
    assert.deepEqual(codeActions(parseText(SCHEMA), [finding], stableFresh(), undefined, []), []);
    const deprecated = REGISTRY.replace('"status": "active"', '"status": "deprecated"');
    assert.deepEqual(codeActions(parseText(SCHEMA), [finding], stableFresh(), undefined, owners(deprecated)), []);
  });
});
