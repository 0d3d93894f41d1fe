/**
 * Each SDK consumer's verdict on exact body bytes: what its decode path and `accepts()` gate do
 * with them (facts part 2, §2, and part 1, §1.5). No SDK warns: a consumer accepts silently,
 * accepts while dropping or normalising something (a note says what), or rejects (a reason says
 * why; a crash of the decode path counts as a rejection). The .NET consumer was never measured,
 * so its verdict says so instead of guessing.
 */
import { GO_MAX_DEPTH } from '../encode/go';
import { JAVA_MAX_DEPTH } from '../encode/java';
import { literalAsIntN, literalFitsInt64 } from '../encode/numbers';
import { PHP_MAX_DEPTH } from '../encode/php';
import { PYTHON_MAX_DEPTH, PYTHON_MAX_INT_DIGITS } from '../encode/python';
import { isFalsy } from '../encode/node';
import { TYPED_FIELDS } from '../encode/relay';
import { firstLoneSurrogate } from '../encode/strings';
import { SDK_LABELS, SDK_NAMES, type SdkName } from '../encode/types';
import { forEachValueOutsidePlain } from '../encode/plain-subtree';
import { lastValue, maxDepth } from '../encode/writer';
import { parseJson } from '../parse/parser';
import { asObject, type ObjectNode, type ParsedDocument, type SyntaxProblem, type ValueNode } from '../model/tree';

export type VerdictKind = 'accepts' | 'accepts-with-note' | 'rejects' | 'not-measured';

/** Why a consumer rejects, or what it normalises; `path` is where in the envelope, when one place. */
export interface VerdictReason {
  readonly message: string;
  readonly path?: string;
  /** `decode`: the decoder itself fails (or crashes) on the bytes, before any gate looks at them. */
  readonly stage?: 'decode';
}

export interface ConsumerVerdict {
  readonly sdk: SdkName;
  readonly kind: VerdictKind;
  /** Rejections when `kind` is `rejects`, else the notes (empty for a plain accept). */
  readonly reasons: readonly VerdictReason[];
}

/** The six consumers' verdicts on a body, in the facts' column order. */
export function consumerVerdicts(body: string | ParsedDocument): ConsumerVerdict[] {
  const doc = typeof body === 'string' ? parseJson(body) : body;
  const facts = bodyFacts(doc);
  return SDK_NAMES.map((sdk) => {
    if (sdk === 'dotnet') return { sdk, kind: 'not-measured', reasons: [{ message: '.NET consumers were not measured (no .NET runtime was available).' }] };
    const verdict = new Verdict();
    CONSUMERS[sdk](facts, verdict);
    return { sdk, kind: verdict.kind(), reasons: verdict.reasons() };
  });
}

/** The consumers that reject, for a question or a message. */
export function rejecting(verdicts: readonly ConsumerVerdict[]): ConsumerVerdict[] {
  return verdicts.filter((verdict) => verdict.kind === 'rejects');
}

/** "Node (data is not an object), Go (…)" for the rejecting consumers. */
export function describeRejections(verdicts: readonly ConsumerVerdict[]): string {
  return rejecting(verdicts)
    .map((verdict) => `${SDK_LABELS[verdict.sdk]} (${verdict.reasons.map((reason) => reason.message).join('; ')})`)
    .join(', ');
}

/** One line per consumer: `Node    rejects: …`, for the preview. */
export function verdictLines(verdicts: readonly ConsumerVerdict[], indent = ''): string[] {
  return verdicts.map((verdict) => {
    const label = `${indent}${SDK_LABELS[verdict.sdk].padEnd(7)}`;
    const why = verdict.reasons.map((reason) => reason.message).join('; ');
    switch (verdict.kind) {
      case 'accepts':
        return `${label}accepts`;
      case 'accepts-with-note':
        return `${label}accepts, ${why}`;
      case 'rejects':
        return `${label}REJECTS: ${why}`;
      default:
        return `${label}not measured`;
    }
  });
}

class Verdict {
  private readonly rejections: VerdictReason[] = [];
  private readonly notes: VerdictReason[] = [];
  reject(message: string, path?: string): void {
    this.rejections.push(path === undefined ? { message } : { message, path });
  }
  failDecode(message: string, path?: string): void {
    this.rejections.push(path === undefined ? { message, stage: 'decode' } : { message, path, stage: 'decode' });
  }
  note(message: string, path?: string): void {
    this.notes.push(path === undefined ? { message } : { message, path });
  }
  kind(): VerdictKind {
    return this.rejections.length > 0 ? 'rejects' : this.notes.length > 0 ? 'accepts-with-note' : 'accepts';
  }
  reasons(): VerdictReason[] {
    return this.rejections.length > 0 ? this.rejections : this.notes;
  }
}

/** What the consumers' rules look at, read once from the parsed body. */
interface BodyFacts {
  readonly root: ObjectNode | undefined;
  readonly problems: readonly SyntaxProblem[];
  readonly depth: number;
  /** Any string value or key holding an unpaired surrogate (only an escape can write one). */
  readonly loneSurrogate: boolean;
  /** A number that overflows a double (`1e400`), anywhere, and inside `data`. */
  readonly infinite: boolean;
  readonly infiniteInData: boolean;
  /** An integer literal in data that a double reader writes back as other digits, and one beyond 64 bits. */
  readonly unsafeInteger: boolean;
  readonly beyondInt64: boolean;
  /** An integer literal longer than Python's 4,300-digit limit. */
  readonly hugeInteger: boolean;
}

/** True when a float64 reader writes this integer (its digits, without a sign) back as other digits. */
function respelledByDouble(digits: string): boolean {
  return digits.length > 309 || String(Number(digits)) !== digits.replace(/^0+(?=\d)/, '');
}

function bodyFacts(doc: ParsedDocument): BodyFacts {
  const root = asObject(doc.root);
  let loneSurrogate = false;
  let infinite = false;
  let unsafeInteger = false;
  let beyondInt64 = false;
  let hugeInteger = false;
  if (doc.root) {
    forEachValueOutsidePlain(doc.root, (node) => {
      if (node.kind === 'string') {
        if (!loneSurrogate && firstLoneSurrogate(node.value) !== undefined) loneSurrogate = true;
      } else if (node.kind === 'object') {
        for (const property of node.properties) if (!loneSurrogate && firstLoneSurrogate(property.key) !== undefined) loneSurrogate = true;
      } else if (node.kind === 'number') {
        if (!Number.isFinite(node.value)) infinite = true;
        if (node.isIntegerLiteral) {
          const digits = node.raw.replace(/^-/, '');
          if (digits.length > PYTHON_MAX_INT_DIGITS) hugeInteger = true;
          if (!literalFitsInt64(node.raw)) beyondInt64 = true;
        }
      }
    });
  }
  // Integers in data that Node and Go (float64 readers) round or write back with other digits.
  const dataValue = root && lastValue(root, 'data');
  if (dataValue) {
    forEachValueOutsidePlain(dataValue, (node) => {
      if (!unsafeInteger && node.kind === 'number' && node.isIntegerLiteral && node.raw.length >= 16 && respelledByDouble(node.raw.replace(/^-/, ''))) unsafeInteger = true;
    });
  }
  // Go converts every number below any data key (matched case-insensitively, duplicates too).
  let infiniteInData = false;
  if (infinite && root) {
    for (const property of root.properties) {
      if (property.key.toLowerCase() !== 'data' || !property.value) continue;
      forEachValueOutsidePlain(property.value, (node) => {
        if (node.kind === 'number' && !Number.isFinite(node.value)) infiniteInData = true;
      });
    }
  }
  return { root, problems: doc.syntaxProblems, infiniteInData, depth: doc.root ? maxDepth(doc.root) : 0, loneSurrogate, infinite, unsafeInteger, beyondInt64, hugeInteger };
}

/** Syntax problems some decoders tolerate (facts part 2, §2). */
const NON_FINITE_LITERAL = /^-?(?:NaN|Infinity) is not a JSON number/;
const RAW_TAB = /^Control character U\+0009 /;
const LEADING_ZERO = /^Invalid number '-?0\d/;

/** Rejects for each syntax problem the decoder does not tolerate; false when the body is unusable. */
function decodes(facts: BodyFacts, verdict: Verdict, tolerates: (problem: SyntaxProblem) => boolean): boolean {
  const fatal = facts.problems.find((problem) => !tolerates(problem));
  if (fatal) {
    verdict.failDecode(NON_FINITE_LITERAL.test(fatal.message) ? 'its decoder refuses a bare NaN or Infinity (not JSON)' : `the body is not JSON it can decode: ${fatal.message}`);
    return false;
  }
  if (!facts.root) {
    verdict.failDecode('the body is not a JSON object');
    return false;
  }
  return true;
}

type Consumer = (facts: BodyFacts, verdict: Verdict) => void;

const isString = (node: ValueNode | undefined): node is Extract<ValueNode, { kind: 'string' }> => node?.kind === 'string';
const isIntegerLiteral = (node: ValueNode | undefined) => node?.kind === 'number' && node.isIntegerLiteral;
/** Java's String.isBlank / Go's TrimSpace / JavaScript's trim: all of Unicode White_Space here. */
const blank = (value: string) => /^\p{White_Space}*$/u.test(value);

const CONSUMERS: Readonly<Record<Exclude<SdkName, 'dotnet'>, Consumer>> = {
  // EnvelopeCodec::decode (json_decode(…, true)) + accepts (EnvelopeValidator::check).
  php(facts, verdict) {
    if (!decodes(facts, verdict, () => false)) return;
    const root = facts.root!;
    if (facts.depth > PHP_MAX_DEPTH) return verdict.failDecode(`json_decode stops at ${PHP_MAX_DEPTH} levels and the body nests ${facts.depth}`);
    if (facts.loneSurrogate) return verdict.failDecode('json_decode refuses an unpaired surrogate escape (JSON_ERROR_UTF16)');
    // `job ?? urn`: an empty job does not fall back to the alias.
    const job = lastValue(root, 'job');
    const urn = job === undefined || job.kind === 'null' ? lastValue(root, 'urn') : job;
    if (!isString(urn) || urn.value === '') verdict.reject('missing_urn: job (or urn when job is absent) must be a non-empty string', 'job');
    const trace = lastValue(root, 'trace_id');
    if (!isString(trace) || trace.value === '') verdict.reject('missing_trace_id: trace_id must be a non-empty string', 'trace_id');
    const data = lastValue(root, 'data');
    if (data?.kind !== 'object' && data?.kind !== 'array') verdict.reject('invalid_data: data must be an object (a PHP array)', 'data');
    else if (data.kind === 'object' && data.properties.length === 0) verdict.note('reads {} as an empty PHP array, which it writes back as []', 'data');
    const meta = asObject(lastValue(root, 'meta'));
    if (!meta) verdict.reject('missing_meta: meta must be an object', 'meta');
    else {
      const version = lastValue(meta, 'schema_version');
      if (!isIntegerLiteral(version) || !literalFitsInt64((version as { raw: string }).raw) || Number((version as { raw: string }).raw) !== 1) {
        verdict.reject('unsupported_schema_version: meta.schema_version must be the integer 1', 'meta.schema_version');
      }
    }
    const attempts = lastValue(root, 'attempts');
    if (!isIntegerLiteral(attempts) || !literalFitsInt64((attempts as { raw: string }).raw)) verdict.reject('invalid_attempts: attempts must be an integer', 'attempts');
    if (facts.infinite) verdict.note('reads a number beyond the double range as INF, and re-encoding it throws');
    if (facts.beyondInt64) verdict.note('reads an integer beyond 64 bits as a float');
  },

  // EnvelopeCodec.decode(str) (json.loads) + accepts.
  python(facts, verdict) {
    if (!decodes(facts, verdict, (problem) => NON_FINITE_LITERAL.test(problem.message))) return;
    const root = facts.root!;
    if (facts.depth > PYTHON_MAX_DEPTH) return verdict.failDecode(`json.loads raises RecursionError on ${facts.depth} levels of nesting (the consumer crashes)`);
    if (facts.hugeInteger) return verdict.failDecode(`json.loads refuses an integer of more than ${PYTHON_MAX_INT_DIGITS} digits (ValueError)`);
    const job = lastValue(root, 'job');
    const jobSet = job !== undefined && job.kind !== 'null' && !(job.kind === 'string' && job.value === '');
    const urn = jobSet ? job : lastValue(root, 'urn');
    if (urn?.kind === 'number') verdict.note(`reads the number ${urn.raw} as the URN "${urn.raw}"`, 'job');
    else if (!isString(urn) || urn.value === '') verdict.reject('job (or urn) must be a non-empty string', 'job');
    const trace = lastValue(root, 'trace_id');
    if (!isString(trace) || trace.value === '') verdict.reject('trace_id must be a non-empty string', 'trace_id');
    if (lastValue(root, 'data')?.kind !== 'object') verdict.reject('data must be an object (a dict)', 'data');
    const meta = asObject(lastValue(root, 'meta'));
    if (!meta) verdict.reject('meta must be an object', 'meta');
    else {
      // A bool is an int in Python, and 1.0 == 1.
      const version = lastValue(meta, 'schema_version');
      const one = (version?.kind === 'number' && version.value === 1) || (version?.kind === 'boolean' && version.value);
      if (!one) verdict.reject('meta.schema_version must equal 1', 'meta.schema_version');
    }
    if (!isIntegerLiteral(lastValue(root, 'attempts'))) verdict.reject('attempts must be an integer', 'attempts');
    if (facts.infinite) verdict.note('reads NaN, Infinity or a number beyond the double range as a non-finite float, which it re-encodes as bare NaN or Infinity (not JSON)');
  },

  // EnvelopeCodec.decode (JSON.parse, urn copied into a falsy job) + accepts.
  node(facts, verdict) {
    if (!decodes(facts, verdict, () => false)) return;
    const root = facts.root!;
    let job = lastValue(root, 'job');
    const urn = lastValue(root, 'urn');
    if ((!job || isFalsy(job)) && isString(urn)) job = urn;
    if (!isString(job) || job.value.trim() === '') verdict.reject('job (or urn) must be a string that is not blank', 'job');
    const trace = lastValue(root, 'trace_id');
    if (!isString(trace) || trace.value.trim() === '') verdict.reject('trace_id must be a string that is not blank', 'trace_id');
    if (lastValue(root, 'data')?.kind !== 'object') verdict.reject('data must be an object', 'data');
    const meta = asObject(lastValue(root, 'meta'));
    if (!meta) verdict.reject('meta must be an object', 'meta');
    else {
      const version = lastValue(meta, 'schema_version');
      if (version?.kind !== 'number' || version.value !== 1) verdict.reject('meta.schema_version must be the number 1', 'meta.schema_version');
    }
    const attempts = lastValue(root, 'attempts');
    if (attempts?.kind !== 'number' || !Number.isInteger(attempts.value)) verdict.reject('attempts must be an integer number', 'attempts');
    if (facts.infinite) verdict.note('reads a number beyond the double range as Infinity, which it re-encodes as null');
    if (facts.unsafeInteger) verdict.note('reads integers in data beyond ±(2^53−1) as doubles, and writes them back rounded (9007199254740993 as 9007199254740992, 2^64 as 18446744073709552000)', 'data');
  },

  // Decode([]byte) (json.Unmarshal into the typed Envelope, case-insensitive keys) + Accepts.
  go(facts, verdict) {
    if (!decodes(facts, verdict, () => false)) return;
    const root = facts.root!;
    if (facts.depth > GO_MAX_DEPTH) return verdict.failDecode(`json.Unmarshal refuses nesting deeper than ${GO_MAX_DEPTH} levels`);
    // Unknown keys are skipped unread, so only data's map[string]any converts every number.
    if (facts.infiniteInData) return verdict.failDecode('json.Unmarshal fails on a number in data beyond the float64 range (cannot unmarshal number)', 'data');
    const field = (object: ObjectNode, name: string) => goLast(object, name);
    const decodeFailure = goDecodeFailure(root);
    if (decodeFailure) return verdict.failDecode(`json.Unmarshal fails: ${decodeFailure.message}`, decodeFailure.path);
    let job = field(root, 'job');
    let urn: string | undefined = isString(job) ? job.value : '';
    if (urn === '') {
      const alias = field(root, 'urn');
      urn = isString(alias) ? alias.value.trim() : '';
      job = alias;
    }
    if (urn === '') verdict.reject('job (or urn) must be a non-empty string', 'job');
    const trace = field(root, 'trace_id');
    if (!isString(trace) || trace.value.trim() === '') verdict.reject('trace_id must be a string that is not blank', 'trace_id');
    if (field(root, 'data')?.kind !== 'object') verdict.reject('data is missing or null', 'data');
    const meta = asObject(field(root, 'meta'));
    const version = meta ? field(meta, 'schema_version') : undefined;
    if (version?.kind !== 'number' || version.value !== 1) verdict.reject('meta.schema_version must be 1', 'meta.schema_version');
    if (field(root, 'attempts') === undefined) verdict.note('reads a missing attempts as 0', 'attempts');
    for (const property of root.properties) {
      const folded = property.key.toLowerCase();
      if (folded !== property.key && (TYPED_FIELDS.root.includes(folded) || folded === 'urn')) verdict.note(`reads the key "${property.key}" as ${folded} (it matches field names case-insensitively)`, folded);
    }
    if (droppedByTyped(root, true)) verdict.note('drops the keys its Envelope struct does not have');
    if (facts.unsafeInteger) verdict.note('reads integers in data beyond ±(2^53−1) as float64, and writes them back rounded', 'data');
    if (facts.loneSurrogate) verdict.note('replaces an unpaired surrogate escape with U+FFFD');
  },

  // EnvelopeCodec.decode(String) (its own lenient parser, Long/BigInteger/Double) + accepts.
  java(facts, verdict) {
    if (!decodes(facts, verdict, (problem) => RAW_TAB.test(problem.message) || LEADING_ZERO.test(problem.message))) return;
    const root = facts.root!;
    if (facts.depth > JAVA_MAX_DEPTH) return verdict.failDecode(`its recursive parser throws StackOverflowError on ${facts.depth} levels of nesting (the consumer crashes)`);
    let job = lastValue(root, 'job');
    if (job === undefined || job.kind === 'null' || (isString(job) && blank(job.value))) {
      const alias = lastValue(root, 'urn');
      if (alias !== undefined && alias.kind !== 'null') job = alias;
    }
    if (!isString(job) || blank(job.value)) verdict.reject('job (or urn) must be a string that is not blank', 'job');
    const trace = lastValue(root, 'trace_id');
    if (!isString(trace) || blank(trace.value)) verdict.reject('trace_id must be a string that is not blank', 'trace_id');
    if (lastValue(root, 'data')?.kind !== 'object') verdict.reject('data must be an object (it decodes to null)', 'data');
    const meta = asObject(lastValue(root, 'meta'));
    const version = meta ? lastValue(meta, 'schema_version') : undefined;
    if (version?.kind !== 'number' || javaIntValue(version.raw, version.isIntegerLiteral) !== 1n) verdict.reject('meta.schema_version must be 1 (as Number.intValue())', 'meta.schema_version');
    else if (!version.isIntegerLiteral || version.raw !== '1') verdict.note(`reads meta.schema_version ${version.raw} as ${javaIntValue(version.raw, version.isIntegerLiteral)} (intValue())`, 'meta.schema_version');
    const attempts = lastValue(root, 'attempts');
    if (attempts === undefined) verdict.note('reads a missing attempts as 0', 'attempts');
    else if (attempts.kind === 'number') {
      const value = javaIntValue(attempts.raw, attempts.isIntegerLiteral);
      if (value.toString() !== attempts.raw) verdict.note(`reads attempts ${attempts.raw} as ${value} (intValue())`, 'attempts');
    } else verdict.note(`does not read a ${attempts.kind} attempts as a count (measured: "0" is read as 0)`, 'attempts');
    if (droppedByTyped(root, false)) verdict.note('drops the keys its envelope model does not have');
    if (facts.infinite) verdict.note('reads a number beyond the double range as Infinity, and re-encoding it throws');
  },
};

/** The last value whose key encoding/json matches to `field` (case-insensitively). */
function goLast(object: ObjectNode, field: string): ValueNode | undefined {
  let found: ValueNode | undefined;
  for (const property of object.properties) if (property.value && property.key.toLowerCase() === field) found = property.value;
  return found;
}

/** The first typed field json.Unmarshal cannot fill (a type error fails the whole decode). */
function goDecodeFailure(root: ObjectNode): VerdictReason | undefined {
  const strings = ['job', 'trace_id'];
  const ints = ['attempts'];
  for (const property of root.properties) {
    const key = property.key.toLowerCase();
    const value = property.value;
    if (!value || value.kind === 'null') continue;
    if (strings.includes(key) && value.kind !== 'string') return { message: `${property.key} is a ${value.kind}, not a string`, path: key };
    if (ints.includes(key) && !goInteger(value)) return { message: `${property.key} ${value.kind === 'number' ? value.raw : `is a ${value.kind}`}: not an integer`, path: key };
    if (key === 'data' && value.kind !== 'object') return { message: `data is a${value.kind === 'array' ? 'n' : ''} ${value.kind}, not an object`, path: 'data' };
    if (key === 'meta') {
      if (value.kind !== 'object') return { message: 'meta is not an object', path: 'meta' };
      for (const inner of value.properties) {
        const name = inner.key.toLowerCase();
        const v = inner.value;
        if (!v || v.kind === 'null') continue;
        if (['id', 'queue', 'lang'].includes(name) && v.kind !== 'string') return { message: `meta.${inner.key} is not a string`, path: `meta.${name}` };
        if (['schema_version', 'created_at'].includes(name) && !goInteger(v)) return { message: `meta.${inner.key} ${v.kind === 'number' ? v.raw : `is a ${v.kind}`}: not an integer`, path: `meta.${name}` };
      }
    }
  }
  return undefined;
}

function goInteger(node: ValueNode): boolean {
  return node.kind === 'number' && node.isIntegerLiteral && literalFitsInt64(node.raw);
}

/** True when a typed SDK (Go: keys matched case-insensitively) drops a top-level or meta key. */
function droppedByTyped(root: ObjectNode, foldCase: boolean): boolean {
  const known = (fields: readonly string[], key: string) => fields.includes(foldCase ? key.toLowerCase() : key);
  for (const property of root.properties) {
    if (!known(TYPED_FIELDS.root, property.key) && !known(['urn'], property.key)) return true;
    const meta = property.key === 'meta' ? asObject(property.value) : undefined;
    if (meta) for (const inner of meta.properties) if (!known(TYPED_FIELDS.meta, inner.key)) return true;
  }
  return false;
}

/** Number.intValue() of a Long, BigInteger or Double as the Java parser reads the literal. */
function javaIntValue(raw: string, integerLiteral: boolean): bigint {
  if (integerLiteral) return literalAsIntN(32, raw);
  const x = Number(raw);
  if (Number.isNaN(x)) return 0n;
  if (x >= 2 ** 31) return 2n ** 31n - 1n;
  if (x <= -(2 ** 31)) return -(2n ** 31n);
  return BigInt(Math.trunc(x));
}
