/**
 * The envelope contract (schema_version 1) as data: every core field with its type, whether it is
 * required and mutable, and one sentence from the contract. Rules, hover, completion and quick
 * fixes all read this one table.
 */
import { literal } from '../model/describe-value';
import { editDistance } from '../model/edit-distance';
import { getProperty, type ObjectNode, type PropertyNode } from '../model/tree';

export type FieldType = 'string' | 'uuid' | 'urn' | 'object' | 'integer' | 'timestamp' | 'nullable-string' | 'enum';

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  readonly required: boolean;
  readonly mutable: boolean;
  readonly doc: string;
  /** For `enum` fields: the allowed values. */
  readonly values?: readonly string[];
  /** For `enum` fields: values outside the list are a warning (`unknown-lang`), not an error. */
  readonly openEnum?: boolean;
}

export const SDK_LANGS = ['php', 'go', 'python', 'java', 'dotnet', 'node'] as const;

export const DEAD_LETTER_REASONS = ['failed', 'unknown_urn', 'poison'] as const;

export const ROOT_FIELDS: readonly FieldSpec[] = [
  { name: 'job', type: 'urn', required: true, mutable: false, doc: 'The message URN (`urn:babel:<context>:<event>`): its language-agnostic identity, never a class name.' },
  { name: 'trace_id', type: 'uuid', required: true, mutable: false, doc: 'Cross-service correlation id: minted by the first producer and forwarded unchanged on every hop.' },
  { name: 'data', type: 'object', required: true, mutable: false, doc: 'The business payload as pure JSON: no language-specific types, money in integer minor units or decimal strings.' },
  { name: 'meta', type: 'object', required: true, mutable: false, doc: 'Producer-set metadata (id, queue, lang, schema_version, created_at), immutable end to end.' },
  { name: 'attempts', type: 'integer', required: true, mutable: true, doc: 'The transport retry counter, starting at 0; the one field a broker or worker may change.' },
  { name: 'dead_letter', type: 'object', required: false, mutable: false, doc: 'Why the message failed; only on dead-letter-queue messages, additive, schema_version stays 1.' },
];

/** `urn` is not a field of its own: the inbound alias of `job`, read only when `job` is blank or absent. */
export const URN_ALIAS_FIELD: FieldSpec = {
  name: 'urn',
  type: 'urn',
  required: false,
  mutable: false,
  doc: 'Inbound alias for `job`: consumers accept it, producers write `job`, and the contract has a re-emit write `job` and never `urn` (as Go, Java and .NET do; PHP and Python relay `urn` as it came, Node writes both).',
};

export const META_FIELDS: readonly FieldSpec[] = [
  { name: 'id', type: 'uuid', required: true, mutable: false, doc: 'Unique per message and distinct from trace_id: the idempotency and dedup key.' },
  { name: 'queue', type: 'string', required: true, mutable: false, doc: 'The logical queue name (not the broker key); defaults to `default` in every SDK.' },
  { name: 'lang', type: 'enum', values: SDK_LANGS, openEnum: true, required: true, mutable: false, doc: 'The producing SDK language; consumers accept and forward an unknown value unchanged.' },
  { name: 'schema_version', type: 'integer', required: true, mutable: false, doc: 'The envelope version, the integer 1; consumers reject or quarantine versions they do not support.' },
  { name: 'created_at', type: 'timestamp', required: true, mutable: false, doc: 'When the producer created the message, in Unix epoch milliseconds (UTC).' },
];

export const DEAD_LETTER_FIELDS: readonly FieldSpec[] = [
  { name: 'reason', type: 'enum', values: DEAD_LETTER_REASONS, required: true, mutable: false, doc: 'Why the message was dead-lettered: `failed`, `unknown_urn` or `poison`.' },
  { name: 'error', type: 'nullable-string', required: false, mutable: false, doc: 'The error message text, or null.' },
  { name: 'exception', type: 'nullable-string', required: false, mutable: false, doc: 'The language-specific exception type name, or null.' },
  { name: 'failed_at', type: 'timestamp', required: true, mutable: false, doc: 'When the message was dead-lettered, in Unix epoch milliseconds (UTC).' },
  { name: 'original_queue', type: 'string', required: true, mutable: false, doc: 'The logical queue the message failed on.' },
  { name: 'attempts', type: 'integer', required: true, mutable: false, doc: 'Attempts made before dead-lettering; may differ from the top-level counter.' },
  { name: 'lang', type: 'enum', values: SDK_LANGS, openEnum: true, required: false, mutable: false, doc: 'The SDK that dead-lettered the message.' },
];

export interface ForbiddenKey {
  /** Where the key is forbidden: at the top level or inside `meta`. */
  readonly scope: 'root' | 'meta';
  readonly key: string;
  readonly replacement: string;
}

export const FORBIDDEN_KEYS: readonly ForbiddenKey[] = [
  { scope: 'root', key: 'timestamp', replacement: '`meta.created_at` in Unix milliseconds' },
  { scope: 'meta', key: 'max_retries', replacement: 'a consumer-side retry policy per URN' },
  { scope: 'meta', key: 'attempts', replacement: 'the top-level `attempts` counter' },
  { scope: 'meta', key: 'source', replacement: '`meta.lang`' },
  { scope: 'meta', key: 'ts', replacement: '`meta.created_at` in Unix milliseconds' },
];

/** The reserved Redis header-frame sentinel; a frozen envelope never carries it. */
export const RESERVED_ROOT_KEY = '__bq_frame';

/** The meta key that holds vendor extension blocks (`meta.ext.<vendor>`). */
export const META_EXTENSION_KEY = 'ext';

/** Where an object sits in the envelope, as far as the contract cares. */
export type EnvelopeScope = 'root' | 'meta' | 'dead_letter';

/** The field specs of a scope. */
export function fieldsOf(scope: EnvelopeScope): readonly FieldSpec[] {
  if (scope === 'root') return ROOT_FIELDS;
  if (scope === 'meta') return META_FIELDS;
  return DEAD_LETTER_FIELDS;
}

/** The spec of `key` in `scope` (including the `urn` alias at the root), if it is a core key. */
export function fieldSpec(scope: EnvelopeScope, key: string): FieldSpec | undefined {
  if (scope === 'root' && key === 'urn') return URN_ALIAS_FIELD;
  return fieldsOf(scope).find((field) => field.name === key);
}

/** The forbidden-table entry for `key` in `scope`, if any (exact, case-sensitive). */
export function forbiddenKey(scope: EnvelopeScope, key: string): ForbiddenKey | undefined {
  return FORBIDDEN_KEYS.find((entry) => entry.scope === scope && entry.key === key);
}

/** A key taken for a required field that its object lacks, and whether only case, `-`, `_` and camelCase set them apart. */
export interface MisspeltField {
  readonly field: FieldSpec;
  readonly exact: boolean;
}

/**
 * The keys of `object` that a required field it lacks was most likely meant as: keys match
 * byte-wise, so such a key is an unknown key and the field is missing. A key is taken when it is
 * the field's name but for case, `-`, `_` and camelCase (`traceId`, `Trace-Id`), or, for a field of
 * five letters or more, one letter off (`attempt`). Not a key that differs from the field only in
 * case (`TRACE_ID`, which Go reads as the field: missing-field names that one its own way, and
 * then nothing else is taken for the field), nor a key the contract names in the scope. Each field
 * takes its first such key. Linear in the object's keys, per field it lacks.
 */
export function misspeltFields(scope: EnvelopeScope, object: ObjectNode): Map<PropertyNode, MisspeltField> {
  const found = new Map<PropertyNode, MisspeltField>();
  const known = new Set(knownKeys(scope));
  for (const field of fieldsOf(scope)) {
    if (!field.required || getProperty(object, field.name)) continue;
    if (scope === 'root' && field.name === 'job' && getProperty(object, 'urn')) continue;
    const caseVariant = (name: string) => object.properties.some((property) => property.key !== name && property.key.toLowerCase() === name);
    if (caseVariant(field.name) || (scope === 'root' && field.name === 'job' && caseVariant('urn'))) continue;
    const wanted = looseName(field.name);
    for (const property of object.properties) {
      if (known.has(property.key) || found.has(property) || property.key.length > field.name.length + 8) continue;
      const loose = looseName(property.key);
      const exact = loose === wanted;
      if (exact || (field.name.length >= 5 && editDistance(loose, wanted, 1) <= 1)) {
        found.set(property, { field, exact });
        break;
      }
    }
  }
  return found;
}

/**
 * The key `object` holds for its field `name`: the field itself, a key that differs from it only
 * in case (Go reads it as the field; missing-field renames it), or the key misspeltFields takes for
 * it (missing-field renames that one too). A fix that would write the field beside such a key
 * leaves two keys for one field: undefined only where the field is not written in any form.
 */
export function keyWrittenFor(scope: EnvelopeScope, object: ObjectNode, name: string): PropertyNode | undefined {
  const exact = getProperty(object, name);
  if (exact) return exact;
  const variant = object.properties.find((property) => property.key.toLowerCase() === name);
  if (variant) return variant;
  for (const [property, { field }] of misspeltFields(scope, object)) if (field.name === name) return property;
  return undefined;
}

/** A key's name without case, `-`, `_`, `.` and spaces: `traceId`, `trace-id` and `trace_id` alike. */
function looseName(key: string): string {
  return key.toLowerCase().replace(/[-_. ]/g, '');
}

/** Laravel's list key prefix (facts part 1, §4.1), and every SDK's dead-letter queue suffix (facts part 2, §3). */
export const LARAVEL_KEY_PREFIX = 'queues:';
const DEAD_LETTER_SUFFIX = '.dlq';
/** The sets Laravel keeps beside a queue's list, as `queues:<name>:<set>` (facts part 1, §4.1). */
const LARAVEL_SETS = ['reserved', 'delayed', 'notify'] as const;

/**
 * The queue a broker's name written as meta.queue stands for, and which of that queue's keys or
 * queues it is: `queues:orders` → `orders`; `queues:orders:reserved` → `orders`, its reserved set;
 * in a dead letter, `orders.dlq` and `queues:orders.dlq` → `orders`, its dead-letter queue. Outside
 * a dead letter `orders.dlq` is a queue of the author's to have.
 */
export function brokerNameOf(queue: string, deadLettered: boolean): BrokerName | undefined {
  const laravel = queue.startsWith(LARAVEL_KEY_PREFIX);
  const rest = laravel ? queue.slice(LARAVEL_KEY_PREFIX.length) : queue;
  if (deadLettered && rest.endsWith(DEAD_LETTER_SUFFIX)) return named(laravel, rest.slice(0, -DEAD_LETTER_SUFFIX.length), 'dead-letter queue') ?? named(laravel, rest, undefined);
  if (!laravel) return undefined;
  for (const set of LARAVEL_SETS) {
    if (rest.endsWith(`:${set}`)) {
      const name = named(true, rest.slice(0, -set.length - 1), `${set} set`);
      if (name) return name;
    }
  }
  return named(true, rest, undefined);
}

/** A queue's name read from a broker's; `part`: which of the queue's keys or queues it was, undefined for its list. */
export interface BrokerName {
  readonly laravel: boolean;
  readonly name: string;
  readonly part: 'dead-letter queue' | `${(typeof LARAVEL_SETS)[number]} set` | undefined;
}

/**
 * What a broker's name stands for, in the words babelq lint's invalid-value on meta.queue and the
 * notes of babelq send and preview share: `the Laravel Redis key of the queue "orders"`,
 * `the reserved set of the queue "orders"`, `the dead-letter queue of the queue "orders"`.
 */
export function brokerNameMeaning(broker: BrokerName): string {
  const of = broker.part === undefined ? `the queue ${literal(broker.name)}` : `the ${broker.part} of the queue ${literal(broker.name)}`;
  return broker.laravel ? `the Laravel Redis key of ${of}` : of;
}

function named(laravel: boolean, name: string, part: BrokerName['part']): BrokerName | undefined {
  if (isBlank(name) || (!laravel && part === undefined)) return undefined;
  return { laravel, name, part };
}

/** Every key the contract names in a scope: core, alias, forbidden, reserved and `ext`. */
export function knownKeys(scope: EnvelopeScope): string[] {
  const keys = fieldsOf(scope).map((field) => field.name);
  for (const entry of FORBIDDEN_KEYS) if (entry.scope === scope) keys.push(entry.key);
  if (scope === 'root') keys.push('urn', RESERVED_ROOT_KEY);
  if (scope === 'meta') keys.push(META_EXTENSION_KEY);
  return keys;
}

/** ASCII whitespace as the SDK decoders trim it (space, \t, \n, \v, \f, \r). */
export function isBlank(value: string): boolean {
  return /^[ \t\n\v\f\r]*$/.test(value);
}

const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** True for the RFC 4122 text form (8-4-4-4-12 hex digits). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/** Unix milliseconds below this look like seconds (10^11 ms is March 1973). */
export const SECONDS_CEILING = 1e11;
/** Unix milliseconds above this look like micro- or nanoseconds (10^14 ms is the year 5138). */
export const MILLIS_CEILING = 1e14;

/** True for a value that reads as Unix milliseconds (neither seconds nor micro- or nanoseconds). */
export function isMillisecondRange(value: number): boolean {
  return value >= SECONDS_CEILING && value <= MILLIS_CEILING;
}
