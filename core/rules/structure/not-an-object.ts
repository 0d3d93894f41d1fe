/** not-an-object: the root must be an object. */
import { describeValue } from '../../model/describe-value';
import { defineRule } from '../definition';
import { tokenRange } from '../ranges';

export const rule = defineRule({
  codes: [
    {
      code: 'not-an-object',
      family: 'structure',
      severity: 'error',
      summary: 'The root of the document is not a JSON object.',
      docs: {
        fires: 'The root is not a JSON object. A non-object `data`, `meta` or `dead_letter` is `wrong-type`.',
        instead: 'One JSON object with `job`, `trace_id`, `data`, `meta` and `attempts`.',
        example: { fires: '[{ "job": "urn:babel:orders:created" }]', clean: '{ "job": "urn:babel:orders:created", "trace_id": "…", "data": {}, "meta": { … }, "attempts": 0 }' },
      },
    },
  ],
  check: (context) => {
    const root = context.doc.root;
    if (root && root.kind !== 'object') {
      context.report('not-an-object', tokenRange(root), `The envelope must be a JSON object with job, trace_id, data, meta and attempts; this document is ${describeValue(root)}.`);
    }
  },
});
