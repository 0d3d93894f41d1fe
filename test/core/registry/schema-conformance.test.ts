/**
 * The cross-SDK payload-schema cases (`payload_schema` in the conformance manifest): every SDK's
 * validator must agree on `valid`, and so must ours, or the editor would flag payloads the
 * services accept (or pass ones they reject).
 *
 * CI points `BABELQ_CONFORMANCE_DIR` at the suite; the corpus is not copied into this repository.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { parseJson } from '../../../core/parse/parser';
import { toJsValue } from '../../../core/model/js-value';
import { compileSchema } from '../../../core/registry/schema-compiler';
import { mapSchemaErrors } from '../../../core/registry/schema-errors';
import { asObject, getProperty } from '../../../core/model/tree';

const ENV_VAR = 'BABELQ_CONFORMANCE_DIR';

interface PayloadCase {
  readonly name: string;
  readonly valid: boolean;
  readonly data: unknown;
}

function readPayloadBlock(dir: string): { schema: unknown; cases: PayloadCase[] } {
  const path = join(dir, 'manifest.json');
  assert.ok(existsSync(path), `${ENV_VAR}=${dir} has no manifest.json`);
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { payload_schema?: { schema?: unknown; cases?: unknown } };
  const block = manifest.payload_schema;
  assert.ok(block && typeof block === 'object', 'manifest.json has no "payload_schema" block');
  assert.ok(typeof block.schema === 'object' && block.schema !== null, '"payload_schema" has no schema object');
  assert.ok(Array.isArray(block.cases) && block.cases.length > 0, '"payload_schema" lists no cases');
  const cases = block.cases.map((raw, index) => {
    const entry = raw as Partial<PayloadCase>;
    assert.ok(typeof entry.name === 'string' && typeof entry.valid === 'boolean' && 'data' in entry, `payload_schema case #${index} needs a string name, a boolean valid and data`);
    return entry as PayloadCase;
  });
  return { schema: block.schema, cases };
}

const configured = process.env[ENV_VAR];

if (!configured) {
  test('payload_schema conformance cases', (t) => {
    const message = `${ENV_VAR} is not set: payload_schema conformance cases not run`;
    console.log(`SKIPPED: ${message} (set it to the conformance suite folder to run them)`);
    t.skip(message);
  });
} else {
  const { schema, cases } = readPayloadBlock(resolve(configured));
  const result = compileSchema(schema);

  test('payload_schema: the shared schema compiles', () => {
    assert.ok('compiled' in result, `the conformance schema must compile: ${'error' in result ? result.error : ''}`);
  });

  for (const entry of cases) {
    test(`payload_schema ${entry.valid ? 'valid' : 'invalid'}: ${entry.name}`, () => {
      assert.ok('compiled' in result, 'the conformance schema does not compile');
      const errors = result.compiled.validate(entry.data);
      const summary = errors.map((e) => `${e.keyword} at "${e.instancePath}": ${e.message}`).join('; ');
      assert.equal(errors.length === 0, entry.valid, `case ${entry.name}: expected ${entry.valid ? 'valid' : 'invalid'}, got ${summary || 'no errors'}`);

      // The same data as a fixture: the problems must land inside "data", on text that exists.
      const text = `{"data": ${JSON.stringify(entry.data, null, 2)}}`;
      const property = getProperty(asObject(parseJson(text).root), 'data')!;
      const mapped = mapSchemaErrors(property.value!, property, result.compiled.validate(toJsValue(property.value!)));
      if (entry.valid) {
        assert.deepEqual(mapped, []);
        return;
      }
      assert.ok(mapped.length > 0, `case ${entry.name}: no mapped problem`);
      for (const problem of mapped) {
        assert.ok(problem.offset >= property.keyOffset && problem.end <= property.value!.end && problem.offset < problem.end, `case ${entry.name}: range ${problem.offset}-${problem.end} is outside "data"`);
        assert.ok(problem.message.length > 0);
      }
    });
  }
}
