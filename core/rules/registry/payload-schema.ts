/** payload-schema: `data` against the URN's registered draft-07 schema, each failure on its exact token. */
import { toJsValue } from '../../model/js-value';
import { columnsOf, documentPlainValue } from '../../parse/document';
import { mapSchemaErrors } from '../../registry/schema-errors';
import { defineRule } from '../definition';
import { payloadEntry } from './payload-entry';

export const rule = defineRule({
  codes: [
    {
      code: 'payload-schema',
      family: 'registry',
      severity: 'error',
      summary: 'data fails the URN’s registered JSON Schema.',
      docs: {
        fires:
          '`data` fails the URN\'s draft-07 JSON Schema (ajv, compiled once per schema); one diagnostic per failure on the value (`type`, `enum`, `const`, bounds, lengths, `pattern`, `format`), on the key (`additionalProperties`), or on the object\'s key for a missing `required` field.',
        instead: 'A payload the schema accepts; the message says what the schema asks for at that place.',
        example: { fires: '"data": { "order_id": "1042" }', clean: '"data": { "order_id": 1042 }' },
      },
    },
  ],
  check: (context) => {
    const found = payloadEntry(context);
    if (!found) return;
    const { entry, compiled, data, dataProperty } = found;
    const parsed = columnsOf(data);
    // Straight from the parser's columns: the payload is built for ajv only when they cannot vouch
    // for it (after typing in a string value, derived from the previous version's where there is one).
    const errors = parsed
      ? compiled.validateParsed(parsed.columns, parsed.text, parsed.slot, () => documentPlainValue(parsed.document, parsed.slot))
      : compiled.validate(toJsValue(data));
    for (const problem of mapSchemaErrors(data, dataProperty, errors)) {
      context.report('payload-schema', problem, `${problem.message} (schema of ${entry.urn})`);
    }
  },
});
