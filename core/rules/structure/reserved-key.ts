/** reserved-key: `__bq_frame` at the top level, the Redis header frame's sentinel. */
import { RESERVED_ROOT_KEY } from '../../contract/envelope';
import { removeProperty } from '../../model/property-edits';
import { getProperty } from '../../model/tree';
import { defineRule } from '../definition';
import { keyRange } from '../ranges';

export const rule = defineRule({
  codes: [
    {
      code: 'reserved-key',
      family: 'structure',
      severity: 'error',
      summary: 'A top-level __bq_frame key, reserved for the Redis header frame.',
      docs: {
        fires: 'A top-level `__bq_frame` key (reserved for the Redis header frame).',
        instead: 'Nothing under that name: consumers take a stored value with `__bq_frame` for a transport frame around an envelope, not for an envelope.',
        example: { fires: '{ "__bq_frame": 1, "job": "urn:babel:orders:created", … }', clean: '{ "job": "urn:babel:orders:created", … }' },
        fixes: 'Remove `__bq_frame`.',
      },
      fixes: ({ doc, propertyAtKey }) => {
        const property = propertyAtKey();
        return property ? [{ title: `Remove the reserved "${property.key}" key`, edits: [removeProperty(doc, property)] }] : [];
      },
    },
  ],
  check: (context) => {
    const { root } = context.envelope;
    const reserved = getProperty(root, RESERVED_ROOT_KEY);
    if (reserved) {
      context.report('reserved-key', keyRange(reserved), `"${RESERVED_ROOT_KEY}" is reserved for the Redis header frame that wraps an envelope; a frozen envelope never carries it. Remove it.`);
    }
  },
});
