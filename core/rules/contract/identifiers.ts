/** invalid-uuid and id-equals-trace on trace_id and meta.id, with a fresh UUID as the fix. */
import { isBlank, isUuid } from '../../contract/envelope';
import { replaceValue } from '../../model/property-edits';
import { getValue } from '../../model/tree';
import { defineRule, type Fix, type FixContext } from '../definition';

const UUID_FIXES = 'Replace with a fresh UUID.';

export const rule = defineRule<'invalid-uuid' | 'id-equals-trace'>({
  codes: [
    {
      code: 'invalid-uuid',
      family: 'contract',
      severity: 'warning',
      summary: 'trace_id or meta.id is not a UUID.',
      docs: {
        fires: '`trace_id` or `meta.id` is not a UUID (8-4-4-4-12 hex).',
        instead: 'A UUID (producers mint v4 UUIDs); SDKs accept any non-blank string on decode, so this is a warning.',
        example: { fires: '"trace_id": "trace-123"', clean: '"trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"' },
        fixes: 'Replace with a fresh UUID (for `trace_id` not applied by `--fix`: the fixtures of one chain share it, and a fresh one would cut this one off).',
      },
      fixes: freshUuidFixes,
    },
    {
      code: 'id-equals-trace',
      family: 'contract',
      severity: 'warning',
      summary: 'meta.id equals trace_id.',
      docs: {
        fires: '`meta.id` equals `trace_id` (compared case-insensitively).',
        instead: 'A fresh `meta.id`: it identifies this one message (the dedup key), while `trace_id` correlates the whole chain.',
        example: { fires: '"trace_id": "7b3f9c2a-…", "meta": { "id": "7b3f9c2a-…", … }', clean: '"trace_id": "7b3f9c2a-…", "meta": { "id": "f1e2d3c4-…", … }' },
        fixes: UUID_FIXES,
      },
      fixes: freshUuidFixes,
    },
  ],
  check: (context) => {
    const { root, meta } = context.envelope;
    const traceId = getValue(root, 'trace_id');
    const id = getValue(meta, 'id');
    for (const [name, value] of [['trace_id', traceId], ['meta.id', id]] as const) {
      if (value?.kind === 'string' && !isBlank(value.value) && !isUuid(value.value)) {
        context.report('invalid-uuid', value, `"${name}" is not a UUID (8-4-4-4-12 hex digits, e.g. "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"); SDKs accept any string on decode, but producers mint UUIDs: ${name === 'trace_id' ? 'write the UUID its chain shares, or a fresh one' : 'write a fresh one'} (the quick fix).`);
      }
    }
    // UUIDs compare case-insensitively: "ABC…" and "abc…" are the same identifier.
    if (traceId?.kind === 'string' && id?.kind === 'string' && !isBlank(id.value) && id.value.toLowerCase() === traceId.value.toLowerCase()) {
      context.report('id-equals-trace', id, '"meta.id" equals "trace_id": meta.id identifies this one message (the dedup key), trace_id correlates a whole chain. Mint a fresh meta.id.');
    }
  },
});

function freshUuidFixes({ valueAt, fresh }: FixContext): Fix[] {
  const value = valueAt();
  if (value?.kind !== 'string') return [];
  const name = value.property?.parent.parent ? `meta.${value.property.key}` : value.property?.key ?? 'id';
  // A trace_id ties a chain of messages together: a fresh one would cut this fixture from the others
  // that share it, so fix-all (--fix, fix on save) leaves it to the author; meta.id is this message's own.
  const preferred = name !== 'trace_id';
  return [{ title: `Replace "${name}" with a fresh UUID`, edits: [replaceValue(value, JSON.stringify(fresh.uuid()))], preferred }];
}
