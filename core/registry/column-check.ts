/**
 * A payload check that reads the parser's columns instead of a plain JS value: for a schema made
 * of the everyday draft-07 keywords, it answers "valid" without building the payload as objects
 * for ajv (on a 5 MB fixture that copy and its garbage cost more than the whole check).
 *
 * It only ever answers "surely valid" or "ask ajv": `false` is not a verdict, the caller then runs
 * ajv on the plain value for the real errors and messages. So every check here may be stricter
 * than ajv (a duplicated key is checked in all its copies, a non-finite number is never vouched
 * for) but never looser. A schema that uses any keyword outside the subset compiles to nothing
 * and ajv does all the work, as before. test/core/registry/column-check.test.ts holds this against ajv.
 */
import { Flag, Kind, stringValue, type Columns } from '../parse/columns';
import { numberValue } from '../parse/document';
import { linearRegExpEngine } from './linear-regex';

/** True when the value in `slot` surely satisfies the schema it was compiled from. */
export type ColumnCheck = (columns: Columns, text: string, slot: number) => boolean;

/** A function of one slot's value; most answer whether it passes. */
type Check<T = boolean> = (columns: Columns, text: string, slot: number) => T;

/** Keywords that never change whether a value is valid. */
const ANNOTATIONS = new Set(['$schema', '$id', 'id', '$comment', 'title', 'description', 'default', 'examples', 'definitions', '$defs', 'readOnly', 'writeOnly', 'contentMediaType', 'contentEncoding']);

class Unsupported extends Error {}

/**
 * While `checkAround` runs: the one slot whose value changed since a version the check passed
 * (-1 otherwise). Every check is a conjunction over a value and its children, and a child's
 * subschema depends only on its path, so a child subtree that does not hold that slot is as it was,
 * under the same subschema: it passed then and is not checked again. Keys, counts and `required`
 * are read as ever (an edit inside a value changes none of them).
 */
let focus = -1;

/** True when the subtree at `child` holds nothing that changed (only while `checkAround` runs). */
function unchanged(next: Int32Array, child: number): boolean {
  return focus >= 0 && !(child <= focus && focus < next[child]);
}

/**
 * `check` on the payload at `slot`, given that it passed on the version before this one and that
 * only the value at `edited` (a string or number in the payload) has changed since: the values on
 * the way to it are checked, the rest is known to pass. On a 5 MB payload, a keystroke's check
 * reads a few dozen values instead of some 180,000.
 */
export function checkAround(check: ColumnCheck, columns: Columns, text: string, slot: number, edited: number): boolean {
  focus = edited;
  try {
    return check(columns, text, slot);
  } finally {
    focus = -1;
  }
}

/**
 * The column check for a draft-07 schema, or undefined when the schema uses anything outside the
 * subset (`type`, `enum`, `const` of scalars, number bounds, string lengths, `pattern`, `items` as
 * one schema, item counts, `required`, `properties`, `additionalProperties`, local `$ref`).
 */
export function compileColumnCheck(root: unknown, resolveRef: (root: unknown, ref: string) => unknown): ColumnCheck | undefined {
  // One compiled check per schema object; a cell first, so a recursive `$ref` finds itself.
  const compiled = new Map<object, { check: Check }>();
  const compile = (schema: unknown): Check => {
    if (schema === true) return ALWAYS;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Unsupported();
    // A nested `$id` moves the base that `$ref`s inside it resolve against: ajv's business.
    if (schema !== root && ('$id' in schema || 'id' in schema)) throw new Unsupported();
    const known = compiled.get(schema);
    if (known) return (columns, text, slot) => known.check(columns, text, slot);
    const cell = { check: NEVER };
    compiled.set(schema, cell);
    cell.check = compileObject(schema as Record<string, unknown>, compile, root, resolveRef);
    return cell.check;
  };
  try {
    return compile(root);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/**
 * True when the path of a local `$ref` passes through a subschema with its own `$id` (below the
 * root): `$ref`s inside that subschema resolve against its `$id`, not against the root.
 */
function crossesId(root: unknown, ref: string, resolveRef: (root: unknown, ref: string) => unknown): boolean {
  const segments = ref.slice(1).split('/');
  for (let length = 2; length < segments.length; length++) {
    const step = resolveRef(root, `#${segments.slice(0, length).join('/')}`);
    if (typeof step === 'object' && step !== null && step !== root && ('$id' in step || 'id' in step)) return true;
  }
  return false;
}

const ALWAYS: Check = () => true;
const NEVER: Check = () => false;

function compileObject(schema: Record<string, unknown>, compile: (schema: unknown) => Check, root: unknown, resolveRef: (root: unknown, ref: string) => unknown): Check {
  const checks: Check[] = [];
  const keywords = Object.keys(schema).filter((keyword) => !ANNOTATIONS.has(keyword) && !keyword.startsWith('x-'));
  if (keywords.includes('$ref')) {
    // Keywords beside a `$ref` are read differently by different drafts and settings: leave those to ajv.
    if (keywords.length > 1 || typeof schema.$ref !== 'string') throw new Unsupported();
    const target = resolveRef(root, schema.$ref);
    if (target === undefined || crossesId(root, schema.$ref, resolveRef)) throw new Unsupported();
    return compile(target);
  }
  // A `type` of one kind that another keyword here also reads (an object's properties, a string's
  // pattern, a number's bounds): that keyword's check then also answers "no" for every other kind,
  // and the type needs no check of its own (one call per value instead of two).
  const only = typeof schema.type === 'string' && Object.prototype.hasOwnProperty.call(TYPE_KINDS, schema.type) ? TYPE_KINDS[schema.type] : schema.type === 'integer' ? Kind.Number : undefined;
  let typeCovered = false;
  const othersPass = (kind: Kind): boolean => {
    if (only !== kind) return true;
    typeCovered = true;
    return false;
  };
  for (const keyword of keywords) {
    const value = schema[keyword];
    switch (keyword) {
      case 'type':
        break;
      case 'enum':
        if (!Array.isArray(value)) throw new Unsupported();
        checks.push(scalarsCheck(value));
        break;
      case 'const':
        checks.push(scalarsCheck([value]));
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum': {
        // The bounds of one schema are read together, with one conversion of the number.
        if (keyword === firstOf(keywords, BOUND_KEYWORDS)) checks.push(boundsCheck(schema.minimum, schema.exclusiveMinimum, schema.maximum, schema.exclusiveMaximum, othersPass(Kind.Number), schema.type === 'integer'));
        break;
      }
      case 'minLength':
      case 'maxLength':
        checks.push(countCheck(keyword, value, Kind.String, stringLength, othersPass(Kind.String)));
        break;
      case 'pattern':
        checks.push(patternCheck(value, othersPass(Kind.String)));
        break;
      case 'items':
        if (Array.isArray(value)) throw new Unsupported();
        checks.push(itemsCheck(compile(value), othersPass(Kind.Array)));
        break;
      case 'minItems':
      case 'maxItems':
        checks.push(countCheck(keyword, value, Kind.Array, itemCount, othersPass(Kind.Array)));
        break;
      case 'required':
      case 'properties':
      case 'additionalProperties': {
        // The three are read together, in one pass over the object's properties.
        if (keyword === firstOf(keywords, OBJECT_KEYWORDS)) checks.push(objectCheck(schema.properties, schema.additionalProperties, schema.required, compile, othersPass(Kind.Object)));
        break;
      }
      default:
        throw new Unsupported();
    }
  }
  if (keywords.includes('type') && !typeCovered) checks.push(typeCheck(schema.type));
  if (checks.length === 0) return ALWAYS;
  if (checks.length === 1) return checks[0];
  if (checks.length === 2) {
    const [first, second] = checks;
    return (columns, text, slot) => first(columns, text, slot) && second(columns, text, slot);
  }
  return (columns, text, slot) => {
    for (const check of checks) if (!check(columns, text, slot)) return false;
    return true;
  };
}

/** Keywords read together by one check, which the first of them in the schema builds. */
const BOUND_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];
const OBJECT_KEYWORDS = ['required', 'properties', 'additionalProperties'];

function firstOf(keywords: readonly string[], group: readonly string[]): string | undefined {
  return keywords.find((keyword) => group.includes(keyword));
}

function kindOf(columns: Columns, slot: number): Kind {
  return (columns.info[slot] & Flag.KindMask) as Kind;
}

/** The number in a Number slot when it is finite (ajv's view of the literal), else undefined. */
function finiteNumber(columns: Columns, text: string, slot: number): number | undefined {
  const value = numberValue(columns, text, slot);
  return Number.isFinite(value) ? value : undefined;
}

/** Integer literals this long (sign included) are exact, finite doubles. */
const SHORT_INTEGER = 15;

/** JSON Schema type names and the parser's kinds (`integer` is a number without a fraction). */
const TYPE_KINDS: Readonly<Record<string, Kind>> = { object: Kind.Object, array: Kind.Array, string: Kind.String, number: Kind.Number, boolean: Kind.Boolean, null: Kind.Null };

function typeCheck(value: unknown): Check {
  const names = Array.isArray(value) ? value : [value];
  // A bit per Kind.
  let kinds = 0;
  let integer = false;
  for (const name of names) {
    if (name === 'integer') integer = true;
    else if (typeof name === 'string' && Object.prototype.hasOwnProperty.call(TYPE_KINDS, name)) kinds |= 1 << TYPE_KINDS[name];
    else throw new Unsupported();
  }
  const anyNumber = (kinds & (1 << Kind.Number)) !== 0;
  return (columns, text, slot) => {
    const kind = kindOf(columns, slot);
    if (kind !== Kind.Number) return (kinds & (1 << kind)) !== 0;
    if (!anyNumber && !integer) return false;
    return isNumberOfType(columns, text, slot, !anyNumber);
  };
}

/** True when the Number slot is a finite number (ajv's `number`), and a whole one when `integerOnly` (ajv's `integer`). */
function isNumberOfType(columns: Columns, text: string, slot: number, integerOnly: boolean): boolean {
  const flags = columns.info[slot];
  // Read off the parser's flags without converting: a short integer literal is a finite
  // integer; a plain one (`writtenAsIsBySix` in core/contract/written-as-is.ts) is finite, and whole only without a fraction.
  if (flags & Flag.Integer && columns.end[slot] - columns.start[slot] <= SHORT_INTEGER) return true;
  if (flags & Flag.PlainNumber) return !integerOnly || (flags & Flag.Integer) !== 0;
  const number = finiteNumber(columns, text, slot);
  if (number === undefined) return false;
  // ajv's integer: a number without a fractional part, so 1.0 and 1e2 count.
  return !integerOnly || Number.isInteger(number);
}

/** `enum` and `const` whose values are all strings, finite numbers, booleans or null. */
function scalarsCheck(values: readonly unknown[]): Check {
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const booleans = new Set<boolean>();
  let allowsNull = false;
  for (const value of values) {
    if (typeof value === 'string') strings.add(value);
    else if (typeof value === 'number' && Number.isFinite(value)) numbers.add(value === 0 ? 0 : value);
    else if (typeof value === 'boolean') booleans.add(value);
    else if (value === null) allowsNull = true;
    else throw new Unsupported();
  }
  return (columns, text, slot) => {
    switch (kindOf(columns, slot)) {
      case Kind.String:
        return strings.has(stringValue(columns, text, slot));
      case Kind.Number: {
        const number = finiteNumber(columns, text, slot);
        // -0 equals 0 for ajv (===); the set holds +0 only.
        return number !== undefined && numbers.has(number === 0 ? 0 : number);
      }
      case Kind.Boolean:
        return booleans.has((columns.info[slot] & Flag.True) !== 0);
      case Kind.Null:
        return allowsNull;
      default:
        return false;
    }
  };
}

/** A bound keyword's limit (undefined when absent); anything but a finite number is ajv's business. */
function limitOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Unsupported();
  return value;
}

/**
 * `minimum`, `exclusiveMinimum`, `maximum` and `exclusiveMaximum` of one schema. A payload's
 * bounds are mostly `minimum: 0`, which the sign of the literal settles without converting it:
 * a literal without a minus is at least 0 (and one with a minus, "-0" included, at most 0).
 */
function boundsCheck(minimumValue: unknown, exclusiveMinimumValue: unknown, maximumValue: unknown, exclusiveMaximumValue: unknown, othersPass: boolean, integerOnly: boolean): Check {
  const minimum = limitOf(minimumValue);
  const exclusiveMinimum = limitOf(exclusiveMinimumValue);
  const maximum = limitOf(maximumValue);
  const exclusiveMaximum = limitOf(exclusiveMaximumValue);
  // Whatever the number, when its sign alone satisfies every bound there is.
  const nonNegativeSuffices = (minimum === undefined || minimum <= 0) && (exclusiveMinimum === undefined || exclusiveMinimum < 0) && maximum === undefined && exclusiveMaximum === undefined;
  const nonPositiveSuffices = (maximum === undefined || maximum >= 0) && (exclusiveMaximum === undefined || exclusiveMaximum > 0) && minimum === undefined && exclusiveMinimum === undefined;
  return (columns, text, slot) => {
    // Bounds apply to numbers only (the schema's `type` when it is `number` or `integer`, folded in here).
    if (kindOf(columns, slot) !== Kind.Number) return othersPass;
    if (!othersPass && !isNumberOfType(columns, text, slot, integerOnly)) return false;
    const negative = (columns.info[slot] & Flag.Negative) !== 0;
    // Signed literals are finite only when converted; the parser vouches for the syntax of plain ones.
    if (columns.info[slot] & Flag.PlainNumber && (negative ? nonPositiveSuffices : nonNegativeSuffices)) return true;
    const number = finiteNumber(columns, text, slot);
    return (
      number !== undefined &&
      (minimum === undefined || number >= minimum) &&
      (exclusiveMinimum === undefined || number > exclusiveMinimum) &&
      (maximum === undefined || number <= maximum) &&
      (exclusiveMaximum === undefined || number < exclusiveMaximum)
    );
  };
}

function wholeCount(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Unsupported();
  return value;
}

/** String length as ajv counts it: in code points (a surrogate pair is one). */
function codePointLength(value: string): number {
  let length = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

/** `minLength`/`maxLength` and `minItems`/`maxItems`: a count of a string or an array against a limit. */
function countCheck(keyword: string, value: unknown, kind: Kind, count: Check<number>, othersPass: boolean): Check {
  const limit = wholeCount(value);
  const minimum = keyword.startsWith('min');
  return (columns, text, slot) => {
    if (kindOf(columns, slot) !== kind) return othersPass;
    const counted = count(columns, text, slot);
    return minimum ? counted >= limit : counted <= limit;
  };
}

/** A string's length as ajv counts it; plain ASCII is its own length, with no copy of the string. */
const stringLength: Check<number> = (columns, text, slot) =>
  // Such a string has no escapes and no surrogates: one code unit per code point.
  columns.info[slot] & Flag.WrittenAsIs ? columns.end[slot] - columns.start[slot] - 2 : codePointLength(stringValue(columns, text, slot));

/** The number of items of an array. */
const itemCount: Check<number> = (columns, _text, slot) => {
  const { next } = columns;
  let count = 0;
  for (let child = slot + 1; child < next[slot]; child = next[child]) if (kindOf(columns, child) !== Kind.None) count++;
  return count;
};

function patternCheck(value: unknown, othersPass: boolean): Check {
  if (typeof value !== 'string') throw new Unsupported();
  let matcher: { test(input: string): boolean };
  try {
    // The engine ajv is given (core/registry/ajv-instances.ts), so both match alike.
    matcher = linearRegExpEngine(value, 'u');
  } catch {
    throw new Unsupported();
  }
  return (columns, text, slot) => (kindOf(columns, slot) !== Kind.String ? othersPass : matcher.test(stringValue(columns, text, slot)));
}

function itemsCheck(item: Check, othersPass: boolean): Check {
  return (columns, text, slot) => {
    if (kindOf(columns, slot) !== Kind.Array) return othersPass;
    const { next } = columns;
    for (let child = slot + 1; child < next[slot]; child = next[child]) {
      if (kindOf(columns, child) !== Kind.None && !unchanged(next, child) && !item(columns, text, child)) return false;
    }
    return true;
  };
}

/**
 * `properties`, `additionalProperties` and `required` in one pass over an object's properties:
 * each key is looked up once, for its schema and its bit among the required keys.
 */
/**
 * A property's schema, its bit in `required` (0: not required), and the kinds of value its schema
 * accepts by kind alone (`kindsPassing`), which the object's loop decides without a call.
 */
interface PropertyEntry {
  readonly check: Check | undefined;
  bit: number;
  readonly kinds: number;
}

/**
 * For a schema that is a `type` and nothing else that decides validity (`{"type": "string"}`,
 * `{"type": ["string", "null"]}`): the kinds it accepts, as bits `1 << kind`, a number among them
 * only when the parser marked it plain (finite; "integer" is left to the check). 0 otherwise.
 * Such leaves are about half the values of an everyday payload, and a call per value to a check
 * that differs from property to property is the cost of this validator.
 */
function kindsPassing(schema: unknown): number {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 0;
  const keywords = Object.keys(schema).filter((keyword) => !ANNOTATIONS.has(keyword) && !keyword.startsWith('x-'));
  if (keywords.length !== 1 || keywords[0] !== 'type') return 0;
  const type = (schema as { type: unknown }).type;
  let kinds = 0;
  for (const name of Array.isArray(type) ? type : [type]) {
    if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(TYPE_KINDS, name)) return 0;
    kinds |= 1 << TYPE_KINDS[name];
  }
  return kinds;
}

function objectCheck(properties: unknown, additional: unknown, required: unknown, compile: (schema: unknown) => Check, othersPass: boolean): Check {
  const other: Check | undefined = additional === undefined || additional === true ? undefined : additional === false ? NEVER : compile(additional);
  const entries = new Map<string, PropertyEntry>();
  if (properties !== undefined) {
    if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) throw new Unsupported();
    for (const [key, schema] of Object.entries(properties)) {
      // ajv reads `data[key]`, so a name every object inherits (`toString`, `constructor`) is
      // validated even when the payload lacks it; the columns see only own keys.
      if (key in Object.prototype) throw new Unsupported();
      entries.set(key, { check: compile(schema), bit: 0, kinds: kindsPassing(schema) });
    }
  }
  let allRequired = 0;
  if (required !== undefined) {
    if (!Array.isArray(required) || required.some((key) => typeof key !== 'string' || key === '__proto__')) throw new Unsupported();
    const keys = [...new Set(required as string[])];
    // One bit each in a 32-bit mask; longer lists are left to ajv.
    if (keys.length > 30) throw new Unsupported();
    keys.forEach((key, index) => {
      const entry = entries.get(key);
      // A required key without a schema of its own falls under additionalProperties.
      if (entry) entry.bit = 1 << index;
      else entries.set(key, { check: other, bit: 1 << index, kinds: 0 });
      allRequired |= 1 << index;
    });
  }
  // The key seen last at each position, and its entry: array items repeat one key sequence, and
  // the parser shares repeated keys, so most lookups are one comparison of the same string.
  const recentKeys: (string | undefined)[] = [];
  const recentEntries: (PropertyEntry | undefined)[] = [];
  return (columns, text, slot) => {
    if (kindOf(columns, slot) !== Kind.Object) return othersPass;
    const { info, next, keys } = columns;
    let seen = 0;
    let position = 0;
    // Every copy of a duplicated key is checked: stricter than ajv, which sees only the last.
    for (let child = slot + 1; child < next[slot]; child = next[child], position++) {
      const kind = info[child] & Flag.KindMask;
      if (kind === Kind.None) continue;
      const key = keys[child]!;
      let entry: PropertyEntry | undefined;
      if (recentKeys[position] === key) {
        entry = recentEntries[position];
      } else {
        entry = entries.get(key);
        if (position < 64) {
          recentKeys[position] = key;
          recentEntries[position] = entry;
        }
      }
      // What the entry's `type` accepts passes here; anything else is the check's to decide.
      if (entry !== undefined && entry.kinds & (1 << kind) && (kind !== Kind.Number || info[child] & Flag.PlainNumber)) {
        seen |= entry.bit;
        continue;
      }
      const check = entry ? entry.check : other;
      if (check && !unchanged(next, child) && !check(columns, text, child)) return false;
      if (entry) seen |= entry.bit;
    }
    return seen === allRequired;
  };
}
