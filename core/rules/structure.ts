/**
 * Document and structure rules: not-an-object, duplicate-key, missing-field, wrong-type,
 * invalid-value, reserved-key. (json-syntax comes straight from the parser.)
 */
import { DEAD_LETTER_REASONS, fieldsOf, isBlank, RESERVED_ROOT_KEY, type EnvelopeScope, type FieldSpec } from '../contract/envelope';
import { ChildSlots, Flag, keysOf, Kind, sameKeys, type Columns } from '../parse/columns';
import { columnsOf } from '../parse/document';
import { forEachValue, getProperty, type ObjectNode, type PropertyNode, type ValueNode } from '../model/tree';
import { keyRange, type Range, type Rule, type RuleContext } from './context';
import { describeValue } from '../model/describe-value';

/** not-an-object: the root must be an object. */
export const checkRoot: Rule = (context) => {
  const root = context.doc.root;
  if (root && root.kind !== 'object') {
    context.report('not-an-object', tokenRange(root), `The envelope must be a JSON object with job, trace_id, data, meta and attempts; this document is ${describeValue(root)}.`);
  }
};

/** Objects with more properties than this use a set; smaller ones compare keys pairwise (no allocation). */
const PAIRWISE_LIMIT = 12;

/** duplicate-key in every object of the document. */
export const checkDuplicateKeys: Rule = (context) => {
  const root = context.doc.root;
  if (!root) return;
  const parsed = columnsOf(root);
  if (parsed) {
    duplicateKeysInColumns(context, parsed.columns, parsed.slot);
    return;
  }
  forEachValue(root, (node) => {
    if (node.kind !== 'object') return;
    reportDuplicates(context, node.properties.length, (i) => node.properties[i].key, (i) => keyRange(node.properties[i]));
  });
};

/** The property slots of the object being checked. */
const childSlots = new ChildSlots();

/**
 * Key sequences (by first key) known to hold no duplicate: the items of an array repeat one, so
 * each is checked once. Pure in the keys, so it is kept across analyses (bounded).
 */
const distinctShapes = new Map<string, string[]>();

/** The same walk over the parser's columns: every object slot in document order, its property slots in order. */
function duplicateKeysInColumns(context: RuleContext, columns: Columns, from: number): void {
  const { info, next, keys, keyStart, keyEnd } = columns;
  if (distinctShapes.size > 1_000) distinctShapes.clear();
  let duplicates = 0;
  for (let object = from, last = next[from]; object < last; object++) {
    if ((info[object] & Flag.KindMask) !== Kind.Object || next[object] - object < 3) continue;
    const count = childSlots.collect(next, object);
    const children = childSlots.slots;
    // The items of an array repeat one key sequence: a sequence found free of duplicates once is free again.
    if (sameKeys(distinctShapes.get(keys[children[0]]!), keys, children, count)) continue;
    const before = duplicates;
    if (count > PAIRWISE_LIMIT) {
      duplicates += reportManyDuplicates(context, columns, children, count);
      if (duplicates === before) distinctShapes.set(keys[children[0]]!, keysOf(keys, children, count));
      continue;
    }
    for (let i = 1; i < count; i++) {
      const key = keys[children[i]]!;
      for (let j = 0; j < i; j++) {
        // Most keys differ in length; repeated keys are usually the very same string (the parser shares them).
        const other = keys[children[j]]!;
        if (other.length === key.length && other === key) {
          reportDuplicate(context, key, { offset: keyStart[children[i]], end: keyEnd[children[i]] });
          duplicates++;
          break;
        }
      }
    }
    if (duplicates === before) distinctShapes.set(keys[children[0]]!, keysOf(keys, children, count));
  }
}

/**
 * `reportDuplicates` for the property slots `children[0..count)` of a large object. A function of
 * its own: closures made in the loop above would make every turn of it allocate their scope, and
 * that loop turns once per slot of the document.
 */
function reportManyDuplicates(context: RuleContext, columns: Columns, children: Int32Array, count: number): number {
  const { keys, keyStart, keyEnd } = columns;
  return reportDuplicates(context, count, (i) => keys[children[i]]!, (i) => ({ offset: keyStart[children[i]], end: keyEnd[children[i]] }));
}

/** Reports each property whose key an earlier property of the same object already has; returns how many. */
function reportDuplicates(context: RuleContext, count: number, keyAt: (i: number) => string, rangeAt: (i: number) => Range): number {
  let reported = 0;
  if (count < 2) return reported;
  if (count <= PAIRWISE_LIMIT) {
    for (let i = 1; i < count; i++) {
      const key = keyAt(i);
      for (let j = 0; j < i; j++) {
        if (keyAt(j) === key) {
          reportDuplicate(context, key, rangeAt(i));
          reported++;
          break;
        }
      }
    }
    return reported;
  }
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    const key = keyAt(i);
    if (seen.has(key)) {
      reportDuplicate(context, key, rangeAt(i));
      reported++;
    }
    seen.add(key);
  }
  return reported;
}

function reportDuplicate(context: RuleContext, key: string, range: Range): void {
  context.report('duplicate-key', range, `Duplicate key "${key}": SDK decoders disagree on which copy wins (most keep the last, some the first). Keep one.`);
}

/** missing-field for the root, meta and dead_letter blocks. */
export const checkMissingFields: Rule = (context) => {
  const { root, meta, deadLetter, metaProperty, deadLetterProperty } = context.envelope;
  if (!root) return;
  const rootAnchor: Range = { offset: root.offset, end: root.offset + 1 };
  for (const field of fieldsOf('root')) {
    if (!field.required || getProperty(root, field.name)) continue;
    if (field.name === 'job' && getProperty(root, 'urn')) continue;
    context.report('missing-field', rootAnchor, missingMessage('', field), { subject: field.name });
  }
  if (meta && metaProperty) reportMissingIn(context, meta, 'meta', keyRange(metaProperty));
  if (deadLetter && deadLetterProperty) reportMissingIn(context, deadLetter, 'dead_letter', keyRange(deadLetterProperty));
};

function reportMissingIn(context: RuleContext, object: ObjectNode, scope: EnvelopeScope, anchor: Range): void {
  for (const field of fieldsOf(scope)) {
    if (field.required && !getProperty(object, field.name)) {
      context.report('missing-field', anchor, missingMessage(`${scope}.`, field), { subject: `${scope}.${field.name}` });
    }
  }
}

function missingMessage(prefix: string, field: FieldSpec): string {
  const what = field.name === 'job' ? ' (or its inbound alias "urn")' : '';
  return `Missing required field "${prefix}${field.name}"${what}. ${field.doc}`;
}

/** Checks the type and value of every core field in the root, meta and dead_letter blocks. */
export const checkCoreFields: Rule = (context) => {
  const { root, meta, deadLetter } = context.envelope;
  if (!root) return;
  checkScope(context, root, 'root');
  if (meta) checkScope(context, meta, 'meta');
  if (deadLetter) checkScope(context, deadLetter, 'dead_letter');
  const reserved = getProperty(root, RESERVED_ROOT_KEY);
  if (reserved) {
    context.report('reserved-key', keyRange(reserved), `"${RESERVED_ROOT_KEY}" is reserved for the Redis header frame that wraps an envelope; a frozen envelope never carries it. Remove it.`);
  }
};

function checkScope(context: RuleContext, object: ObjectNode, scope: EnvelopeScope): void {
  const fields = scope === 'root' ? [...fieldsOf('root'), { name: 'urn', type: 'urn' } as FieldSpec] : fieldsOf(scope);
  for (const field of fields) {
    const property = getProperty(object, field.name);
    if (!property?.value) continue;
    const name = scope === 'root' ? field.name : `${scope}.${field.name}`;
    if (!checkType(context, property, field, name)) continue;
    checkValue(context, property.value, field, name);
  }
}

/** Reports a wrong JSON type; returns true when the type is right. */
function checkType(context: RuleContext, property: PropertyNode, field: FieldSpec, name: string): boolean {
  const value = property.value!;
  const expected = expectedType(field);
  if (expected === 'string' && value.kind === 'string') return true;
  if (expected === 'object' && value.kind === 'object') return true;
  if (expected === 'nullable-string' && (value.kind === 'string' || value.kind === 'null')) return true;
  if (expected === 'integer' && value.kind === 'number' && value.isIntegerLiteral) return true;
  context.report('wrong-type', tokenRange(value), wrongTypeMessage(name, field, value));
  return false;
}

function expectedType(field: FieldSpec): 'string' | 'object' | 'integer' | 'nullable-string' {
  switch (field.type) {
    case 'object':
      return 'object';
    case 'integer':
    case 'timestamp':
      return 'integer';
    case 'nullable-string':
      return 'nullable-string';
    default:
      return 'string';
  }
}

function wrongTypeMessage(name: string, field: FieldSpec, value: ValueNode): string {
  const found = describeValue(value);
  switch (field.type) {
    case 'object':
      if (name === 'data' && value.kind === 'array') return `"data" must be a JSON object, not an array (only PHP accepts \`[]\`); use {} for an empty payload.`;
      return `"${name}" must be a JSON object, not ${found}.`;
    case 'integer':
      if (name === 'meta.schema_version') {
        return value.kind === 'number'
          ? `"meta.schema_version" must be the integer literal 1, not ${value.raw} (Go fails to decode it, PHP and .NET reject it).`
          : `"meta.schema_version" must be the integer 1, not ${found}.`;
      }
      if (value.kind === 'number') return `"${name}" must be an integer literal such as ${integerExample(value.value)}, not ${value.raw} (Go fails to decode a fraction or exponent).`;
      return `"${name}" must be a non-negative integer, not ${found}.`;
    case 'timestamp':
      return `"${name}" must be an integer in Unix epoch milliseconds (UTC), not ${found}.`;
    case 'nullable-string':
      return `"${name}" must be a string or null, not ${found}.`;
    case 'urn':
      return `"${name}" must be a URN string such as "urn:babel:orders:created", not ${found}.`;
    default:
      return `"${name}" must be a string, not ${found}.`;
  }
}

function checkValue(context: RuleContext, value: ValueNode, field: FieldSpec, name: string): void {
  // A negative schema_version is an unsupported version, reported by its own rule.
  if (value.kind === 'number' && name !== 'meta.schema_version' && (field.type === 'integer' || field.type === 'timestamp') && value.raw.startsWith('-') && value.value !== 0) {
    context.report('invalid-value', value, `"${name}" cannot be negative (${value.raw}).`);
    return;
  }
  if (value.kind !== 'string') return;
  if (name === 'meta.queue' || name === 'dead_letter.original_queue') {
    if (isBlank(value.value)) context.report('invalid-value', value, `"${name}" must name a queue; it is ${value.value === '' ? 'empty' : 'only whitespace'} (the SDK default is "default").`);
    return;
  }
  if (name === 'trace_id' || name === 'meta.id') {
    if (isBlank(value.value)) context.report('invalid-value', value, `"${name}" is ${value.value === '' ? 'empty' : 'only whitespace'}; it must be a UUID (Node, Go, Java and .NET consumers reject a blank one).`);
    return;
  }
  if (name === 'dead_letter.reason' && !(DEAD_LETTER_REASONS as readonly string[]).includes(value.value)) {
    context.report('invalid-value', value, `"dead_letter.reason" must be one of ${DEAD_LETTER_REASONS.map((r) => `"${r}"`).join(', ')}, not ${JSON.stringify(value.value)}.`);
  }
}

/** A scalar's whole token; only the opening bracket of an object or array, so a big block is not one long underline. */
function tokenRange(value: ValueNode): Range {
  return value.kind === 'object' || value.kind === 'array' ? { offset: value.offset, end: value.offset + 1 } : value;
}

/** A non-negative integer near `value` to suggest in a message. */
function integerExample(value: number): number {
  return Number.isFinite(value) ? Math.max(0, Math.trunc(value)) : 0;
}
