/**
 * Example strings for core/registry/example.ts: what a string schema accepts (`format`, `pattern`,
 * `minLength`/`maxLength`, code points counted as ajv counts them), realistic where the key says
 * what it holds (a time for `*_at`, a UUID for `*_id`), masked as the registry tool masks a value the schema
 * marks `x-gdpr-sensitive`. Every candidate is checked against the schema's own rules; when none
 * fits (contradicting or unsupported constraints) the first one is the best effort.
 */
import { classifyKey } from '../contract/keys';
import { linearRegExp } from './linear-regex';
import { patternExamples } from './pattern-example';
import { isSensitive, maskValue } from './pii';
import { nonNegativeInteger, type Schema } from './schema-values';
import { meetsFormat } from './string-format';

/** A fixed example UUID (version 4, RFC 4122 variant) so examples are deterministic. */
export const EXAMPLE_UUID = '123e4567-e89b-42d3-a456-426614174000';
/** The instant `date-time`/`date` examples show when the caller names none. */
export const DEFAULT_NOW = Date.UTC(2026, 0, 1);
const EXAMPLE_EMAILS = ['user@example.com', 'u@example.com', 'a@b.co'];
const EXAMPLE_URI = 'https://example.com/';
const PLAIN_STRING = 'example';

// Only the key classes that do not depend on money settings are used here.
const KEYS = classifyKey([]);

/** A string the schema accepts; `variant` asks for the n-th distinct one (uniqueItems), `key` is the property's name. */
export function stringExample(schema: Schema, key: string | undefined, variant: number, now: number): string {
  const min = nonNegativeInteger(schema.minLength) ?? 0;
  const max = nonNegativeInteger(schema.maxLength) ?? Infinity;
  const pattern = typeof schema.pattern === 'string' ? linearRegExp(schema.pattern) : undefined;
  // The format too: a mask ("u***") is no e-mail address, so a sensitive e-mail field keeps its made-up address.
  const accepts = (value: string): boolean => {
    const length = codePoints(value);
    return length >= min && length <= max && (!pattern || pattern.test(value)) && meetsFormat(schema.format, value);
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

/** JSON Schema lengths count code points (ajv does too), not UTF-16 units. */
function codePoints(value: string): number {
  return Array.from(value).length;
}
