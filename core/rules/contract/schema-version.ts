/** unsupported-schema-version: an integer schema_version other than 1. */
import { literalAsIntN } from '../../encode/numbers';
import { getValue } from '../../model/tree';
import { numberLiteral } from '../../model/describe-value';
import { defineRule } from '../definition';

export const rule = defineRule({
  codes: [
    {
      code: 'unsupported-schema-version',
      family: 'contract',
      severity: 'error',
      summary: 'meta.schema_version is an integer other than 1.',
      docs: {
        fires: '`meta.schema_version` is an integer other than `1`. Where the Java consumer, which reads the low 32 bits (`intValue()`), reads it as 1 (`4294967297`), the message says so: the contract rejects it, the Java consumer accepts it, the others reject it.',
        instead: '`"schema_version": 1`: the envelope is frozen at 1, and consumers reject or quarantine any other version.',
        example: { fires: '"schema_version": 2', clean: '"schema_version": 1' },
      },
    },
  ],
  check: (context) => {
    const version = getValue(context.envelope.meta, 'schema_version');
    if (version?.kind === 'number' && version.isIntegerLiteral && version.value !== 1) {
      // Java reads the version with intValue(), its low 32 bits: 4294967297 passes its gate as 1,
      // while PHP, Python, Node and Go reject it (facts part 2, §2).
      const java = literalAsIntN(32, version.raw) === 1n ? ' PHP, Python, Node and Go reject it, but the Java consumer accepts it as 1 (intValue() keeps the low 32 bits).' : '';
      context.report('unsupported-schema-version', version, `schema_version ${numberLiteral(version.raw)} is not supported: the envelope is frozen at 1, and consumers must reject or quarantine any other version.${java} Write 1.`);
    }
  },
});
