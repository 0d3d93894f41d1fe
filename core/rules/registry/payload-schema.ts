/**
 * payload-schema: `data` against the URN's registered schema, each failure on its exact token, by
 * the verdict the settings follow (draft-07, or bqschema); validator-divergence: where another of
 * BabelQueue's validators (bqschema in CI, the SDKs' runtime checks, or draft-07) decides otherwise.
 * One check, because both read the same verdicts and ajv should run once.
 */
import { literal } from '../../model/describe-value';
import { toJsValue } from '../../model/js-value';
import { columnsOf, documentPlainValue } from '../../parse/document';
import type { ColumnsEdit } from '../../parse/columns';
import { asObject, forEachValue, getProperty, type ObjectNode, type ParsedDocument, type ValueNode } from '../../model/tree';
import { insertProperties } from '../../model/property-edits';
import { quotedUrn, routingUrn } from '../../contract/urn';
import { exampleValue } from '../../registry/example';
import { exactBigIntegerVerdicts } from '../../registry/big-integers';
import { boundsAsWritten } from '../../registry/written-numbers';
import { holdsHugeNumber } from '../../registry/validators/huge-numbers';
import { judgePayload } from '../../registry/validators/verdicts';
import { keyRange } from '../context';
import { defineRule, type Fix, type FixContext } from '../definition';
import { payloadEntry } from './payload-entry';

/** ajv's notes that are not a verdict on a value: where validation stopped or could not go. */
const LIMIT_NOTES = new Set(['limit', 'depth']);

export const rule = defineRule<'payload-schema' | 'validator-divergence'>({
  codes: [
    {
      code: 'payload-schema',
      family: 'registry',
      severity: 'error',
      otherSeverities: ['information'],
      summary: 'data fails the URN’s registered JSON Schema.',
      docs: {
        fires:
          '`data` fails the URN\'s draft-07 JSON Schema (ajv, compiled once per schema); one diagnostic per failure on the value (`type`, `enum`, `const`, bounds, lengths, `pattern`, `format`), on the key (`additionalProperties`), or on the object\'s key for a missing `required` field. With `babelqueue.registry.validator` set to `bqschema` (`babelq lint --validator bqschema`), the failures are those bqschema reports instead (the subset BabelQueue\'s validators enforce), also against a schema that bqschema reads but draft-07 refuses (`"minLength": "3"`, `"type": "int"`), which is then no `registry-error`. `multipleOf` is decided on the decimals as written (`19.99` is a multiple of `0.01`, although as doubles the quotient is 1998.9999999999998). An integer literal beyond ±(2^53−1) is judged against `maximum`, `minimum`, the exclusive bounds, `multipleOf`, `enum` and `const` by its digits against the schema\'s number as written (not as two doubles, as ajv alone would; the message names a bound or `multipleOf` that a double does not hold, `9007199254740993` or `1.00000000000000000001`, as the schema file writes it, and so do the hovers), wherever the subschemas that apply to it follow from its path (`properties`, `additionalProperties`, `items`, local `$ref`, `allOf`); under a branch (`anyOf`, `oneOf`, `not`, `if`, `patternProperties`, …) an information note on the `data` key says that the verdict there is not exact. Where validation stopped early (a payload above 20,000 values is validated up to its first error) or could not go deeper, that note is information on the `data` key.',
        instead: 'A payload the schema accepts; the message says what the schema asks for at that place.',
        example: { fires: '"data": { "order_id": "1042" }', clean: '"data": { "order_id": 1042 }' },
        fixes: 'On a missing required field of `data` itself: add every missing required field of `data` with a type-correct example value from the schema (as New Envelope… does); never applied by `--fix`, since the values are examples.',
      },
      fixes: missingFieldsFix,
    },
    {
      code: 'validator-divergence',
      family: 'registry',
      severity: 'warning',
      summary: 'One of BabelQueue’s validators (bqschema, an SDK’s runtime check) decides this value otherwise than the verdict payload-schema follows.',
      docs: {
        fires:
          'bqschema (CI; the Go SDK runs the same code) or the payload-schema check of the PHP, Python, Node or Java SDK accepts what the followed verdict rejects, or rejects what it accepts: they enforce a small subset of draft-07 (no `pattern`, `format`, `maximum`, `minItems`, `$ref`, type lists, …), count `minLength` in UTF-8 bytes (bqschema), code points (PHP, Python) or UTF-16 units (Node, Java), compare `enum`/`const` in their own types, and read `required`/`properties` only beside `"type": "object"`. On the value or key, naming the validators (agreeing ones together) and why. With the `bqschema` setting, draft-07\'s verdict is the divergence. Against a schema that draft-07 refuses but the validators read (`"minLength": "3"`), they are compared with bqschema\'s verdict.',
        instead: 'A schema whose constraints BabelQueue\'s validators enforce as written (see `unenforced-keyword` in the schema file), or a fixture that every validator judges alike.',
        example: { fires: '"data": { "sku": "ab" }  (schema: "sku": {"type": "string", "pattern": "^[A-Z]+$"})', clean: '"data": { "sku": "AB" }' },
      },
    },
  ],
  check: (context) => {
    const found = payloadEntry(context);
    if (!found) return;
    const { entry, compiled, data, dataProperty } = found;
    const parsed = columnsOf(data);
    // Straight from the parser's columns: the payload is built for ajv only when they cannot vouch
    // for it (after a keystroke in a string or a number, derived from the previous version's where
    // there is one); both checks then read again only what the edit can have changed.
    const edit = parsed?.document.edit;
    const edited: ColumnsEdit | undefined = edit && { previous: edit.previous.columns, edited: edit.slot };
    // No compiled schema: draft-07 refuses it (the registry-error says why), BabelQueue's validators read it.
    const validated = !compiled ? undefined : parsed ? compiled.validateParsed(parsed.columns, parsed.text, parsed.slot, () => documentPlainValue(parsed.document, parsed.slot), edited) : compiled.validate(toJsValue(data));
    // ajv compares integers beyond ±(2^53−1) as doubles: their verdicts on the numeric keywords are made exact.
    const exact = validated && exactBigIntegerVerdicts(data, entry.schema?.doc?.root, validated, edited);
    // A bound the double compared is not the schema file's number: the message names the file's.
    const errors = exact && boundsAsWritten(exact.errors, entry.schema?.doc?.root);
    const follow = context.settings.registryValidator;
    const huge = parsed ? () => holdsHugeNumber(parsed.columns, parsed.text, parsed.slot, edited) : () => treeHoldsHugeNumber(data);
    const { findings, divergences } = judgePayload({ data, dataProperty, schema: entry.schema?.doc?.root, draft07: errors, follow, holdsHugeNumber: huge });
    const whose = follow === 'bqschema' ? `bqschema's verdict on the schema of ${quotedUrn(entry.urn)}` : `schema of ${quotedUrn(entry.urn)}`;
    for (const problem of findings) {
      // A note about a limit (validation stopped early, nesting too deep) is information on the `data` key, never an error over the whole payload.
      if (LIMIT_NOTES.has(problem.keyword) && dataProperty) context.report('payload-schema', keyRange(dataProperty), `data ${problem.message.replace(/^data /, '')} (${whose})`, { severity: 'information' });
      else context.report('payload-schema', problem, `${problem.message} (${whose})`, { schemaKeyword: problem.keyword });
    }
    if (dataProperty) for (const note of exact?.notes ?? []) context.report('payload-schema', keyRange(dataProperty), `data ${note} (${whose})`, { severity: 'information' });
    for (const divergence of divergences) context.report('validator-divergence', divergence, divergence.message);
  },
});

/** "Add the missing required data fields": every top-level required field `data` lacks, with the schema's example value. */
function missingFieldsFix({ doc, diagnostic, registry }: FixContext): Fix[] {
  if (!diagnostic.message.startsWith('missing required field') || registry?.kind !== 'loaded') return [];
  const root = asObject(doc.root);
  const dataProperty = getProperty(root, 'data');
  const data = asObject(dataProperty?.value);
  // Only a finding on `data` itself (its key or its brace): a nested object's missing field has its own place.
  if (!data || !dataProperty || !((diagnostic.offset === dataProperty.keyOffset && diagnostic.end === dataProperty.keyEnd) || diagnostic.offset === data.offset)) return [];
  const urn = routingUrn(root)?.node.value;
  const schema = urn === undefined ? undefined : registry.registry.byUrn.get(urn)?.schema?.value;
  if (schema === undefined) return [];
  // Every missing field of data is a finding here, each offered this same fix: built once per data
  // object and schema (for each finding, a schema of n required fields cost the square of n).
  const built = missingFieldsFixes.get(doc);
  if (built?.data === data && built.schema === schema) return built.fixes;
  const fixes = buildMissingFieldsFix(doc, data, schema);
  missingFieldsFixes.set(doc, { data, schema, fixes });
  return fixes;
}

/** The fix last built for a document: its data object, the schema it follows and the fix. */
const missingFieldsFixes = new WeakMap<ParsedDocument, { readonly data: ObjectNode; readonly schema: unknown; readonly fixes: Fix[] }>();

function buildMissingFieldsFix(doc: ParsedDocument, data: ObjectNode, schema: unknown): Fix[] {
  const example = exampleValue(schema);
  if (typeof example !== 'object' || example === null || Array.isArray(example)) return [];
  const missing = Object.entries(example as Record<string, unknown>).filter(([key]) => !getProperty(data, key));
  if (missing.length === 0) return [];
  return [
    {
      title: `Add the missing required data field${missing.length === 1 ? '' : 's'} ${missing.map(([key]) => literal(key)).join(', ')} with example values`,
      edits: [insertProperties(doc, data, missing)],
      preferred: false,
    },
  ];
}

function treeHoldsHugeNumber(data: ValueNode): boolean {
  let found = false;
  forEachValue(data, (node) => {
    if (node.kind === 'number' && !Number.isFinite(node.value)) found = true;
  });
  return found;
}
