/** The SARIF 2.1.0 schema as a validator, for the tests that check `--format sarif` documents. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

/** The OASIS schema (draft-04) for ajv's draft-07: the root `id` becomes `$id`; nothing else differs for this schema. */
export function sarifValidator() {
  const path = join(resolve(__dirname, '../..'), 'test', 'fixtures', 'sarif', 'sarif-schema-2.1.0.json');
  const schema = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const { id, $schema: _draft04, ...rest } = schema;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile({ ...rest, $id: id as string });
}
