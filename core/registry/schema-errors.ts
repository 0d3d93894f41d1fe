/**
 * From ajv's errors on a `data` value to ranges in the fixture and sentences that say what to write.
 *
 * ajv reports against a plain JS copy of `data` with JSON-pointer paths; we walk each path down our
 * own tree to the node, then pick the part of the text the keyword is about: the value for a value
 * constraint, the key for a field that should not be there, the object's key for a field that is
 * missing. With `allErrors`, ajv also reports the wrappers (`if`, `anyOf`, `propertyNames`,
 * `contains`) next to the errors inside them; one finding per actual problem survives.
 */
import type { ObjectNode, PropertyNode, ValueNode } from '../model/tree';
import { editDistance } from '../model/edit-distance';
import type { SchemaError } from './types';

/** One payload-schema problem at a range of the fixture text. */
export interface MappedSchemaError {
  readonly offset: number;
  readonly end: number;
  readonly message: string;
  readonly keyword: string;
}

/** Maps ajv errors on `dataNode` to precise fixture ranges with actionable messages (deduplicated, in text order). */
export function mapSchemaErrors(dataNode: ValueNode, dataProperty: PropertyNode | undefined, errors: readonly SchemaError[]): MappedSchemaError[] {
  const mapper = new Mapper(dataNode, dataProperty);
  const seen = new Set<string>();
  const mapped: MappedSchemaError[] = [];
  for (const finding of reduceNoise(errors)) {
    const result = mapper.map(finding);
    const id = `${result.offset}:${result.end}:${result.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    mapped.push(result);
  }
  // Array.prototype.sort is stable, so findings on one range keep ajv's order.
  return mapped.sort((a, b) => a.offset - b.offset || a.end - b.end);
}

// ---------------------------------------------------------------------------------------------
// Noise: wrappers and the errors inside them

interface Finding {
  readonly error: SchemaError;
  /** anyOf/oneOf matched by nothing: what each alternative wants (undefined when unsayable). */
  readonly alternatives?: readonly (string | undefined)[];
  /** propertyNames: why the name fails, from the errors ajv reports inside the wrapper. */
  readonly reasons?: readonly string[];
}

/** Keywords that say the value is the wrong kind of thing altogether (the branch was not meant). */
const SHALLOW_KEYWORDS = new Set(['type', 'const', 'enum', 'false schema', 'anyOf', 'oneOf']);

function reduceNoise(errors: readonly SchemaError[]): Finding[] {
  const kept: Finding[] = [];
  // Dropped findings are only marked: a wrapper per array item must not cost a pass over everything.
  const dropped = new Set<Finding>();
  const drop = (findings: Iterable<Finding>): void => {
    for (const finding of findings) dropped.add(finding);
  };
  for (const error of errors) {
    const path = error.instancePath;
    const parent = error.parentSchema;
    switch (error.keyword) {
      case 'if':
        // "must match then schema": the errors of `then`/`else` are reported on their own.
        continue;
      case 'propertyNames': {
        // ajv reports the name's failures at the object's path, before the wrapper that names it.
        const inside = attributed(kept, dropped, parent?.propertyNames, path, true);
        drop(inside);
        kept.push({ error, reasons: [...inside].reverse().map((f) => nameReason(f.error)) });
        continue;
      }
      case 'contains':
        // Every item's failure is listed; none of them is the problem, the missing match is.
        drop(attributed(kept, dropped, parent?.contains, path, false));
        kept.push({ error });
        continue;
      case 'anyOf':
      case 'oneOf': {
        const branches = parent?.[error.keyword];
        if (Array.isArray(error.params.passingSchemas) || !Array.isArray(branches)) {
          kept.push({ error });
          continue;
        }
        const groups = branches.map((branch) => attributed(kept, dropped, branch, path, false));
        const meant = groups.filter((group) => group.size > 0 && ![...group].some((f) => f.error.instancePath === path && SHALLOW_KEYWORDS.has(f.error.keyword)));
        if (groups.every((group) => group.size > 0) && meant.length === 1) {
          // Only one alternative has the right shape: its own errors are the useful ones.
          for (const group of groups) if (group !== meant[0]) drop(group);
          continue;
        }
        for (const group of groups) drop(group);
        kept.push({ error, alternatives: branches.map(describe) });
        continue;
      }
      default:
        kept.push({ error });
    }
  }
  return dropped.size === 0 ? kept : kept.filter((f) => !dropped.has(f));
}

/**
 * The findings that came from inside `schema` (ajv's `parentSchema` is the very subschema object,
 * so identity tells) at `path` or below it. They come right before their wrapper, so the scan goes
 * backwards and stops at the first finding outside `path`. Errors through a `$ref` point into
 * `definitions` and are not attributed; they stay, which is noisy but never hides a problem.
 */
function attributed(kept: readonly Finding[], dropped: ReadonlySet<Finding>, schema: unknown, path: string, samePathOnly: boolean): Set<Finding> {
  const found = new Set<Finding>();
  if (typeof schema !== 'object' || schema === null) return found;
  const inside = reachable(schema);
  for (let i = kept.length - 1; i >= 0; i--) {
    const finding = kept[i];
    const { parentSchema, instancePath } = finding.error;
    const within = instancePath === path || instancePath.startsWith(path === '' ? '/' : `${path}/`);
    if (!within) break;
    if (dropped.has(finding) || !parentSchema || !inside.has(parentSchema)) continue;
    if (!samePathOnly || instancePath === path) found.add(finding);
  }
  return found;
}

const reachableCache = new WeakMap<object, Set<object>>();

/** Every object inside a schema, itself included (iterative; cached, schemas do not change). */
function reachable(schema: object): Set<object> {
  const cached = reachableCache.get(schema);
  if (cached) return cached;
  const seen = new Set<object>();
  const stack: object[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) stack.push(value);
  }
  reachableCache.set(schema, seen);
  return seen;
}

/** Why a property name fails, from an error ajv reported against the name. */
function nameReason(error: SchemaError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'pattern':
      return `match the pattern ${String(p.pattern)}`;
    case 'minLength':
      return `be at least ${plural(Number(p.limit), 'character')} long`;
    case 'maxLength':
      return `be at most ${plural(Number(p.limit), 'character')} long`;
    case 'enum':
      return `be one of ${listValues(p.allowedValues)}`;
    case 'const':
      return `be ${literal(p.allowedValue)}`;
    case 'format':
      return `be a valid ${formatName(String(p.format))}`;
    default:
      return error.message.replace(/^must /, '');
  }
}

// ---------------------------------------------------------------------------------------------
// From a path to a node and a range

interface Target {
  readonly node: ValueNode;
  /** The steps actually followed: keys and array indexes. */
  readonly steps: readonly (string | number)[];
}

class Mapper {
  /** Key lookups per object, built on first use: ajv can report thousands of errors on one object. */
  private readonly keys = new Map<ObjectNode, Map<string, PropertyNode>>();

  constructor(
    private readonly data: ValueNode,
    private readonly dataProperty: PropertyNode | undefined,
  ) {}

  map(finding: Finding): MappedSchemaError {
    const { error } = finding;
    const target = this.follow(error.instancePath);
    const { node } = target;
    const label = this.label(target.steps);
    const name = quote(label);
    const p = error.params;
    const keyword = error.keyword;
    const at = (range: { offset: number; end: number }, message: string): MappedSchemaError => ({ offset: range.offset, end: range.end, message, keyword });

    switch (keyword) {
      case 'required': {
        const missing = String(p.missingProperty);
        const expected = describe(propertySchema(error.parentSchema, missing));
        const where = node === this.data ? '' : ` in ${name}`;
        return at(this.objectAnchor(node), `missing required field ${quote(missing)}${expected ? ` (${expected})` : ''}${where}`);
      }
      case 'additionalProperties': {
        const extra = String(p.additionalProperty);
        const property = node.kind === 'object' ? this.property(node, extra) : undefined;
        return at(property ? keyRange(property) : this.objectAnchor(node), extraFieldMessage(extra, label, error.parentSchema));
      }
      case 'dependencies': {
        const trigger = String(p.property);
        const property = node.kind === 'object' ? this.property(node, trigger) : undefined;
        return at(property ? keyRange(property) : this.objectAnchor(node), `${quote(trigger)} requires ${quote(String(p.missingProperty))} to be present in ${name} too`);
      }
      case 'propertyNames': {
        const key = String(p.propertyName);
        const property = node.kind === 'object' ? this.property(node, key) : undefined;
        const reasons = finding.reasons?.length ? finding.reasons.join(' and ') : 'satisfy "propertyNames"';
        return at(property ? keyRange(property) : this.objectAnchor(node), `the field name ${quote(key)} is not allowed in ${name}: names must ${reasons}`);
      }
      case 'minProperties':
      case 'maxProperties': {
        const count = node.kind === 'object' ? new Set(node.properties.map((q) => q.key)).size : 0;
        const bound = keyword === 'minProperties' ? 'at least' : 'at most';
        return at(this.objectAnchor(node), `${name} must have ${bound} ${plural(Number(p.limit), 'field')}; found ${count}`);
      }
      case 'false schema':
        return at(node !== this.data && node.property ? keyRange(node.property) : node, `${name} is not allowed here; remove it`);
      case 'type': {
        const expected = typesOf({ type: p.type });
        return at(node, `${name} must be ${expected.map(withArticle).join(' or ')}, not ${foundLong(node)}${typeHint(expected, node)}`);
      }
      case 'enum': {
        const values = Array.isArray(p.allowedValues) ? p.allowedValues : [];
        const want = values.length === 1 ? literal(values[0]) : `one of ${listValues(values)}`;
        return at(node, `${name} must be ${want}; found ${foundShort(node)}`);
      }
      case 'const':
        return at(node, `${name} must be ${literal(p.allowedValue)}; found ${foundShort(node)}`);
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        return at(node, `${name} must be ${comparison(String(p.comparison))} ${String(p.limit)}; found ${foundShort(node)}`);
      case 'multipleOf':
        return at(node, `${name} must be a multiple of ${String(p.multipleOf)}; found ${foundShort(node)}`);
      case 'minLength':
      case 'maxLength': {
        const length = node.kind === 'string' ? [...node.value].length : 0;
        const bound = keyword === 'minLength' ? 'at least' : 'at most';
        return at(node, `${name} must be ${bound} ${plural(Number(p.limit), 'character')} long; found ${length}`);
      }
      case 'pattern':
        return at(node, `${name} must match the pattern ${String(p.pattern)}; found ${foundShort(node)}`);
      case 'format':
        return at(node, `${name} must be a valid ${formatName(String(p.format))}; found ${foundShort(node)}`);
      case 'minItems': {
        const count = node.kind === 'array' ? node.items.length : 0;
        return at(node, `${name} must have at least ${plural(Number(p.limit), 'item')}; found ${count}`);
      }
      case 'maxItems':
      case 'additionalItems': {
        const limit = Number(p.limit);
        const count = node.kind === 'array' ? node.items.length : 0;
        const why = keyword === 'additionalItems' ? `${name} takes only the ${plural(limit, 'item')} its tuple schema lists` : `${name} must have at most ${plural(limit, 'item')}`;
        return at(surplus(node, limit), `${why}; found ${count}, remove ${count - limit === 1 ? 'the last one' : `the last ${count - limit}`}`);
      }
      case 'uniqueItems': {
        const later = Number(p.i);
        const earlier = Number(p.j);
        const item = node.kind === 'array' ? node.items[later] : undefined;
        return at(item ?? node, `${name} must not repeat items: item ${later} is the same as item ${earlier}`);
      }
      case 'contains':
        return at(node, `${name} must contain at least one item that is ${withArticle(describe(error.parentSchema?.contains) ?? 'valid against "contains"')}`);
      case 'not': {
        const forbidden = describe(error.parentSchema?.not);
        return at(node, `${name} must not be ${forbidden ? withArticle(forbidden) : `what its "not" schema describes; found ${foundShort(node)}`}`);
      }
      case 'anyOf':
      case 'oneOf': {
        const passing = p.passingSchemas;
        if (Array.isArray(passing)) {
          return at(node, `${name} matches ${passing.length} alternatives of "oneOf" (${passing.map((i) => `#${Number(i) + 1}`).join(', ')}); it must match exactly one`);
        }
        const alternatives = finding.alternatives ?? [];
        if (alternatives.length > 0 && alternatives.every((a) => a !== undefined)) {
          return at(node, `${name} must be ${alternatives.map((a) => withArticle(a!)).join(' or ')}; found ${foundShort(node)}`);
        }
        return at(node, `${name} matches none of the ${alternatives.length} alternatives of "${keyword}"; found ${foundShort(node)}`);
      }
      default:
        return at(node, `${name} ${error.message}`);
    }
  }

  /** Walks a JSON pointer down the tree; stops at the nearest existing node if a step is missing. */
  private follow(pointer: string): Target {
    let node = this.data;
    const steps: (string | number)[] = [];
    if (pointer === '') return { node, steps };
    for (const raw of pointer.slice(1).split('/')) {
      const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (node.kind === 'object') {
        const value = this.property(node, segment)?.value;
        if (!value) break;
        node = value;
        steps.push(segment);
      } else if (node.kind === 'array' && /^(?:0|[1-9]\d*)$/.test(segment) && Number(segment) < node.items.length) {
        const index = Number(segment);
        node = node.items[index];
        steps.push(index);
      } else {
        break;
      }
    }
    return { node, steps };
  }

  /** The property ajv saw for `key`: the last one with a value, as JSON.parse keeps the last duplicate. */
  private property(object: ObjectNode, key: string): PropertyNode | undefined {
    let index = this.keys.get(object);
    if (!index) {
      index = new Map();
      for (const property of object.properties) if (property.value) index.set(property.key, property);
      this.keys.set(object, index);
    }
    return index.get(key);
  }

  /** What a field is called in messages: its key, with the indexes that follow it (`items[2]`). */
  private label(steps: readonly (string | number)[]): string {
    let i = steps.length;
    while (i > 0 && typeof steps[i - 1] === 'number') i--;
    const base = i > 0 ? String(steps[i - 1]) : (this.dataProperty?.key ?? 'data');
    return base + steps.slice(i).map((index) => `[${index}]`).join('');
  }

  /** Where a problem of a whole object goes: its key (for `data`, the `data` key); an array item has none. */
  private objectAnchor(node: ValueNode): { offset: number; end: number } {
    if (node === this.data) return this.dataProperty ? keyRange(this.dataProperty) : node;
    return node.property ? keyRange(node.property) : node;
  }
}

function keyRange(property: PropertyNode): { offset: number; end: number } {
  return { offset: property.keyOffset, end: property.keyEnd };
}

/** The items past `limit`, from the first surplus one to the last; the array when there are none. */
function surplus(node: ValueNode, limit: number): { offset: number; end: number } {
  if (node.kind !== 'array' || !(limit >= 0) || limit >= node.items.length) return node;
  const items = node.items;
  return { offset: items[limit].offset, end: items[items.length - 1].end };
}

function propertySchema(parent: Record<string, unknown> | undefined, key: string): unknown {
  const properties = parent?.properties;
  if (typeof properties !== 'object' || properties === null || !Object.prototype.hasOwnProperty.call(properties, key)) return undefined;
  return (properties as Record<string, unknown>)[key];
}

function extraFieldMessage(extra: string, label: string, parent: Record<string, unknown> | undefined): string {
  const properties = parent?.properties;
  const allowed = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
  const patterns = typeof parent?.patternProperties === 'object' && parent.patternProperties !== null ? Object.keys(parent.patternProperties) : [];
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(extra.length / 4)) + 1;
  for (const candidate of allowed) {
    const distance = editDistance(extra.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const parts = [`${quote(extra)} is not a field of ${quote(label)}${best !== undefined ? ` (did you mean ${quote(best)}?)` : ''}`];
  if (allowed.length > 0 || patterns.length > 0) {
    const shown = allowed.slice(0, 8).map(quote).join(', ') + (allowed.length > 8 ? `, … (${allowed.length - 8} more)` : '');
    const byPattern = patterns.length > 0 ? `${shown ? ', or ' : ''}names matching ${patterns.join(' or ')}` : '';
    parts.push(`allowed: ${shown}${byPattern}`);
  } else {
    parts.push(`${quote(label)} takes no fields; remove it`);
  }
  return parts.join('; ');
}

// ---------------------------------------------------------------------------------------------
// Words: schemas, values and expectations

const TYPE_ORDER = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const PLURAL_TYPES: Readonly<Record<string, string>> = {
  string: 'strings',
  number: 'numbers',
  integer: 'integers',
  boolean: 'booleans',
  object: 'objects',
  array: 'arrays',
  null: 'nulls',
};

function typesOf(schema: Record<string, unknown>): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/**
 * What a schema asks for in a few words, without an article: "number ≥ 0", "string, email
 * address", `one of "USD", "EUR"`. Undefined when it says nothing simple (a bare `$ref`).
 */
function describe(schema: unknown): string | undefined {
  if (schema === true) return 'anything';
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  const s = schema as Record<string, unknown>;
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.length === 1 ? literal(s.enum[0]) : `one of ${listValues(s.enum)}`;
  let types = typesOf(s);
  if (types.length === 0) {
    if (typeof s.properties === 'object' || Array.isArray(s.required)) types = ['object'];
    else if ('items' in s) types = ['array'];
    else return undefined;
  }
  return [...types].sort((a, b) => TYPE_ORDER.indexOf(a) - TYPE_ORDER.indexOf(b)).map((type) => describeType(type, s)).join(' or ');
}

function describeType(type: string, s: Record<string, unknown>): string {
  const details: string[] = [];
  switch (type) {
    case 'number':
    case 'integer': {
      const bounds: string[] = [];
      if (typeof s.minimum === 'number') bounds.push(`≥ ${s.minimum}`);
      if (typeof s.exclusiveMinimum === 'number') bounds.push(`> ${s.exclusiveMinimum}`);
      if (typeof s.maximum === 'number') bounds.push(`≤ ${s.maximum}`);
      if (typeof s.exclusiveMaximum === 'number') bounds.push(`< ${s.exclusiveMaximum}`);
      const text = bounds.length > 0 ? `${type} ${bounds.join(' and ')}` : type;
      return typeof s.multipleOf === 'number' ? `${text}, a multiple of ${s.multipleOf}` : text;
    }
    case 'string': {
      if (typeof s.format === 'string') details.push(formatName(s.format));
      const min = typeof s.minLength === 'number' && s.minLength > 0 ? s.minLength : undefined;
      const max = typeof s.maxLength === 'number' ? s.maxLength : undefined;
      if (min !== undefined && max !== undefined) details.push(`${min}–${max} characters`);
      else if (min !== undefined && min !== 1) details.push(`at least ${plural(min, 'character')}`);
      else if (max !== undefined) details.push(`at most ${plural(max, 'character')}`);
      if (typeof s.pattern === 'string') details.push(`matching ${s.pattern}`);
      return [min === 1 && max === undefined ? 'non-empty string' : 'string', ...details].join(', ');
    }
    case 'array': {
      const items = s.items;
      const itemText = Array.isArray(items) ? undefined : describe(items);
      if (itemText === undefined) return 'array';
      return itemText in PLURAL_TYPES ? `array of ${PLURAL_TYPES[itemText]}` : `array of items that are each ${withArticle(itemText)}`;
    }
    case 'object': {
      const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
      return required.length > 0 ? `object with ${required.slice(0, 5).map(quote).join(', ')}${required.length > 5 ? ', …' : ''}` : 'object';
    }
    default:
      return type;
  }
}

/** "a number", "an integer ≥ 1", but `one of …`, `"USD"` and null as they are. */
function withArticle(phrase: string): string {
  const first = phrase.split(/[\s,]/, 1)[0];
  if (first === 'integer' || first === 'object' || first === 'array' || first === 'anything') return first === 'anything' ? phrase : `an ${phrase}`;
  if (first === 'number' || first === 'string' || first === 'boolean' || first === 'non-empty') return `a ${phrase}`;
  return phrase;
}

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  'date-time': 'date-time (RFC 3339, e.g. "2024-05-01T09:30:00Z")',
  'iso-date-time': 'date-time (ISO 8601, e.g. "2024-05-01T09:30:00Z")',
  date: 'date (YYYY-MM-DD, e.g. "2024-05-01")',
  time: 'time with an offset (e.g. "09:30:00Z")',
  'iso-time': 'time (e.g. "09:30:00")',
  duration: 'ISO 8601 duration (e.g. "PT15M")',
  email: 'email address',
  hostname: 'host name',
  ipv4: 'IPv4 address',
  ipv6: 'IPv6 address',
  uri: 'absolute URI (with a scheme, e.g. "https://…")',
  'uri-reference': 'URI reference',
  'uri-template': 'URI template',
  url: 'URL',
  uuid: 'UUID (e.g. "123e4567-e89b-12d3-a456-426614174000")',
  regex: 'regular expression',
  'json-pointer': 'JSON pointer (e.g. "/items/0")',
  'relative-json-pointer': 'relative JSON pointer',
  byte: 'base64 string',
  int32: '32-bit integer',
  int64: '64-bit integer',
};

function formatName(format: string): string {
  return FORMAT_NAMES[format] ?? `"${format}"`;
}

function comparison(operator: string): string {
  return operator === '>=' ? '≥' : operator === '<=' ? '≤' : operator;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A JSON literal for messages, shortened when long. */
function literal(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function quote(text: string): string {
  return literal(text);
}

function listValues(values: unknown): string {
  const list = Array.isArray(values) ? values : [];
  const shown = list.slice(0, 10).map(literal).join(', ');
  return list.length > 10 ? `${shown}, … (${list.length - 10} more)` : shown;
}

/** The value as written, for "found …": strings quoted, numbers exactly as typed. */
function foundShort(node: ValueNode): string {
  switch (node.kind) {
    case 'string':
      return literal(node.value);
    case 'number':
      return node.raw;
    case 'boolean':
      return String(node.value);
    case 'null':
      return 'null';
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
  }
}

/** The value with its kind, for type errors: `the string "99.90"`. */
function foundLong(node: ValueNode): string {
  switch (node.kind) {
    case 'string':
      return `the string ${literal(node.value)}`;
    case 'number':
      return `the number ${node.raw}${Number.isFinite(Number(node.raw)) ? '' : ' (out of range)'}`;
    case 'boolean':
      return `the boolean ${node.value}`;
    default:
      return foundShort(node);
  }
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** What to write instead, when the value is right but wears the wrong type (quotes on a number). */
function typeHint(expected: readonly string[], node: ValueNode): string {
  if (node.kind === 'string') {
    const text = node.value;
    const numeric = JSON_NUMBER.test(text);
    if (numeric && (expected.includes('number') || (expected.includes('integer') && Number.isInteger(Number(text))))) return `; write ${text} without quotes`;
    if ((text === 'true' || text === 'false') && expected.includes('boolean')) return `; write ${text} without quotes`;
    if (text === 'null' && expected.includes('null')) return '; write null without quotes';
    return '';
  }
  // An id or code typed as a number; a boolean given for a string is more likely a wrong field.
  if (expected.includes('string') && node.kind === 'number') return `; write "${node.raw}" in quotes`;
  return '';
}
