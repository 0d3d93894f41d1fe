/** forbidden-key: the contract's forbidden table, at the top level and in meta. */
import { forbiddenKey, keyWrittenFor, SDK_LANGS, type EnvelopeScope } from '../../contract/envelope';
import { renamedByFixAll } from '../../contract/field-values';
import { asEnvelopeScope, scopeOfObject } from '../../contract/scope';
import { decodeTimestampToMs } from '../../contract/timestamps';
import { insertProperty, removeProperty, renameKey, replaceValue } from '../../model/property-edits';
import { literal, numberLiteral } from '../../model/describe-value';
import { asObject, getProperty, getValue, type ObjectNode, type PropertyNode } from '../../model/tree';
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
        fixes: 'Remove the key. A top-level `timestamp` moves into `meta.created_at` (converted to ms from seconds, microseconds or nanoseconds, a number or a string of digits, or an RFC 3339 time) when `created_at` is absent (preferred); without `meta`, the fix that adds it takes that time as its `created_at`. Likewise, where the replacement is absent (preferred): `meta.ts` is renamed to `meta.created_at` in milliseconds, `meta.source` naming an SDK to `meta.lang`, and `meta.attempts` moves to the top-level `attempts`. Where the field is written another way that fix all renames onto it (a case variant or `traceId`-like spelling holding a value the field takes), only the removal; where it is written another way fix all leaves (`"Lang": "PHP"`, a key a letter off), the move and the removal are both offered and neither is applied by `--fix`, which would lose what the key states or write the field twice. A key written more than once is removed.',
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
  // A key written more than once is removed, each copy: a move of each would write the field as often.
  if (!writtenOnce(property)) return [remove];
  const root = asObject(doc.root);
  if (scope === 'root' && property.key === 'timestamp' && root && !asObject(getValue(root, 'meta'))) {
    // No meta yet to move a readable time into: the fix that adds meta takes its created_at from this
    // timestamp (hintsFrom, core/contract/skeletons.ts), so --fix removes the timestamp only once a
    // later round finds meta holding it. A meta that is there but no object gets no such fix: removed.
    const milliseconds = property.value ? decodeTimestampToMs(property.value) : undefined;
    return milliseconds !== undefined && !getProperty(root, 'meta') ? [{ ...remove, preferred: false }] : [remove];
  }
  const move = root ? moveOf(doc, root, property, scope) : undefined;
  if (!move) return [remove];
  const written = keyWrittenFor(move.scope, move.object, move.field);
  // The field written as itself, or another way that fix all renames onto it (a case variant or
  // `traceId`-like spelling holding a value the field takes): removed, the field is the one written.
  if (written && (written.key === move.field || renamedByFixAll(move.scope, move.object, written, move.field))) return [remove];
  // Written another way that fix all leaves (a value the field does not take, a letter off): a move
  // would leave two keys for one field and a removal would lose what this one states, so fix all
  // leaves both to the author.
  if (written) return [{ ...move.fix, preferred: false }, { ...remove, preferred: false }];
  return [{ ...move.fix, preferred: true }, remove];
}

/**
 * A forbidden key that states what its replacement holds, moved there: the top-level `timestamp`
 * into `meta.created_at` in milliseconds, `meta.ts` renamed to `meta.created_at` in milliseconds,
 * `meta.source` naming an SDK renamed to `meta.lang`, `meta.attempts` moved to the top-level
 * `attempts` (removing the key and adding the field with a default would lose the time, the
 * language or the count). Undefined for another key, or a value that states none of these.
 */
function moveOf(doc: FixContext['doc'], root: ObjectNode, property: PropertyNode, scope: EnvelopeScope | undefined): { scope: EnvelopeScope; object: ObjectNode; field: string; fix: Fix } | undefined {
  const value = property.value;
  if (!value) return undefined;
  if (scope === 'root' && property.key === 'timestamp') {
    const meta = asObject(getValue(root, 'meta'));
    const milliseconds = decodeTimestampToMs(value);
    if (!meta || milliseconds === undefined) return undefined;
    // The removal is at the root and the insertion inside meta, so the two edits never overlap.
    return { scope: 'meta', object: meta, field: 'created_at', fix: { title: `Move "timestamp" into meta.created_at as Unix milliseconds (${milliseconds})`, edits: [removeProperty(doc, property), insertProperty(doc, meta, 'created_at', milliseconds)] } };
  }
  if (scope !== 'meta') return undefined;
  const meta = property.parent;
  if (property.key === 'ts') {
    const milliseconds = decodeTimestampToMs(value);
    if (milliseconds === undefined) return undefined;
    return { scope, object: meta, field: 'created_at', fix: { title: `Rename "meta.ts" to "meta.created_at" as Unix milliseconds (${milliseconds})`, edits: [renameKey(property, 'created_at'), replaceValue(value, String(milliseconds))] } };
  }
  if (property.key === 'source' && value.kind === 'string') {
    const lang = value.value.toLowerCase();
    if (!(SDK_LANGS as readonly string[]).includes(lang)) return undefined;
    return { scope, object: meta, field: 'lang', fix: { title: `Rename "meta.source" to "meta.lang" (${literal(lang)})`, edits: [renameKey(property, 'lang'), replaceValue(value, JSON.stringify(lang))] } };
  }
  if (property.key === 'attempts' && value.kind === 'number' && value.isIntegerLiteral && Number.isSafeInteger(value.value) && value.value >= 0) {
    // The removal is inside meta and the insertion at the root, so the two edits never overlap.
    return { scope: 'root', object: root, field: 'attempts', fix: { title: `Move "meta.attempts" to the top-level "attempts" (${numberLiteral(value.raw)})`, edits: [removeProperty(doc, property), insertProperty(doc, root, 'attempts', value.value)] } };
  }
  return undefined;
}

/** How often each key is written in an object, counted once per object: a fix is asked for each of thousands of copies. */
const keyCounts = new WeakMap<ObjectNode, Map<string, number>>();

function writtenOnce(property: PropertyNode): boolean {
  let counts = keyCounts.get(property.parent);
  if (counts === undefined) {
    counts = new Map();
    for (const { key } of property.parent.properties) counts.set(key, (counts.get(key) ?? 0) + 1);
    keyCounts.set(property.parent, counts);
  }
  return counts.get(property.key) === 1;
}
