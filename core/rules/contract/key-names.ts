/** case-mismatch in the three blocks, extension-key in meta (a key reported for its case is not reported again). */
import { forbiddenKey, knownKeys, META_EXTENSION_KEY, misspeltFields, RESERVED_ROOT_KEY, type EnvelopeScope } from '../../contract/envelope';
import { asEnvelopeScope, scopeOfObject } from '../../contract/scope';
import { removeProperty, renameKey } from '../../model/property-edits';
import { getProperty, getValue, type ObjectNode } from '../../model/tree';
import { shortened } from '../../model/describe-value';
import type { RuleContext } from '../context';
import { defineRule, type Fix, type FixContext } from '../definition';
import { keyRange } from '../ranges';
import { valueFitsField } from '../../contract/field-values';

type KeyNameCode = 'case-mismatch' | 'extension-key';

export const rule = defineRule<KeyNameCode>({
  codes: [
    {
      code: 'case-mismatch',
      family: 'contract',
      severity: 'information',
      summary: 'An unknown key equals a known key except for case.',
      docs: {
        fires:
          'An unknown key equals a known, core or forbidden key except for case (`TS`, `Attempts`, `JOB`). One finding on the key: `encoding-divergence` (what Go, which reads such a key as the field, and the typed SDKs do with it) is shown and carries this one with its rename, or `missing-field` where the field itself is absent.',
        instead: 'The key in its exact spelling: keys match byte-wise and case-sensitively, so `JOB` is an unknown key (preserved on re-emit), not `job`.',
        example: { fires: '"Attempts": 0', clean: '"attempts": 0' },
        fixes: 'Rename to the known key (never onto a forbidden key or a key already present); a root `URN` is renamed to `job`, as a producer writes the URN, or removed beside a `job` (renamed to the alias, it would only draw urn-alias). `--fix` renames a key onto its field only where its value is one the field takes (`"Attempts": -1` or `"URN": "x"` is left as written, the rename still offered as a quick fix).',
      },
      fixes: caseMismatchFixes,
    },
    {
      code: 'extension-key',
      family: 'contract',
      severity: 'hint',
      summary: 'An extra meta key outside meta.ext.<vendor>, or an extension key that is not snake_case.',
      docs: {
        fires: 'An extra `meta.*` key outside `meta.ext.<vendor>` (not one written for a required `meta` field that `meta` lacks, such as `createdAt`: `missing-field` asks to rename that one); a vendor name or extension key that is not snake_case; a `meta.ext` that is not an object of vendor objects.',
        instead: 'Vendor data under `meta.ext.<vendor>`, in snake_case, so it never collides with a future core key.',
        example: { fires: '"meta": { …, "tier": "gold" }', clean: '"meta": { …, "ext": { "acme": { "tier": "gold" } } }' },
      },
    },
  ],
  check: checkKeyNames,
});

/** case-mismatch in the three blocks, extension-key in meta. */
function checkKeyNames(context: RuleContext<KeyNameCode>): void {
  const { root, meta, deadLetter } = context.envelope;
  if (root) checkCase(context, root, 'root');
  if (deadLetter) checkCase(context, deadLetter, 'dead_letter');
  if (meta) {
    const mismatched = checkCase(context, meta, 'meta');
    checkExtensionKeys(context, meta, mismatched);
  }
}

const lowerCaseKeyMaps = new Map<EnvelopeScope, ReadonlyMap<string, string>>();

/** The known keys of a block by their lowercase spelling (made once per block). */
function lowerCaseKeys(scope: EnvelopeScope, known: readonly string[]): ReadonlyMap<string, string> {
  let map = lowerCaseKeyMaps.get(scope);
  if (!map) {
    map = new Map(known.map((key) => [key.toLowerCase(), key]));
    lowerCaseKeyMaps.set(scope, map);
  }
  return map;
}

/** Reports case-mismatched keys in one block; returns the keys it reported. */
function checkCase(context: RuleContext<KeyNameCode>, object: ObjectNode, scope: EnvelopeScope): Set<string> {
  const known = knownKeys(scope);
  const byLower = lowerCaseKeys(scope, known);
  const reported = new Set<string>();
  for (const property of object.properties) {
    if (known.includes(property.key)) continue;
    const meant = byLower.get(property.key.toLowerCase());
    if (!meant) continue;
    reported.add(property.key);
    const where = scope === 'root' ? '' : `${scope}.`;
    context.report(
      'case-mismatch',
      keyRange(property),
      `"${where}${property.key}" is not "${where}${meant}": keys match byte-wise and case-sensitively, so this is an unknown key (preserved on re-emit). ${caseAdvice(scope, meant, object)}`,
    );
  }
  return reported;
}

/** What to do about a key that differs from `meant` in case: never advise renaming onto a forbidden or reserved key. */
function caseAdvice(scope: EnvelopeScope, meant: string, object: ObjectNode): string {
  const refused = renameRefused(scope, meant);
  if (refused) return `Do not rename it: ${refused}.`;
  if (scope === 'root' && meant === URN_ALIAS) {
    const job = getProperty(object, 'job')?.value;
    if (!job) return `Did you mean "urn"? A producer writes the URN as "job": rename it to "job".`;
    if (job.kind === 'string' && job.value.trim() !== '') return `Did you mean "urn"? Beside "job" that alias is dropped on decode: remove it.`;
  }
  return `Did you mean "${meant}"?`;
}

/**
 * The `urn` alias is what consumers accept, not what a producer writes (urn-alias fires on it): a
 * root key that differs from it in case is renamed to `job`, or removed beside a `job`, so the fix
 * leaves no urn-alias warning behind.
 */
const URN_ALIAS = 'urn';

/** Why renaming a key to `meant` would add a problem (a forbidden or reserved key), or undefined. */
function renameRefused(scope: EnvelopeScope, meant: string): string | undefined {
  const forbidden = forbiddenKey(scope, meant);
  if (forbidden) return `"${meant}" is a forbidden key (use ${forbidden.replacement} instead)`;
  if (scope === 'root' && meant === RESERVED_ROOT_KEY) return `"${meant}" is reserved for the Redis header frame`;
  return undefined;
}

const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

function checkExtensionKeys(context: RuleContext<KeyNameCode>, meta: ObjectNode, skip: Set<string>): void {
  const known = knownKeys('meta');
  // A key written for a required meta field that meta lacks (`createdAt`) is no extension key:
  // missing-field asks to rename it, and advice to move it under meta.ext would contradict that.
  const misspelt = misspeltFields('meta', meta);
  for (const property of meta.properties) {
    if (known.includes(property.key) || skip.has(property.key) || misspelt.has(property)) continue;
    const naming = SNAKE_CASE.test(property.key) ? '' : ' It is not snake_case either.';
    context.report(
      'extension-key',
      keyRange(property),
      `Extra meta key "${shortened(property.key)}": the contract advises vendor keys under "meta.ext.<vendor>", where a future core key cannot collide with them.${naming}`,
    );
  }
  const ext = getValue(meta, META_EXTENSION_KEY);
  if (!ext) return;
  if (ext.kind !== 'object') {
    context.report('extension-key', ext, '"meta.ext" holds vendor blocks: an object such as { "acme": { "tier": "gold" } }.');
    return;
  }
  for (const vendor of ext.properties) {
    if (!SNAKE_CASE.test(vendor.key)) context.report('extension-key', keyRange(vendor), `Vendor name "${shortened(vendor.key)}" should be snake_case.`);
    if (vendor.value && vendor.value.kind !== 'object') {
      context.report('extension-key', vendor.value, `"meta.ext.${shortened(vendor.key)}" should be an object of the vendor's keys.`);
      continue;
    }
    for (const key of vendor.value?.kind === 'object' ? vendor.value.properties : []) {
      if (!SNAKE_CASE.test(key.key)) context.report('extension-key', keyRange(key), `Extension key "${shortened(key.key)}" should be snake_case.`);
    }
  }
}

function caseMismatchFixes({ doc, propertyAtKey }: FixContext): Fix[] {
  const property = propertyAtKey();
  const scope = property && asEnvelopeScope(scopeOfObject(property.parent));
  if (!property || !scope) return [];
  const meant = knownKeys(scope).find((key) => key.toLowerCase() === property.key.toLowerCase());
  if (scope === 'root' && meant === URN_ALIAS && !getProperty(property.parent, meant)) {
    const job = getProperty(property.parent, 'job')?.value;
    // Fix all renames it only where its value is a URN job takes, as for any key renamed onto its field.
    if (!job) return [{ title: `Rename "${shortened(property.key)}" to "job"`, edits: [renameKey(property, 'job')], ...(property.value !== undefined && valueFitsField('root', 'job', property.value) === true ? {} : { preferred: false }) }];
    // Beside a blank or mistyped job this key may hold the only URN: removing it is the author's call.
    const jobHoldsUrn = job.kind === 'string' && job.value.trim() !== '';
    return jobHoldsUrn ? [{ title: `Remove "${shortened(property.key)}" ("job" holds the URN)`, edits: [removeProperty(doc, property)] }] : [];
  }
  // Renaming onto a forbidden or reserved key, or onto a key already present, would add a problem.
  if (!meant || renameRefused(scope, meant) || getProperty(property.parent, meant)) return [];
  // Fix all renames it only where the value is one the field takes: else the rename trades this
  // finding for the field's own (a renamed "Attempts": -1 is invalid-value).
  const fits = property.value === undefined ? false : valueFitsField(scope, meant, property.value) !== false;
  return [{ title: `Rename "${shortened(property.key)}" to "${meant}"`, edits: [renameKey(property, meant)], ...(fits ? {} : { preferred: false }) }];
}
