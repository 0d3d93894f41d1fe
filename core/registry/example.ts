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
import { classifyKey } from '../contract/keys';
import { isSensitive, maskValue } from './pii';
import { linearRegExp } from './linear-regex';
import { patternExamples } from './pattern-example';
import { resolveLocalRef } from './schema-walk';

/** Containers at this depth (the root is 0) are emitted empty. */
export const EXAMPLE_MAX_DEPTH = 32;
/** The most values one example may hold (array `minItems` is capped to stay under it). */
export const EXAMPLE_MAX_VALUES = 10_000;

export interface ExampleOptions {
  /** The instant `date-time`/`date` examples show, in Unix milliseconds (default 2026-01-01T00:00:00Z). */
  readonly now?: number;
}

/** A fixed example UUID (version 4, RFC 4122 variant) so examples are deterministic. */
export const EXAMPLE_UUID = '123e4567-e89b-42d3-a456-426614174000';
const DEFAULT_NOW = Date.UTC(2026, 0, 1);
const EXAMPLE_EMAILS = ['user@example.com', 'u@example.com', 'a@b.co'];
const EXAMPLE_URI = 'https://example.com/';
const PLAIN_STRING = 'example';
/** How many candidates a numeric search tries before settling for a best effort. */
const MAX_NUMBER_TRIES = 1000;

type Schema = Record<string, unknown>;

interface State {
  readonly root: unknown;
  readonly now: number;
  values: number;
  /** Schema objects being expanded on the current path: expanding one again would never end. */
  readonly expanding: Set<object>;
}

// Only the key classes that do not depend on money settings are used here.
const KEYS = classifyKey([]);

/** A type-correct example value for a draft-07 schema: required properties only, constraints respected. */
export function exampleValue(schema: unknown, options: ExampleOptions = {}): unknown {
  const now = options.now !== undefined && Number.isFinite(options.now) ? options.now : DEFAULT_NOW;
  const state: State = { root: schema, now, values: 0, expanding: new Set() };
  return build(schema, 0, undefined, 0, state);
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

// ---------------------------------------------------------------------------------------------
// Strings

function stringExample(schema: Schema, key: string | undefined, variant: number, now: number): string {
  const min = nonNegativeInteger(schema.minLength) ?? 0;
  const max = nonNegativeInteger(schema.maxLength) ?? Infinity;
  const pattern = typeof schema.pattern === 'string' ? linearRegExp(schema.pattern) : undefined;
  const accepts = (value: string): boolean => {
    const length = codePoints(value);
    return length >= min && length <= max && (!pattern || pattern.test(value));
  };

  const candidates: (string | undefined)[] = [];
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  if (format !== undefined) candidates.push(formatExample(format, min, max, now));
  if (pattern && typeof schema.pattern === 'string') candidates.push(...patternExamples(schema.pattern, min));
  if (key !== undefined && format === undefined) candidates.push(keyHintExample(key, min, max, now));
  candidates.push(plainExample(min, max));

  let value = candidates.find((candidate): candidate is string => candidate !== undefined && accepts(candidate));
  // Nothing fits (contradicting or unsupported constraints): the first candidate is the best effort.
  value ??= candidates.find((candidate): candidate is string => candidate !== undefined) ?? '';
  if (variant > 0) value = distinct(value, variant, accepts);
  if (isSensitive(schema)) value = masked(value, accepts);
  return value;
}

/** The value as the registry tool masks it ("a***", "***"), when the schema still accepts that. */
function masked(value: string, accepts: (value: string) => boolean): string {
  const mask = maskValue(value);
  if (accepts(mask)) return mask;
  if (accepts('***')) return '***';
  // Too long a minLength for a mask: keep it obviously fake (the pii hint may still show).
  const first = Array.from(value)[0] ?? 'a';
  const starred = first + '*'.repeat(Math.max(3, codePoints(value) - 1));
  return accepts(starred) ? starred : value;
}

/** The n-th variation of a string (for uniqueItems), or the string itself when none fits. */
function distinct(value: string, variant: number, accepts: (value: string) => boolean): string {
  const suffix = String(variant);
  const options = [value + suffix, value.slice(0, Math.max(0, value.length - suffix.length)) + suffix];
  return options.find(accepts) ?? value;
}

function formatExample(format: string, min: number, max: number, now: number): string | undefined {
  switch (format) {
    case 'email':
    case 'idn-email': {
      const base = EXAMPLE_EMAILS.find((email) => email.length <= max) ?? EXAMPLE_EMAILS[0];
      return base.length >= min ? base : 'x'.repeat(min - base.length) + base;
    }
    case 'date-time':
      return dateTime(now, min);
    case 'date':
      return isoSeconds(now).slice(0, 10);
    case 'time':
      return `${isoSeconds(now).slice(11, 19)}Z`;
    case 'uuid':
      return EXAMPLE_UUID;
    case 'uri':
    case 'uri-reference':
    case 'iri':
    case 'iri-reference':
    case 'url':
      return EXAMPLE_URI.length >= min ? EXAMPLE_URI : EXAMPLE_URI + 'x'.repeat(min - EXAMPLE_URI.length);
    case 'hostname':
    case 'idn-hostname':
      return 'example.com';
    case 'ipv4':
      return '192.0.2.1';
    case 'ipv6':
      return '2001:db8::1';
    default:
      return undefined;
  }
}

/** Realistic strings for keys the data rules read: times for `*_at`, UUIDs for `*_id`, e-mail for `email`. */
function keyHintExample(key: string, min: number, max: number, now: number): string | undefined {
  if (KEYS.isTime(key)) {
    const full = dateTime(now, min);
    if (full.length <= max) return full;
    const date = isoSeconds(now).slice(0, 10);
    return date.length >= min && date.length <= max ? date : undefined;
  }
  const snake = key.toLowerCase();
  if ((snake === 'id' || snake.endsWith('_id') || snake.endsWith('_uuid') || snake === 'uuid') && min <= 36 && max >= 36) return EXAMPLE_UUID;
  if (snake === 'email' || snake.endsWith('_email')) return formatExample('email', min, max, now);
  return undefined;
}

function plainExample(min: number, max: number): string {
  if (PLAIN_STRING.length > max) return PLAIN_STRING.slice(0, max);
  return PLAIN_STRING.length >= min ? PLAIN_STRING : PLAIN_STRING + 'x'.repeat(min - PLAIN_STRING.length);
}

/** RFC 3339 UTC to the second (`2026-01-01T00:00:00Z`), stretched with fraction digits to `min`. */
function dateTime(now: number, min: number): string {
  const seconds = isoSeconds(now);
  const plain = `${seconds}Z`;
  if (plain.length >= min) return plain;
  const digits = Math.max(1, min - plain.length - 1);
  return `${seconds}.${'0'.repeat(digits)}Z`;
}

function isoSeconds(now: number): string {
  const date = new Date(now);
  return (Number.isNaN(date.getTime()) ? new Date(DEFAULT_NOW) : date).toISOString().slice(0, 19);
}

// ---------------------------------------------------------------------------------------------
// Numbers

function numberExample(schema: Schema, integer: boolean, key: string | undefined, variant: number): number {
  let low = -Infinity;
  let lowExclusive = false;
  let high = Infinity;
  let highExclusive = false;
  if (isNumber(schema.minimum)) low = schema.minimum;
  if (isNumber(schema.exclusiveMinimum) && schema.exclusiveMinimum >= low) {
    low = schema.exclusiveMinimum;
    lowExclusive = true;
  } else if (schema.exclusiveMinimum === true && isNumber(schema.minimum)) lowExclusive = true; // draft-04 form
  if (isNumber(schema.maximum)) high = schema.maximum;
  if (isNumber(schema.exclusiveMaximum) && schema.exclusiveMaximum <= high) {
    high = schema.exclusiveMaximum;
    highExclusive = true;
  } else if (schema.exclusiveMaximum === true && isNumber(schema.maximum)) highExclusive = true;
  const step = isNumber(schema.multipleOf) && schema.multipleOf > 0 ? schema.multipleOf : undefined;

  // ajv's own test for multipleOf is `(value / step) % 1 === 0`, so the same arithmetic is used.
  const fits = (value: number): boolean =>
    (lowExclusive ? value > low : value >= low) &&
    (highExclusive ? value < high : value <= high) &&
    (!integer || Number.isInteger(value)) &&
    (step === undefined || Number.isInteger(value / step));

  // 0 and 1 in a boolean-like key (`is_gift`) read as a C boolean to the data rules.
  const booleanLike = key !== undefined && KEYS.isBoolean(key);
  const preferred = booleanLike ? (value: number) => fits(value) && value !== 0 && value !== 1 : fits;
  const start = Math.min(Math.max(0, Number.isFinite(low) ? low : 0), Number.isFinite(high) ? high : Infinity);
  // Integers first, even for `number`, so money-like keys never get a float.
  const unit = step ?? 1;
  return (
    search(start, unit, preferred, variant) ??
    search(start, unit, fits, variant) ??
    (integer ? undefined : fractional(low, high, fits)) ??
    (Number.isFinite(low) ? (integer ? Math.ceil(low) : low) : Number.isFinite(high) ? (integer ? Math.floor(high) : high) : 0)
  );
}

/** The `variant`-th grid value k·unit that fits, searching up from `start` and then down. */
function search(start: number, unit: number, fits: (value: number) => boolean, variant: number): number | undefined {
  for (const direction of [1, -1]) {
    let skip = variant;
    const first = direction === 1 ? Math.ceil(start / unit) : Math.floor(start / unit) - 1;
    for (let tries = 0; tries < MAX_NUMBER_TRIES; tries++) {
      const value = (first + direction * tries) * unit;
      if (!Number.isFinite(value)) break;
      if (fits(value)) {
        if (skip === 0) return value === 0 ? 0 : value; // never -0
        skip--;
      }
    }
  }
  return undefined;
}

/** A non-integer inside a narrow open range such as (0, 1). */
function fractional(low: number, high: number, fits: (value: number) => boolean): number | undefined {
  const candidates = Number.isFinite(low) && Number.isFinite(high) ? [(low + high) / 2] : Number.isFinite(low) ? [low + 0.5, low + Number.EPSILON] : Number.isFinite(high) ? [high - 0.5] : [0.5];
  return candidates.find(fits);
}

// ---------------------------------------------------------------------------------------------
// Schema plumbing

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

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function nonNegativeInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** JSON Schema lengths count code points (ajv does too), not UTF-16 units. */
function codePoints(value: string): number {
  return Array.from(value).length;
}

/**
 * ajv compiles patterns with the `u` flag on the linear-time engine; a pattern it could not compile
 * is ignored here too. Never a backtracking RegExp: the schema comes from the repository.
 */
function cloneJson(value: unknown): unknown {
  try {
    return value === undefined ? null : JSON.parse(JSON.stringify(value));
  } catch {
    return null; // a cyclic or BigInt value built in code: not JSON, so no example either
  }
}
