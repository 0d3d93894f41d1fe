/**
 * pii-unmarked: in a schema file, a property whose name looks like personal data and that is not
 * marked `x-gdpr-sensitive`, exactly where `bqschema gdpr --require` fails (as measured from bqschema's
 * gdpr audit): its name pattern as a case-insensitive substring of the property name,
 * anywhere in the schema (objects and arrays included), containers whose own name matches left
 * alone, the mark being `true` or a non-empty category string. The fix adds the mark, so the
 * fixtures' values get `pii-in-fixture` and the SDKs' field encryption applies to them.
 */
import { insertProperty } from '../../model/property-edits';
import { asObject, getProperty, type ObjectNode, type PropertyNode } from '../../model/tree';
import { shortened } from '../../model/describe-value';
import { keyRange, type Range } from '../context';
import { defineRule, type Fix, type FixContext } from '../definition';

/**
 * bqschema gdpr's default name pattern. Go's `(?i)` folds case by Unicode's simple folding, so
 * `ſ` matches `s` and the Kelvin sign matches `k`: the `u` flag gives JavaScript the same folding.
 */
export const PII_NAME_PATTERN = /email|e_mail|mail|ssn|phone|msisdn|tckn|national_id|passport|iban|credit_card|card_number|cvv|address|birth|dob/iu;

export const rule = defineRule<'pii-unmarked'>({
  codes: [
    {
      code: 'pii-unmarked',
      family: 'registry',
      severity: 'warning',
      summary: 'A schema property named like personal data without x-gdpr-sensitive: bqschema gdpr --require fails on it.',
      docs: {
        fires:
          'In a schema file, on the key of a property whose name contains `email`, `mail`, `ssn`, `phone`, `msisdn`, `tckn`, `national_id`, `passport`, `iban`, `credit_card`, `card_number`, `cvv`, `address`, `birth` or `dob` (any case; bqschema gdpr\'s pattern) and whose schema has no `x-gdpr-sensitive` (`true` or a category such as `"email"`). An object or array whose own name matches is not flagged; its fields are.',
        instead: '`"x-gdpr-sensitive": true` (or a category) on the property, so the SDKs\' field encryption (ADR-0030) covers it, `bqschema gdpr --mask` masks it, and fixtures must hold masked values.',
        example: { fires: '"buyer_email": { "type": "string" }', clean: '"buyer_email": { "type": "string", "x-gdpr-sensitive": "email" }' },
        fixes: 'Mark the property `"x-gdpr-sensitive": true`.',
      },
      fixes: markSensitive,
    },
  ],
  files: {
    schemaFile: (doc, report) => {
      for (const finding of piiUnmarkedFindings(asObject(doc.root))) report('pii-unmarked', finding, finding.message);
    },
  },
});

/** A field the schema marks `x-gdpr-sensitive`, by its path in the payload (`a.b`, `a[].b`). */
export interface SensitiveField {
  readonly path: string;
  /** The mark's category, or undefined for `true`. */
  readonly category: string | undefined;
}

/** The fields marked `x-gdpr-sensitive` anywhere in the schema (what `babelq gdpr` lists per URN). */
export function sensitiveFields(root: ObjectNode | undefined): SensitiveField[] {
  const fields: SensitiveField[] = [];
  walkProperties(root, (path, schema) => {
    const mark = getProperty(schema, 'x-gdpr-sensitive')?.value;
    if (mark?.kind === 'boolean' && mark.value) fields.push({ path, category: undefined });
    else if (mark?.kind === 'string' && mark.value !== '') fields.push({ path, category: mark.value });
  });
  return fields;
}

/**
 * Every property schema under `properties` and `items`, with its path, depth first in document
 * order. Only what the validators' subset reads: bqschema's audit never sees `definitions`,
 * `$defs` or a tuple `items`, so a field there neither fails nor passes its gate.
 */
function walkProperties(root: ObjectNode | undefined, visit: (path: string, schema: ObjectNode, property: PropertyNode) => void): void {
  const stack: [ObjectNode, string][] = root ? [[root, '']] : [];
  while (stack.length > 0) {
    const [schema, prefix] = stack.pop()!;
    const later: [ObjectNode, string][] = [];
    for (const property of asObject(getProperty(schema, 'properties')?.value)?.properties ?? []) {
      const value = asObject(property.value);
      if (!value) continue;
      const path = prefix ? `${prefix}.${property.key}` : property.key;
      visit(path, value, property);
      later.push([value, path]);
    }
    const items = asObject(getProperty(schema, 'items')?.value);
    if (items) later.push([items, `${prefix}[]`]);
    for (let i = later.length - 1; i >= 0; i--) stack.push(later[i]);
  }
}

/** The properties `bqschema gdpr --require` would fail on, on their keys, in document order. */
export function piiUnmarkedFindings(root: ObjectNode | undefined): (Range & { readonly message: string; readonly path: string })[] {
  const findings: (Range & { readonly message: string; readonly path: string })[] = [];
  walkProperties(root, (path, value, property) => {
    {
      const match = PII_NAME_PATTERN.exec(property.key);
      if (!match || isContainer(value) || isMarked(value)) return;
      const type = scalarType(value);
      findings.push({
        ...keyRange(property),
        path,
        message:
          type === undefined || type === 'string'
            ? `"${shortened(property.key)}" looks like personal data and is not marked "x-gdpr-sensitive": bqschema gdpr --require fails on it, and the SDKs' field encryption leaves it in clear text. Mark it "x-gdpr-sensitive": true (or a category such as "email").`
            : `"${shortened(property.key)}" matches bqschema gdpr's personal-data name pattern ("${match[0]}") and is not marked, so bqschema gdpr --require fails on it; it holds ${type === 'integer' ? 'an integer' : `a ${shortened(type)}`}: if it is not personal data, rename it (marking it would mask the value to "***").`,
      });
    }
  });
  return findings.sort((a, b) => a.offset - b.offset);
}

/**
 * An object or array field, as the subset reads it: its `type`, or `properties` holding at least one
 * schema, or `items` given as a schema (a tuple `items` is outside the subset). bqschema keeps only
 * the members of `properties` that are objects, and an empty `properties` (`{}`, or `{"a": 1}`)
 * makes no container there.
 */
function isContainer(schema: ObjectNode): boolean {
  const type = getProperty(schema, 'type')?.value;
  const fields = asObject(getProperty(schema, 'properties')?.value)?.properties ?? [];
  return (type?.kind === 'string' && (type.value === 'object' || type.value === 'array')) || fields.some((field) => asObject(field.value) !== undefined) || asObject(getProperty(schema, 'items')?.value) !== undefined;
}

/** Marked: `true`, or a category string that is not empty (a blank one is not empty). */
function isMarked(schema: ObjectNode): boolean {
  const mark = getProperty(schema, 'x-gdpr-sensitive')?.value;
  return (mark?.kind === 'boolean' && mark.value) || (mark?.kind === 'string' && mark.value !== '');
}

/** The schema's single scalar `type`, if it names one. */
function scalarType(schema: ObjectNode): string | undefined {
  const type = getProperty(schema, 'type')?.value;
  return type?.kind === 'string' ? type.value : undefined;
}

function markSensitive({ doc, propertyAtKey }: FixContext): Fix[] {
  const property = propertyAtKey();
  const schema = asObject(property?.value);
  // Only a text value is masked as "x***"; a boolean or number marked would be masked to "***", which breaks its type.
  if (!schema || (scalarType(schema) !== undefined && scalarType(schema) !== 'string')) return [];
  return [{ title: `Mark "${shortened(property!.key)}" "x-gdpr-sensitive": true`, edits: [insertProperty(doc, schema, 'x-gdpr-sensitive', true)] }];
}
