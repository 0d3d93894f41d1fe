/** missing-field for the root, meta and dead_letter blocks, with a fix that adds the field. */
import { fieldsOf, misspeltFields, type EnvelopeScope, type FieldSpec } from '../../contract/envelope';
import { valueFitsField } from '../../contract/field-values';
import { hintsFrom, skeletonValue } from '../../contract/skeletons';
import { insertProperty, removeProperty, renameKey } from '../../model/property-edits';
import { toJsValue } from '../../model/js-value';
import { literal, shortened } from '../../model/describe-value';
import { asObject, getProperty, getValue, type ObjectNode, type PropertyNode } from '../../model/tree';
import type { Range, RuleContext } from '../context';
import { defineRule, type FixContext, type Fix } from '../definition';
import { keyRange } from '../ranges';

export const rule = defineRule({
  codes: [
    {
      code: 'missing-field',
      family: 'structure',
      severity: 'error',
      summary: 'A required envelope field is absent.',
      docs: {
        fires:
          'A required field is absent: `job` (unless the `urn` alias is there), `trace_id`, `data`, `meta`, `attempts`, `meta.id`, `meta.queue`, `meta.lang`, `meta.schema_version`, `meta.created_at`; in `dead_letter`: `reason`, `failed_at`, `original_queue`, `attempts`. On the root\'s `{`, or on the key of the block that lacks the field; where a key differs from the field only in case (`JOB`, which only Go reads as `job`; for `job` also `URN`, the alias in another case), on that key, carrying its `case-mismatch` and `encoding-divergence`; likewise where a key is the field\'s name but for `-`, `_` and camelCase (`traceId`), or, for a field of five letters or more, one letter off (`attempt`), on that key, carrying its `encoding-divergence`; and where a `meta` field is written beside `meta`, at the top level, on that key, carrying its `encoding-divergence`.',
        instead: 'Every required field: consumers reject an envelope without `trace_id`, `data` or `meta`, the PHP, Python and Node consumers one without `attempts` (Go and Java read it as 0), and a message without `meta.id` has no dedup key.',
        example: { fires: '"meta": { "id": "…", "queue": "orders", "lang": "go", "schema_version": 1 }', clean: '"meta": { "id": "…", "queue": "orders", "lang": "go", "schema_version": 1, "created_at": 1749132727000 }' },
        fixes: 'Add the field: a fresh UUID, now in ms (for `meta.created_at`, the time a legacy top-level `timestamp` or `meta.ts` states, when it has one, else never later than the dead letter\'s `failed_at`; an added `failed_at` never earlier than `meta.created_at`), `attempts: 0` (or the count a forbidden `meta.attempts` states), `data: {}`, `schema_version: 1`, `queue` as the dead letter\'s `original_queue` or else `"default"`, `lang: "node"` (or the SDK a forbidden `meta.source` names), a whole `meta` block; `dead_letter` fields follow the envelope\'s queue and attempts (an `original_queue` for an envelope without a `meta.queue`, and the placeholder `job` `urn:babel:context:event`, are not applied by `--fix`). Beside a key that differs only in case, the fix is renaming that key (`URN` to `job`, as a producer writes it); beside a key written for the field, renaming it; a `meta` field written beside `meta` is moved into it. `--fix` renames or moves a key onto its field only where its value is one the field takes (`"traceId": "x"` is left as written, the rename still offered as a quick fix), and never renames a key one letter off (`attempt`).',
      },
      fixes: missingFieldFixes,
    },
  ],
  check: (context) => {
    const { root, meta, deadLetter, metaProperty, deadLetterProperty } = context.envelope;
    if (!root) return;
    const rootAnchor: Range = { offset: root.offset, end: root.offset + 1 };
    for (const field of fieldsOf('root')) {
      if (!field.required || getProperty(root, field.name)) continue;
      if (field.name === 'job' && getProperty(root, 'urn')) continue;
      reportMissing(context, root, '', field, rootAnchor);
    }
    if (meta && metaProperty) reportMissingIn(context, meta, 'meta', keyRange(metaProperty), root);
    if (deadLetter && deadLetterProperty) reportMissingIn(context, deadLetter, 'dead_letter', keyRange(deadLetterProperty));
  },
});

function reportMissingIn(context: RuleContext<'missing-field'>, object: ObjectNode, scope: EnvelopeScope, anchor: Range, root?: ObjectNode): void {
  for (const field of fieldsOf(scope)) {
    if (!field.required || getProperty(object, field.name)) continue;
    // A meta field written beside meta (`"queue"` at the top level) is the cause of its absence:
    // the finding goes on that key, where encoding-divergence is, and carries it.
    const beside = root && scope === 'meta' ? besideMeta(root, object, field.name) : undefined;
    if (beside) {
      context.report('missing-field', keyRange(beside), `Missing required field "meta.${field.name}": "${field.name}" is written beside meta, at the top level, where no SDK reads it as meta's. Move it into meta.`, { subject: `meta.${field.name}` });
      continue;
    }
    reportMissing(context, object, `${scope}.`, field, anchor);
  }
}

/** The top-level key `name` (a meta field that meta lacks, with a value), unless meta has a key written for it. */
function besideMeta(root: ObjectNode, meta: ObjectNode, name: string): PropertyNode | undefined {
  const property = getProperty(root, name);
  if (!property?.value || caseVariant(meta, name) || misspeltKey(meta, 'meta.', name)) return undefined;
  return property;
}

/**
 * A field written with other case (`JOB`) is the cause of its absence: the finding goes on that
 * key, where case-mismatch and encoding-divergence are, and carries them (one token, one finding;
 * case-mismatch's rename is the fix). Only Go's decoder matches keys case-insensitively.
 */
function reportMissing(context: RuleContext<'missing-field'>, object: ObjectNode, prefix: string, field: FieldSpec, anchor: Range): void {
  // `job` is also absent for want of a `urn` alias written in another case (`URN`): that key is the cause too.
  const variant = caseVariant(object, field.name) ?? (prefix === '' && field.name === 'job' ? caseVariant(object, 'urn') : undefined);
  const subject = `${prefix}${field.name}`;
  if (!variant) {
    // A key written for the field (`traceId`, `attempt`) is the cause of its absence too: the
    // finding goes on it, where encoding-divergence is, and carries that one (one cause, one finding).
    const misspelt = misspeltKey(object, prefix, field.name);
    if (misspelt) {
      context.report(
        'missing-field',
        keyRange(misspelt),
        `Missing required field "${subject}": "${prefix}${misspelt.key}" is not "${field.name}": keys match exactly, so every SDK reads it as an unknown key and finds no "${field.name}". Rename it to "${field.name}".`,
        { subject },
      );
      return;
    }
    context.report('missing-field', anchor, missingMessage(prefix, field), { subject });
    return;
  }
  const what = field.name === 'job' ? ' (or its inbound alias "urn")' : '';
  context.report(
    'missing-field',
    keyRange(variant),
    `Missing required field "${subject}"${what}: "${prefix}${variant.key}" differs from ${variant.key.toLowerCase() === field.name ? 'it' : `"${variant.key.toLowerCase()}"`} only in case, and only Go's decoder reads it as "${variant.key.toLowerCase()}". Rename it to "${field.name}".`,
    { subject },
  );
}

/** The key of `object` written for its missing field `name` (see misspeltFields), if any. */
function misspeltKey(object: ObjectNode, prefix: string, name: string): PropertyNode | undefined {
  const scope: EnvelopeScope = prefix === '' ? 'root' : prefix === 'meta.' ? 'meta' : 'dead_letter';
  for (const [property, { field }] of misspeltFields(scope, object)) if (field.name === name) return property;
  return undefined;
}

/** The first key of `object` that equals `name` except for ASCII case. */
function caseVariant(object: ObjectNode, name: string): PropertyNode | undefined {
  return object.properties.find((property) => property.key !== name && property.key.toLowerCase() === name);
}

function missingMessage(prefix: string, field: FieldSpec): string {
  const what = field.name === 'job' ? ' (or its inbound alias "urn")' : '';
  return `Missing required field "${prefix}${field.name}"${what}. ${field.doc}`;
}

function missingFieldFixes({ doc, diagnostic, fresh }: FixContext): Fix[] {
  const subject = diagnostic.subject;
  const root = asObject(doc.root);
  if (!subject || !root) return [];
  const [scopeName, field] = subject.includes('.') ? subject.split('.', 2) : ['root', subject];
  const scope = scopeName as EnvelopeScope;
  const object: ObjectNode | undefined = scope === 'root' ? root : asObject(getValue(root, scopeName));
  // With a case variant present, renaming it (case-mismatch's fix, carried) is the fix.
  if (!object || getProperty(object, field) || caseVariant(object, field) || (scope === 'root' && field === 'job' && caseVariant(object, 'urn'))) return [];
  // A meta field written beside meta is moved into it.
  if (scope === 'meta') {
    const beside = besideMeta(root, object, field);
    // Moved as its value: a number JavaScript would write otherwise (beyond 2^53, an exponent) is left to the author.
    const movable = beside?.value && (beside.value.kind !== 'number' || String(beside.value.value) === beside.value.raw);
    if (beside?.value && movable) {
      const edits = [removeProperty(doc, beside), insertProperty(doc, object, field, toJsValue(beside.value))];
      return [{ title: `Move "${field}" into meta`, edits, ...(valueFitsField(scope, field, beside.value) === true ? {} : { preferred: false }) }];
    }
  }
  // A key written for the field is renamed; only a key that differs in case, `-`, `_` or camelCase,
  // holding a value the field takes, is renamed by --fix (a letter off is a guess the author confirms).
  for (const [property, misspelt] of misspeltFields(scope, object)) {
    if (misspelt.field.name === field) {
      const preferred = misspelt.exact && property.value !== undefined && valueFitsField(scope, field, property.value) === true;
      return [{ title: `Rename "${shortened(property.key)}" to "${field}"`, edits: [renameKey(property, field)], preferred }];
    }
  }
  const hints = hintsFrom(doc);
  const value = skeletonValue(scope, field, fresh, hints);
  if (value === undefined) return [];
  // Guesses fix-all leaves to the author: the queue a dead letter failed on is meta.queue, and
  // without one "default" would be made up; the message's URN is its identity, and a placeholder
  // names no message (a registry knows no such URN; without one, it would hide the missing URN).
  const guessed = (subject === 'dead_letter.original_queue' && hints.queue === undefined) || subject === 'job';
  return [{ title: `Add "${subject}": ${describeInsert(value)}`, edits: [insertProperty(doc, object, field, value)], ...(guessed ? { preferred: false } : {}) }];
}

function describeInsert(value: unknown): string {
  if (value !== null && typeof value === 'object') return Object.keys(value).length === 0 ? '{}' : '{…}';
  return literal(value);
}
