/**
 * The bytes a Laravel retry puts back on the queue (facts §4.1: Laravel's reservation script,
 * which Python's `laravel=1` mode runs too, decodes the body with Lua cjson, adds one to
 * `attempts` and encodes it again with cjson; a release or retry leaves that copy on the queue).
 * cjson writes compact JSON; a Lua table keeps no key order, so the keys come out in no fixed
 * order (here: the body's order, a repeated key once, with its last value, as the decoder keeps
 * it); numbers as "%.14g" (./cjson-number.ts); an empty list as `{}` (an empty Lua table is
 * written as an object); in strings `"`, `\` and `/` escaped (`\/`), control characters and DEL
 * as `\b \f \n \r \t` or lowercase `\u00xx`, everything else, non-ASCII included, as it is.
 */
import { parseText } from '../parse/parser';
import { asObject, getProperty, type ValueNode } from '../model/tree';
import { cjsonChangedNumber, formatPercentG14 } from './cjson-number';

/** cjson's default decode_max_depth: a body nested deeper is refused, and the reservation fails. */
export const CJSON_MAX_DEPTH = 1000;

/** A number whose value the re-encoding changes: where it is, as written, and as cjson writes it. */
export interface ChangedNumber {
  readonly path: string;
  readonly raw: string;
  readonly written: string;
}

export type CjsonRetry =
  | {
      readonly ok: true;
      /** The body as the retried message carries it. */
      readonly text: string;
      /** Changes of meaning: numbers cut to 14 significant digits, empty lists written as objects (their paths). */
      readonly changedNumbers: readonly ChangedNumber[];
      readonly emptyLists: readonly string[];
      /** Text only: numbers spelt otherwise with the same value (`1.0` as `1`), and `/` written `\/`. */
      readonly respeltNumbers: number;
      readonly escapedSlashes: number;
      /** `attempts` before and after the reservation's increment; undefined when it is no number. */
      readonly attempts: { readonly from: string; readonly to: string } | undefined;
    }
  | { readonly ok: false; readonly reason: string };

/** What a Laravel retry makes of the published body `body` (one encoder's exact text). */
export function cjsonRetry(body: string): CjsonRetry {
  const doc = parseText(body);
  if (doc.syntaxProblems.length > 0 || !doc.root) return { ok: false, reason: 'the body is not plain JSON, so what cjson makes of it is not shown' };
  const attemptsNode = getProperty(asObject(doc.root), 'attempts')?.value;
  const state: WalkState = { changedNumbers: [], emptyLists: [], respeltNumbers: 0, escapedSlashes: 0, attemptsNode, attempts: undefined };
  const out: string[] = [];
  const refusal = write(doc.root, '', 1, state, out);
  if (refusal) return { ok: false, reason: refusal };
  return { ok: true, text: out.join(''), changedNumbers: state.changedNumbers, emptyLists: state.emptyLists, respeltNumbers: state.respeltNumbers, escapedSlashes: state.escapedSlashes, attempts: state.attempts };
}

interface WalkState {
  readonly changedNumbers: ChangedNumber[];
  readonly emptyLists: string[];
  respeltNumbers: number;
  escapedSlashes: number;
  readonly attemptsNode: ValueNode | undefined;
  attempts: { from: string; to: string } | undefined;
}

/** Writes `node` into `out`; the reason cjson refuses the body, if it does. Depth stays within CJSON_MAX_DEPTH, so recursion is bounded. */
function write(node: ValueNode, path: string, depth: number, state: WalkState, out: string[]): string | undefined {
  switch (node.kind) {
    case 'null':
      out.push('null');
      return undefined;
    case 'boolean':
      out.push(node.value ? 'true' : 'false');
      return undefined;
    case 'string': {
      const text = escapedString(node.value, state);
      if (text === undefined) return `${path || 'a string'} holds a lone surrogate, which cjson refuses to decode ("invalid unicode escape code"): Laravel's reservation fails on this message`;
      out.push(text);
      return undefined;
    }
    case 'number':
      return writeNumber(node, path, state, out);
    case 'array':
    case 'object':
      if (depth > CJSON_MAX_DEPTH) return `the body nests more than ${CJSON_MAX_DEPTH} levels deep, which cjson refuses to decode ("Found too many nested data structures"): Laravel's reservation fails on this message`;
      return node.kind === 'array' ? writeArray(node.items, path, depth, state, out) : writeObject(node, path, depth, state, out);
  }
}

function writeNumber(node: Extract<ValueNode, { kind: 'number' }>, path: string, state: WalkState, out: string[]): string | undefined {
  let value = Number(node.raw);
  // Laravel's script adds one to attempts before it encodes (Lua numbers are doubles).
  if (node === state.attemptsNode) value += 1;
  const written = formatPercentG14(value);
  if (written === undefined) return `${path} is ${node.raw}, beyond the double range: cjson refuses to write it ("Cannot serialise number: must not be NaN or Inf"), and Laravel's reservation fails on this message`;
  if (node === state.attemptsNode) state.attempts = { from: node.raw, to: written };
  else {
    const changed = cjsonChangedNumber(node.raw, node.isIntegerLiteral);
    if (changed !== undefined) state.changedNumbers.push({ path, raw: node.raw, written: changed });
    else if (written !== node.raw) state.respeltNumbers++;
  }
  out.push(written);
  return undefined;
}

function writeArray(items: readonly ValueNode[], path: string, depth: number, state: WalkState, out: string[]): string | undefined {
  if (items.length === 0) {
    state.emptyLists.push(path);
    out.push('{}');
    return undefined;
  }
  out.push('[');
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out.push(',');
    const refusal = write(items[i], `${path}[${i}]`, depth + 1, state, out);
    if (refusal) return refusal;
  }
  out.push(']');
  return undefined;
}

function writeObject(node: Extract<ValueNode, { kind: 'object' }>, path: string, depth: number, state: WalkState, out: string[]): string | undefined {
  // The decoder keeps a repeated key's last value (a Lua table has one slot per key).
  const last = new Map<string, number>();
  node.properties.forEach((property, index) => last.set(property.key, index));
  out.push('{');
  let first = true;
  for (let index = 0; index < node.properties.length; index++) {
    const property = node.properties[index];
    if (last.get(property.key) !== index || !property.value) continue;
    if (!first) out.push(',');
    first = false;
    const key = escapedString(property.key, state);
    if (key === undefined) return `the key ${JSON.stringify(property.key)} holds a lone surrogate, which cjson refuses to decode ("invalid unicode escape code"): Laravel's reservation fails on this message`;
    out.push(key, ':');
    const refusal = write(property.value, path ? `${path}.${property.key}` : property.key, depth + 1, state, out);
    if (refusal) return refusal;
  }
  out.push('}');
  return undefined;
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x2f: '\\/', 0x5c: '\\\\' };

/** A string as cjson writes it; undefined when it holds a lone surrogate (its escape cjson refuses to decode). */
function escapedString(value: string, state: WalkState): string | undefined {
  let out = '"';
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const pairs = c <= 0xdbff && i + 1 < value.length && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (!pairs) return undefined;
      i++;
      continue;
    }
    const escape = SHORT_ESCAPES[c] ?? (c < 0x20 || c === 0x7f ? `\\u00${c.toString(16).padStart(2, '0')}` : undefined);
    if (escape === undefined) continue;
    if (c === 0x2f) state.escapedSlashes++;
    out += value.slice(from, i) + escape;
    from = i + 1;
  }
  return `${out}${value.slice(from)}"`;
}
