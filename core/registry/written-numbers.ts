/**
 * A schema's numbers as its file writes them, where a double changes them. ajv and the editor's
 * words read the schema as JavaScript values, so `"maximum": 9007199254740993` is 9007199254740992
 * to them, and a message or a hover that printed the double named a bound the file does not hold
 * (and, for `1.00000000000000000001`, the bound 1). The project's parser keeps each number's text:
 * here the text is found for the keywords that messages and hovers name, from the schema's parse.
 *
 * Two ways in: an error of ajv carries its schemaPath, a JSON pointer into the schema it was
 * compiled from, which is resolved in the schema file's parse (`boundsAsWritten`); a hover reads
 * the schema's own value, whose objects are paired with their parse once when the file is loaded,
 * and only when its text holds a number long enough for a double to change (`rememberWrittenNumbers`).
 */
import { getProperty, type NumberNode, type ValueNode } from '../model/tree';
import type { SchemaError } from './types';

/** The keywords whose number a message or a hover names: the bounds and multipleOf. */
const NUMBER_KEYWORDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']);

/**
 * Up to 15 significant digits a double always gives back as written, within its normal range; a
 * number with fewer digits there needs no look. Below it (`1e-400`, read as 0; `3e-324`, read as
 * 5e-324) a double holds fewer digits, down to none.
 */
const SAFE_DIGITS = 15;
const SMALLEST_NORMAL = 2.2250738585072014e-308;

/** Per object of a schema's value (hovers), the text of each of its NUMBER_KEYWORDS a double changes. */
const writtenByObject = new WeakMap<object, Readonly<Record<string, string>>>();

/**
 * The text of a schema number where the double it is read as denotes another number
 * (9007199254740993, read as …992), else undefined: `1e2` is 100 and stays worded as 100.
 */
export function changedByDouble(node: NumberNode): string | undefined {
  if (countDigits(node.raw) <= SAFE_DIGITS && Math.abs(node.value) >= SMALLEST_NORMAL) return undefined;
  const written = normalDecimal(node.raw);
  const read = normalDecimal(String(node.value));
  if (written === undefined || read === undefined) return undefined;
  return written.digits === read.digits && written.exponent === read.exponent ? undefined : node.raw;
}

/**
 * `errors` with `limitText` set on each bound or multipleOf error whose number the schema file
 * writes otherwise than the double ajv compared (its schemaPath resolved in `schema`, the
 * file's parse). The errors are left as they are where no number of the schema needs it.
 */
export function boundsAsWritten(errors: readonly SchemaError[], schema: ValueNode | undefined): readonly SchemaError[] {
  if (!schema || !errors.some((error) => NUMBER_KEYWORDS.has(error.keyword) && error.limitText === undefined && error.schemaPath !== undefined)) return errors;
  // ajv reports one schemaPath for many values (thousands of items against one maximum): each resolved once.
  const resolved = new Map<string, NumberNode | undefined>();
  return errors.map((error) => {
    if (!NUMBER_KEYWORDS.has(error.keyword) || error.limitText !== undefined || error.schemaPath === undefined) return error;
    let found = resolved.get(error.schemaPath);
    if (!resolved.has(error.schemaPath)) {
      const node = pointed(schema, error.schemaPath);
      found = node?.kind === 'number' ? node : undefined;
      resolved.set(error.schemaPath, found);
    }
    // Only the number ajv compared: a schemaPath read against another base ($id) names another place.
    const limit = error.keyword === 'multipleOf' ? error.params.multipleOf : error.params.limit;
    const text = found && found.value === limit ? changedByDouble(found) : undefined;
    return text === undefined ? error : { ...error, limitText: text };
  });
}

/** The text of `keyword`'s number in a schema object of a loaded value, as written, else as the double prints. */
export function numberText(schema: Record<string, unknown>, keyword: string): string {
  return writtenByObject.get(schema)?.[keyword] ?? String(schema[keyword]);
}

/** `copy`, a shallow copy of `original` (a field's schema without its enum), with the numbers' text `original` has. */
export function withWrittenNumbers<T extends object>(copy: T, original: object): T {
  const written = writtenByObject.get(original);
  if (written) writtenByObject.set(copy, written);
  return copy;
}

/**
 * 16 digits with at most a point between any two of them (`9007199254740993`,
 * `1234567890.1234567890123`), or an exponent of -100 or below (`1e-400`): the numbers a double
 * may change (changedByDouble) hold one. A false match (a version string) costs a walk, never a
 * wrong word.
 */
const MANY_DIGITS = /\d(?:\.?\d){15}|[eE]-0*[1-9]\d{2}/;

/**
 * Pairs the objects of `value` (the schema as JSON.parse read `text`) with their parse `root`, so
 * that numberText finds the text of each keyword's number a double changes. Walks both only when
 * `text` holds such a number (MANY_DIGITS): no other can be changed.
 */
export function rememberWrittenNumbers(value: unknown, root: ValueNode | undefined, text: string): void {
  if (!root || !MANY_DIGITS.test(text)) return;
  const stack: [unknown, ValueNode][] = [[value, root]];
  while (stack.length > 0) {
    const [current, node] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      if (node.kind !== 'array') continue;
      for (let i = 0; i < current.length && i < node.items.length; i++) stack.push([current[i], node.items[i]!]);
      continue;
    }
    if (node.kind !== 'object') continue;
    let written: Record<string, string> | undefined;
    for (const key of Object.keys(current)) {
      // JSON.parse keeps the last of a repeated key, as getProperty finds it.
      const child = getProperty(node, key)?.value;
      if (!child) continue;
      if (child.kind === 'number') {
        const text = NUMBER_KEYWORDS.has(key) ? changedByDouble(child) : undefined;
        if (text !== undefined) (written ??= {})[key] = text;
      } else {
        stack.push([(current as Record<string, unknown>)[key], child]);
      }
    }
    if (written) writtenByObject.set(current, written);
  }
}

/** The node a schemaPath (`#/properties/n/maximum`) points at in `root`, if it is there. */
function pointed(root: ValueNode, schemaPath: string): ValueNode | undefined {
  if (!schemaPath.startsWith('#')) return undefined;
  let node: ValueNode | undefined = root;
  for (const raw of schemaPath.slice(1).split('/').slice(1)) {
    const step = decodeURIComponentSafe(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node?.kind === 'object') node = getProperty(node, step)?.value;
    else if (node?.kind === 'array' && /^(?:0|[1-9]\d*)$/.test(step)) node = node.items[Number(step)];
    else return undefined;
  }
  return node;
}

/** ajv writes a schemaPath as a URI fragment: a key's `%` escapes are read back. */
function decodeURIComponentSafe(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function countDigits(raw: string): number {
  let digits = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 0x65 || code === 0x45) break;
    if (code >= 0x30 && code <= 0x39) digits++;
  }
  return digits;
}

/**
 * A JSON number's decimal as its sign, significant digits and the power of ten after them, with no
 * leading or trailing zero among the digits (zero as '0', 0): `1e2`, `100` and `100.0` alike. Made
 * of the text, not of a BigInt, so a literal of many digits costs one pass.
 */
function normalDecimal(raw: string): { readonly digits: string; readonly exponent: number } | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const all = `${whole}${fraction}`;
  let start = 0;
  while (start < all.length && all.charCodeAt(start) === 0x30) start++;
  let end = all.length;
  while (end > start && all.charCodeAt(end - 1) === 0x30) end--;
  const digits = all.slice(start, end);
  if (digits === '') return { digits: '0', exponent: 0 };
  const exponent = Number(exponentText) - fraction.length + (all.length - end);
  return Number.isSafeInteger(exponent) ? { digits: `${sign}${digits}`, exponent } : undefined;
}
