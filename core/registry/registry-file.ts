/**
 * Reading `registry.json` (bqschema format: `{"schemas":[{"urn","schema","owner","status"}]}`)
 * into entries and problems. What a JSON Schema for the file cannot say is checked here:
 * duplicate URNs and URNs that break the naming rules; and everything that makes `bqschema check`
 * refuse the registry (an `owner` or `status` that is not a string, too) is a problem.
 */
import { parseJson } from '../parse/parser';
import { asObject, getProperty, type ObjectNode, type ParsedDocument, type ValueNode } from '../model/tree';
import { checkUrnNaming } from '../contract/urn';
import type { RegistryIndexEntry, RegistryProblem } from './types';

export type RegistryIndex =
  | { readonly ok: true; readonly doc: ParsedDocument; readonly entries: readonly RegistryIndexEntry[]; readonly problems: readonly RegistryProblem[] }
  | { readonly ok: false; readonly doc: ParsedDocument; readonly error: string; readonly problems: readonly RegistryProblem[] };

/** True when a registry.json text is meant to be in bqschema format (it has a `schemas` key). */
export function looksLikeRegistry(text: string): boolean {
  return /"schemas"\s*:/.test(text);
}

/** Parses registry.json text into its entries; never throws. */
export function readRegistryIndex(text: string): RegistryIndex {
  const doc = parseJson(text);
  if (doc.syntaxProblems.length > 0) {
    const first = doc.syntaxProblems[0];
    const error = `registry.json is not valid JSON: ${first.message}`;
    return { ok: false, doc, error, problems: [{ offset: first.offset, end: first.end, message: error }] };
  }
  const root = asObject(doc.root);
  const schemas = getProperty(root, 'schemas');
  if (!root || !schemas?.value || schemas.value.kind !== 'array') {
    const at = schemas?.value ?? doc.root;
    const error = 'registry.json must be an object with a "schemas" array of {"urn", "schema", "owner", "status"} entries (bqschema format).';
    return { ok: false, doc, error, problems: [{ offset: at?.offset ?? 0, end: at ? Math.min(at.end, at.offset + 1) : 0, message: error }] };
  }
  const problems: RegistryProblem[] = [];
  const entries: RegistryIndexEntry[] = [];
  const seen = new Map<string, number>();
  for (const item of schemas.value.items) {
    const entry = readEntry(item, problems);
    if (!entry) continue;
    const naming = checkUrnNaming(entry.urn);
    if (naming) problems.push({ offset: entry.urnOffset, end: entry.urnEnd, message: `The URN "${entry.urn}" breaks the naming rules: ${naming.message}` });
    const first = seen.get(entry.urn);
    if (first !== undefined) {
      problems.push({ offset: entry.urnOffset, end: entry.urnEnd, message: `Duplicate URN "${entry.urn}": it is already registered (entry ${first + 1}); bqschema rejects the registry. Remove one.` });
      continue;
    }
    seen.set(entry.urn, entries.length);
    entries.push(entry);
  }
  return { ok: true, doc, entries, problems };
}

function readEntry(item: ValueNode, problems: RegistryProblem[]): RegistryIndexEntry | undefined {
  if (item.kind !== 'object') {
    problems.push({ offset: item.offset, end: item.end, message: 'A registry entry must be an object {"urn", "schema", "owner", "status"}.' });
    return undefined;
  }
  const urn = stringField(item, 'urn', problems);
  const schema = stringField(item, 'schema', problems);
  if (!urn || !schema) return undefined;
  const owner = getProperty(item, 'owner')?.value;
  const status = getProperty(item, 'status')?.value;
  for (const [key, value] of [['owner', owner], ['status', status]] as const) {
    // bqschema decodes the entry into Go strings: any other JSON type (null aside) fails the whole registry.
    if (value && value.kind !== 'string' && value.kind !== 'null') {
      problems.push({ offset: value.offset, end: value.end, message: `"${key}" must be a string (free text) or left out: bqschema cannot decode ${describeKind(value)} into it and refuses the whole registry (\`bqschema check\` and \`validate\` fail).` });
    }
  }
  return {
    urn: urn.value,
    schemaRef: schema.value,
    ...(owner?.kind === 'string' ? { owner: owner.value } : {}),
    ...(status?.kind === 'string' ? { status: status.value } : {}),
    offset: item.offset,
    end: item.end,
    urnOffset: urn.offset,
    urnEnd: urn.end,
    schemaOffset: schema.offset,
    schemaEnd: schema.end,
  };
}

function stringField(item: ObjectNode, key: string, problems: RegistryProblem[]): { value: string; offset: number; end: number } | undefined {
  const property = getProperty(item, key);
  const value = property?.value;
  if (value?.kind === 'string' && value.value.trim() !== '') return { value: value.value, offset: value.offset, end: value.end };
  const at = value ?? item;
  const where = value ? { offset: at.offset, end: at.end } : { offset: item.offset, end: item.offset + 1 };
  problems.push({ ...where, message: `A registry entry needs a non-empty "${key}" string${key === 'schema' ? ' (the path of a draft-07 JSON Schema for data, relative to registry.json)' : ''}.` });
  return undefined;
}

function describeKind(value: ValueNode): string {
  return value.kind === 'array' || value.kind === 'object' ? `an ${value.kind}` : `a ${value.kind}`;
}
