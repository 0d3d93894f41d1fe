/**
 * Integer literals beyond ±(2^53−1) in a payload, against the schema's numeric keywords. ajv judges
 * a JavaScript value, so such a literal reaches it rounded to a double (9007199254740993 is read as
 * 9007199254740992), and so does the schema's own number: `maximum`, `minimum`, the exclusive
 * bounds, `multipleOf`, `enum` and `const` are then decided on two doubles. Here the literal's
 * digits are compared with BigInt against the schema's number as written in the schema file (a
 * decimal such as `1e20` or `2.5` exactly, as a fraction of powers of ten), and ajv's verdict on
 * those keywords at that value is replaced by the exact one.
 *
 * Exact where the subschemas that apply to the value are known from its path alone (`properties`,
 * `additionalProperties`, `items`, `additionalItems`, local `$ref`, `allOf`). Where a branch
 * (`anyOf`, `oneOf`, `not`, `if`), `patternProperties`, `dependencies` or another construct decides
 * on the way, ajv's verdict stays and a note says it is not exact for that value.
 */
import { toJsValue } from '../model/js-value';
import { getProperty, type NumberNode, type ObjectNode, type ValueNode } from '../model/tree';
import { Flag, Kind, type Columns, type ColumnsEdit } from '../parse/columns';
import { columnsOf } from '../parse/document';
import type { SchemaError } from './types';
import { changedByDouble } from './written-numbers';

const NUMERIC_KEYWORDS = new Set(['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'enum', 'const']);

/** Keywords under which the subschema applying to a child depends on more than its path. */
const UNSURE_KEYWORDS = ['anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'patternProperties', 'dependencies', 'contains', 'propertyNames', '$id', 'id'];

/** The shortest integer literal a double may not hold: 16 digits (2^53 − 1 has 16). */
const SHORTEST_UNSAFE = 16;

interface BigLiteral {
  readonly node: NumberNode;
  readonly pointer: string;
  readonly steps: readonly (string | number)[];
  readonly digits: bigint;
}

/** An exact decimal: `mantissa × 10^exponent`. */
interface Decimal {
  readonly mantissa: bigint;
  readonly exponent: number;
}

export interface ExactVerdicts {
  /** ajv's errors, with its verdicts on the numeric keywords at each such literal replaced by the exact ones. */
  readonly errors: readonly SchemaError[];
  /** Values whose verdict could not be made exact: what to say about each. */
  readonly notes: readonly string[];
}

/**
 * `errors` (ajv's, or none when the column check vouched) with the exact verdicts of the numeric
 * keywords on every integer literal beyond ±(2^53−1) in `data`. Cheap when there is none: a
 * parsed payload's literals are read off the parser's columns by their length.
 */
export function exactBigIntegerVerdicts(data: ValueNode, schema: ValueNode | undefined, errors: readonly SchemaError[], edit?: ColumnsEdit): ExactVerdicts {
  if (!schema || !mayHoldBigInteger(data, edit)) return { errors, notes: [] };
  const literals = bigLiterals(data);
  if (literals.length === 0) return { errors, notes: [] };
  let result = errors.slice();
  const notes: string[] = [];
  for (const literal of literals) {
    const applying = applicableSchemas(schema, literal.steps);
    if (applying === 'unsure') {
      if (usesNumericKeyword(schema)) notes.push(`holds the integer ${shortened(literal.node.raw)} at ${literal.pointer || '/'}, beyond ±(2^53−1): the validator compares it as a double, and which of the schema's subschemas apply to it depends on a branch (anyOf, oneOf, not, if, patternProperties…), so its verdict on maximum, minimum, multipleOf, enum and const there is not exact`);
      continue;
    }
    result = result.filter((error) => !(error.instancePath === literal.pointer && NUMERIC_KEYWORDS.has(error.keyword)));
    for (const subschema of applying) result.push(...judge(literal, subschema));
  }
  return { errors: result, notes };
}

function shortened(raw: string): string {
  return raw.length > 60 ? `${raw.slice(0, 57)}…` : raw;
}

/** The answer per version's columns, so that after a keystroke only the edited value is read again. */
const answered = new WeakMap<Columns, { readonly slot: number; readonly may: boolean }>();

/**
 * False when no integer literal in the payload is long enough to be beyond ±(2^53−1). After a
 * keystroke in one value (`edit`) of a payload that held none, only the edited value is read: a
 * scan of every value of a 5 MB payload cost each keystroke some 5 ms.
 */
function mayHoldBigInteger(data: ValueNode, edit?: ColumnsEdit): boolean {
  const origin = columnsOf(data);
  if (!origin) return true;
  const { columns, slot } = origin;
  const before = edit && answered.get(edit.previous);
  const may =
    before && before.slot === slot && !before.may
      ? edit.edited >= slot && edit.edited < columns.next[slot] && isLongIntegerLiteral(columns, edit.edited)
      : anyLongIntegerLiteral(columns, slot);
  answered.set(columns, { slot, may });
  return may;
}

function anyLongIntegerLiteral(columns: Columns, slot: number): boolean {
  // A plain integer literal has at most 15 digits, within ±(2^53−1); the longest (16 characters,
  // with a minus) may be read here as long, but its verdicts are ajv's all the same.
  if (columns.unplainNumbers === 0) return false;
  for (let at = slot, last = columns.next[slot]; at < last; at++) if (isLongIntegerLiteral(columns, at)) return true;
  return false;
}

function isLongIntegerLiteral(columns: Columns, at: number): boolean {
  const flags = columns.info[at];
  return (flags & Flag.KindMask) === Kind.Number && (flags & Flag.Integer) !== 0 && columns.end[at] - columns.start[at] >= SHORTEST_UNSAFE;
}

/** Every integer literal (no fraction, no exponent) that no double holds for sure, with its JSON pointer. */
function bigLiterals(data: ValueNode): BigLiteral[] {
  const found: BigLiteral[] = [];
  const stack: { node: ValueNode; steps: (string | number)[] }[] = [{ node: data, steps: [] }];
  while (stack.length > 0) {
    const { node, steps } = stack.pop()!;
    if (node.kind === 'object') {
      // A duplicated key: the last copy is the value ajv sees.
      const last = new Map<string, ValueNode>();
      for (const property of node.properties) if (property.value) last.set(property.key, property.value);
      for (const [key, value] of last) stack.push({ node: value, steps: [...steps, key] });
    } else if (node.kind === 'array') {
      node.items.forEach((item, index) => stack.push({ node: item, steps: [...steps, index] }));
    } else if (node.kind === 'number' && node.isIntegerLiteral && !Number.isSafeInteger(node.value)) {
      found.push({ node, steps, pointer: steps.map((step) => `/${String(step).replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''), digits: BigInt(node.raw) });
    }
  }
  return found;
}

/** The subschema objects that apply to the value at `steps`, or 'unsure' when that depends on more than the path. */
function applicableSchemas(root: ValueNode, steps: readonly (string | number)[]): ObjectNode[] | 'unsure' {
  let current = expand(root, root);
  for (const step of steps) {
    if (current === 'unsure') return current;
    const children: ValueNode[] = [];
    for (const schema of current) {
      if (typeof step === 'string') {
        const declared = propertyValue(schema, 'properties');
        const own = declared?.kind === 'object' ? getProperty(declared, step)?.value : undefined;
        const additional = propertyValue(schema, 'additionalProperties');
        if (own) children.push(own);
        else if (additional) children.push(additional);
      } else {
        const items = propertyValue(schema, 'items');
        if (items?.kind === 'array') {
          const additional = propertyValue(schema, 'additionalItems');
          if (step < items.items.length) children.push(items.items[step]);
          else if (additional) children.push(additional);
        } else if (items) children.push(items);
      }
    }
    const next: ObjectNode[] = [];
    for (const child of children) {
      const expanded = expand(child, root);
      if (expanded === 'unsure') return expanded;
      next.push(...expanded);
    }
    current = next;
  }
  return current;
}

/** A subschema and every one its `$ref` and `allOf` bring along; 'unsure' for a branch or a reference not followed. */
function expand(schema: ValueNode, root: ValueNode): ObjectNode[] | 'unsure' {
  const out: ObjectNode[] = [];
  const pending = [schema];
  const seen = new Set<ValueNode>();
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (seen.has(current)) continue;
    seen.add(current);
    // `true` applies nothing, `false` fails whatever the value (ajv says so).
    if (current.kind === 'boolean') continue;
    if (current.kind !== 'object') return 'unsure';
    if (current !== root && UNSURE_KEYWORDS.some((keyword) => getProperty(current, keyword))) return 'unsure';
    if (current === root && UNSURE_KEYWORDS.some((keyword) => keyword !== '$id' && keyword !== 'id' && getProperty(current, keyword))) return 'unsure';
    out.push(current);
    const ref = propertyValue(current, '$ref');
    if (ref) {
      const target = ref.kind === 'string' ? resolveLocal(root, ref.value) : undefined;
      if (!target) return 'unsure';
      pending.push(target);
    }
    const all = propertyValue(current, 'allOf');
    if (all) {
      if (all.kind !== 'array') return 'unsure';
      pending.push(...all.items);
    }
  }
  return out;
}

function propertyValue(schema: ObjectNode, key: string): ValueNode | undefined {
  return getProperty(schema, key)?.value;
}

/** A `#/…` JSON pointer into the schema file; undefined for any other reference. */
function resolveLocal(root: ValueNode, ref: string): ValueNode | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: ValueNode | undefined = root;
  for (const raw of ref.slice(2).split('/')) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node?.kind === 'object') node = getProperty(node, segment)?.value;
    else if (node?.kind === 'array' && /^\d+$/.test(segment)) node = node.items[Number(segment)];
    else return undefined;
  }
  return node;
}

function usesNumericKeyword(schema: ValueNode): boolean {
  const stack = [schema];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'object') {
      for (const property of node.properties) {
        if (NUMERIC_KEYWORDS.has(property.key)) return true;
        if (property.value) stack.push(property.value);
      }
    } else if (node.kind === 'array') stack.push(...node.items);
  }
  return false;
}

/** The exact verdicts of one subschema's numeric keywords on the literal, as ajv would word its errors. */
function judge(literal: BigLiteral, schema: ObjectNode): SchemaError[] {
  const errors: SchemaError[] = [];
  const instancePath = literal.pointer;
  // The subschema as ajv holds it (its numbers as doubles), as ajv's own errors carry it.
  const plainSchema = (): Record<string, unknown> => toJsValue(schema) as Record<string, unknown>;
  for (const [keyword, comparisonText, holds] of BOUNDS) {
    const value = propertyValue(schema, keyword);
    const limit = value?.kind === 'number' ? decimalOf(value.raw) : undefined;
    if (!limit || holds(compare(literal.digits, limit))) continue;
    const limitText = changedByDouble(value as NumberNode);
    errors.push({ keyword, instancePath, params: { comparison: comparisonText, limit: exactValue(value as NumberNode) }, message: `must be ${comparisonText} ${shortened((value as NumberNode).raw)}`, parentSchema: plainSchema(), ...(limitText !== undefined ? { limitText } : {}) });
  }
  const multiple = propertyValue(schema, 'multipleOf');
  const divisor = multiple?.kind === 'number' ? decimalOf(multiple.raw) : undefined;
  if (divisor && divisor.mantissa > 0n && !isMultiple(literal.digits, divisor)) {
    const limitText = changedByDouble(multiple as NumberNode);
    errors.push({ keyword: 'multipleOf', instancePath, params: { multipleOf: exactValue(multiple as NumberNode) }, message: `must be multiple of ${shortened((multiple as NumberNode).raw)}`, parentSchema: plainSchema(), ...(limitText !== undefined ? { limitText } : {}) });
  }
  const choices = propertyValue(schema, 'enum');
  if (choices?.kind === 'array' && !choices.items.some((choice) => equals(literal.digits, choice))) {
    errors.push({ keyword: 'enum', instancePath, params: { allowedValues: choices.items.map(plainOf) }, message: 'must be equal to one of the allowed values', parentSchema: plainSchema() });
  }
  const constant = propertyValue(schema, 'const');
  if (constant && !equals(literal.digits, constant)) {
    errors.push({ keyword: 'const', instancePath, params: { allowedValue: plainOf(constant) }, message: 'must be equal to constant', parentSchema: plainSchema() });
  }
  return errors;
}

const BOUNDS: readonly (readonly [string, string, (order: number) => boolean])[] = [
  ['maximum', '<=', (order) => order <= 0],
  ['minimum', '>=', (order) => order >= 0],
  ['exclusiveMaximum', '<', (order) => order < 0],
  ['exclusiveMinimum', '>', (order) => order > 0],
];

/** The decimal a JSON number literal denotes, exactly; undefined for anything that is not one. */
export function decimalOf(raw: string): Decimal | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  // An exponent this far out is no bound a payload integer can meet in a comparison worth making.
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 100_000) return undefined;
  const mantissa = BigInt(`${sign}${whole}${fraction}`);
  return { mantissa, exponent };
}

/** −1, 0 or 1 as the integer is below, equal to or above the decimal. */
function compare(integer: bigint, decimal: Decimal): number {
  const [left, right] = decimal.exponent >= 0 ? [integer, decimal.mantissa * 10n ** BigInt(decimal.exponent)] : [integer * 10n ** BigInt(-decimal.exponent), decimal.mantissa];
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Whether integer / decimal is a whole number. */
function isMultiple(integer: bigint, decimal: Decimal): boolean {
  return decimal.exponent >= 0 ? integer % (decimal.mantissa * 10n ** BigInt(decimal.exponent)) === 0n : (integer * 10n ** BigInt(-decimal.exponent)) % decimal.mantissa === 0n;
}

function equals(integer: bigint, choice: ValueNode): boolean {
  if (choice.kind !== 'number') return false;
  const decimal = decimalOf(choice.raw);
  return decimal !== undefined && compare(integer, decimal) === 0;
}

/** A schema number as written: an integer literal beyond a double's exact range as a BigInt, else the double. */
function exactValue(node: NumberNode): number | bigint {
  return node.isIntegerLiteral && !Number.isSafeInteger(node.value) ? BigInt(node.raw) : node.value;
}

/** A schema value for a message: an integer as written where a double would change it (a BigInt), else as ajv holds it. */
function plainOf(node: ValueNode): unknown {
  return node.kind === 'number' ? exactValue(node) : toJsValue(node);
}
