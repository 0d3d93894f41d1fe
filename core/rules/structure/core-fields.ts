/**
 * The type and value of every core field in the root, meta and dead_letter blocks: wrong-type,
 * then (for a field of the right type) invalid-value.
 */
import { brokerNameMeaning, brokerNameOf, DEAD_LETTER_REASONS, fieldsOf, isBlank, LARAVEL_KEY_PREFIX, isMillisecondRange, MILLIS_CEILING, SECONDS_CEILING, type EnvelopeScope, type FieldSpec } from '../../contract/envelope';
import { decodeTimestampToMs } from '../../contract/timestamps';
import { describeValue, literal, numberLiteral } from '../../model/describe-value';
import { replaceValue } from '../../model/property-edits';
import type { ObjectNode, PropertyNode, ValueNode } from '../../model/tree';
import { asObject, getProperty, getValue } from '../../model/tree';
import { list } from '../../encode/divergence';
import { javaIntegral } from '../../encode/java';
import { literalAsIntN, literalFitsInt32, literalFitsInt64 } from '../../encode/numbers';
import type { RuleContext } from '../context';
import { defineRule, type Fix, type FixContext } from '../definition';
import { tokenRange } from '../ranges';

type CoreFieldCode = 'wrong-type' | 'invalid-value';


export const rule = defineRule<CoreFieldCode>({
  codes: [
    {
      code: 'wrong-type',
      family: 'structure',
      severity: 'error',
      summary: 'A core field has the wrong JSON type.',
      docs: {
        fires:
          'A core field has the wrong JSON type: `attempts: "0"`, `data: []`, `schema_version: 1.0` (must be the integer literal `1`), `attempts: 1.0`, `job: 123`, `created_at: "2025-06-05"`, `dead_letter.error: 5`.',
        instead: 'The type the contract gives the field, written as a plain literal: integers without a fraction or exponent (Go fails to decode `1.0` into an integer; an `attempts` of `1.0` is also rejected by the PHP and Python consumers, and read as 0 by .NET\'s code), `data` as an object.',
        example: { fires: '"attempts": "0"', clean: '"attempts": 0' },
        fixes: '`"0"` → `0`, `1.0` → `1` for integer fields (for `schema_version` only where that gives 1: `2.0` would become an unsupported version; never a negative count: `-1.0` would become an invalid one); a time (`created_at`, `failed_at`) as the integer of milliseconds it means, converted from seconds, micro- or nanoseconds or an RFC 3339 time (none where no unit reads it as a time: as written it would only draw timestamp-unit); `data: []` → `{}`.',
      },
      fixes: wrongTypeFixes,
    },
    {
      code: 'invalid-value',
      family: 'structure',
      severity: 'error',
      otherSeverities: ['warning'],
      summary: 'A core field has the right type but an impossible value.',
      docs: {
        fires:
          'The right type but an impossible value: negative `attempts`/`created_at`/`failed_at`/`dead_letter.attempts`, an `attempts`, `created_at`, `failed_at` or `dead_letter.attempts` beyond signed 64-bit (Go fails to decode it; PHP rejects such an `attempts`), and as a **warning** an `attempts` beyond 2^31−1 (Java reads it as a 32-bit int: `4294967296` as 0; by its code, .NET reads any such count as 0), a blank `meta.queue`, `dead_letter.original_queue`, `trace_id` or `meta.id`, a `dead_letter.reason` outside `failed`, `unknown_urn`, `poison`, and as a **warning** a `meta.queue` written as a Laravel Redis key of the queue (`queues:orders`, or its sets `queues:orders:reserved`, `:delayed`, `:notify`): `meta.queue` is the logical name, from which the Laravel layout derives the keys, so it would use `queues:queues:orders` (a name that merely holds a colon, `orders:eu`, is no finding); in a dead letter, a `meta.queue` that names a dead-letter queue (`orders.dlq`, or its Laravel key `queues:orders.dlq`): dead-lettering leaves `meta` unchanged, and a redrive would send the message back to that queue (a redrive of this one where `original_queue` names it too; else the next, once the message is dead-lettered again with `original_queue` copied from `meta.queue`).',
        instead: 'A value the field can hold: a counter from 0, a queue name (the logical one, `orders`, never a broker key), a UUID, one of the dead-letter reasons.',
        example: { fires: '"queue": ""', clean: '"queue": "orders"' },
        fixes: 'For a `meta.queue` written as its Laravel key or its dead-letter queue: the name without `queues:` or `.dlq` (and a dead letter\'s `original_queue` that equals it, likewise; not applied by `--fix`). For a blank `dead_letter.original_queue`, the `meta.queue` beside it; for a blank `meta.queue`, the dead letter\'s `original_queue` (not applied by `--fix`).',
      },
      fixes: invalidValueFixes,
    },
  ],
  check: (context) => {
    const { root, meta, deadLetter } = context.envelope;
    if (!root) return;
    checkScope(context, root, 'root');
    if (meta) checkScope(context, meta, 'meta');
    if (deadLetter) checkScope(context, deadLetter, 'dead_letter');
  },
});

function checkScope(context: RuleContext<CoreFieldCode>, object: ObjectNode, scope: EnvelopeScope): void {
  const fields = scope === 'root' ? [...fieldsOf('root'), { name: 'urn', type: 'urn' } as FieldSpec] : fieldsOf(scope);
  for (const field of fields) {
    const property = getProperty(object, field.name);
    if (!property?.value) continue;
    const name = scope === 'root' ? field.name : `${scope}.${field.name}`;
    // Every SDK reads a null job beside urn as absent and routes on urn (facts part 2, §2): that is
    // urn-alias's finding, not a wrong type.
    if (name === 'job' && property.value.kind === 'null' && getProperty(object, 'urn')) continue;
    if (!checkType(context, property, field, name)) continue;
    checkValue(context, property.value, field, name);
  }
}

/** Reports a wrong JSON type; returns true when the type is right. */
function checkType(context: RuleContext<CoreFieldCode>, property: PropertyNode, field: FieldSpec, name: string): boolean {
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
          ? `"meta.schema_version" must be the integer literal 1, not ${numberLiteral(value.raw)} (${schemaVersionReaders(value)}).`
          : `"meta.schema_version" must be the integer 1, not ${found}.`;
      }
      if (value.kind === 'number' && name === 'attempts') return `"attempts" must be an integer literal such as ${integerExample(value.value)}, not ${numberLiteral(value.raw)} (${attemptsReaders(value)}).`;
      if (value.kind === 'number') return `"${name}" must be an integer literal such as ${integerExample(value.value)}, not ${numberLiteral(value.raw)} (Go fails to decode a fraction or exponent).`;
      return `"${name}" must be a non-negative integer, not ${found}.`;
    case 'timestamp':
      // Of the decoders the facts measured, only Go's reads created_at and failed_at, into integer
      // fields of its typed Meta and DeadLetter: json.Unmarshal fails on a fraction or exponent there
      // as it does on attempts (facts part 2, §2). The PHP, Python, Node and Java gates do not read
      // either field (a meta of schema_version alone passes them all), and the facts say nothing of
      // .NET's reading of them: only those that fail are named.
      if (value.kind === 'number') return `"${name}" must be an integer in Unix epoch milliseconds (UTC), not ${found} (Go fails to decode the message: its integer field takes no fraction or exponent).`;
      return `"${name}" must be an integer in Unix epoch milliseconds (UTC), not ${found}.`;
    case 'nullable-string':
      return `"${name}" must be a string or null, not ${found}.`;
    case 'urn':
      return `"${name}" must be a URN string such as "urn:babel:orders:created", not ${found}.`;
    default:
      return `"${name}" must be a string, not ${found}.`;
  }
}

/**
 * Who reads a schema_version that is a number but not an integer literal, and how (facts part 1
 * §1.5, part 2 §2): Go's int field refuses it, PHP and .NET want an integer; Python and Node
 * compare the number with 1 (1.0 passes), Java compares intValue() with 1 (1.5 passes as 1).
 */
function schemaVersionReaders(value: Extract<ValueNode, { kind: 'number' }>): string {
  const rejecting = ['PHP'];
  if (value.value !== 1) rejecting.push('Python', 'Node');
  const java = javaIntegral(value, 32);
  if (java !== 1n) rejecting.push('Java');
  rejecting.push('.NET');
  const javaReads = java === 1n && value.value !== 1 ? ', and Java reads it as 1 (intValue()) and accepts it' : '';
  return `Go fails to decode it, ${list(rejecting)} reject it${javaReads}`;
}

/**
 * Who refuses or changes an attempts that is a number but not an integer literal (facts part 2,
 * §2; .NET from part 1, §1.5, read from its code): PHP and Python want an integer literal, Node an
 * integral number (1.0 passes), Go's int field fails to decode it, Java reads intValue() (1.5 as
 * 1; 1.0 as the 1 it is), .NET's TryGetInt32 fails and reads 0. Those that read the count as
 * written are not named.
 */
function attemptsReaders(value: Extract<ValueNode, { kind: 'number' }>): string {
  const rejecting = ['PHP', 'Python'];
  if (!Number.isInteger(value.value)) rejecting.push('Node');
  const java = javaIntegral(value, 32);
  const javaReads = Number(java) === value.value ? '' : `, Java reads it as ${java} (intValue())`;
  return `the ${list(rejecting)} consumers reject it, Go fails to decode it${javaReads} and, by its code, .NET reads it as 0`;
}

function checkValue(context: RuleContext<CoreFieldCode>, value: ValueNode, field: FieldSpec, name: string): void {
  // A negative schema_version is an unsupported version, reported by its own rule.
  if (value.kind === 'number' && name !== 'meta.schema_version' && (field.type === 'integer' || field.type === 'timestamp') && value.raw.startsWith('-') && value.value !== 0) {
    const write = field.type === 'timestamp' ? 'write the time in Unix epoch milliseconds (UTC), such as 1749132727000' : 'write the number of attempts made so far, from 0';
    context.report('invalid-value', value, `"${name}" cannot be negative (${numberLiteral(value.raw)}): ${write}.`);
    return;
  }
  // Beyond signed 64-bit, PHP decodes the counter as a float and rejects it (invalid_attempts), and
  // Go's json.Unmarshal fails on it (facts-2 §2): a consumer rejection, not a style point.
  // (Negative counters returned above; the literal helpers stay linear in a literal of megabytes.)
  if (value.kind === 'number' && name === 'attempts' && value.isIntegerLiteral && !literalFitsInt64(value.raw)) {
    context.report('invalid-value', value, `"attempts" ${numberLiteral(value.raw)} does not fit a signed 64-bit integer: PHP decodes it as a float and rejects the message, Go fails to decode it (Java reads it as ${literalAsIntN(32, value.raw)} ${DOTNET_READS_ZERO}).`);
    return;
  }
  // The contract's integers fit signed 64-bit; the typed decoders read created_at, failed_at and
  // dead_letter.attempts as 64-bit integers, and Go's json.Unmarshal fails beyond that range (as it
  // does for attempts): a consumer rejection, which timestamp-unit leaves to this finding.
  if (value.kind === 'number' && name !== 'attempts' && name !== 'meta.schema_version' && (field.type === 'integer' || field.type === 'timestamp') && value.isIntegerLiteral && !literalFitsInt64(value.raw)) {
    context.report('invalid-value', value, `"${name}" ${numberLiteral(value.raw)} does not fit a signed 64-bit integer, as the contract's integers must: Go fails to decode the message. ${field.type === 'timestamp' ? 'Write the time in Unix milliseconds, such as 1749132727000.' : 'Write the number of attempts made.'}`);
    return;
  }
  // Java narrows the counter to a 32-bit int (intValue): 4294967296 is accepted as 0 (facts-2 §2),
  // so its retry policy counts from another number than every other consumer's. .NET's TryGetInt32
  // fails on it and reads 0 (facts §3, its code; core/encode/dotnet.ts). The others accept it.
  if (value.kind === 'number' && name === 'attempts' && value.isIntegerLiteral && !literalFitsInt32(value.raw)) {
    const java = literalAsIntN(32, value.raw);
    // Node reads numbers as doubles: beyond 2^53 it rounds the counter too.
    const others = value.value > Number.MAX_SAFE_INTEGER ? `PHP, Python and Go read it as written, Node as the nearest double (${Number(value.raw)})` : 'PHP, Python, Node and Go read it as written';
    context.report('invalid-value', value, `"attempts" ${numberLiteral(value.raw)} does not fit a 32-bit int: the Java consumer accepts it but reads it as ${java} (${DOTNET_READS_ZERO}), ${others}. Write the number of attempts made so far.`, { severity: 'warning' });
    return;
  }
  if (value.kind !== 'string') return;
  if (name === 'meta.queue' || name === 'dead_letter.original_queue') {
    if (isBlank(value.value)) context.report('invalid-value', value, `"${name}" must name a queue; it is ${value.value === '' ? 'empty' : 'only whitespace'}: ${blankQueueAdvice(name, otherQueue(context.envelope.meta, context.envelope.deadLetter, name))}.`);
    else if (name === 'meta.queue') checkBrokerName(context, value);
    return;
  }
  if (name === 'trace_id' || name === 'meta.id') {
    if (isBlank(value.value)) context.report('invalid-value', value, blankIdMessage(name, value.value));
    return;
  }
  if (name === 'dead_letter.reason' && !(DEAD_LETTER_REASONS as readonly string[]).includes(value.value)) {
    context.report('invalid-value', value, `"dead_letter.reason" must be one of ${DEAD_LETTER_REASONS.map((r) => `"${r}"`).join(', ')}, not ${literal(value.value)}.`);
  }
}

/**
 * A broker's name written for the queue's: meta.queue is the logical name (facts part 1, §1.2).
 * - The Laravel list key `queues:orders`: the Laravel layout derives its key from meta.queue as
 *   `queues:<name>` (§4.1), so it would use `queues:queues:orders`. Only that prefix: a colon is
 *   no mistake in a queue's name in itself (the facts show no layout doubling one).
 * - In a dead letter, the dead-letter queue `orders.dlq`: every DLQ is `<queue>.dlq`, and
 *   dead-lettering leaves meta unchanged (facts part 2, §3), so a dead letter from `orders` keeps
 *   meta.queue `orders`; a redrive of this one would go back to `orders.dlq`. Outside a dead letter
 *   a queue of that name is the author's to have.
 * A dead letter's original_queue is meta.queue as the SDKs that dead-letter copy it (facts part 2,
 * §3.1): where it equals meta.queue it is the same mistake, named here and corrected by the same
 * fix, not a finding of its own; where it differs, original-queue-mismatch says so.
 */
function checkBrokerName(context: RuleContext<CoreFieldCode>, value: Extract<ValueNode, { kind: 'string' }>): void {
  const broker = brokerNameOf(value.value, context.envelope.deadLetter !== undefined);
  if (!broker) return;
  const what = `is ${brokerNameMeaning(broker)}, ${broker.laravel ? 'not a queue name' : 'not the queue this message was published to'}`;
  const why =
    broker.part === 'dead-letter queue'
      ? `dead-lettering leaves meta unchanged, so a dead letter from ${literal(broker.name)} keeps meta.queue ${literal(broker.name)}, ${redriveWords(value.value, getValue(context.envelope.deadLetter, 'original_queue'))}`
      : `meta.queue holds the logical name, from which the Laravel layout derives its key${broker.part === undefined ? '' : 's'} as queues:<name>${broker.part === undefined ? '' : ` and queues:<name>:${broker.part.slice(0, -' set'.length)}`}, so this message would go to ${literal(`${LARAVEL_KEY_PREFIX}${value.value}`)} (babelq send with the laravel layout, and a redrive to the original_queue the SDKs copy from meta.queue)`;
  const message = `"meta.queue" ${literal(value.value)} ${what}: ${why}. Write ${literal(broker.name)}.`;
  context.report('invalid-value', value, message, { severity: 'warning' });
}

/**
 * Where a redrive sends a dead letter whose meta.queue is the dead-letter queue `queue`: to
 * original_queue, else meta.queue (core/message/dead-letter.ts). Back to `queue` where
 * original_queue names it too or is absent; to another queue an original_queue names, and then
 * back to `queue` once dead-lettered again, as original_queue is copied from meta.queue.
 */
function redriveWords(queue: string, original: ValueNode | undefined): string {
  if (original?.kind === 'string' && !isBlank(original.value) && original.value !== queue) {
    return `and while a redrive of this one goes to original_queue ${literal(original.value)}, dead-lettered again, its original_queue, which the SDKs that dead-letter copy from meta.queue, would be ${literal(queue)}, and a redrive would put it back there`;
  }
  return `and a redrive of this one (to original_queue, which the SDKs that dead-letter copy from meta.queue) would put it back on ${literal(queue)}`;
}

/**
 * The queue the other side names, where one queue field is blank: meta.queue for the dead letter's
 * original_queue (the SDKs that dead-letter copy it there, facts part 2 §3.1), and the reverse.
 * A meta.queue that is a broker's name (checkBrokerName: `orders.dlq`, `queues:orders:reserved`)
 * gives the queue it stands for, not itself: copied into original_queue, a redrive would send the
 * message back into its own dead-letter queue or onto a Laravel key.
 */
function otherQueue(meta: ObjectNode | undefined, deadLetter: ObjectNode | undefined, name: string): OtherQueue | undefined {
  const other = name === 'meta.queue' ? getValue(deadLetter, 'original_queue') : getValue(meta, 'queue');
  if (other?.kind !== 'string' || isBlank(other.value)) return undefined;
  const broker = name === 'meta.queue' ? undefined : brokerNameOf(other.value, true);
  return broker ? { name: broker.name, written: other.value } : { name: other.value };
}

/** `written`: the broker's name meta.queue holds, where `name` is the queue read from it. */
interface OtherQueue {
  readonly name: string;
  readonly written?: string;
}

function blankQueueAdvice(name: string, other: OtherQueue | undefined): string {
  if (other === undefined) return 'write the logical queue\'s name, such as "default" (the SDK default)';
  if (name === 'meta.queue') return `write ${literal(other.name)}, the dead letter's original_queue, which the SDKs that dead-letter copy from meta.queue`;
  return other.written === undefined
    ? `write ${literal(other.name)}, the meta.queue the SDKs that dead-letter copy into it`
    : `write ${literal(other.name)}, the queue meta.queue ${literal(other.written)} stands for (the SDKs that dead-letter copy meta.queue into it, but ${literal(other.written)} is a broker's name, and a redrive would send the message there)`;
}

function invalidValueFixes({ valueAt, doc }: FixContext): Fix[] {
  const value = valueAt();
  if (value?.kind !== 'string' || (value.property?.key !== 'queue' && value.property?.key !== 'original_queue')) return [];
  const root = asObject(doc.root);
  const meta = asObject(getValue(root, 'meta'));
  const deadLetterObject = asObject(getValue(root, 'dead_letter'));
  // A blank queue field beside a queue the other side names: that name (for meta.queue not applied by --fix: it changes where the fixture is sent).
  const blankName = getValue(meta, 'queue') === value ? 'meta.queue' : getValue(deadLetterObject, 'original_queue') === value ? 'dead_letter.original_queue' : undefined;
  if (blankName && isBlank(value.value)) {
    const other = otherQueue(meta, deadLetterObject, blankName);
    if (other === undefined) return [];
    const from = blankName === 'meta.queue' ? 'dead_letter.original_queue' : other.written === undefined ? 'meta.queue' : 'the queue meta.queue stands for';
    return [{ title: `Write ${literal(other.name)} (${from})`, edits: [replaceValue(value, JSON.stringify(other.name))], preferred: blankName !== 'meta.queue' }];
  }
  if (value.property?.key !== 'queue') return [];
  if (getValue(meta, 'queue') !== value) return [];
  const deadLetter = asObject(getValue(root, 'dead_letter'));
  const broker = brokerNameOf(value.value, deadLetter !== undefined);
  if (!broker) return [];
  const original = getValue(deadLetter, 'original_queue');
  const alsoOriginal = original?.kind === 'string' && original.value === value.value;
  const edits = [replaceValue(value, JSON.stringify(broker.name)), ...(alsoOriginal ? [replaceValue(original, JSON.stringify(broker.name))] : [])];
  const why = broker.part === undefined ? 'without Laravel\'s "queues:" prefix' : `${literal(value.value)} is ${broker.laravel ? 'the Laravel key of ' : ''}its ${broker.part}`;
  // Not applied by --fix: where the fixture is sent as it is, it changes the queue it goes to.
  return [{ title: `Write meta.queue${alsoOriginal ? ' and dead_letter.original_queue' : ''} as ${literal(broker.name)}${broker.part === undefined ? ', ' : ': '}${why}`, edits, preferred: false }];
}

/** .NET reads an attempts that is no 32-bit integer literal as 0 (TryGetInt32 fails; never measured). */
const DOTNET_READS_ZERO = 'and, by its code, .NET as 0';

/**
 * Who rejects a blank trace_id differs between empty and whitespace (facts part 2, §2; .NET from
 * part 1, read from its code). Consumers accept a meta without an id (part 2, §2): a blank one costs only the dedup key.
 */
function blankIdMessage(name: string, text: string): string {
  const what = text === '' ? 'empty' : 'only whitespace';
  if (name === 'meta.id') return `"meta.id" is ${what}; it must be a UUID, the message's idempotency and dedup key (consumers do not check it: they accept a meta without an id).`;
  if (text === '') return `"trace_id" is empty; it must be a UUID (the PHP (missing_trace_id), Python, Node, Go and Java consumers reject an empty one).`;
  return `"trace_id" is only whitespace; it must be a UUID (the Node, Go and Java consumers reject it, and .NET's code does too; PHP and Python accept it).`;
}

/** A non-negative integer near `value` to suggest in a message. */
/**
 * The integer literal a message suggests for a count written with a fraction or exponent: the
 * value truncated, or 0 beyond 2^53, where JavaScript prints it with an exponent (no integer
 * literal: the advice would draw this finding again) and no count is that large anyway.
 */
function integerExample(value: number): number {
  const truncated = Math.max(0, Math.trunc(value));
  return Number.isSafeInteger(truncated) ? truncated : 0;
}

function wrongTypeFixes({ valueAt }: FixContext): Fix[] {
  const value = valueAt();
  const key = value?.property?.key;
  if (!value || !key) return [];
  if (TIME_FIELDS.has(key)) return timeFieldFixes(value, key);
  const integerField = ['attempts', 'schema_version'].includes(key);
  // schema_version has one value: writing `2.0` or `"2"` as 2 would only trade this error for
  // unsupported-schema-version, so there the fix is offered for 1 alone (the message asks for 1).
  // A count is never negative: `-1.0` as -1 would only trade it for invalid-value.
  const writable = (integer: number) => (key === 'schema_version' ? integer === 1 : integer >= 0);
  if (integerField && value.kind === 'string' && /^\d+$/.test(value.value) && Number.isSafeInteger(Number(value.value)) && writable(Number(value.value))) {
    return [{ title: `Write "${key}" as the integer ${Number(value.value)}`, edits: [replaceValue(value, String(Number(value.value)))] }];
  }
  if (integerField && value.kind === 'number' && Number.isSafeInteger(value.value) && !Object.is(value.value, -0) && writable(value.value)) {
    return [{ title: `Write "${key}" as the integer literal ${value.value}`, edits: [replaceValue(value, String(value.value))] }];
  }
  if (key === 'data' && value.kind === 'array' && value.items.length === 0) {
    return [{ title: 'Replace the empty array with an empty object {}', edits: [replaceValue(value, '{}')] }];
  }
  return [];
}

/** The contract's times, integers of Unix milliseconds. */
const TIME_FIELDS = new Set(['created_at', 'failed_at']);

/**
 * A time written as a string or a non-integer literal, as the integer of milliseconds it means:
 * digits in seconds, micro- or nanoseconds and an RFC 3339 time are converted (as the integer in
 * the unit written, it would only trade this error for timestamp-unit's warning), and a value no
 * unit reads as a time between 1973 and 5138 (or a fraction of a millisecond) gets no fix.
 */
function timeFieldFixes(value: ValueNode, key: string): Fix[] {
  if (value.kind !== 'string' && value.kind !== 'number') return [];
  const milliseconds = decodeTimestampToMs(value);
  if (milliseconds === undefined) return [];
  const written = value.kind === 'string' ? value.value : value.raw;
  const unit = /^[0-9]+(\.[0-9]+)?$|^[0-9.]+[eE]/.test(written) ? unitOf(Number(written)) : 'an RFC 3339 time';
  // A fraction of a millisecond has no integer it means: which way to round is the author's call.
  if (unit === 'milliseconds' && milliseconds !== Number(written)) return [];
  const reading = unit === 'milliseconds' ? '' : ` (${unit} as milliseconds)`;
  return [{ title: `Write "${key}" as the integer ${milliseconds}${reading}`, edits: [replaceValue(value, String(milliseconds))] }];
}

/** The unit a number of that size is read in, as decodeTimestampToMs reads it. */
function unitOf(value: number): string {
  if (value < SECONDS_CEILING) return 'seconds';
  if (value <= MILLIS_CEILING) return 'milliseconds';
  return isMillisecondRange(Math.floor(value / 1e3)) ? 'microseconds' : 'nanoseconds';
}
