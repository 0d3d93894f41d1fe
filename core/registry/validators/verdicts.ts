/**
 * The payload's verdicts side by side: draft-07 (ajv's errors, what `payload-schema` reports by
 * default) and each BabelQueue validator model (subset-walk.ts). Each verdict is a set of sites,
 * a site being the token a finding sits on (a value, a key, an object's key for a missing field);
 * where a validator decides a site otherwise than the verdict `payload-schema` follows, one
 * divergence names the validators, grouped by their reason.
 */
import { toJsValue } from '../../model/js-value';
import type { ObjectNode, PropertyNode, ValueNode } from '../../model/tree';
import { mapEachSchemaError, mapSchemaErrors, type MappedSchemaError } from '../schema-errors';
import type { SchemaError } from '../types';
import { changedByDouble } from '../written-numbers';
import { EQUALITY_WORDS, UNIT_WORDS, VALIDATORS, lengthIn, type ValidatorId, type ValidatorModel } from './models';
import { runSubset, schemaKeyword, type Leniency, type Violation } from './subset-walk';

/** Which verdict `payload-schema` follows: ajv's draft-07, or bqschema's (CI's gate). */
export type PayloadVerdict = 'draft-07' | 'bqschema';

export const PAYLOAD_VERDICTS: readonly PayloadVerdict[] = ['draft-07', 'bqschema'];

export interface Divergence {
  readonly offset: number;
  readonly end: number;
  readonly message: string;
  /** The validators that decide otherwise than the verdict followed. */
  readonly validators: readonly (ValidatorId | 'draft-07')[];
}

export interface PayloadJudgement {
  /** The findings of the verdict `payload-schema` follows. */
  readonly findings: readonly MappedSchemaError[];
  readonly divergences: readonly Divergence[];
}

export interface PayloadInput {
  readonly data: ObjectNode;
  readonly dataProperty: PropertyNode;
  /** The schema file's parsed root (numbers keep their literals). */
  readonly schema: ValueNode | undefined;
  /**
   * ajv's errors on `data` (empty: draft-07 accepts it); undefined when draft-07 cannot judge it at
   * all, because the schema is not valid draft-07 while BabelQueue's validators still read it.
   */
  readonly draft07: readonly SchemaError[] | undefined;
  readonly follow: PayloadVerdict;
  /** Whether `data` holds a number beyond float64 (from the columns when the caller has them). */
  readonly holdsHugeNumber: () => boolean;
}

/** Keywords ajv reports that are not a verdict on the payload (limits, a schema that fails to compile). */
const NOT_A_VERDICT = new Set(['depth', 'limit', 'schema']);

const DRAFT_07_LABEL = 'draft-07 (ajv)';

interface Site {
  readonly offset: number;
  readonly end: number;
  /** Why this judge rejects the site, in a message's words. */
  readonly reasons: string[];
  /** ajv's errors here (draft-07 only), to explain why another validator does not enforce them. */
  readonly errors: SchemaError[];
  /** The mapped finding, when this judge's verdict is the one followed. */
  readonly findings: MappedSchemaError[];
}

interface Judge {
  readonly id: ValidatorId | 'draft-07';
  readonly label: string;
  readonly model?: ValidatorModel;
  readonly sites: Map<string, Site>;
  readonly lenient: Map<string, string>;
}

/** The verdict to report and where the others differ; cheap when draft-07 accepts and no validator could reject. */
export function judgePayload(input: PayloadInput): PayloadJudgement {
  const { data, dataProperty, schema, draft07, follow } = input;
  const draftFindings = (): readonly MappedSchemaError[] => (draft07 ? mapSchemaErrors(data, dataProperty, draft07) : []);
  if (draft07?.some((error) => NOT_A_VERDICT.has(error.keyword)) || schema?.kind !== 'object') return { findings: draftFindings(), divergences: [] };
  // The models are stricter than draft-07 only through a few schema features; without them a valid payload needs no second look.
  if (draft07?.length === 0 && !mayRejectWhatDraft07Accepts(schema) && !input.holdsHugeNumber()) return { findings: [], divergences: [] };

  const judges: Judge[] = [...(draft07 ? [draftJudge(data, dataProperty, draft07)] : []), ...VALIDATORS.map((model) => modelJudge(model, schema, data, dataProperty))];
  // Without draft-07's verdict the others are compared with bqschema's, CI's gate.
  const reference = judges.find((judge) => judge.id === follow) ?? judges.find((judge) => judge.id === 'bqschema')!;
  const findings = follow === 'draft-07' ? draftFindings() : dedupe([...reference.sites.values()].flatMap((site) => site.findings));
  const siteIds = new Set(judges.flatMap((judge) => [...judge.sites.keys()]));
  const divergences: Divergence[] = [];
  for (const id of siteIds) {
    const divergence = divergenceAt(id, judges, reference, schema, reference.id === follow);
    if (divergence) divergences.push(divergence);
  }
  divergences.sort((a, b) => a.offset - b.offset || a.end - b.end);
  return { findings, divergences };
}

/** `followed`: payload-schema follows the reference; else draft-07 cannot judge (the schema is not valid draft-07) and bqschema is the reference. */
function divergenceAt(id: string, judges: readonly Judge[], reference: Judge, schema: ObjectNode, followed: boolean): Divergence | undefined {
  const refSite = reference.sites.get(id);
  const anySite = refSite ?? judges.map((judge) => judge.sites.get(id)).find((site) => site !== undefined)!;
  // Group the judges that decide otherwise by what they say, so agreeing validators share one sentence.
  const groups = new Map<string, Judge[]>();
  for (const judge of judges) {
    if (judge === reference) continue;
    const site = judge.sites.get(id);
    if ((site !== undefined) === (refSite !== undefined)) continue;
    const reasons = site ? unique(site.reasons) : acceptReasons(judge, id, refSite!, schema);
    const why = `${site ? 'rejects' : 'accepts'} it${reasons.length > 0 ? `\u0000${reasons.join('; ')}` : ''}`;
    groups.set(why, [...(groups.get(why) ?? []), judge]);
  }
  if (groups.size === 0) return undefined;
  const parts = [...groups].map(([why, members]) => {
    const many = plural(members);
    const [decision, reasons] = why.split('\u0000');
    const verb = many ? decision.replace(/^(rejects|accepts)/, (word) => word.slice(0, -1)) : decision;
    return `${names(members)} ${verb}${reasons ? `: ${many ? 'they' : 'it'} ${conjugate(reasons, many)}` : ''}`;
  });
  const subject = plural([reference]) ? 'they' : 'it';
  const refWhy = refSite ? (reference.id === 'draft-07' ? '' : `: ${subject} ${conjugate(unique(refSite.reasons).join('; '), plural([reference]))}`) : reference.lenient.has(id) ? `: ${subject} ${conjugate(reference.lenient.get(id)!, plural([reference]))}` : '';
  const refDecision = `${refSite ? 'reject' : 'accept'}${plural([reference]) ? '' : 's'}`;
  const message = followed
    ? `${parts.join('; ')}. payload-schema follows ${reference.label}, which ${refDecision} it${refWhy}.`
    : `${parts.join('; ')}. payload-schema cannot judge it by draft-07 (the schema is not valid draft-07); ${reference.label} ${refDecision} it${refWhy}.`;
  return { offset: anySite.offset, end: anySite.end, message, validators: [...groups.values()].flat().map((judge) => judge.id) };
}

/** Why a judge accepts what the followed verdict rejects: its own leniency, or the keywords it does not enforce. */
function acceptReasons(judge: Judge, id: string, refSite: Site, schema: ObjectNode): string[] {
  const lenient = judge.lenient.get(id);
  if (lenient) return [lenient];
  if (!judge.model) return [];
  return unique(refSite.errors.map((error) => whyUnenforced(judge.model!, schema, error)));
}

/** A reason's first verb for "they": "ignores" → "ignore", "does" → "do" (every reason starts with one). */
function conjugate(reason: string, many: boolean): string {
  if (!many) return reason;
  return reason.replace(/^(\w+)/, (verb) => (verb === 'does' ? 'do' : verb === 'is' ? 'are' : verb.endsWith('s') ? verb.slice(0, -1) : verb));
}

function draftJudge(data: ObjectNode, dataProperty: PropertyNode, errors: readonly SchemaError[]): Judge {
  const sites = new Map<string, Site>();
  for (const { error, result } of mapEachSchemaError(data, dataProperty, errors)) {
    const site = siteOf(sites, siteId(result, error), result);
    site.reasons.push(`says ${result.message}`);
    site.errors.push(error);
    site.findings.push(result);
  }
  return { id: 'draft-07', label: DRAFT_07_LABEL, sites, lenient: new Map() };
}

function modelJudge(model: ValidatorModel, schema: ObjectNode, data: ObjectNode, dataProperty: PropertyNode): Judge {
  const { violations, leniencies } = runSubset(model, schema, data);
  const sites = new Map<string, Site>();
  const asErrors = violations.map((violation) => violationError(model, violation));
  const mapped = mapEachSchemaError(data, dataProperty, asErrors);
  mapped.forEach(({ error, result }, i) => {
    const site = siteOf(sites, siteId(result, error), result);
    site.reasons.push(violations[i].reason);
    site.findings.push(withoutPatterns(model, violations[i], result));
  });
  const lenient = new Map<string, string>();
  const notes = mapEachSchemaError(data, dataProperty, leniencies.map(leniencyError));
  notes.forEach(({ error, result }, i) => lenient.set(siteId(result, error), leniencies[i].reason));
  return { id: model.id, label: model.id === 'bqschema' ? model.label : `the ${model.label} SDK`, model, sites, lenient };
}

function siteOf(sites: Map<string, Site>, id: string, at: { offset: number; end: number }): Site {
  let site = sites.get(id);
  if (!site) {
    site = { offset: at.offset, end: at.end, reasons: [], errors: [], findings: [] };
    sites.set(id, site);
  }
  return site;
}

/** A site: the token, and for a missing field which one (they all sit on the object's key). */
function siteId(at: { offset: number; end: number }, error: SchemaError): string {
  return error.keyword === 'required' ? `${at.offset}:${at.end}:${String(error.params.missingProperty)}` : `${at.offset}:${at.end}`;
}

function pointer(path: readonly (string | number)[]): string {
  return path.map((step) => `/${String(step).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

const schemaValues = new WeakMap<ObjectNode, Record<string, unknown>>();

function plainSchema(schema: ObjectNode | undefined): Record<string, unknown> | undefined {
  if (!schema) return undefined;
  let value = schemaValues.get(schema);
  if (!value) {
    value = toJsValue(schema) as Record<string, unknown>;
    schemaValues.set(schema, value);
  }
  return value;
}

/** A model's violation as a SchemaError, so that it lands on the same token as ajv's and is worded alike. */
function violationError(model: ValidatorModel, violation: Violation): SchemaError {
  const instancePath = pointer(violation.path);
  let parentSchema = plainSchema(violation.schema);
  if (violation.keyword === 'additionalProperties' && parentSchema && 'patternProperties' in parentSchema) {
    // The validators ignore it: the names it matches are not among those they allow.
    const { patternProperties: _ignored, ...rest } = parentSchema;
    parentSchema = rest;
  }
  const base = { instancePath, message: violation.text, ...(parentSchema ? { parentSchema } : {}) };
  const keyword = (name: string) => (violation.schema ? schemaKeyword(violation.schema, name) : undefined);
  switch (violation.keyword) {
    case 'type':
      return { ...base, keyword: 'type', params: { type: (keyword('type') as { value?: string } | undefined)?.value } };
    case 'enum': {
      const allowed = keyword('enum');
      return { ...base, keyword: 'enum', params: { allowedValues: allowed ? toJsValue(allowed) : [] } };
    }
    case 'const': {
      const allowed = keyword('const');
      return { ...base, keyword: 'const', params: { allowedValue: allowed ? toJsValue(allowed) : undefined } };
    }
    case 'minimum': {
      const bound = keyword('minimum') as ValueNode | undefined;
      const limitText = bound?.kind === 'number' ? changedByDouble(bound) : undefined;
      return { ...base, keyword: 'minimum', params: { comparison: '>=', limit: (bound as { value?: unknown } | undefined)?.value }, ...(limitText !== undefined ? { limitText } : {}) };
    }
    case 'required':
      return { ...base, keyword: 'required', params: { missingProperty: violation.member } };
    case 'additionalProperties':
      return { ...base, keyword: 'additionalProperties', params: { additionalProperty: violation.member } };
    case 'minLength': {
      const node = violation.node;
      const length = node.kind === 'string' ? lengthIn(model.lengthUnit, node.value) : 0;
      const limit = (keyword('minLength') as { value?: unknown } | undefined)?.value;
      // Worded by its own count: "characters" would be code points, which bqschema does not count.
      return { ...base, keyword: 'subset-minLength', params: {}, message: `must be at least ${String(limit)} ${UNIT_WORDS[model.lengthUnit]} long as ${model.id === 'bqschema' ? 'bqschema' : model.label} counts; found ${length}` };
    }
    case 'unreadable-number':
      return { ...base, keyword: 'subset-unreadable', params: {}, message: `cannot be read by bqschema: Go's encoding/json refuses ${violation.node.kind === 'number' ? violation.node.raw : 'it'} (outside float64), so the whole file fails` };
  }
}

/**
 * A model's additional-property finding, said as the model decides it: it ignores
 * `patternProperties`, so the names it matches are not listed as allowed (violationError leaves
 * them out of the subschema), and the finding says why such a name is rejected all the same.
 */
function withoutPatterns(model: ValidatorModel, violation: Violation, result: MappedSchemaError): MappedSchemaError {
  const patterns = violation.keyword === 'additionalProperties' && violation.schema ? schemaKeyword(violation.schema, 'patternProperties') : undefined;
  if (patterns?.kind !== 'object' || patterns.properties.length === 0) return result;
  const who = model.id === 'bqschema' ? 'bqschema' : `the ${model.label} SDK`;
  const names = [...new Set(patterns.properties.map((property) => property.key))].join(' or ');
  return { ...result, message: `${result.message}; ${who} ignores "patternProperties", so a name matching ${names} is an additional property too` };
}

function leniencyError(leniency: Leniency): SchemaError {
  const instancePath = pointer(leniency.path);
  if (leniency.keyword === 'required') return { keyword: 'required', instancePath, params: { missingProperty: leniency.member }, message: leniency.reason };
  if (leniency.keyword === 'additionalProperties') return { keyword: 'additionalProperties', instancePath, params: { additionalProperty: leniency.member }, message: leniency.reason };
  return { keyword: leniency.keyword, instancePath, params: {}, message: leniency.reason };
}

/** Keywords of draft-07 that no BabelQueue validator reads at all. */
export const UNENFORCED_KEYWORDS: ReadonlySet<string> = new Set([
  'pattern', 'format', 'maxLength', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'contains',
  'additionalItems', 'minProperties', 'maxProperties', 'dependencies', 'propertyNames', 'patternProperties', '$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else',
]);

/** Why a validator does not reject what ajv's `error` reports: it never reaches that subschema, or does not read the keyword. */
function whyUnenforced(model: ValidatorModel, root: ObjectNode, error: SchemaError): string {
  let schema: ObjectNode | undefined = root;
  const steps = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const step of steps) {
    const type = typeName(schema);
    if (type === 'array' && /^\d+$/.test(step)) {
      const items = schemaKeyword(schema, 'items');
      if (items?.kind !== 'object') return items?.kind === 'array' ? 'ignores "items" given as a list of schemas' : 'does not reach this value';
      schema = items;
      continue;
    }
    if (type === 'object') {
      const properties = schemaKeyword(schema, 'properties');
      const sub = properties?.kind === 'object' ? lastValue(properties, step) : undefined;
      if (sub?.kind === 'object') {
        schema = sub;
        continue;
      }
      return `reads nothing for "${step}" here${routeWords(schema, ['patternProperties', 'additionalProperties', '$ref', 'allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'dependencies'])}`;
    }
    return notInsideWords(schema);
  }
  const type = typeName(schema);
  const plain = plainSchema(schema);
  if (!sameSchema(error.parentSchema, plain)) return `does not apply${routeWords(schema, ['$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependencies', 'patternProperties', 'additionalProperties', 'additionalItems', 'contains', 'propertyNames'], true) || ' the subschema that rejects it'}`;
  const typeList = schemaKeyword(schema, 'type')?.kind === 'array';
  switch (error.keyword) {
    case 'type':
      return typeList ? 'ignores a "type" list' : `ignores "type" here`;
    case 'required':
    case 'additionalProperties': {
      if (type !== 'object') return `reads "${error.keyword}" only beside "type": "object"${typeList ? ' (a "type" list is no type to it)' : ''}`;
      const additional = schemaKeyword(schema, 'additionalProperties');
      return error.keyword === 'additionalProperties' && additional?.kind === 'object' ? 'reads "additionalProperties" only as true or false, so a schema there allows anything' : `does not enforce "${error.keyword}" here`;
    }
    case 'minLength':
      if (type !== 'string') return `reads "minLength" only beside "type": "string"${typeList ? ' (a "type" list is no type to it)' : ''}`;
      return `counts ${UNIT_WORDS[model.lengthUnit]}`;
    case 'minimum':
      return type === 'integer' || type === 'number' ? 'compares "minimum" otherwise' : `reads "minimum" only beside "type": "integer" or "number"${typeList ? ' (a "type" list is no type to it)' : ''}`;
    case 'enum':
    case 'const':
      return EQUALITY_WORDS[model.equality];
    case 'items':
      return 'ignores "items" given as a list of schemas';
    default:
      return `ignores "${error.keyword}"`;
  }
}

function typeName(schema: ObjectNode | undefined): string | undefined {
  const type = schema ? schemaKeyword(schema, 'type') : undefined;
  return type?.kind === 'string' ? type.value : undefined;
}

function lastValue(object: ObjectNode, key: string): ValueNode | undefined {
  return schemaKeyword(object, key);
}

function notInsideWords(schema: ObjectNode | undefined): string {
  if (!schema) return 'does not reach this value';
  const typeList = schemaKeyword(schema, 'type')?.kind === 'array';
  if (schemaKeyword(schema, 'properties') || schemaKeyword(schema, 'required')) return typeList ? 'ignores a "type" list, so it does not look inside' : 'reads "properties" only beside "type": "object", so it does not look inside';
  if (schemaKeyword(schema, 'items')) return typeList ? 'ignores a "type" list, so it does not look inside' : 'reads "items" only beside "type": "array", so it does not look inside';
  return `does not look inside${routeWords(schema, ['$ref', 'allOf', 'anyOf', 'oneOf', 'if', 'then', 'else'], true)}`;
}

/** ` (it ignores "$ref")`, or with `bare` ` "$ref"`, for the keywords of `candidates` that the schema has. */
function routeWords(schema: ObjectNode, candidates: readonly string[], bare = false): string {
  const present = candidates.filter((name) => {
    const value = schemaKeyword(schema, name);
    return value !== undefined && !(name === 'additionalProperties' && value.kind === 'boolean');
  });
  if (present.length === 0) return '';
  const list = present.map((name) => `"${name}"`).join(', ');
  return bare ? ` ${list}` : ` (it ignores ${list})`;
}

/** ajv validated a private copy (no "$schema", a private "$id" at the root): the same subschema up to those. */
function sameSchema(a: unknown, b: unknown): boolean {
  const strip = (value: unknown): string => {
    if (typeof value !== 'object' || value === null) return JSON.stringify(value);
    const { $id: _id, $schema: _schema, ...rest } = value as Record<string, unknown>;
    return JSON.stringify(rest);
  };
  return strip(a) === strip(b);
}

const cheapCache = new WeakMap<ObjectNode, boolean>();

/**
 * True when some model may reject a payload that draft-07 accepts: every validator reads fewer
 * keywords than draft-07, so only `enum`/`const` with numbers or containers (their equalities
 * differ), keys that `patternProperties` or a non-object property schema allows under
 * `additionalProperties: false`, and numbers beyond float64 (bqschema) can do it. The last depends
 * on the payload alone (`holdsHugeNumber`).
 */
export function mayRejectWhatDraft07Accepts(schema: ObjectNode): boolean {
  const known = cheapCache.get(schema);
  if (known !== undefined) return known;
  let found = false;
  const stack: ValueNode[] = [schema];
  while (stack.length > 0 && !found) {
    const node = stack.pop()!;
    if (node.kind === 'array') {
      stack.push(...node.items);
      continue;
    }
    if (node.kind !== 'object') continue;
    for (const property of node.properties) {
      const value = property.value;
      if (!value) continue;
      if ((property.key === 'enum' && value.kind === 'array' && value.items.some(comparesOtherwise)) || (property.key === 'const' && comparesOtherwise(value))) found = true;
      stack.push(value);
    }
    const additional = schemaKeyword(node, 'additionalProperties');
    if (additional?.kind === 'boolean' && !additional.value) {
      const properties = schemaKeyword(node, 'properties');
      if (schemaKeyword(node, 'patternProperties') || (properties?.kind === 'object' && properties.properties.some((p) => p.value && p.value.kind !== 'object'))) found = true;
    }
  }
  cheapCache.set(schema, found);
  return found;
}

/** Strings, booleans and null are equal alike everywhere; numbers and containers are not. */
function comparesOtherwise(node: ValueNode): boolean {
  return node.kind === 'number' || node.kind === 'object' || node.kind === 'array';
}

function names(members: readonly Judge[]): string {
  const bqschema = members.some((judge) => judge.id === 'bqschema');
  // bqschema runs the Go SDK's code, so the Go SDK joins the other SDKs named beside it.
  const sdks = [...(bqschema ? ['Go'] : []), ...members.filter((judge) => judge.model && judge.id !== 'bqschema').map((judge) => judge.model!.label)];
  const others = [...(bqschema ? ['bqschema (CI)'] : []), ...members.filter((judge) => !judge.model).map((judge) => judge.label)];
  const sdkWords = sdks.length === 0 ? [] : [`the ${joinWords(sdks)} SDK${sdks.length > 1 ? 's' : ''}`];
  return joinWords([...others, ...sdkWords]);
}

function plural(members: readonly Judge[]): boolean {
  return members.length > 1 || members.some((judge) => judge.id === 'bqschema');
}

function joinWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function dedupe(findings: readonly MappedSchemaError[]): MappedSchemaError[] {
  const seen = new Set<string>();
  return findings
    .filter((finding) => {
      const id = `${finding.offset}:${finding.end}:${finding.message}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => a.offset - b.offset || a.end - b.end);
}
