/**
 * Reading `registry.json` (bqschema format: `{"schemas":[{"urn","schema","owner","status"}]}`)
 * into entries and problems. What a JSON Schema for the file cannot say is checked here:
 * duplicate URNs and URNs that break the naming rules; and everything that makes `bqschema check`
 * refuse the registry (an `owner` or `status` that is not a string, too) is a problem.
 *
 * bqschema reads the file with Go's encoding/json into its structs, so the keys are read as Go
 * reads them: matched to the field names case-insensitively (`URN`, `Owner`, `SCHEMAS`), the last
 * of several keys for one field winning, a `null` leaving the field as it was, and a value of
 * another type anywhere failing the whole registry (checked with go1.19's encoding/json).
 */
import { parseJson } from '../parse/parser';
import { asObject, type ObjectNode, type ParsedDocument, type ValueNode } from '../model/tree';
import { checkUrnNaming } from '../contract/urn';
import { goFold } from '../encode/go';
import type { RegistryIndexEntry, RegistryProblem } from './types';

export type RegistryIndex =
  | { readonly ok: true; readonly doc: ParsedDocument; readonly entries: readonly RegistryIndexEntry[]; readonly problems: readonly RegistryProblem[] }
  | { readonly ok: false; readonly doc: ParsedDocument; readonly error: string; readonly problems: readonly RegistryProblem[] };

/** True when a registry.json text is meant to be in bqschema format (it has a `schemas` key). */
export function looksLikeRegistry(text: string): boolean {
  // Any case, as bqschema's decoder matches the key.
  return /"schemas"\s*:/i.test(text);
}

/** Parses registry.json text into its entries; never throws. */
export function readRegistryIndex(text: string): RegistryIndex {
  const doc = parseJson(text);
  if (doc.syntaxProblems.length > 0) {
    const first = doc.syntaxProblems[0];
    const error = `registry.json is not valid JSON: ${first.message}`;
    return { ok: false, doc, error, problems: [{ offset: first.offset, end: first.end, message: error, refusesRegistry: true }] };
  }
  const root = asObject(doc.root);
  const schemas = root && goFieldValue(root, 'schemas');
  if (!root || schemas?.kind !== 'array') {
    const at = schemas ?? doc.root;
    const error = 'registry.json must be an object with a "schemas" array of {"urn", "schema", "owner", "status"} entries (bqschema format).';
    return { ok: false, doc, error, problems: [{ offset: at?.offset ?? 0, end: at ? Math.min(at.end, at.offset + 1) : 0, message: error, refusesRegistry: true }] };
  }
  const problems: RegistryProblem[] = [];
  const entries: RegistryIndexEntry[] = [];
  const seen = new Map<string, number>();
  for (const item of schemas.items) {
    const entry = readEntry(item, problems);
    if (!entry) continue;
    const naming = checkUrnNaming(entry.urn);
    if (naming) problems.push({ offset: entry.urnOffset, end: entry.urnEnd, message: `The URN "${entry.urn}" breaks the naming rules: ${naming.message}` });
    const first = seen.get(entry.urn);
    if (first !== undefined) {
      problems.push({ offset: entry.urnOffset, end: entry.urnEnd, message: `Duplicate URN "${entry.urn}": it is already registered (entry ${first + 1}); bqschema rejects the registry. Remove one.`, refusesRegistry: true });
      continue;
    }
    seen.set(entry.urn, entries.length);
    entries.push(entry);
  }
  return { ok: true, doc, entries, problems };
}

function readEntry(item: ValueNode, problems: RegistryProblem[]): RegistryIndexEntry | undefined {
  if (item.kind !== 'object') {
    problems.push({ offset: item.offset, end: item.end, message: 'A registry entry must be an object {"urn", "schema", "owner", "status"}.', refusesRegistry: true });
    return undefined;
  }
  const urn = stringField(item, 'urn', problems);
  const schema = stringField(item, 'schema', problems);
  // bqschema decodes the entry into Go strings: any other JSON type (null aside) fails the whole registry.
  const owner = stringField(item, 'owner', problems, true);
  const status = stringField(item, 'status', problems, true);
  if (!urn || !schema) return undefined;
  return {
    urn: urn.value,
    schemaRef: schema.value,
    ...(owner ? { owner: owner.value } : {}),
    ...(status ? { status: status.value } : {}),
    offset: item.offset,
    end: item.end,
    urnOffset: urn.offset,
    urnEnd: urn.end,
    schemaOffset: schema.offset,
    schemaEnd: schema.end,
  };
}

/** The values of the keys encoding/json puts into the field `name`, in document order. */
function goFieldValues(object: ObjectNode, name: string): ValueNode[] {
  const values: ValueNode[] = [];
  for (const property of object.properties) if (property.value && goFold(property.key) === name) values.push(property.value);
  return values;
}

/** The value a field ends with: the last one that is not null (a null leaves a Go field as it was). */
function goFieldValue(object: ObjectNode, name: string): ValueNode | undefined {
  const values = goFieldValues(object, name).filter((value) => value.kind !== 'null');
  return values[values.length - 1];
}

/**
 * A string field of an entry: every value of another type is a refusal of the whole registry, as
 * the decoder reports it; `urn` and `schema` must end non-empty, `owner` and `status` may be absent.
 */
function stringField(item: ObjectNode, key: string, problems: RegistryProblem[], optional = false): { value: string; offset: number; end: number } | undefined {
  let mistyped = false;
  for (const value of goFieldValues(item, key)) {
    if (value.kind === 'string' || value.kind === 'null') continue;
    mistyped = true;
    problems.push({
      offset: value.offset,
      end: value.end,
      message: `"${key}" must be a string${optional ? ' (free text) or left out' : ''}: bqschema cannot decode ${describeKind(value)} into it and refuses the whole registry (\`bqschema check\` and \`validate\` fail).`,
      refusesRegistry: true,
    });
  }
  const value = goFieldValue(item, key);
  if (value?.kind === 'string' && (optional || value.value.trim() !== '')) return { value: value.value, offset: value.offset, end: value.end };
  if (optional || mistyped) return undefined;
  const at = value ?? goFieldValues(item, key).pop();
  const where = at ? { offset: at.offset, end: at.end } : { offset: item.offset, end: item.offset + 1 };
  problems.push({ ...where, message: `A registry entry needs a non-empty "${key}" string${key === 'schema' ? ' (the path of a draft-07 JSON Schema for data, relative to registry.json)' : ''}.`, refusesRegistry: true });
  return undefined;
}

function describeKind(value: ValueNode): string {
  return value.kind === 'array' || value.kind === 'object' ? `an ${value.kind}` : `a ${value.kind}`;
}
