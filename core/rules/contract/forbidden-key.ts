/** forbidden-key: the contract's forbidden table, at the top level and in meta. */
import { forbiddenKey } from '../../contract/envelope';
import { asEnvelopeScope, scopeOfObject } from '../../contract/scope';
import { decodeTimestampToMs } from '../../contract/timestamps';
import { insertProperty, removeProperty } from '../../model/property-edits';
import { asObject, getProperty, getValue } from '../../model/tree';
import { defineRule, type Fix, type FixContext } from '../definition';
import { keyRange } from '../ranges';

export const rule = defineRule({
  codes: [
    {
      code: 'forbidden-key',
      family: 'contract',
      severity: 'error',
      summary: 'A key from the forbidden table (timestamp, meta.max_retries, meta.attempts, meta.source, meta.ts).',
      docs: {
        fires: 'Top-level `timestamp`; `meta.max_retries`, `meta.attempts`, `meta.source`, `meta.ts` (exact, case-sensitive). The message names the replacement.',
        instead: '`meta.created_at` in Unix milliseconds for a time, `meta.lang` for the producer, the top-level `attempts` counter, a consumer-side retry policy. The contract has encoders reject the forbidden keys and decoders drop them with a warning; the SDK decoders warn about none: PHP, Python and Node keep them and relay them (retry, dead letter, redrive), Go, Java and .NET drop them.',
        example: { fires: '"meta": { …, "ts": 1749132727 }', clean: '"meta": { …, "created_at": 1749132727000 }' },
        fixes: 'Remove the key. A top-level `timestamp` moves into `meta.created_at` (converted to ms from seconds, microseconds or nanoseconds, a number or a string of digits, or an RFC 3339 time) when `created_at` is absent (preferred); without `meta`, the fix that adds it takes that time as its `created_at`.',
      },
      fixes: forbiddenKeyFixes,
    },
  ],
  check: (context) => {
    const { root, meta } = context.envelope;
    for (const [scope, object] of [['root', root], ['meta', meta]] as const) {
      if (!object) continue;
      for (const property of object.properties) {
        const entry = forbiddenKey(scope, property.key);
        if (!entry) continue;
        const where = scope === 'root' ? `"${entry.key}"` : `"meta.${entry.key}"`;
        // The contract's rule, then what the SDK decoders were measured to do (none warns; the dict-based ones relay the key on).
        context.report('forbidden-key', keyRange(property), `${where} is forbidden by the envelope contract, under which encoders reject it and decoders drop it with a warning; the SDKs do not warn: PHP, Python and Node keep it and relay it, Go, Java and .NET drop it. Use ${entry.replacement} instead.`);
      }
    }
  },
});

function forbiddenKeyFixes({ doc, propertyAtKey }: FixContext): Fix[] {
  const property = propertyAtKey();
  if (!property) return [];
  const scope = asEnvelopeScope(scopeOfObject(property.parent));
  const name = scope === 'meta' ? `meta.${property.key}` : property.key;
  const remove: Fix = { title: `Remove forbidden key "${name}"`, edits: [removeProperty(doc, property)] };
  if (scope !== 'root' || property.key !== 'timestamp') return [remove];
  const root = asObject(doc.root);
  const meta = asObject(getValue(root, 'meta'));
  // Unix milliseconds in range, or undefined when the value reads as no time.
  const milliseconds = property.value ? decodeTimestampToMs(property.value) : undefined;
  // No meta yet to move a readable time into: the fix that adds meta takes its created_at from this
  // timestamp (hintsFrom, core/contract/skeletons.ts), so --fix removes the timestamp only once a
  // later round finds meta holding it. A meta that is there but no object gets no such fix: removed.
  if (!meta) return milliseconds !== undefined && !getProperty(root, 'meta') ? [{ ...remove, preferred: false }] : [remove];
  if (getProperty(meta, 'created_at') || milliseconds === undefined) return [remove];
  // The removal is at the root and the insertion inside meta, so the two edits never overlap.
  return [
    { title: `Move "timestamp" into meta.created_at as Unix milliseconds (${milliseconds})`, edits: [removeProperty(doc, property), insertProperty(doc, meta, 'created_at', milliseconds)], preferred: true },
    remove,
  ];
}
