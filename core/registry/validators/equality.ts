/**
 * `enum` and `const` equality as each validator decides it. The values come from the parsed trees
 * (schema and fixture), so a number keeps its literal: each language decodes `1` and `1.0` into
 * its own kinds (PHP int/float, Python int/float, Java Long/BigInteger/Double; Go and Node doubles).
 */
import type { ObjectNode, ValueNode } from '../../model/tree';
import type { Equality } from './models';

/** True when `value` equals the schema's `allowed` value for a validator that compares this way. */
export function equalFor(equality: Equality, allowed: ValueNode, value: ValueNode): boolean {
  return equal(equality, allowed, value, true);
}

/** The properties of an object as JSON.parse, json_decode and the SDKs see them: the last copy of a key, at its first place. */
export function uniqueEntries(object: ObjectNode): [string, ValueNode][] {
  const entries = new Map<string, ValueNode>();
  for (const property of object.properties) {
    if (property.value) entries.set(property.key, property.value);
  }
  return [...entries];
}

type NumberKind = 'int' | 'big' | 'float';

const INTEGER_TEXT = /^-?\d+$/;

/** The kind a decoder gives a number literal: PHP and Java keep integers within 64 bits as integers, Python all. */
function numberKind(equality: Equality, raw: string, integerLiteral: boolean): NumberKind {
  // A malformed literal (the parser reported it) is no integer to any decoder.
  if (!integerLiteral || !INTEGER_TEXT.test(raw)) return 'float';
  if (equality === 'python-typed-top') return 'int';
  const fits = BigInt(raw) <= 9223372036854775807n && BigInt(raw) >= -9223372036854775808n;
  if (fits) return 'int';
  // PHP's json_decode turns an integer beyond 64 bits into a float; Java's parser into a BigInteger.
  return equality === 'php-strict' ? 'float' : 'big';
}

function equal(equality: Equality, a: ValueNode, b: ValueNode, top: boolean): boolean {
  const emptyAlike = equality === 'php-strict' && isEmptyContainer(a) && isEmptyContainer(b);
  if (emptyAlike) return true;
  if (equality === 'json-text' && (isNullText(a) || isNullText(b))) return isNullText(a) && isNullText(b);
  if (equality === 'python-typed-top' && !top && a.kind !== b.kind) return pythonLooseEqual(a, b);
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'string':
      return a.value === (b as typeof a).value;
    case 'boolean':
      return a.value === (b as typeof a).value;
    case 'null':
      return true;
    case 'number':
      return numbersEqual(equality, a, b as typeof a, top);
    case 'array': {
      const other = (b as typeof a).items;
      return a.items.length === other.length && a.items.every((item, i) => equal(equality, item, other[i], false));
    }
    case 'object': {
      let left = uniqueEntries(a);
      let right = uniqueEntries(b as typeof a);
      if (left.length !== right.length) return false;
      if (equality === 'json-text') {
        // JSON.stringify writes an object's keys in JS property order: integer-like keys first, ascending.
        left = jsKeyOrder(left);
        right = jsKeyOrder(right);
      }
      if (equality === 'php-strict' || equality === 'json-text') {
        // === on PHP arrays and JSON.stringify both see the order of the keys.
        return left.every(([key, value], i) => right[i][0] === key && equal(equality, value, right[i][1], false));
      }
      const byKey = new Map(right);
      return left.every(([key, value]) => byKey.has(key) && equal(equality, value, byKey.get(key)!, false));
    }
  }
}

function numbersEqual(equality: Equality, a: { raw: string; value: number; isIntegerLiteral: boolean }, b: { raw: string; value: number; isIntegerLiteral: boolean }, top: boolean): boolean {
  if (equality === 'float64-deep' || equality === 'json-text') return a.value === b.value;
  const kindA = numberKind(equality, a.raw, a.isIntegerLiteral);
  const kindB = numberKind(equality, b.raw, b.isIntegerLiteral);
  const integers = kindA !== 'float' && kindB !== 'float';
  if (integers) {
    // Java's Long never equals a BigInteger; Python's and PHP's integers compare exactly.
    if (equality === 'java-objects' && kindA !== kindB) return false;
    return BigInt(a.raw) === BigInt(b.raw);
  }
  if (kindA === 'float' && kindB === 'float') {
    // Double.equals tells 0.0 from -0.0.
    if (equality === 'java-objects') return Object.is(a.value, b.value);
    return a.value === b.value;
  }
  // An integer against a float: equal only in Python, and only below the top level (untyped ==), exactly.
  if (equality !== 'python-typed-top' || top) return false;
  const float = kindA === 'float' ? a : b;
  const integer = kindA === 'float' ? b : a;
  return Number.isInteger(float.value) && BigInt(float.value) === BigInt(integer.raw);
}

/**
 * JSON.stringify writes null, and a number beyond the double range (Infinity after JSON.parse), as
 * `null`: compared as texts, `const null` matches `1e400`. (The facts name the stringify comparison
 * and Node's `null` for 1e400; this follows from them.)
 */
function isNullText(node: ValueNode): boolean {
  return node.kind === 'null' || (node.kind === 'number' && !Number.isFinite(node.value));
}

/**
 * Python's untyped `==` below the top level (facts §1.5: the nested check is untyped): a bool is an
 * int there, so `true` equals `1` and `1.0`, and `false` equals `0`. (The facts name the untyped
 * nested check; that True == 1 follows from it.)
 */
function pythonLooseEqual(a: ValueNode, b: ValueNode): boolean {
  const number = a.kind === 'number' ? a : b.kind === 'number' ? b : undefined;
  const bool = a.kind === 'boolean' ? a : b.kind === 'boolean' ? b : undefined;
  return number !== undefined && bool !== undefined && number.value === (bool.value ? 1 : 0);
}

/** The order JS walks an object's own keys: integer-like keys (array indexes) ascending first, then the rest as inserted. */
export function jsKeyOrder<T>(entries: readonly [string, T][]): [string, T][] {
  const isIndex = (key: string): boolean => /^(0|[1-9]\d*)$/.test(key) && Number(key) < 4294967295;
  const indexes = entries.filter(([key]) => isIndex(key)).sort((x, y) => Number(x[0]) - Number(y[0]));
  return [...indexes, ...entries.filter(([key]) => !isIndex(key))];
}

function isEmptyContainer(node: ValueNode): boolean {
  return (node.kind === 'object' && node.properties.length === 0) || (node.kind === 'array' && node.items.length === 0);
}
