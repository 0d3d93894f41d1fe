/** unsupported-schema-version: an integer schema_version other than 1. */
import { getValue } from '../../model/tree';
import { defineRule } from '../definition';

export const rule = defineRule({
  codes: [
    {
      code: 'unsupported-schema-version',
      family: 'contract',
      severity: 'error',
      summary: 'meta.schema_version is an integer other than 1.',
      docs: {
        fires: '`meta.schema_version` is an integer other than `1`.',
        instead: '`"schema_version": 1`: the envelope is frozen at 1, and consumers reject or quarantine any other version.',
        example: { fires: '"schema_version": 2', clean: '"schema_version": 1' },
      },
    },
  ],
  check: (context) => {
    const version = getValue(context.envelope.meta, 'schema_version');
    if (version?.kind === 'number' && version.isIntegerLiteral && version.value !== 1) {
      context.report('unsupported-schema-version', version, `schema_version ${version.raw} is not supported: the envelope is frozen at 1, and consumers must reject or quarantine any other version. Write 1.`);
    }
  },
});
