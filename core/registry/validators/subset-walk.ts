/**
 * One BabelQueue validator run over a payload, as measured: the subset of draft-07 they all read
 * (`type` as one string, `required`/`properties`/`additionalProperties: false` beside `"type":
 * "object"`, `items` as one schema beside `"type": "array"`, `enum`, `const`, `minLength` beside
 * `"type": "string"`, `minimum` beside `"type": "integer"` or `"number"`; every other keyword is
 * ignored), parametrised by the model's counting, equality and quirks (models.ts).
 *
 * It walks the schema's parsed tree (so `1` and `1.0` stay apart, as each decoder keeps them) and
 * the fixture's, iteratively, and lists every violation in the validator's own check order (facts
 * §1.6: in a node const, enum, then the type's checks; in an object `required` in schema order,
 * then the data's keys in data order, each key's value checked through before the next key); a
 * validator that stops at the first reports only `violations[0]`.
 */
import type { ObjectNode, ValueNode } from '../../model/tree';
import { literal, numberLiteral, shortened } from '../../model/describe-value';
import { equalFor, jsKeyOrder, uniqueEntries } from './equality';
import { EQUALITY_WORDS, lengthIn, UNIT_WORDS, type ValidatorModel } from './models';

export type SubsetKeyword = 'type' | 'enum' | 'const' | 'minLength' | 'minimum' | 'required' | 'additionalProperties' | 'unreadable-number';

/** One violation: where, which keyword, the validator's own text and why, in a message's words. */
export interface Violation {
  readonly keyword: SubsetKeyword;
  /** Keys and indexes from `data` to the value (for required and additional keys: to the object). */
  readonly path: readonly (string | number)[];
  readonly node: ValueNode;
  /** The missing key (required) or the key that is not allowed (additionalProperties). */
  readonly member?: string;
  /** The subschema that decided, as the validator read it. */
  readonly schema: ObjectNode | undefined;
  /** What the validator itself prints: `b: must be at least 3 characters`, `r: missing_required`. */
  readonly text: string;
  /** Why it rejects, for a message: `counts code points: 1, fewer than minLength 2`. */
  readonly reason: string;
}

/** A check that passed only through the validator's own reading (a count, a prototype key, PHP's `[]`). */
export interface Leniency {
  readonly keyword: SubsetKeyword;
  readonly path: readonly (string | number)[];
  readonly node: ValueNode;
  readonly member?: string;
  readonly reason: string;
}

export interface SubsetResult {
  readonly violations: readonly Violation[];
  readonly leniencies: readonly Leniency[];
}

const TYPE_WORDS: Readonly<Record<string, [bq: string, sdk: string]>> = {
  string: ['must be a string', 'not_a_string'],
  integer: ['must be an integer', 'not_an_integer'],
  number: ['must be a number', 'not_a_number'],
  boolean: ['must be a boolean', 'not_a_boolean'],
  null: ['must be null', 'not_null'],
  object: ['must be an object', 'not_an_object'],
  array: ['must be an array', 'not_an_array'],
};

/** The names `key in object` finds on every object in Node (Object.prototype's own properties). */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The last copy of a keyword in a schema object (how every decoder reads a duplicate key). */
export function schemaKeyword(schema: ObjectNode, name: string): ValueNode | undefined {
  for (let i = schema.properties.length - 1; i >= 0; i--) {
    if (schema.properties[i].key === name) return schema.properties[i].value;
  }
  return undefined;
}

/** What is left to do, in order: check a value against a subschema, or report a key of an object that is not allowed. */
type Task = { readonly schema: ObjectNode | undefined; readonly node: ValueNode; readonly path: (string | number)[] } | { readonly report: () => void };

/** Runs one validator over `data` against the schema tree `schema`. */
export function runSubset(model: ValidatorModel, schema: ValueNode | undefined, data: ValueNode): SubsetResult {
  const violations: Violation[] = [];
  const leniencies: Leniency[] = [];
  if (model.refusesHugeNumbers) findHugeNumbers(data, violations);
  // Depth first, in the validator's order: the stack holds the next task last.
  const stack: Task[] = [{ schema: asSchema(schema), node: data, path: [] }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if ('report' in task) {
      task.report();
      continue;
    }
    if (!task.schema) continue;
    const children: Task[] = [];
    checkNode(model, task.schema, task.node, task.path, violations, leniencies, children);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return { violations, leniencies };
}

function asSchema(node: ValueNode | undefined): ObjectNode | undefined {
  return node?.kind === 'object' ? node : undefined;
}

function checkNode(
  model: ValidatorModel,
  schema: ObjectNode,
  node: ValueNode,
  path: (string | number)[],
  violations: Violation[],
  leniencies: Leniency[],
  children: Task[],
): void {
  const fail = (keyword: SubsetKeyword, bqText: string, sdkReason: string, reason: string, member?: string): void => {
    violations.push({ keyword, path, node, schema, text: lineFor(model, path, bqText, sdkReason, member), reason, ...(member !== undefined ? { member } : {}) });
  };
  const constant = schemaKeyword(schema, 'const');
  if (constant && !equalFor(model.equality, constant, node)) {
    fail('const', `must equal const ${goText(constant)}`, 'wrong_const', `${EQUALITY_WORDS[model.equality]}, so the value differs from "const"${constant.kind === 'number' ? ` ${constant.raw}` : ''}`);
  }
  const allowed = schemaKeyword(schema, 'enum');
  if (allowed?.kind === 'array' && !allowed.items.some((item) => equalFor(model.equality, item, node))) {
    fail('enum', 'value is not one of the allowed enum values', 'not_in_enum', `${EQUALITY_WORDS[model.equality]}, so the value is none of the "enum" values`);
  }
  const typeNode = schemaKeyword(schema, 'type');
  const type = typeNode?.kind === 'string' ? typeNode.value : undefined;
  if (type === undefined || !(type in TYPE_WORDS)) return;
  const [bqWrong, sdkWrong] = TYPE_WORDS[type];
  if (!typeMatches(model, type, node)) {
    fail('type', bqWrong, sdkWrong, `does not take it for ${type === 'integer' || type === 'object' || type === 'array' ? 'an' : 'a'} ${type}`);
    return;
  }
  if (model.emptyContainersAlike && (type === 'object' || type === 'array') && node.kind !== type) {
    leniencies.push({ keyword: 'type', path, node, reason: `decodes an empty {} and [] alike (json_decode), so it passes as ${type === 'object' ? 'an object' : 'an array'}` });
    return;
  }
  switch (type) {
    case 'string':
      checkMinLength(model, schema, node as { value: string } & ValueNode, path, fail, leniencies);
      return;
    case 'integer':
    case 'number': {
      if (type === 'integer' && model.infinityIsInteger && node.kind === 'number' && !Number.isFinite(node.value)) {
        leniencies.push({ keyword: 'type', path, node, reason: 'counts an infinite number as an integer (floor(INF) === INF)' });
      }
      const written = schemaKeyword(schema, 'minimum');
      const limit = bound(model, written);
      if (limit !== undefined && node.kind === 'number' && node.value < limit) fail('minimum', `must be >= ${goNumber(limit)}`, 'below_minimum', `${boundWords(model, 'minimum', written)}finds it below "minimum" ${limit}`);
      return;
    }
    case 'object':
      if (node.kind === 'object') checkObject(model, schema, node, path, fail, leniencies, children);
      return;
    case 'array': {
      const items = asSchema(schemaKeyword(schema, 'items'));
      if (items && node.kind === 'array') node.items.forEach((item, i) => children.push({ schema: items, node: item, path: [...path, i] }));
      return;
    }
  }
}

function typeMatches(model: ValidatorModel, type: string, node: ValueNode): boolean {
  switch (type) {
    case 'object':
    case 'array':
      return node.kind === type || (model.emptyContainersAlike && isEmpty(node));
    case 'integer':
      if (node.kind !== 'number') return false;
      if (!Number.isFinite(node.value)) return model.infinityIsInteger || model.refusesHugeNumbers;
      return Math.trunc(node.value) === node.value;
    case 'number':
      return node.kind === 'number';
    default:
      return node.kind === type;
  }
}

function isEmpty(node: ValueNode): boolean {
  return (node.kind === 'object' && node.properties.length === 0) || (node.kind === 'array' && node.items.length === 0);
}

/** A numeric bound as the validator reads it: a number, or for PHP also a numeric string. */
function bound(model: ValidatorModel, node: ValueNode | undefined): number | undefined {
  if (node?.kind === 'number') return node.value;
  if (model.numericStringBounds && node?.kind === 'string') return phpNumeric(node.value);
  return undefined;
}

/** The number PHP's is_numeric() sees in a string (leading whitespace allowed), if it sees one. */
export function phpNumeric(text: string): number | undefined {
  return /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : undefined;
}

type Fail = (keyword: SubsetKeyword, bqText: string, sdkReason: string, reason: string, member?: string) => void;

/** How a bound written otherwise than draft-07 allows was read, for a reason's start: `honours "minLength" given as "3" (is_numeric), and `. */
function boundWords(model: ValidatorModel, keyword: string, written: ValueNode | undefined): string {
  if (written?.kind === 'string') return `honours "${keyword}" given as the string ${literal(written.value)} (is_numeric), and `;
  if (keyword === 'minLength' && written?.kind === 'number' && !Number.isInteger(written.value) && model.fractionalMinLength) return `compares the fractional "minLength" ${written.raw} as written (the others truncate it), and `;
  return '';
}

function checkMinLength(model: ValidatorModel, schema: ObjectNode, node: { value: string } & ValueNode, path: (string | number)[], fail: Fail, leniencies: Leniency[]): void {
  const written = schemaKeyword(schema, 'minLength');
  const raw = bound(model, written);
  if (raw === undefined) return;
  const limit = model.fractionalMinLength ? raw : Math.trunc(raw);
  const length = lengthIn(model.lengthUnit, node.value);
  const unit = UNIT_WORDS[model.lengthUnit];
  if (length < limit) {
    fail('minLength', `must be at least ${limit} characters`, 'below_min_length', `${boundWords(model, 'minLength', written)}counts ${unit}: ${length}, fewer than minLength ${limit}`);
  } else if (lengthIn('code-points', node.value) < limit) {
    leniencies.push({ keyword: 'minLength', path, node, reason: `counts ${unit}: ${length}, so minLength ${limit} passes there` });
  }
}

function checkObject(
  model: ValidatorModel,
  schema: ObjectNode,
  node: ObjectNode,
  path: (string | number)[],
  fail: Fail,
  leniencies: Leniency[],
  children: Task[],
): void {
  const entries = uniqueEntries(node);
  const present = new Set(entries.map(([key]) => key));
  const required = schemaKeyword(schema, 'required');
  if (required?.kind === 'array') {
    for (const item of required.items) {
      if (item.kind !== 'string' || present.has(item.value)) continue;
      if (model.prototypeLookups && PROTOTYPE_KEYS.has(item.value)) {
        leniencies.push({ keyword: 'required', path, node, member: item.value, reason: `finds "${item.value}" on every object (it checks \`key in data\`, which reads Object.prototype)` });
        continue;
      }
      fail('required', `missing required property ${JSON.stringify(item.value)}`, 'missing_required', `finds no "${shortened(item.value)}", which is required`, item.value);
    }
  }
  const propertiesNode = asSchema(schemaKeyword(schema, 'properties'));
  const properties = new Map<string, ValueNode | undefined>();
  if (propertiesNode) for (const [key, value] of uniqueEntries(propertiesNode)) properties.set(key, value);
  const additional = schemaKeyword(schema, 'additionalProperties');
  const closed = additional?.kind === 'boolean' && !additional.value;
  for (const [key, value] of model.integerKeysFirst ? jsKeyOrder(entries) : entries) {
    const sub = properties.get(key);
    if (sub?.kind === 'object') {
      children.push({ schema: sub, node: value, path: [...path, key] });
      continue;
    }
    if (!closed) continue;
    if (model.prototypeLookups && PROTOTYPE_KEYS.has(key)) {
      leniencies.push({ keyword: 'additionalProperties', path, node, member: key, reason: `looks "${key}" up through Object.prototype in "properties" and takes what it finds there as a schema, so "additionalProperties": false lets it pass` });
      continue;
    }
    // In its place among the keys: a value of an earlier key is checked through first.
    children.push({ report: () => fail('additionalProperties', `additional property ${JSON.stringify(key)} is not allowed`, 'additional_not_allowed', additionalReason(schema, key, sub), key) });
  }
}

function additionalReason(schema: ObjectNode, key: string, sub: ValueNode | undefined): string {
  if (sub) return `reads only object schemas in "properties" (here ${sub.kind === 'boolean' ? String(sub.value) : sub.kind}), so "${shortened(key)}" is an additional property under "additionalProperties": false`;
  const patterns = schemaKeyword(schema, 'patternProperties');
  if (patterns?.kind === 'object' && patterns.properties.length > 0) return `ignores "patternProperties", so "${shortened(key)}" is an additional property under "additionalProperties": false`;
  return `does not allow "${shortened(key)}" ("additionalProperties": false)`;
}

/** Go's encoding/json refuses a number outside float64 before bqschema validates anything. */
function findHugeNumbers(data: ValueNode, violations: Violation[]): void {
  // Each value's step and the way to its parent, not a copy of its whole path: a copy per value
  // cost the square of the depth. The path is built only for a number found.
  interface Way {
    readonly step: string | number;
    readonly parent: Way | undefined;
  }
  const pathOf = (way: Way | undefined): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let at = way; at; at = at.parent) path.push(at.step);
    return path.reverse();
  };
  const stack: { node: ValueNode; way: Way | undefined }[] = [{ node: data, way: undefined }];
  while (stack.length > 0) {
    const { node, way } = stack.pop()!;
    if (node.kind === 'number' && !Number.isFinite(node.value)) {
      violations.push({
        keyword: 'unreadable-number',
        path: pathOf(way),
        node,
        schema: undefined,
        text: `json: cannot unmarshal number ${numberLiteral(node.raw)} into Go value of type float64`,
        reason: `cannot read ${numberLiteral(node.raw)} (outside float64), so the whole file fails before any schema check`,
      });
    } else if (node.kind === 'object') {
      for (const property of node.properties) if (property.value) stack.push({ node: property.value, way: { step: property.key, parent: way } });
    } else if (node.kind === 'array') {
      node.items.forEach((item, i) => stack.push({ node: item, way: { step: i, parent: way } }));
    }
  }
}

/** The validator's own output line: bqschema `a.b[1]: msg` (missing and extra keys at the parent), the SDKs `a.b.key: reason`. */
function lineFor(model: ValidatorModel, path: readonly (string | number)[], bqText: string, sdkReason: string, member?: string): string {
  if (model.collectsAll) {
    const at = pathText(path);
    return at === '' ? bqText : `${at}: ${bqText}`;
  }
  const at = pathText(member !== undefined ? [...path, member] : path);
  return `${at === '' ? '<root>' : at}: ${sdkReason}`;
}

/** `a.b[1]`: keys joined by dots, indexes in brackets; "" for data itself. */
export function pathText(path: readonly (string | number)[]): string {
  let text = '';
  for (const step of path) text += typeof step === 'number' ? `[${step}]` : text === '' ? step : `.${step}`;
  return text;
}

/** A value as Go's %v prints it in "must equal const %v": `a`, `1`, `map[a:1]`, `[1 2]`. */
function goText(node: ValueNode): string {
  switch (node.kind) {
    case 'string':
      return node.value;
    case 'number':
      return goNumber(node.value);
    case 'boolean':
      return String(node.value);
    case 'null':
      return '<nil>';
    case 'array':
      return `[${node.items.map(goText).join(' ')}]`;
    case 'object':
      return `map[${uniqueEntries(node)
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .map(([key, value]) => `${key}:${goText(value)}`)
        .join(' ')}]`;
  }
}

/** A float64 as Go's %v prints it (shortest digits; an exponent below -4 or from 6 up): `5`, `0.5`, `1e+06`. */
function goNumber(value: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, exponent] = value.toExponential().split('e');
  const exp = Number(exponent);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(value);
}

/** What the validator itself reports: bqschema every violation, sorted; the SDKs the first one only. */
export function ownReport(model: ValidatorModel, result: SubsetResult): string[] {
  const lines = result.violations.map((violation) => violation.text);
  return model.collectsAll ? lines.sort() : lines.slice(0, 1);
}
