/**
 * Each SDK consumer's verdict on exact body bytes: what its decode path and `accepts()` gate do
 * with them (facts part 2, §2, and part 1, §1.5). No SDK warns: a consumer accepts silently,
 * accepts while dropping or normalising something (a note says what), or rejects (a reason says
 * why; a crash of the decode path counts as a rejection). The .NET consumer was never measured,
 * so its verdict says so instead of guessing.
 *
 * `accepts()` is not the whole story where an SDK's consume runtime does something else with what
 * it rejects (facts part 2, §2.1 and §5): a rejection then says that too (`runtime`).
 */
import { goDecodedObjects, goField, goFold, goJobVariantRoute, goLast, goObjectCopies, goRoute, goTrimSpace, GO_MAX_DEPTH } from '../encode/go';
import { dotnetDecodedJob } from '../encode/dotnet';
import { isJavaBlank, JAVA_MAX_DEPTH, javaDecodedJob } from '../encode/java';
import { literalAsIntN, literalFitsInt64 } from '../encode/numbers';
import { PHP_MAX_DEPTH } from '../encode/php';
import { PYTHON_MAX_DEPTH, PYTHON_MAX_INT_DIGITS, pythonStr, pythonTruthy } from '../encode/python';
import { isFalsy, NODE_MAX_DEPTH } from '../encode/node';
import { droppedKeys, TYPED_FIELDS } from '../encode/relay';
import { firstLoneSurrogate } from '../encode/strings';
import { SDK_LABELS, SDK_NAMES, type SdkName } from '../encode/types';
import { numberLiteral, shortened } from '../model/describe-value';
import { forEachValueOutsidePlain } from '../encode/plain-subtree';
import { lastValue, maxDepth } from '../encode/writer';
import { MAX_PROBLEMS, parseJson, PROBLEMS_TRUNCATED } from '../parse/parser';
import { digitGroups } from '../model/count-words';
import { asObject, type ObjectNode, type ParsedDocument, type SyntaxProblem, type ValueNode } from '../model/tree';

export type VerdictKind = 'accepts' | 'accepts-with-note' | 'rejects' | 'not-measured' | 'not-known';

/** Why a consumer rejects, or what it normalises; `path` is where in the envelope, when one place. */
export interface VerdictReason {
  readonly message: string;
  readonly path?: string;
  /** `decode`: the decoder itself fails (or crashes) on the bytes, before any gate looks at them. */
  readonly stage?: 'decode';
  /** The decode path throws out of the consumer (it crashes) rather than reporting a failure. */
  readonly crashes?: true;
}

export interface ConsumerVerdict {
  readonly sdk: SdkName;
  readonly kind: VerdictKind;
  /** Rejections when `kind` is `rejects`, what is not known when `not-known`, else the notes (empty for a plain accept). */
  readonly reasons: readonly VerdictReason[];
  /** For a rejection: what the SDK's own consume runtime does with the message, where the facts measured it. */
  readonly runtime?: string;
}

/**
 * A body known without parsing it back: the tree an encoder was given, when it wrote every token of
 * that tree as the tree holds it (core/message/build.ts says when), and the tree's depth.
 */
export interface WrittenBody {
  readonly kind: 'written';
  readonly root: ObjectNode;
  readonly depth: number;
}

/** The six consumers' verdicts on a body, in the facts' column order. */
export function consumerVerdicts(body: string | ParsedDocument | WrittenBody): ConsumerVerdict[] {
  const facts = bodyFacts(typeof body === 'string' ? parseJson(body) : body);
  return SDK_NAMES.map((sdk) => {
    if (sdk === 'dotnet') return { sdk, kind: 'not-measured', reasons: [{ message: '.NET consumers were not measured (no .NET runtime was available).' }] };
    const verdict = new Verdict();
    CONSUMERS[sdk](facts, verdict);
    const kind = verdict.kind();
    const reasons = verdict.reasons();
    const runtime = kind === 'rejects' ? RUNTIMES[sdk]?.(facts, reasons) : undefined;
    return { sdk, kind, reasons, ...(runtime ? { runtime } : {}) };
  });
}

/** A rejection's reasons, and what the SDK's runtime does with the message when the facts say. */
function rejectionText(verdict: ConsumerVerdict): string {
  const why = verdict.reasons.map((reason) => reason.message).join('; ');
  return verdict.runtime ? `${why}; ${verdict.runtime}` : why;
}

/**
 * What each SDK's consume runtime does with a message its `accepts()` rejects (facts part 2, §2.1,
 * §3.1 and §5). Go's App and Python's BabelQueue dead-letter only when told to (WithDeadLetter,
 * dead_letter=True); Node's consumers do by default. PHP's dispatcher leaves it to the transport and Java ships no runtime, so they have
 * no entry; Python and Go never call `accepts()`.
 */
const RUNTIMES: Partial<Record<SdkName, (facts: BodyFacts, reasons: readonly VerdictReason[]) => string | undefined>> = {
  python(facts, reasons) {
    if (reasons.some((reason) => reason.crashes)) return undefined;
    if (reasons.some((reason) => reason.stage === 'decode')) return 'its BabelQueue runtime reads an undecodable body as {}: the retry republishes {"attempts":1}, then the DLQ gets {"attempts":3, "dead_letter":…} where dead-lettering is on, and nothing where it is off (the default): the body is lost';
    if (!hasHandlerUrn(pythonRoute(facts.root!))) return undefined;
    const emptyList = lastValue(facts.root!, 'data')?.kind === 'array' && (lastValue(facts.root!, 'data') as { items: unknown[] }).items.length === 0;
    return `its BabelQueue runtime never calls accepts() and runs the URN's handler all the same${emptyList ? ', with data {}' : ''}`;
  },
  go(facts, reasons) {
    if (reasons.some((reason) => reason.stage === 'decode')) return "Go's App decodes it to the zero envelope, retries that, then dead-letters it as unknown_urn where dead-lettering is on, and drops it where it is off (the default): the original bytes are lost";
    if (!hasHandlerUrn(goRoute(facts.root!))) return undefined;
    return "Go's App never calls Accepts and runs the URN's handler all the same";
  },
  node: () => 'its Redis and RabbitMQ consumers move the raw body, without a dead_letter block, to <queue>.dlq (on RabbitMQ only if that queue exists)',
};

/** Whether a runtime routing on `urn` can find a handler: a URN is a string that is not blank. */
function hasHandlerUrn(urn: ValueNode | string | undefined): boolean {
  const text = typeof urn === 'string' ? urn : isString(urn) ? urn.value : '';
  return /\S/u.test(text);
}

/** What Python's BabelQueue.dispatch and urn() read: `job or urn`, the first truthy of the two (each its last copy). */
export function pythonRoute(root: ObjectNode): ValueNode | undefined {
  const job = lastValue(root, 'job');
  if (pythonTruthy(job)) return job;
  const alias = lastValue(root, 'urn');
  return pythonTruthy(alias) ? alias : undefined;
}

/** What PHP's decode reads as the URN: `job ?? urn`, each its last copy (an empty job does not fall back). */
function phpRoute(root: ObjectNode): ValueNode | undefined {
  const job = lastValue(root, 'job');
  return job === undefined || job.kind === 'null' ? lastValue(root, 'urn') : job;
}

/** What Node's decode reads as job: the last copy, or the `urn` alias copied in when job is falsy and the alias a string. */
export function nodeRoute(root: ObjectNode): ValueNode | undefined {
  const job = lastValue(root, 'job');
  const urn = lastValue(root, 'urn');
  return (!job || isFalsy(job)) && isString(urn) ? urn : job;
}

/**
 * The URN the SDK's decoder reads from an envelope, as text: the last copy of `job`, and the `urn`
 * alias where that SDK falls back to it (PHP on a missing or null job, Python and Node on a falsy
 * one, Go on "", Java and .NET on one that is no string or blank). Python's str() of a number or a
 * boolean counts; undefined when the decoder reads no URN it can name.
 */
export function decodedUrn(root: ObjectNode, sdk: SdkName): string | undefined {
  switch (sdk) {
    case 'php':
      return stringText(phpRoute(root));
    case 'python': {
      const route = pythonRoute(root);
      return route?.kind === 'string' ? route.value : route && pythonStr(route);
    }
    case 'node':
      return stringText(nodeRoute(root));
    case 'go':
      return goRoute(root) || undefined;
    case 'java':
      return javaDecodedJob(root);
    case 'dotnet':
      return dotnetDecodedJob(root);
  }
}

const stringText = (node: ValueNode | undefined): string | undefined => (node?.kind === 'string' ? node.value : undefined);

/** The consumers that reject, for a question or a message. */
export function rejecting(verdicts: readonly ConsumerVerdict[]): ConsumerVerdict[] {
  return verdicts.filter((verdict) => verdict.kind === 'rejects');
}

/** "Node (data is not an object; its consumers move the raw body …), Go (…)" for the rejecting consumers. */
export function describeRejections(verdicts: readonly ConsumerVerdict[]): string {
  return rejecting(verdicts)
    .map((verdict) => `${SDK_LABELS[verdict.sdk]} (${rejectionText(verdict)})`)
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
        return `${label}REJECTS: ${rejectionText(verdict)}`;
      case 'not-known':
        return `${label}${why}`;
      default:
        return `${label}not measured`;
    }
  });
}

class Verdict {
  private readonly rejections: VerdictReason[] = [];
  private readonly unknowns: VerdictReason[] = [];
  private readonly notes: VerdictReason[] = [];
  reject(message: string, path?: string): void {
    this.rejections.push(path === undefined ? { message } : { message, path });
  }
  failDecode(message: string, path?: string, crashes?: true): void {
    this.rejections.push({ message, ...(path === undefined ? {} : { path }), stage: 'decode', ...(crashes ? { crashes } : {}) });
  }
  note(message: string, path?: string): void {
    this.notes.push(path === undefined ? { message } : { message, path });
  }
  /** What decides the verdict is not known (past the parser's bound on listed problems). */
  unknown(message: string): void {
    this.unknowns.push({ message, stage: 'decode' });
  }
  kind(): VerdictKind {
    return this.rejections.length > 0 ? 'rejects' : this.unknowns.length > 0 ? 'not-known' : this.notes.length > 0 ? 'accepts-with-note' : 'accepts';
  }
  reasons(): VerdictReason[] {
    return this.rejections.length > 0 ? this.rejections : this.unknowns.length > 0 ? this.unknowns : this.notes;
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

function bodyFacts(body: ParsedDocument | WrittenBody): BodyFacts {
  const written = (body as Partial<WrittenBody>).kind === 'written' ? (body as WrittenBody) : undefined;
  // What the encoder wrote from a document without syntax problems, token by token, has none.
  const doc = { root: body.root, syntaxProblems: written ? [] : (body as ParsedDocument).syntaxProblems };
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
      if (goFold(property.key) !== 'data' || !property.value) continue;
      forEachValueOutsidePlain(property.value, (node) => {
        if (node.kind === 'number' && !Number.isFinite(node.value)) infiniteInData = true;
      });
    }
  }
  return { root, problems: doc.syntaxProblems, infiniteInData, depth: written ? written.depth : doc.root ? maxDepth(doc.root) : 0, loneSurrogate, infinite, unsafeInteger, beyondInt64, hugeInteger };
}

/** Syntax problems some decoders tolerate (facts part 2, §2). */
const NON_FINITE_LITERAL = /^-?(?:NaN|Infinity) is not a JSON number/;
const RAW_TAB = /^Control character U\+0009 /;
const LEADING_ZERO = /^Invalid number '-?0\d/;

/** The syntax problems each consumer's decoder reads past (facts part 2, §2): Python's bare NaN and Infinity, Java's raw tab and leading zero. */
const TOLERATES: Readonly<Record<Exclude<SdkName, 'dotnet'>, readonly RegExp[]>> = {
  php: [],
  python: [NON_FINITE_LITERAL],
  node: [],
  go: [],
  java: [RAW_TAB, LEADING_ZERO],
};

/** How a decoder fares on one syntax problem: it reads past it, refuses the body for it, or (past the parser's bound) it is not known. */
type DecodeOutcome = { readonly kind: 'reads-past' } | { readonly kind: 'refuses'; readonly why: string } | { readonly kind: 'unknown'; readonly why: string };

/** The parser lists a text's syntax problems up to a bound, which is this tool's, not any SDK's. */
const LISTING_CUT = `the listing of the body's syntax problems was cut at ${digitGroups(MAX_PROBLEMS)}, this tool's bound (not the SDK's)`;

function decodeOutcome(sdk: Exclude<SdkName, 'dotnet'>, problem: SyntaxProblem): DecodeOutcome {
  const tolerated = TOLERATES[sdk];
  if (problem.message === PROBLEMS_TRUNCATED) {
    // The problems past the bound are not listed; what the parser noted of them decides.
    const readsNonFinite = tolerated.includes(NON_FINITE_LITERAL);
    if (problem.unlistedAllNonFinite) return readsNonFinite ? { kind: 'reads-past' } : { kind: 'refuses', why: NON_FINITE_REFUSAL };
    if (tolerated.every((pattern) => pattern === NON_FINITE_LITERAL)) {
      return { kind: 'refuses', why: `the body is not JSON it can decode: ${LISTING_CUT}, and past it the body holds a syntax problem other than a bare NaN or Infinity` };
    }
    return { kind: 'unknown', why: `whether its decoder reads the body is not known: ${LISTING_CUT}, and the problems past it are not all bare NaN or Infinity` };
  }
  if (tolerated.some((pattern) => pattern.test(problem.message))) return { kind: 'reads-past' };
  return { kind: 'refuses', why: NON_FINITE_LITERAL.test(problem.message) ? NON_FINITE_REFUSAL : `the body is not JSON it can decode: ${problem.message}` };
}

const NON_FINITE_REFUSAL = 'its decoder refuses a bare NaN or Infinity (not JSON)';

/**
 * Why this SDK's consumer cannot decode a body with this syntax problem, or undefined when its
 * decoder reads past it (or, past the parser's bound, it is not known; and for .NET, never
 * measured). A body fails on its first such problem; this lets a caller name each of them at its own place.
 */
export function decodeRefusal(sdk: SdkName, problem: SyntaxProblem): string | undefined {
  if (sdk === 'dotnet') return undefined;
  const outcome = decodeOutcome(sdk, problem);
  return outcome.kind === 'refuses' ? outcome.why : undefined;
}

/** Rejects for the first syntax problem the decoder does not tolerate; false when the body is unusable (or its decode not known). */
function decodes(facts: BodyFacts, verdict: Verdict, sdk: Exclude<SdkName, 'dotnet'>): boolean {
  for (const problem of facts.problems) {
    const outcome = decodeOutcome(sdk, problem);
    if (outcome.kind === 'reads-past') continue;
    if (outcome.kind === 'unknown') verdict.unknown(outcome.why);
    else verdict.failDecode(outcome.why);
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

const CONSUMERS: Readonly<Record<Exclude<SdkName, 'dotnet'>, Consumer>> = {
  // EnvelopeCodec::decode (json_decode(…, true)) + accepts (EnvelopeValidator::check).
  php(facts, verdict) {
    if (!decodes(facts, verdict, 'php')) return;
    const root = facts.root!;
    if (facts.depth > PHP_MAX_DEPTH) return verdict.failDecode(`json_decode reads at most ${PHP_MAX_DEPTH} nested arrays and objects (its default depth of 512) and the body nests ${facts.depth}`);
    if (facts.loneSurrogate) return verdict.failDecode('json_decode refuses an unpaired surrogate escape (JSON_ERROR_UTF16)');
    // `job ?? urn`: an empty job does not fall back to the alias.
    const urn = phpRoute(root);
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
    if (!decodes(facts, verdict, 'python')) return;
    const root = facts.root!;
    if (facts.depth > PYTHON_MAX_DEPTH) return verdict.failDecode(`json.loads raises RecursionError on ${facts.depth} levels of nesting (the consumer crashes)`, undefined, true);
    if (facts.hugeInteger) return verdict.failDecode(`json.loads refuses an integer of more than ${PYTHON_MAX_INT_DIGITS} digits (ValueError)`);
    // urn() is str(job or urn or ""): the first truthy of the two, whatever its type.
    const urn = pythonRoute(root);
    const where = urn === lastValue(root, 'job') ? 'job' : 'urn';
    if (!urn) verdict.reject('job (or urn) must be a non-empty string', 'job');
    else if (urn.kind !== 'string') {
      const text = pythonStr(urn);
      const what = urn.kind === 'number' ? `the number ${urn.raw}` : urn.kind === 'boolean' ? String(urn.value) : `the ${urn.kind}`;
      verdict.note(`reads ${what} in ${where} as the URN ${text === undefined ? `str() writes for it (Python's repr of a ${urn.kind === 'array' ? 'list' : 'dict'})` : JSON.stringify(text)}`, 'job');
    }
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
    if (!decodes(facts, verdict, 'node')) return;
    const root = facts.root!;
    const job = nodeRoute(root);
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
    // JSON.parse is iterative, JSON.stringify recursive: the read succeeds, a retry or dead letter does not.
    if (facts.depth > NODE_MAX_DEPTH) verdict.note(`reads ${facts.depth} levels of nesting, but re-encoding it (a retry, a dead letter) throws RangeError: JSON.stringify recurses, near 4,170 levels with Node 20's default stack`);
    if (facts.unsafeInteger) verdict.note('reads integers in data beyond ±(2^53−1) as doubles, and writes them back rounded (9007199254740993 as 9007199254740992, 2^64 as 18446744073709552000)', 'data');
  },

  // Decode([]byte) (json.Unmarshal into the typed Envelope, case-insensitive keys) + Accepts.
  go(facts, verdict) {
    if (!decodes(facts, verdict, 'go')) return;
    const root = facts.root!;
    if (facts.depth > GO_MAX_DEPTH) return verdict.failDecode(`json.Unmarshal refuses nesting deeper than ${GO_MAX_DEPTH} levels`);
    // Unknown keys are skipped unread, so only data's map[string]any converts every number.
    if (facts.infiniteInData) return verdict.failDecode('json.Unmarshal fails on a number in data beyond the float64 range (cannot unmarshal number)', 'data');
    const field = (name: string) => goLast(root, 'root', name);
    const decodeFailure = goDecodeFailure(root);
    if (decodeFailure) return verdict.failDecode(`json.Unmarshal fails: ${decodeFailure.message}`, decodeFailure.path);
    // Job as decoded (untrimmed); only an empty one falls back to the alias, which is trimmed.
    if (goRoute(root) === '') verdict.reject('job (or urn) must be a non-empty string', 'job');
    const trace = field('trace_id');
    if (!isString(trace) || goTrimSpace(trace.value) === '') verdict.reject('trace_id must be a string that is not blank', 'trace_id');
    if (field('data')?.kind !== 'object') verdict.reject('data is missing or null', 'data');
    // Every meta object is decoded into the one Meta struct, so a later one adds to the one before.
    const version = goLast(goDecodedObjects(root, 'meta'), 'meta', 'schema_version');
    if (version?.kind !== 'number' || version.value !== 1) verdict.reject('meta.schema_version must be 1', 'meta.schema_version');
    if (field('attempts') === undefined) verdict.note(`reads a ${root.properties.some((property) => goFold(property.key) === 'attempts') ? 'null' : 'missing'} attempts as 0`, 'attempts');
    const goJob = field('job');
    for (const property of root.properties) {
      const folded = goFold(property.key);
      if (folded !== property.key && (TYPED_FIELDS.root.includes(folded) || folded === 'urn')) verdict.note(`reads the key "${property.key}" as ${folded} (it matches field names case-insensitively)${folded === 'job' ? goJobVariantRoute(root, property, '', goJob) : ''}`, folded);
    }
    const goDropped = droppedKeys(root, goField, (key) => goFold(key) === 'urn', goObjectCopies(root, 'meta'), goObjectCopies(root, 'dead_letter'));
    if (goDropped.length > 0) verdict.note(`drops the keys its Envelope struct does not have: ${keyList(goDropped.map((key) => key.path))}`);
    for (const block of ['data', 'meta', 'dead_letter'] as const) {
      const merged = goDecodedObjects(root, block).length;
      if (merged > 1) verdict.note(`merges the ${merged} ${block} objects into one (the keys of each, the last value of a repeated key), where the other SDKs keep the last ${block}`, block);
    }
    if (facts.unsafeInteger) verdict.note('reads integers in data beyond ±(2^53−1) as float64, and writes them back rounded', 'data');
    if (facts.loneSurrogate) verdict.note('replaces an unpaired surrogate escape with U+FFFD');
  },

  // EnvelopeCodec.decode(String) (its own lenient parser, Long/BigInteger/Double) + accepts.
  java(facts, verdict) {
    if (!decodes(facts, verdict, 'java')) return;
    const root = facts.root!;
    if (facts.depth > JAVA_MAX_DEPTH) return verdict.failDecode(`its recursive parser throws StackOverflowError on ${facts.depth} levels of nesting (the consumer crashes)`, undefined, true);
    // decode(): asString(job), null for anything but a string; when null or isBlank(), the alias if
    // it is a string, as is. accepts(): urn() is job.strip(), empty exactly when job isBlank().
    const job = javaDecodedJob(root);
    if (job === undefined || isJavaBlank(job)) verdict.reject('job (or urn) must be a string that is not blank', 'job');
    const trace = lastValue(root, 'trace_id');
    if (!isString(trace) || isJavaBlank(trace.value)) verdict.reject('trace_id must be a string that is not blank', 'trace_id');
    if (lastValue(root, 'data')?.kind !== 'object') verdict.reject('data must be an object (it decodes to null)', 'data');
    const meta = asObject(lastValue(root, 'meta'));
    const version = meta ? lastValue(meta, 'schema_version') : undefined;
    if (version?.kind !== 'number' || javaIntValue(version.raw, version.isIntegerLiteral) !== 1n) verdict.reject('meta.schema_version must be 1 (as Number.intValue())', 'meta.schema_version');
    // 1.0 and 1e0 are the number 1 (facts: plain A); 1.5 and 4294967297 are read as 1 all the same.
    else if (version.value !== 1) verdict.note(`reads meta.schema_version ${numberLiteral(version.raw)} as ${javaIntValue(version.raw, version.isIntegerLiteral)} (intValue())`, 'meta.schema_version');
    const attempts = lastValue(root, 'attempts');
    if (attempts === undefined) verdict.note('reads a missing attempts as 0', 'attempts');
    else if (attempts.kind === 'number') {
      const value = javaIntValue(attempts.raw, attempts.isIntegerLiteral);
      if (value.toString() !== attempts.raw) verdict.note(`reads attempts ${attempts.raw} as ${value} (intValue())`, 'attempts');
    } else verdict.note(`does not read a ${attempts.kind} attempts as a count (measured: "0" is read as 0)`, 'attempts');
    const exact = (scope: 'root' | 'meta' | 'dead_letter', key: string) => (TYPED_FIELDS[scope].includes(key) ? key : undefined);
    const lastObject = (key: string) => {
      const value = asObject(lastValue(root, key));
      return value ? [value] : [];
    };
    const javaDropped = droppedKeys(root, exact, (key) => key === 'urn', lastObject('meta'), lastObject('dead_letter'));
    if (javaDropped.length > 0) verdict.note(`drops the keys its envelope model does not have: ${keyList(javaDropped.map((key) => key.path))}`);
    if (facts.infinite) verdict.note('reads a number beyond the double range as Infinity, and re-encoding it throws');
  },
};

/** The first typed field json.Unmarshal cannot fill (a type error fails the whole decode). */
function goDecodeFailure(root: ObjectNode): VerdictReason | undefined {
  const strings = ['job', 'trace_id'];
  const ints = ['attempts'];
  for (const property of root.properties) {
    const key = goFold(property.key);
    const value = property.value;
    if (!value || value.kind === 'null') continue;
    if (strings.includes(key) && value.kind !== 'string') return { message: `${property.key} is a ${value.kind}, not a string`, path: key };
    if (ints.includes(key) && !goInteger(value)) return { message: `${property.key} ${value.kind === 'number' ? numberLiteral(value.raw) : `is a ${value.kind}`}: not an integer`, path: key };
    if (key === 'data' && value.kind !== 'object') return { message: `data is a${value.kind === 'array' ? 'n' : ''} ${value.kind}, not an object`, path: 'data' };
    const typed = key === 'meta' ? GO_META : key === 'dead_letter' ? GO_DEAD_LETTER : undefined;
    if (typed) {
      if (value.kind !== 'object') return { message: `${key} is not an object`, path: key };
      for (const inner of value.properties) {
        const name = goFold(inner.key);
        const v = inner.value;
        if (!v || v.kind === 'null') continue;
        if (typed.strings.includes(name) && v.kind !== 'string') return { message: `${key}.${inner.key} is not a string`, path: `${key}.${name}` };
        if (typed.ints.includes(name) && !goInteger(v)) return { message: `${key}.${inner.key} ${v.kind === 'number' ? numberLiteral(v.raw) : `is a ${v.kind}`}: not an integer`, path: `${key}.${name}` };
      }
    }
  }
  return undefined;
}

/** The typed fields of Go's Meta and DeadLetter structs (string or *string, int or int64); the others are skipped unread. */
const GO_META = { strings: ['id', 'queue', 'lang'], ints: ['schema_version', 'created_at'] };
const GO_DEAD_LETTER = { strings: ['reason', 'error', 'exception', 'original_queue', 'lang'], ints: ['failed_at', 'attempts'] };

function goInteger(node: ValueNode): boolean {
  return node.kind === 'number' && node.isIntegerLiteral && literalFitsInt64(node.raw);
}

/** `timestamp, meta.ts` (at most five named, each shortened as a message quotes a key). */
function keyList(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).map((path) => shortened(path)).join(', ');
  return paths.length > 5 ? `${shown} and ${paths.length - 5} more` : shown;
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
