/**
 * unenforced-keyword and misread-keyword: a registry's schema files as BabelQueue's validators read
 * them (bqschema in CI, the SDKs' payload checks: the subset of core/registry/validators/). These
 * findings sit in schema files, not in envelopes (the payload's side of the same facts is
 * validator-divergence).
 */
import { valueAtPointer } from '../../model/json-pointer';
import { toJsValue } from '../../model/js-value';
import type { ObjectNode, ParsedDocument, PropertyNode } from '../../model/tree';
import { compileSchema } from '../../registry/schema-compiler';
import { firstUnreadableNumber } from '../../registry/validators/huge-numbers';
import { UNENFORCED_KEYWORDS } from '../../registry/validators/verdicts';
import { keyRange, type Range } from '../context';
import { defineRule } from '../definition';
import { literalMisreads } from './schema-literals';

export type SchemaKeywordCode = 'unenforced-keyword' | 'misread-keyword';

export const rule = defineRule<SchemaKeywordCode>({
  codes: [
    {
      code: 'unenforced-keyword',
      family: 'registry',
      severity: 'information',
      summary: 'A schema keyword that none of BabelQueue’s validators enforces (bqschema, the SDKs’ runtime checks).',
      docs: {
        fires:
          'In a schema file the registry references, on the key of a keyword that bqschema and the PHP, Python, Go, Node and Java payload checks all ignore: `pattern`, `format`, `maxLength`, `maximum`, `exclusiveMinimum`/`Maximum`, `multipleOf`, `minItems`, `maxItems`, `uniqueItems`, `contains`, `minProperties`, `maxProperties`, `dependencies`, `propertyNames`, `patternProperties`, `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`. A payload that breaks it passes CI and the consumers; only `payload-schema` (draft-07) holds it.',
        instead: 'Keep it as documentation of intent, or express the rule with the enforced subset (`type`, `required`, `properties`, `additionalProperties: false`, `items`, `enum`, `const`, `minLength`, `minimum`); inline a `$ref`.',
        example: { fires: '"sku": { "type": "string", "pattern": "^[A-Z]+$" }', clean: '"sku": { "type": "string", "enum": ["ABC", "XYZ"] }' },
      },
    },
    {
      code: 'misread-keyword',
      family: 'registry',
      severity: 'warning',
      summary: 'A schema keyword that BabelQueue’s validators read otherwise than draft-07.',
      docs: {
        fires:
          'In a schema file the registry references, on the key of a keyword that the validators misread: a `type` list (read as no type), `required`, `properties` or `additionalProperties` without `"type": "object"`, `items` without `"type": "array"` or as a list, `minLength` without `"type": "string"`, `minimum` without `"type": "integer"` or `"number"`, `additionalProperties` as a schema (read as open), `patternProperties` beside `additionalProperties: false` (its keys are rejected as additional), a property schema that is `true` or `false`. On the value, where the validators read it otherwise than draft-07 or than each other: `minLength`/`minimum` written as a string (PHP honours `"3"`, the others ignore it), a fractional `minLength` (Node compares `1.5`, the others truncate it), a type name draft-07 does not have (`"int"`: no type is checked), an `enum`/`const` number written as a float but integral (`1.0`: never equal to an integer in PHP, Python at the top level, and Java) or an integer beyond 2^53 (equal to its float64 neighbours in bqschema, Go and Node), an object literal of several keys (PHP and Node compare the key order), a `required` name that `Object.prototype` has (`toString`: Node never finds it missing). With the `bqschema` setting, where draft-07 refuses a schema that bqschema reads, once, on the offending keyword (registry.json and the fixtures then leave it out).',
        instead: 'Write the keyword the way the subset reads it: one `type` string, `"type": "object"` beside `required`/`properties`, `"type": "array"` beside `items`, `additionalProperties` as `true` or `false`, named `properties` instead of `patternProperties`, bounds as plain integers, `enum`/`const` numbers as the payload writes them, objects in `const` only where every producer writes their keys in one order.',
        example: { fires: '{ "required": ["order_id"], "properties": { "order_id": { "type": "integer" } } }', clean: '{ "type": "object", "required": ["order_id"], "properties": { "order_id": { "type": "integer" } } }' },
      },
    },
  ],
  files: {
    schemaFile: (doc, report, settings) => {
      const findings = schemaKeywordFindings(doc);
      for (const finding of findings) report(finding.code, finding, finding.message);
      // With the bqschema verdict, a schema only draft-07 refuses is said here, where it is, once:
      // registry.json and the fixtures leave it out (bqschema check accepts it).
      const refusal = settings.registryValidator === 'bqschema' ? draft07Refusal(doc, findings) : undefined;
      if (refusal) report('misread-keyword', refusal, refusal.message);
    },
  },
});

export interface SchemaKeywordFinding extends Range {
  readonly code: SchemaKeywordCode;
  readonly message: string;
}

const OBJECT_KEYWORDS = new Set(['required', 'properties', 'additionalProperties']);

const VALIDATORS_WORDS = 'bqschema (CI) and the PHP, Python, Go, Node and Java SDKs';

/** The findings of a schema document, walked (iteratively) the way the validators read it. */
export function schemaKeywordFindings(doc: ParsedDocument): SchemaKeywordFinding[] {
  const findings: SchemaKeywordFinding[] = [];
  if (doc.root?.kind !== 'object') return findings;
  const stack: ObjectNode[] = [doc.root];
  while (stack.length > 0) checkSchema(stack.pop()!, findings, stack);
  return findings.sort((a, b) => a.offset - b.offset || a.end - b.end);
}

function checkSchema(schema: ObjectNode, findings: SchemaKeywordFinding[], stack: ObjectNode[]): void {
  const typeProperty = last(schema, 'type');
  const type = typeProperty?.value?.kind === 'string' ? typeProperty.value.value : undefined;
  for (const found of literalMisreads(schema, type)) findings.push({ code: 'misread-keyword', ...found });
  const additional = last(schema, 'additionalProperties')?.value;
  const closed = additional?.kind === 'boolean' && !additional.value;
  const misread = (property: PropertyNode, message: string): void => {
    findings.push({ code: 'misread-keyword', ...keyRange(property), message });
  };
  for (const property of schema.properties) {
    const { key, value } = property;
    if (!value) continue;
    if (key === 'patternProperties' && closed) {
      misread(property, `${VALIDATORS_WORDS} ignore "patternProperties", so beside "additionalProperties": false a key it matches is rejected as an additional property (draft-07 allows it). Name the keys in "properties".`);
      continue;
    }
    if (UNENFORCED_KEYWORDS.has(key)) {
      findings.push({ code: 'unenforced-keyword', ...keyRange(property), message: `"${key}" is enforced by none of BabelQueue's validators (bqschema in CI, the SDKs' payload checks): a payload that breaks it passes them; only payload-schema (draft-07) holds it.` });
      continue;
    }
    switch (key) {
      case 'type':
        if (value.kind === 'array') misread(property, `${VALIDATORS_WORDS} read a "type" list as no type at all: nothing below it is checked (not even "required" or "properties"). Use one type string.`);
        break;
      case 'required':
      case 'properties':
      case 'additionalProperties': {
        if (key === 'additionalProperties' && value.kind === 'object') {
          misread(property, `${VALIDATORS_WORDS} read "additionalProperties" only as true or false: a schema here allows any additional property.`);
          break;
        }
        // One cause, one finding: the missing "type": "object", on the first object keyword.
        const objectKeywords = schema.properties.filter((p) => OBJECT_KEYWORDS.has(p.key) && !(p.key === 'additionalProperties' && p.value?.kind === 'object'));
        if (type !== 'object' && objectKeywords[0] === property) {
          const names = [...new Set(objectKeywords.map((p) => `"${p.key}"`))].join(', ');
          misread(property, `${VALIDATORS_WORDS} read ${names} only beside "type": "object"; here ${objectKeywords.length > 1 ? 'they are' : 'it is'} ignored. Add "type": "object".`);
        }
        break;
      }
      case 'items':
        if (value.kind === 'array') misread(property, `${VALIDATORS_WORDS} ignore "items" given as a list of schemas (a tuple): no item is checked. Use one schema for every item.`);
        else if (type !== 'array') misread(property, `${VALIDATORS_WORDS} read "items" only beside "type": "array"; here it is ignored. Add "type": "array".`);
        break;
      case 'minLength':
        if (type !== 'string') misread(property, `${VALIDATORS_WORDS} read "minLength" only beside "type": "string"; here it is ignored. Add "type": "string".`);
        break;
      case 'minimum':
        if (type !== 'integer' && type !== 'number') misread(property, `${VALIDATORS_WORDS} read "minimum" only beside "type": "integer" or "number"; here it is ignored.`);
        break;
    }
  }
  // Into what the validators read, and nowhere else (below a misread or unenforced keyword nothing is checked, and one finding says so).
  if (type === 'object') {
    const properties = last(schema, 'properties')?.value;
    if (properties?.kind === 'object') {
      for (const field of properties.properties) {
        if (field.value?.kind === 'object') stack.push(field.value);
        else if (field.value?.kind === 'boolean') findings.push({ code: 'misread-keyword', ...keyRange(field), message: `${VALIDATORS_WORDS} read only object schemas in "properties": ${field.value.value ? 'true' : 'false'} here is ignored${closed ? ', and under "additionalProperties": false the key is then rejected as additional' : ''}. Write {} or leave the key out.` });
      }
    }
  }
  if (type === 'array') {
    const items = last(schema, 'items')?.value;
    if (items?.kind === 'object') stack.push(items);
  }
}

function last(schema: ObjectNode, key: string): PropertyNode | undefined {
  for (let i = schema.properties.length - 1; i >= 0; i--) if (schema.properties[i].key === key) return schema.properties[i];
  return undefined;
}

/**
 * Where draft-07 refuses a schema that bqschema reads (a JSON object whose numbers Go can read):
 * on the offending key or value, unless a finding there already says why (a bound written as a
 * string, a type name draft-07 does not have).
 */
function draft07Refusal(doc: ParsedDocument, findings: readonly SchemaKeywordFinding[]): SchemaKeywordFinding | undefined {
  const root = doc.root;
  if (root?.kind !== 'object' || firstUnreadableNumber(root)) return undefined;
  const compiled = compileSchema(toJsValue(root));
  if (!('error' in compiled)) return undefined;
  const located = valueAtPointer(root, compiled.pointer ?? '');
  const at: Range = located?.property ? keyRange(located.property) : located && located.node !== root ? located.node : { offset: root.offset, end: root.offset + 1 };
  const value = located?.node;
  const covered = findings.some((finding) => finding.code === 'misread-keyword' && ((finding.offset === at.offset && finding.end === at.end) || (value && finding.offset === value.offset && finding.end === value.end)));
  if (covered) return undefined;
  const why = compiled.error.replace(/^The payload schema is not valid draft-07: /, '');
  return {
    code: 'misread-keyword',
    ...at,
    message: `This schema is not valid draft-07 (${why.replace(/\.$/, '')}), so draft-07 tools (ajv, editors, payload-schema's draft-07 setting) refuse it; bqschema (CI) and the SDKs' payload checks read it all the same, and with the bqschema setting payload-schema follows them.`,
  };
}
