/**
 * Example payloads from a draft-07 JSON Schema, for "New Envelope…": every required property
 * (and no optional one) with a value the schema accepts, so a fresh fixture is valid before the
 * user has typed anything.
 *
 * What is honoured: `const`, `enum` (first value), `type` (an array picks its first non-null
 * member), `minimum`/`exclusiveMinimum`/`maximum`/`exclusiveMaximum`/`multipleOf`,
 * `minLength`/`maxLength`, `format` (email, date-time, date, time, uuid, uri, uri-reference, iri,
 * hostname, ipv4, ipv6), `pattern`, `required`/`properties`/`additionalProperties`/
 * `patternProperties`/`minProperties`, `items` (single or tuple)/`minItems`/`uniqueItems` for
 * scalars, `allOf` (merged), `anyOf`/`oneOf` (first non-null branch) and local `$ref`s
 * (`#`, `#/definitions/…`).
 *
 * Best effort, by design: a `pattern` is generated only inside a small regex subset (literals,
 * classes, `.`, escapes such as `\d`/`\w`, groups with alternation, quantifiers); every generated
 * string is checked against the real RegExp, and when that fails (lookarounds, back-references,
 * constraints that contradict each other) the plain example is returned and may not match.
 * `not`, `if`/`then`/`else`, `contains`, `dependencies` and `uniqueItems` on objects are ignored.
 * A `$ref` that is not local, or cannot be resolved, yields null.
 *
 * Bounded: containers at depth `EXAMPLE_MAX_DEPTH` (the root is depth 0) are emitted empty, the output
 * holds at most `EXAMPLE_MAX_VALUES` values, and a schema object that is already being expanded
 * on the current path (a self-`$ref` or a cyclic object graph) is emitted in its shallow form
 * (`{}`, `[]`) instead of being expanded again.
 */
import { numberExample } from './example-number';
import { DEFAULT_NOW, stringExample } from './example-string';
import { linearRegExp } from './linear-regex';
import { resolveLocalRef } from './schema-walk';
import { isRecord, nonNegativeInteger, type Schema } from './schema-values';

/** Containers at this depth (the root is 0) are emitted empty. */
export const EXAMPLE_MAX_DEPTH = 32;
/** The most values one example may hold (array `minItems` is capped to stay under it). */
export const EXAMPLE_MAX_VALUES = 10_000;

export interface ExampleOptions {
  /** The instant `date-time`/`date` examples show, in Unix milliseconds (default 2026-01-01T00:00:00Z). */
  readonly now?: number;
  /** The property name `schema` is for, when it is one property's: it picks a realistic string where the schema leaves the choice open, as for a property inside a payload. */
  readonly key?: string;
  /** The whole schema `schema` is part of, which its local `$ref`s point into (default: `schema` itself). */
  readonly root?: unknown;
}

export { EXAMPLE_UUID } from './example-string';

interface State {
  readonly root: unknown;
  readonly now: number;
  values: number;
  /** Schema objects being expanded on the current path: expanding one again would never end. */
  readonly expanding: Set<object>;
}

/** A type-correct example value for a draft-07 schema: required properties only, constraints respected. */
export function exampleValue(schema: unknown, options: ExampleOptions = {}): unknown {
  const now = options.now !== undefined && Number.isFinite(options.now) ? options.now : DEFAULT_NOW;
  const state: State = { root: options.root ?? schema, now, values: 0, expanding: new Set() };
  return build(schema, 0, options.key, 0, state);
}

/**
 * `variant` asks for the n-th distinct value (for `uniqueItems`); `key` is the property name,
 * which picks a realistic string where the schema leaves the choice open (a time for `*_at`).
 */
function build(input: unknown, depth: number, key: string | undefined, variant: number, state: State): unknown {
  state.values++;
  const resolved = resolveRef(input, state);
  if (!resolved.ok) return null;
  const raw = resolved.schema;
  if (!isRecord(raw)) return null; // `true`, `{}`-like booleans and garbage accept anything
  const schema = flatten(raw, state);
  if ('const' in schema) return cloneJson(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return cloneJson(schema.enum[variant < schema.enum.length ? variant : 0]);

  const shallow = depth >= EXAMPLE_MAX_DEPTH || state.values >= EXAMPLE_MAX_VALUES || state.expanding.has(raw);
  switch (typeOf(schema)) {
    case 'object':
      return shallow ? {} : expand(raw, state, () => objectExample(schema, depth, state));
    case 'array':
      return shallow ? [] : expand(raw, state, () => arrayExample(schema, depth, state));
    case 'string':
      return stringExample(schema, key, variant, state.now);
    case 'integer':
      return numberExample(schema, true, key, variant);
    case 'number':
      return numberExample(schema, false, key, variant);
    case 'boolean':
      return variant % 2 === 1;
    default:
      return null;
  }
}

function expand<T>(schema: object, state: State, produce: () => T): T {
  state.expanding.add(schema);
  try {
    return produce();
  } finally {
    state.expanding.delete(schema);
  }
}

function objectExample(schema: Schema, depth: number, state: State): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const names: string[] = [];
  if (Array.isArray(schema.required)) for (const name of schema.required) if (typeof name === 'string' && !names.includes(name)) names.push(name);
  // minProperties is the one reason to add optional properties: declared ones first, in order.
  const minProperties = nonNegativeInteger(schema.minProperties) ?? 0;
  for (const name of Object.keys(properties)) {
    if (names.length >= minProperties) break;
    if (!names.includes(name)) names.push(name);
  }
  for (const name of names) {
    const value = build(propertySchema(schema, properties, name), depth + 1, name, 0, state);
    // defineProperty, so a required "__proto__" becomes a key instead of a prototype.
    Object.defineProperty(result, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return result;
}

/** The schema a property's value must meet: its own, a matching patternProperty, or additionalProperties. */
function propertySchema(schema: Schema, properties: Schema, name: string): unknown {
  if (Object.prototype.hasOwnProperty.call(properties, name)) return properties[name];
  if (isRecord(schema.patternProperties)) {
    for (const [pattern, sub] of Object.entries(schema.patternProperties)) {
      if (linearRegExp(pattern)?.test(name)) return sub;
    }
  }
  return isRecord(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

function arrayExample(schema: Schema, depth: number, state: State): unknown[] {
  const wanted = nonNegativeInteger(schema.minItems) ?? 0;
  const count = Math.min(wanted, Math.max(0, EXAMPLE_MAX_VALUES - state.values));
  const unique = schema.uniqueItems === true;
  const result: unknown[] = [];
  for (let index = 0; index < count; index++) {
    const itemSchema = Array.isArray(schema.items) ? (index < schema.items.length ? schema.items[index] : schema.additionalItems) : schema.items;
    result.push(build(itemSchema, depth + 1, undefined, unique ? index : 0, state));
  }
  return result;
}

/** Follows local `$ref`s (`#`, `#/definitions/x`); `ok: false` when a reference cannot be resolved. */
function resolveRef(schema: unknown, state: State): { ok: true; schema: unknown } | { ok: false } {
  let current = schema;
  // A chain of refs (a → b → c) is short in practice; the bound stops a → b → a.
  for (let hops = 0; hops < EXAMPLE_MAX_DEPTH; hops++) {
    if (!isRecord(current) || typeof current.$ref !== 'string') return { ok: true, schema: current };
    const target = resolveLocalRef(state.root, current.$ref);
    if (target === undefined) return { ok: false };
    current = target;
  }
  return { ok: false };
}

/**
 * One schema from `allOf` (properties and required merged, other keywords: the last wins) and
 * the first `anyOf`/`oneOf` branch that is not just `null`.
 */
function flatten(schema: Schema, state: State): Schema {
  const hasAll = Array.isArray(schema.allOf) && schema.allOf.length > 0;
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (!hasAll && !branches) return schema;
  const parts: Schema[] = [schema];
  if (hasAll) {
    for (const part of schema.allOf as unknown[]) {
      const resolved = resolveRef(part, state);
      if (resolved.ok && isRecord(resolved.schema)) parts.push(resolved.schema);
    }
  }
  if (branches) {
    const resolvedBranches = branches.map((branch) => resolveRef(branch, state)).flatMap((r) => (r.ok && isRecord(r.schema) ? [r.schema] : []));
    const branch = resolvedBranches.find((candidate) => typeOf(candidate) !== 'null') ?? resolvedBranches[0];
    if (branch) parts.push(branch);
  }
  const merged: Schema = {};
  const properties: Schema = {};
  const required: unknown[] = [];
  for (const part of parts) {
    for (const [name, value] of Object.entries(part)) {
      if (name === 'allOf' || name === 'anyOf' || name === 'oneOf') continue;
      if (name === 'properties' && isRecord(value)) Object.assign(properties, value);
      else if (name === 'required' && Array.isArray(value)) required.push(...value);
      else merged[name] = value;
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.length > 0) merged.required = required;
  return merged;
}

/** The JSON type to produce: `type` (first non-null of an array), else inferred from keywords. */
function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const named = type.filter((entry): entry is string => typeof entry === 'string');
    return named.find((entry) => entry !== 'null') ?? named[0];
  }
  if ('properties' in schema || 'required' in schema || 'additionalProperties' in schema || 'patternProperties' in schema || 'minProperties' in schema) return 'object';
  if ('items' in schema || 'minItems' in schema) return 'array';
  if ('minLength' in schema || 'maxLength' in schema || 'pattern' in schema || 'format' in schema) return 'string';
  if ('minimum' in schema || 'maximum' in schema || 'exclusiveMinimum' in schema || 'exclusiveMaximum' in schema || 'multipleOf' in schema) return 'number';
  return undefined;
}

/** A deep copy of a `const` or `enum` value, so the example never shares an object with the schema. */
function cloneJson(value: unknown): unknown {
  try {
    return value === undefined ? null : JSON.parse(JSON.stringify(value));
  } catch {
    return null; // a cyclic or BigInt value built in code: not JSON, so no example either
  }
}
