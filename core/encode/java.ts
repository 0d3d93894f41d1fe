/**
 * Java core (`babelqueue-java` EnvelopeCodec + its hand-written Json writer): the relay parses
 * into LinkedHashMaps (integers as Long or BigInteger, fractions and exponents as Double), reads
 * the typed fields with `map.get` (`intValue()`/`longValue()` for numbers), and writes the fixed
 * field order; `data` keeps its insertion order (facts §3, §8). Unknown keys are dropped.
 */
import { asObject, type ObjectNode, type ValueNode } from '../model/tree';
import { jdk17DoubleToString } from './java-double';
import { formatJava19, integerText, literalAsIntN } from './numbers';
import { droppedKeys, noteDropped, noteDuplicates, noteIntegral, stringValue, TYPED_FIELDS, tooDeep, typedRepeats } from './relay';
import type { EscapeStyle } from './strings';
import { child, dedupe, dottedPath, finish, lastValue, Notes, type Out, type OutEntry, type SdkEncoder, type ValueModel } from './writer';

/**
 * The Json parser and writer recurse: on JDK 17 with the default 1 MB thread stack they throw
 * StackOverflowError near 3,400 levels (measured), so the preview stops at 3,000.
 */
export const JAVA_MAX_DEPTH = 3000;

const JAVA_STYLE: EscapeStyle = {
  shortBackspaceFormFeed: true,
  // String.format("\\u%04x") for the other controls: lowercase.
  upperHex: false,
  lineSeparators: false,
  dotnetBlockList: false,
  // Written as is, then String.getBytes(UTF_8) replaces the unpaired surrogate with '?'.
  loneSurrogate: 'question-mark',
};

/** Java's view of JSON values: exact Long/BigInteger integers, Double otherwise, insertion order. */
export const javaModel: ValueModel = {
  sdk: 'java',
  style: JAVA_STYLE,
  number(raw, isIntegerLiteral) {
    if (isIntegerLiteral) return { text: integerText(raw) };
    const x = Number(raw);
    if (!Number.isFinite(x)) return { error: `Java reads ${raw} as an infinite Double and its writer throws (Cannot encode non-finite number); the relay fails.` };
    return { text: jdk17DoubleToString(x), why: 'a Java Double is a float64' };
  },
  numberNote(raw, text) {
    if (!/[.eE]/.test(raw)) return undefined;
    const newer = formatJava19(Number(raw));
    return newer === text ? undefined : `${text} is Double.toString on JDK 17, which the Java SDK is built and run on; JDK 19+ writes ${newer} (shortest digits).`;
  },
  object: (node) => ({ kind: 'object', entries: dedupe(node) }),
  loneSurrogateError: () => 'unreachable: Java writes ? for lone surrogates',
  replacedSurrogateText: '? (String.getBytes(UTF_8) replaces an unpaired surrogate)',
};

/** Character.isWhitespace for every character: what String.isBlank() tests (not NBSP, U+2007, U+202F). */
export function isJavaBlank(value: string): boolean {
  return /^(?:(?![\u00a0\u2007\u202f])[\t\n\u000b\f\r\u001c-\u001f\p{Zs}\p{Zl}\p{Zp}])*$/u.test(value);
}

/**
 * The job EnvelopeCodec.decode reads: `job` when it is a string, else (also when it is blank) the
 * `urn` alias when that is a string, each its last copy; undefined when neither is a string.
 */
export function javaDecodedJob(root: ObjectNode): string | undefined {
  const job = lastValue(root, 'job');
  const text = job?.kind === 'string' ? job.value : undefined;
  if (text !== undefined && !isJavaBlank(text)) return text;
  const alias = lastValue(root, 'urn');
  return alias?.kind === 'string' ? alias.value : text;
}

/** Number.intValue() / longValue(): low bits of a Long or BigInteger, a saturating cast of a Double. */
export function javaIntegral(node: ValueNode | undefined, bits: 32 | 64): bigint {
  if (node?.kind !== 'number') return 0n;
  if (node.isIntegerLiteral) return literalAsIntN(bits, node.raw);
  const x = Number(node.raw);
  const max = 2n ** BigInt(bits - 1) - 1n;
  if (Number.isNaN(x)) return 0n;
  if (x >= 2 ** (bits - 1)) return max;
  if (x <= -(2 ** (bits - 1))) return -max - 1n;
  return BigInt(Math.trunc(x));
}

/** The fields a key fills as the model reads them (by exact key), the `urn` alias included. */
const TYPED_REPEATS = typedRepeats((scope, key) => (TYPED_FIELDS[scope].includes(key) || (scope === 'root' && key === 'urn') ? key : undefined));

/** What the Java SDK writes when it decodes this envelope and encodes it again. */
export const encodeJava: SdkEncoder = ({ root, depth }) => {
  const refused = tooDeep('java', depth, JAVA_MAX_DEPTH, `Java's Json parser recurses and throws StackOverflowError near 3,400 levels on JDK 17's default stack.`);
  if (refused) return refused;
  const notes = new Notes();
  noteDuplicates(root, notes, TYPED_REPEATS);

  // decode(): job unless null or blank, then the urn alias as is (not trimmed).
  let job = stringValue(lastValue(root, 'job'));
  if (job === undefined || isJavaBlank(job)) {
    const alias = stringValue(lastValue(root, 'urn'));
    if (alias !== undefined) {
      job = alias;
      notes.add('representation', 'Java resolves the inbound alias "urn" into "job" (as is, untrimmed) and does not write "urn", as the contract asks.', 'job');
    }
  }
  const data = asObject(lastValue(root, 'data'));
  const meta = asObject(lastValue(root, 'meta'));
  const deadLetter = asObject(lastValue(root, 'dead_letter'));
  const exact = (scope: 'root' | 'meta' | 'dead_letter', key: string) => (TYPED_FIELDS[scope].includes(key) ? key : undefined);
  noteDropped('java', droppedKeys(root, exact, (key) => key === 'urn', meta ? [meta] : [], deadLetter ? [deadLetter] : []), notes);
  if (!data) notes.add('contract', 'Java writes "data":null: data is absent or not an object (the contract says data is an object).', 'data');

  const integral = (object: ObjectNode, key: string, bits: 32 | 64, path: string): Out => {
    const node = lastValue(object, key);
    const value = javaIntegral(node, bits);
    noteIntegral('Java', node, value, bits === 32 ? 'int' : 'long', path, notes);
    return { kind: 'raw', text: value.toString() };
  };
  const text = (object: ObjectNode, key: string, path: string): Out => stringOrNull(stringValue(lastValue(object, key)), path);

  const entries: OutEntry[] = [
    { key: 'job', value: stringOrNull(job, 'job') },
    { key: 'trace_id', value: text(root, 'trace_id', 'trace_id') },
    { key: 'data', value: data ? { kind: 'node', node: data, path: child(undefined, 'data') } : { kind: 'raw', text: 'null' } },
    {
      key: 'meta',
      value: {
        kind: 'object',
        path: child(undefined, 'meta'),
        // A meta that is not an object decodes to null and is written as {}.
        entries: meta
          ? [
              { key: 'id', value: text(meta, 'id', 'meta.id') },
              { key: 'queue', value: text(meta, 'queue', 'meta.queue') },
              { key: 'lang', value: text(meta, 'lang', 'meta.lang') },
              { key: 'schema_version', value: integral(meta, 'schema_version', 32, 'meta.schema_version') },
              { key: 'created_at', value: integral(meta, 'created_at', 64, 'meta.created_at') },
            ]
          : [],
      },
    },
    { key: 'attempts', value: integral(root, 'attempts', 32, 'attempts') },
  ];
  if (deadLetter) {
    entries.push({
      key: 'dead_letter',
      value: {
        kind: 'object',
        path: child(undefined, 'dead_letter'),
        entries: [
          { key: 'reason', value: text(deadLetter, 'reason', 'dead_letter.reason') },
          { key: 'error', value: text(deadLetter, 'error', 'dead_letter.error') },
          { key: 'exception', value: text(deadLetter, 'exception', 'dead_letter.exception') },
          { key: 'failed_at', value: integral(deadLetter, 'failed_at', 64, 'dead_letter.failed_at') },
          { key: 'original_queue', value: text(deadLetter, 'original_queue', 'dead_letter.original_queue') },
          { key: 'attempts', value: integral(deadLetter, 'attempts', 32, 'dead_letter.attempts') },
          { key: 'lang', value: text(deadLetter, 'lang', 'dead_letter.lang') },
        ],
      },
    });
  }
  return finish({ kind: 'object', entries, path: undefined }, javaModel, notes);
};

function stringOrNull(value: string | undefined, path: string): Out {
  return value === undefined ? { kind: 'raw', text: 'null' } : { kind: 'string', value, path: dottedPath(path) };
}
