/**
 * Values in messages, one vocabulary for every finding: a value as written (`"99.90"`, `1e400`, an
 * object), with its kind for a type error (`the string "99.90"`), shortened when long, as a key
 * a message quotes is (`shortened`).
 */
import type { ValueNode } from './tree';

/** The longest text from a fixture that a message quotes whole. */
const MAX_QUOTED = 60;

/** The longest path a message quotes whole (most are far shorter); a longer one by its start and `…`. */
export const MAX_QUOTED_PATH = 200;

/**
 * Text from a fixture as a message quotes it (a key, a literal): as it is up to 60 characters
 * (`max`), else its first 57 and `…`, which says it was cut. Messages are shown in hovers, the
 * Problems panel, terminals and CI annotations: a 100,000-character key quoted whole is a 100 KB message.
 */
export function shortened(text: string, max = MAX_QUOTED): string {
  if (text.length <= max) return text;
  return `${text.slice(0, cutBefore(text, max - 3))}…`;
}

/**
 * Where to cut `text` to keep its first `length` code units: `length`, or one less when that would
 * end between the halves of a surrogate pair (half an emoji would be a lone surrogate, drawn as a
 * replacement character).
 */
export function cutBefore(text: string, length: number): number {
  return isHighSurrogate(text.charCodeAt(length - 1)) ? length - 1 : length;
}

/**
 * A name (a queue, a key, a meta.id, a URN) as a line names it: as it is up to `max` characters,
 * else its first two thirds and its last third of `max` with one `…` between. Names that differ
 * only at the end (`orders:work` and `orders:dlq` after a long shared start) are told apart by
 * the end, which a cut that keeps only the start (`shortened`) would drop from both.
 */
export function shortenedName(name: string, max: number): string {
  if (name.length <= max) return name;
  const kept = max - 1;
  const fullHead = Math.ceil((kept * 2) / 3);
  // Neither side of the `…` holds half of a surrogate pair: half an emoji would be a lone surrogate.
  const head = cutBefore(name, fullHead);
  let tailStart = name.length - (kept - fullHead);
  if (isLowSurrogate(name.charCodeAt(tailStart))) tailStart++;
  return `${name.slice(0, head)}…${name.slice(tailStart)}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** A JSON literal for a message, shortened to 60 characters. */
export function literal(value: unknown): string {
  // A BigInt stands for an integer as written that no double holds (a schema's `const`, say).
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `\u0000${item}\u0000` : item))?.replace(/"\\u0000(-?\d+)\\u0000"/g, '$1') ?? String(value);
  return shortened(text);
}

/**
 * What "carry it as a string" advice names: the string itself where it is short enough to quote
 * whole, so it can be copied (`a string ("9007199254740993")`), else `a string of its digits` (a
 * string cut with `…` could not be copied, and would lose its closing quote).
 */
export function stringOfDigits(digits: string): string {
  const text = JSON.stringify(digits);
  return text.length <= MAX_QUOTED ? `a string (${text})` : 'a string of its digits';
}

/** A number as written, shortened to 60 characters (a 5,000-digit literal would fill the terminal). */
export function numberLiteral(raw: string): string {
  return shortened(raw);
}

/** The value as written, shortened to 60 characters: `"99.90"`, `1042`, `true`, `null`, `an object`. */
export function valueText(node: ValueNode): string {
  switch (node.kind) {
    case 'string':
      return literal(node.value);
    case 'number':
      return numberLiteral(node.raw);
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

/** The value with its kind, for a type error: `the string "99.90"`, `the number 1e400 (out of range)`. */
export function describeValue(node: ValueNode): string {
  switch (node.kind) {
    case 'string':
      return `the string ${literal(node.value)}`;
    case 'number':
      return `the number ${numberLiteral(node.raw)}${Number.isFinite(Number(node.raw)) ? '' : ' (out of range)'}`;
    case 'boolean':
      return `the boolean ${node.value}`;
    default:
      return valueText(node);
  }
}
