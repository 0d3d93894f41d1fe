/**
 * A registry's schema files as bqschema reads them (Go's encoding/json into map[string]any, then
 * its subset of draft-07): what it refuses is a registry-error with its own cause, and what only
 * draft-07 refuses is told apart from it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadRegistry } from '../../workspace/registry-loader';

const scratch = mkdtempSync(join(tmpdir(), 'babelq-registry-bqschema-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let counter = 0;
/** A registry of one URN whose schema file holds `schema` (a text, written as is). */
function load(schema: string) {
  const root = join(scratch, `ws${++counter}`);
  mkdirSync(join(root, 'schemas'), { recursive: true });
  writeFileSync(join(root, 'schemas', 's.json'), schema);
  writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/s.json' }] }));
  const { state } = loadRegistry(join(root, 'registry.json'), root);
  assert.equal(state.kind, 'loaded');
  if (state.kind !== 'loaded') throw new Error('unreachable');
  return { registry: state.registry, schema: state.registry.entries[0].schema! };
}

describe('a number beyond float64 in a schema file: bqschema cannot read the file and refuses the schema', () => {
  for (const [where, schema, pointer] of [
    ['an enum', '{"type":"object","properties":{"v":{"enum":[1, 1e400]}}}', '/properties/v/enum/1'],
    ['a const', '{"type":"object","properties":{"v":{"const":-1e400}}}', '/properties/v/const'],
    ['a default', '{"type":"integer","default":2e308}', '/default'],
    ['an x- note', '{"type":"object","x-note":1e999}', '/x-note'],
    ['a long integer', `{"type":"integer","maximum":1${'0'.repeat(400)}}`, '/maximum'],
  ] as const) {
    test(`in ${where}`, () => {
      const { registry, schema: loaded } = load(schema);
      assert.equal(loaded.compiled, undefined);
      assert.match(loaded.error!, new RegExp(`bqschema cannot read the number .* at ${pointer} .*beyond float64.*refuses this schema`));
      assert.equal(registry.problems.length, 1);
      assert.equal(registry.problems[0].message, loaded.error);
    });
  }

  test('in "minimum" the cause is the number, not a null that draft-07 would see after JSON.parse', () => {
    const { schema } = load('{"type":"object","properties":{"n":{"type":"integer","minimum":1e400}}}');
    assert.match(schema.error!, /cannot read the number 1e400 at \/properties\/n\/minimum/);
    assert.doesNotMatch(schema.error!, /found null/);
  });

  test('a number that underflows to 0 is read (1e-400), as Go reads it', () => {
    const { schema } = load('{"type":"number","minimum":1e-400}');
    assert.equal(schema.error, undefined);
    assert.ok(schema.compiled);
  });
});
