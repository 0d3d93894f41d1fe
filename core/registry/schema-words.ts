/**
 * The words for schemas and values in messages, hovers and completion details: what a schema asks
 * for ("integer ≥ 1", "string, email address", `one of "USD", "EUR"`), a value as found, and what to
 * write instead. One vocabulary, so a hover and a diagnostic describe a field the same way.
 */
import type { ValueNode } from '../model/tree';
import { literal, shortened } from '../model/describe-value';
import { plural } from '../model/count-words';
import { TYPE_NAMES } from './schema-problems';
import { numberText } from './written-numbers';

/** Where a type name stands in draft-07's list, so that type lists read in one order. */
const typeRank = (type: string) => (TYPE_NAMES as readonly string[]).indexOf(type);

const PLURAL_TYPES: Readonly<Record<string, string>> = {
  string: 'strings',
  number: 'numbers',
  integer: 'integers',
  boolean: 'booleans',
  object: 'objects',
  array: 'arrays',
  null: 'nulls',
};

export function typesOf(schema: Record<string, unknown>): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/**
 * What a schema asks for in a few words, without an article: "number ≥ 0", "string, email
 * address", `one of "USD", "EUR"`. Undefined when it says nothing simple (a bare `$ref`).
 */
export function describeSchema(schema: unknown): string | undefined {
  if (schema === true) return 'anything';
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  const s = schema as Record<string, unknown>;
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.length === 1 ? literal(s.enum[0]) : `one of ${listValues(s.enum)}`;
  let types = typesOf(s);
  if (types.length === 0) {
    if (typeof s.properties === 'object' || Array.isArray(s.required)) types = ['object'];
    else if ('items' in s) types = ['array'];
    else return undefined;
  }
  return [...types].sort((a, b) => typeRank(a) - typeRank(b)).map((type) => describeType(type, s)).join(' or ');
}

function describeType(type: string, s: Record<string, unknown>): string {
  const details: string[] = [];
  switch (type) {
    case 'number':
    case 'integer': {
      const bounds: string[] = [];
      // Each number as the schema file writes it, where the double read is another (numberText).
      if (typeof s.minimum === 'number') bounds.push(`≥ ${numberText(s, 'minimum')}`);
      if (typeof s.exclusiveMinimum === 'number') bounds.push(`> ${numberText(s, 'exclusiveMinimum')}`);
      if (typeof s.maximum === 'number') bounds.push(`≤ ${numberText(s, 'maximum')}`);
      if (typeof s.exclusiveMaximum === 'number') bounds.push(`< ${numberText(s, 'exclusiveMaximum')}`);
      const text = bounds.length > 0 ? `${type} ${bounds.join(' and ')}` : type;
      return typeof s.multipleOf === 'number' ? `${text}, a multiple of ${numberText(s, 'multipleOf')}` : text;
    }
    case 'string': {
      if (typeof s.format === 'string') details.push(formatName(s.format));
      const min = typeof s.minLength === 'number' && s.minLength > 0 ? s.minLength : undefined;
      const max = typeof s.maxLength === 'number' ? s.maxLength : undefined;
      if (min !== undefined && max !== undefined) details.push(`${min}–${max} characters`);
      else if (min !== undefined && min !== 1) details.push(`at least ${plural(min, 'character')}`);
      else if (max !== undefined) details.push(`at most ${plural(max, 'character')}`);
      if (typeof s.pattern === 'string') details.push(`matching ${shortened(s.pattern)}`);
      return [min === 1 && max === undefined ? 'non-empty string' : 'string', ...details].join(', ');
    }
    case 'array': {
      const items = s.items;
      const itemText = Array.isArray(items) ? undefined : describeSchema(items);
      if (itemText === undefined) return 'array';
      return itemText in PLURAL_TYPES ? `array of ${PLURAL_TYPES[itemText]}` : `array of items that are each ${withArticle(itemText)}`;
    }
    case 'object': {
      const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
      return required.length > 0 ? `object with ${required.slice(0, 5).map(quote).join(', ')}${required.length > 5 ? ', …' : ''}` : 'object';
    }
    default:
      return type;
  }
}

/** "a number", "an integer ≥ 1", but `one of …`, `"USD"` and null as they are. */
export function withArticle(phrase: string): string {
  const first = phrase.split(/[\s,]/, 1)[0];
  if (first === 'integer' || first === 'object' || first === 'array' || first === 'anything') return first === 'anything' ? phrase : `an ${phrase}`;
  if (first === 'number' || first === 'string' || first === 'boolean' || first === 'non-empty') return `a ${phrase}`;
  return phrase;
}

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  'date-time': 'date-time (RFC 3339, e.g. "2024-05-01T09:30:00Z")',
  'iso-date-time': 'date-time (ISO 8601, e.g. "2024-05-01T09:30:00Z")',
  date: 'date (YYYY-MM-DD, e.g. "2024-05-01")',
  time: 'time with an offset (e.g. "09:30:00Z")',
  'iso-time': 'time (e.g. "09:30:00")',
  duration: 'ISO 8601 duration (e.g. "PT15M")',
  email: 'email address',
  hostname: 'host name',
  ipv4: 'IPv4 address',
  ipv6: 'IPv6 address',
  uri: 'absolute URI (with a scheme, e.g. "https://…")',
  'uri-reference': 'URI reference',
  'uri-template': 'URI template',
  url: 'URL',
  uuid: 'UUID (e.g. "123e4567-e89b-12d3-a456-426614174000")',
  regex: 'regular expression',
  'json-pointer': 'JSON pointer (e.g. "/items/0")',
  'relative-json-pointer': 'relative JSON pointer',
  byte: 'base64 string',
  int32: '32-bit integer',
  int64: '64-bit integer',
};

export function formatName(format: string): string {
  return FORMAT_NAMES[format] ?? literal(format);
}

export function comparison(operator: string): string {
  return operator === '>=' ? '≥' : operator === '<=' ? '≤' : operator;
}

export function quote(text: string): string {
  return literal(text);
}

export function listValues(values: unknown): string {
  return cappedList(Array.isArray(values) ? values : [], 10, literal);
}

/** A rest this short is named: "… (2 more)" would hide two names in about the room they take. */
const LONGEST_NAMED_REST = 3;

/**
 * Up to `cap` items, each written by `write`, joined; a rest beyond them counted ("… (12 more)"),
 * or named when it is short. Only the items shown are written: a schema of thousands of names,
 * listed for each of thousands of unknown keys, costs the cap each time, not the whole list.
 */
export function cappedList<T>(items: readonly T[], cap: number, write: (item: T) => string): string {
  const shown = (items.length - cap <= LONGEST_NAMED_REST ? items : items.slice(0, cap)).map((item) => write(item));
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join(', ')}, … (${rest} more)` : shown.join(', ');
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** What to write instead, when the value is right but wears the wrong type (quotes on a number). */
export function typeHint(expected: readonly string[], node: ValueNode): string {
  if (node.kind === 'string') {
    const text = node.value;
    const numeric = JSON_NUMBER.test(text);
    if (numeric && (expected.includes('number') || (expected.includes('integer') && Number.isInteger(Number(text))))) return `; write ${copyable(text)} without quotes`;
    if ((text === 'true' || text === 'false') && expected.includes('boolean')) return `; write ${text} without quotes`;
    if (text === 'null' && expected.includes('null')) return '; write null without quotes';
    return '';
  }
  // An id or code typed as a number; a boolean given for a string is more likely a wrong field.
  if (expected.includes('string') && node.kind === 'number') return `; write ${copyable(JSON.stringify(node.raw))} in quotes`;
  return '';
}

/**
 * The text to write, named whole where a message quotes it whole (60 characters), so it can be
 * copied; else `it`: a number cut with `…` could not be copied, and 3,000 digits would fill the line.
 */
function copyable(text: string): string {
  return shortened(text) === text ? text : 'it';
}

/** `describeSchema` for a detail or table cell, where something must be said: "any" when nothing simple is. */
export function schemaSummary(schema: unknown): string {
  return describeSchema(schema) ?? 'any';
}
