/**
 * Go (`babelqueue-go` envelope.go, Go 1.19 as measured): the relay is `json.Unmarshal` into the
 * typed `Envelope` struct (fixed field order; `data` is `map[string]any`, so its numbers are
 * float64 and its keys come out sorted), then a `json.Encoder` with SetEscapeHTML(false) and the
 * trailing newline stripped (facts §3, §8). Unknown keys are dropped; `urn` becomes `job`.
 */
import type { EnvelopeScope } from '../contract/envelope';
import { forEachValue, type ObjectNode, type PropertyNode, type ValueNode } from '../model/tree';
import { trimEnds } from '../model/trim-ends';
import { literal, numberLiteral } from '../model/describe-value';
import { formatGo, literalFitsInt64 } from './numbers';
import { droppedKeys, noteDropped, noteDuplicates, TYPED_FIELDS, tooDeep, type RepeatedKeys } from './relay';
import type { EscapeStyle } from './strings';
import { child, dottedPath, finish, lastValue, Notes, type Entry, type Out, type OutEntry, type SdkEncoder, type ValueModel } from './writer';

/** encoding/json's scanner refuses nesting deeper than 10,000 ("exceeded max depth"). */
export const GO_MAX_DEPTH = 10000;

const GO_STYLE: EscapeStyle = {
  // Go before 1.22 writes \b and \f as \u0008 and \u000c (verified on 1.19, facts §8).
  shortBackspaceFormFeed: false,
  upperHex: false,
  lineSeparators: true,
  dotnetBlockList: false,
  // The decoder already turned a lone surrogate escape into U+FFFD, which is written as is.
  loneSurrogate: 'replacement-char',
};

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A decoded Go string: every unpaired surrogate escape becomes U+FFFD (encoding/json unquote). */
export function goString(value: string): string {
  return value.replace(LONE_SURROGATE, '\ufffd');
}

/** Orders strings as Go's sort does on UTF-8 bytes, i.e. by code point. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (non-BMP code points) sort after every BMP code unit in UTF-8 order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Go's view of JSON values inside `data`: float64 numbers, maps written with sorted keys. */
export const goModel: ValueModel = {
  sdk: 'go',
  style: GO_STYLE,
  number(raw) {
    const x = Number(raw);
    if (!Number.isFinite(x)) return { error: `Go's decoder fails: json: cannot unmarshal number ${numberLiteral(raw)} into Go value of type float64; the relay gets no envelope.` };
    return { text: formatGo(x), why: 'Go decodes data numbers into float64' };
  },
  object(node) {
    // map[string]any: the last duplicate wins; json.Marshal sorts map keys.
    const byKey = new Map<string, Entry>();
    for (const property of node.properties) if (property.value) byKey.set(goString(property.key), { key: goString(property.key), value: property.value });
    return { kind: 'object', entries: [...byKey.values()].sort((a, b) => compareCodePoints(a.key, b.key)) };
  },
  sortsKeys: true,
  escapeRemark: (char) => (char === '\b' || char === '\f' ? 'Go 1.19 as measured; Go 1.22 and later write \\b and \\f' : undefined),
  loneSurrogateError: () => 'unreachable: Go replaces lone surrogates',
  replacedSurrogateText: 'U+FFFD (Go decodes an unpaired surrogate escape as the replacement character)',
};

/**
 * The struct field a key fills: an exact match, else encoding/json's case-insensitive one
 * (ASCII letters fold, and U+017F and U+212A fold to s and k).
 */
export function goField(scope: EnvelopeScope, key: string): string | undefined {
  const fields = TYPED_FIELDS[scope];
  if (fields.includes(key)) return key;
  const folded = goFold(key);
  return fields.includes(folded) ? folded : undefined;
}

/**
 * The fields a JSON null empties: the `data` map and the pointers (`dead_letter`, its `error` and
 * `exception`). encoding/json leaves every other field (a string, an int, the Meta struct) as it
 * was, so `"job":"a","job":null` decodes to Job "a".
 */
const NULL_EMPTIES: Readonly<Record<EnvelopeScope, readonly string[]>> = { root: ['data', 'dead_letter'], meta: [], dead_letter: ['error', 'exception'] };

/** True when a JSON null sets this Go field to nil; false when it leaves the field as it was. */
export function goNullEmpties(scope: EnvelopeScope, field: string): boolean {
  return NULL_EMPTIES[scope].includes(field);
}

/**
 * The JSON value a typed Go field holds once json.Unmarshal has read every key that fills it, in
 * order (matched case-insensitively; across each object decoded into the same struct, as repeated
 * `meta` objects are): the last one, a null skipped where it leaves the field as it was.
 */
export function goLast(objects: ObjectNode | readonly ObjectNode[], scope: EnvelopeScope, field: string): ValueNode | undefined {
  const emptiedByNull = goNullEmpties(scope, field);
  let found: ValueNode | undefined;
  for (const object of 'properties' in objects ? [objects] : objects) {
    for (const property of object.properties) {
      const value = property.value;
      if (!value || goField(scope, property.key) !== field) continue;
      if (value.kind === 'null' && !emptiedByNull) continue;
      found = value;
    }
  }
  return found;
}

/** The kind of one copy's value, as far as json.Unmarshal's handling of a repeated key depends on it. */
export type CopyKind = 'object' | 'null' | 'other';

/** What json.Unmarshal makes of every copy of one key repeated in an object it decodes. */
export interface GoRepeat {
  /** How many objects it decodes into the one map or struct (2 or more: they merge, key by key). */
  readonly merged: number;
  /** True when the last copy is a null that leaves the field as an earlier copy set it. */
  readonly keepsEarlier: boolean;
}

/**
 * What Go's decoder makes of the copies of a key (in document order) that fills `field` in
 * `scope`: `data` and `dead_letter` objects decode into the map or struct an earlier object made
 * since their last null, `meta` objects into the one Meta struct whatever comes between, and a
 * null that sets nothing (see `goNullEmpties`) leaves what an earlier copy set. Undefined `field`
 * (a key Go skips, or one inside data, a map): the last copy is what it keeps.
 */
export function goRepeat(scope: EnvelopeScope, field: string | undefined, copies: readonly CopyKind[]): GoRepeat {
  if (field === undefined) return { merged: 0, keepsEarlier: false };
  const emptiedByNull = goNullEmpties(scope, field);
  const isStruct = scope === 'root' && (field === 'data' || field === 'meta' || field === 'dead_letter');
  let merged = 0;
  let setBefore = false;
  let keepsEarlier = false;
  for (const copy of copies) {
    if (copy === 'null' && !emptiedByNull) {
      keepsEarlier = setBefore;
      continue;
    }
    keepsEarlier = false;
    setBefore = copy !== 'null';
    if (copy === 'object' && isStruct) merged++;
    else merged = 0;
  }
  return { merged, keepsEarlier };
}

/** A value's kind as `goRepeat` needs it. */
export function copyKind(value: ValueNode | undefined): CopyKind {
  return value?.kind === 'object' ? 'object' : value?.kind === 'null' ? 'null' : 'other';
}

/** What Go's relay bytes show of a repeated key (`goRepeat`); inside data, a map, the last value (its keys are written sorted). */
const GO_REPEATS: RepeatedKeys = {
  field: (scope, key) => goField(scope, key) ?? (scope === 'root' && isGoAlias(key) ? 'urn' : undefined),
  kept(scope, field, copies) {
    if (scope === undefined) return 'the last value is kept';
    const go = goRepeat(scope, field, copies.map(copyKind));
    if (go.merged > 1) return `Go decodes the ${go.merged} objects into one, key by key${go.keepsEarlier ? ', and the null after them changes nothing' : ''}`;
    if (go.keepsEarlier) return 'the last copy is a null, which sets nothing in Go: the value before it is kept';
    return 'the last value is kept';
  },
};

const NEEDS_FOLDING = /[A-Z\u017f\u212a]/;

/**
 * A JSON key as encoding/json compares it with a struct field's lower-case ASCII name: ASCII
 * letters fold, and U+017F and U+212A fold to s and k (so `URN`, `Owner` and `ſchema` fill
 * `urn`, `owner` and `schema`).
 */
export function goFold(key: string): string {
  // Nearly every key has nothing to fold: one test instead of three replacements (a registry of
  // 250,000 entries folds a million keys as it loads).
  if (!NEEDS_FOLDING.test(key)) return key;
  // The acceptance model folds each key of an object once per question it asks of it: a key of
  // 65,000 capitals was folded a hundred times, a fifth of a second per analysis.
  const known = foldedKeys.get(key);
  if (known !== undefined) return known;
  // A run of capitals at a time: toLowerCase on an ASCII run folds exactly what Go folds.
  const folded = key.replace(/\u017f/g, 's').replace(/\u212a/g, 'k').replace(/[A-Z]+/g, (run) => run.toLowerCase());
  // Bounded in keys and characters: what it holds also keeps old documents' keys alive.
  if (foldedKeys.size >= MAX_FOLDED_KEYS || foldedCharacters + key.length > MAX_FOLDED_CHARACTERS) {
    foldedKeys.clear();
    foldedCharacters = 0;
  }
  foldedKeys.set(key, folded);
  foldedCharacters += key.length;
  return folded;
}

/** Keys folded lately (a document's keys that need folding are few; a registry's many, once each). */
const foldedKeys = new Map<string, string>();
const MAX_FOLDED_KEYS = 256;
const MAX_FOLDED_CHARACTERS = 1 << 20;
let foldedCharacters = 0;

const isGoAlias = (key: string): boolean => key.replace(/[A-Z]/g, (c) => c.toLowerCase()) === 'urn';

/** strings.TrimSpace: Unicode White_Space at both ends (U+0085 and NBSP too, not U+FEFF, which JavaScript's trim takes). */
export function goTrimSpace(value: string): string {
  return trimEnds(value, isWhiteSpace);
}

/** Unicode's White_Space, all of it in the BMP: what unicode.IsSpace tests. */
function isWhiteSpace(code: number): boolean {
  if (code <= 0xa0) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0x85 || code === 0xa0;
  return code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000;
}

/**
 * The `urn` alias as Decode reads it when Job is "": a second json.Unmarshal into a struct whose
 * one string field is `urn` (the key matched case-insensitively, a null leaving it, the last string
 * winning), trimmed by strings.TrimSpace; undefined when there is none, or when that Unmarshal
 * fails because a copy is neither a string nor null (Decode then leaves Job empty).
 */
function goUrnAlias(root: ObjectNode): string | undefined {
  let alias: string | undefined;
  for (const property of root.properties) {
    if (!property.value || !isGoAlias(property.key)) continue;
    if (property.value.kind === 'string') alias = goString(property.value.value);
    else if (property.value.kind !== 'null') return undefined;
  }
  return alias === undefined ? undefined : goTrimSpace(alias);
}

/**
 * Every object json.Unmarshal reads into the Envelope's `data` map, `meta` struct or `dead_letter`
 * pointer (its key matched case-insensitively), in document order, whatever comes after it: the
 * keys Go drops are those of each.
 */
export function goObjectCopies(root: ObjectNode, field: GoMergedField): ObjectNode[] {
  const objects: ObjectNode[] = [];
  for (const property of root.properties) if (property.value?.kind === 'object' && goField('root', property.key) === field) objects.push(property.value);
  return objects;
}

/**
 * The objects whose keys end up in the Envelope's `data` map, `meta` struct or `dead_letter`
 * pointer, in document order: those `goRepeat` merges, the last ones (every `meta` object, as a
 * null leaves the struct; for `data` and `dead_letter`, those after the last null, which sets the
 * field to nil; none before a value of another type, on which Decode fails). Two or more merge into one, key by key (facts part 2 §2: `data:{"a":1} …
 * data:{"b":2}` is `{"a":1,"b":2}` in Go).
 */
export function goDecodedObjects(root: ObjectNode, field: GoMergedField): ObjectNode[] {
  const copies: CopyKind[] = [];
  for (const property of root.properties) if (property.value && goField('root', property.key) === field) copies.push(copyKind(property.value));
  const { merged } = goRepeat('root', field, copies);
  const objects = goObjectCopies(root, field);
  return merged === 0 ? [] : objects.slice(objects.length - merged);
}

/** The Envelope fields whose repeated objects Go decodes into one. */
export type GoMergedField = 'data' | 'meta' | 'dead_letter';

/** What Go's App routes on: Job as decoded, else (when it is "") the urn alias, trimmed. */
export function goRoute(root: ObjectNode): string {
  const job = goLast(root, 'root', 'job');
  return (job?.kind === 'string' ? job.value : '') || (goUrnAlias(root) ?? '');
}

/**
 * How a case variant of `job` (`JOB`) makes Go route elsewhere than the other SDKs, which read
 * the key `job` alone (facts part 2, §2: `job:"u1"` … `JOB:"u2"` routes Go on u2, the others on
 * u1): the words to add after a note that Go reads the variant as job, with `subject` ("Go " or
 * "" when the note's subject is Go already); empty when the variant does not set the Job Go
 * routes on, or Go routes where the others do. With `job` null, which sets nothing in Go, the
 * variant sets Job wherever it stands. `job`: the value Go's Job takes (`goLast`), when the caller
 * asks for many variants: one walk of the envelope, not one per variant.
 */
export function goJobVariantRoute(root: ObjectNode, variant: PropertyNode, subject: string, job: ValueNode | undefined = goLast(root, 'root', 'job')): string {
  const routed = variant.value;
  if (routed?.kind !== 'string' || job !== routed) return '';
  const exact = lastValue(root, 'job');
  const route = literal(goRoute(root));
  if (exact?.kind === 'null') return `, and, as "job" is null, which sets nothing in Go, ${subject}routes on ${route} where the other SDKs read job as null`;
  if (exact?.kind !== 'string' || goRoute(root) === exact.value) return '';
  return `, and, as it comes after "job", ${subject}routes on ${route} where the other SDKs route on ${literal(exact.value)}`;
}

class GoDecodeError extends Error {}

/** What encoding/json reports when a JSON value cannot go into a Go field. */
function typeError(node: ValueNode, struct: string, field: string, type: string): GoDecodeError {
  const value = node.kind === 'number' ? (type === 'int' || type === 'int64' ? `number ${numberLiteral(node.raw)}` : 'number') : node.kind === 'boolean' ? 'bool' : node.kind;
  return new GoDecodeError(`json: cannot unmarshal ${value} into Go struct field ${struct}.${field} of type ${type}`);
}

/** A string field: a string sets it, null leaves it, anything else fails. */
function decodeString(node: ValueNode, struct: string, field: string): string | undefined {
  if (node.kind === 'null') return undefined;
  if (node.kind !== 'string') throw typeError(node, struct, field, 'string');
  return goString(node.value);
}

/** An int or int64 field: an integer literal within 64 bits (strconv.ParseInt), null leaves it. */
function decodeInt(node: ValueNode, struct: string, field: string, type: 'int' | 'int64'): bigint | undefined {
  if (node.kind === 'null') return undefined;
  if (node.kind !== 'number' || !node.isIntegerLiteral || !literalFitsInt64(node.raw)) throw typeError(node, struct, field, type);
  return BigInt(node.raw);
}

interface GoMeta {
  id: string;
  queue: string;
  lang: string;
  schema_version: bigint;
  created_at: bigint;
}

interface GoDeadLetter {
  reason: string;
  error: string | null;
  exception: string | null;
  failed_at: bigint;
  original_queue: string;
  attempts: bigint;
  lang: string;
}

/** What the Go SDK writes when it decodes this envelope and encodes it again. */
export const encodeGo: SdkEncoder = ({ root, depth }) => {
  const refused = tooDeep('go', depth, GO_MAX_DEPTH, `Go's encoding/json refuses nesting deeper than ${GO_MAX_DEPTH} levels ("exceeded max depth"), so Decode fails.`);
  if (refused) return refused;
  const notes = new Notes();
  noteDuplicates(root, notes, GO_REPEATS);

  let job = '';
  let traceId = '';
  let data: Map<string, ValueNode> | null = null;
  const meta: GoMeta = { id: '', queue: '', lang: '', schema_version: 0n, created_at: 0n };
  let attempts = 0n;
  let deadLetter: GoDeadLetter | null = null;
  const metas: ObjectNode[] = [];
  const deadLetters: ObjectNode[] = [];

  const goJob = goLast(root, 'root', 'job');
  const folded: Folded = (key, field, prefix, property) => {
    if (key === field) return;
    const route = prefix === '' && field === 'job' ? goJobVariantRoute(root, property, 'Go ', goJob) : '';
    notes.add('lossy', `Go reads "${key}" as "${field}": encoding/json matches field names case-insensitively${route}.`, prefix + key);
  };

  try {
    // json.Unmarshal visits keys in document order; a repeated field is set again, a repeated
    // object is decoded into the same struct or map (so its keys merge).
    for (const property of root.properties) {
      const value = property.value;
      const field = goField('root', property.key);
      if (!value || !field) continue;
      folded(property.key, field, '', property);
      switch (field) {
        case 'job':
          job = decodeString(value, 'Envelope', 'job') ?? job;
          break;
        case 'trace_id':
          traceId = decodeString(value, 'Envelope', 'trace_id') ?? traceId;
          break;
        case 'data':
          if (value.kind === 'null') data = null;
          else if (value.kind !== 'object') throw typeError(value, 'Envelope', 'data', 'map[string]interface {}');
          else {
            // Every number below data is converted to float64 as it is read, a replaced duplicate's too.
            const infinite = firstInfinite(value);
            if (infinite) throw new GoDecodeError(`json: cannot unmarshal number ${numberLiteral(infinite)} into Go struct field Envelope.data of type float64`);
            data ??= new Map();
            for (const entry of value.properties) if (entry.value) data.set(goString(entry.key), entry.value);
          }
          break;
        case 'meta':
          if (value.kind === 'null') break;
          if (value.kind !== 'object') throw typeError(value, 'Envelope', 'meta', 'babelqueue.Meta');
          metas.push(value);
          decodeMeta(value, meta, folded);
          break;
        case 'attempts':
          attempts = decodeInt(value, 'Envelope', 'attempts', 'int') ?? attempts;
          break;
        case 'dead_letter':
          if (value.kind === 'null') deadLetter = null;
          else if (value.kind !== 'object') throw typeError(value, 'Envelope', 'dead_letter', 'babelqueue.DeadLetter');
          else {
            deadLetter ??= { reason: '', error: null, exception: null, failed_at: 0n, original_queue: '', attempts: 0n, lang: '' };
            deadLetters.push(value);
            decodeDeadLetter(value, deadLetter, folded);
          }
          break;
      }
    }
  } catch (error) {
    if (error instanceof GoDecodeError) return { ok: false, error: `Go's Decode fails: ${error.message}; the relay gets no envelope.`, notes: notes.finish() };
    throw error;
  }

  // Decode: when Job is "", a second Unmarshal reads the alias and trims it (strings.TrimSpace).
  if (job === '') {
    const alias = goUrnAlias(root);
    if (alias !== undefined) {
      job = alias;
      notes.add('representation', 'Go resolves the inbound alias "urn" into "job" (trimmed) and does not write "urn", as the contract asks.', 'job');
    }
  }

  noteDropped('go', droppedKeys(root, goField, isGoAlias, metas, deadLetters), notes);
  if (data === null) notes.add('contract', 'Go writes "data":null: data is absent or null (the contract says data is an object).', 'data');

  const dataPath = child(undefined, 'data');
  const dataOut: Out =
    data === null
      ? { kind: 'raw', text: 'null' }
      : {
          kind: 'object',
          path: dataPath,
          entries: [...data.entries()]
            .sort((a, b) => compareCodePoints(a[0], b[0]))
            .map(([key, node]) => ({ key, value: { kind: 'node', node, path: child(dataPath, key) } })),
        };
  const entries: OutEntry[] = [
    { key: 'job', value: str(job, 'job') },
    { key: 'trace_id', value: str(traceId, 'trace_id') },
    { key: 'data', value: dataOut },
    {
      key: 'meta',
      value: {
        kind: 'object',
        path: child(undefined, 'meta'),
        entries: [
          { key: 'id', value: str(meta.id, 'meta.id') },
          { key: 'queue', value: str(meta.queue, 'meta.queue') },
          { key: 'lang', value: str(meta.lang, 'meta.lang') },
          { key: 'schema_version', value: raw(meta.schema_version) },
          { key: 'created_at', value: raw(meta.created_at) },
        ],
      },
    },
    { key: 'attempts', value: raw(attempts) },
  ];
  if (deadLetter) {
    entries.push({
      key: 'dead_letter',
      value: {
        kind: 'object',
        path: child(undefined, 'dead_letter'),
        entries: [
          { key: 'reason', value: str(deadLetter.reason, 'dead_letter.reason') },
          { key: 'error', value: deadLetter.error === null ? raw('null') : str(deadLetter.error, 'dead_letter.error') },
          { key: 'exception', value: deadLetter.exception === null ? raw('null') : str(deadLetter.exception, 'dead_letter.exception') },
          { key: 'failed_at', value: raw(deadLetter.failed_at) },
          { key: 'original_queue', value: str(deadLetter.original_queue, 'dead_letter.original_queue') },
          { key: 'attempts', value: raw(deadLetter.attempts) },
          { key: 'lang', value: str(deadLetter.lang, 'dead_letter.lang') },
        ],
      },
    });
  }
  return finish({ kind: 'object', entries, path: undefined }, goModel, notes);
};

/** Notes a key that reached its field only through case folding. */
type Folded = (key: string, field: string, prefix: string, property: PropertyNode) => void;

function decodeMeta(object: ObjectNode, meta: GoMeta, folded: Folded): void {
  for (const property of object.properties) {
    const value = property.value;
    const field = goField('meta', property.key);
    if (!value || !field) continue;
    folded(property.key, field, 'meta.', property);
    const path = `meta.${field}`;
    if (field === 'schema_version') meta.schema_version = decodeInt(value, 'Meta', path, 'int') ?? meta.schema_version;
    else if (field === 'created_at') meta.created_at = decodeInt(value, 'Meta', path, 'int64') ?? meta.created_at;
    else if (field === 'id' || field === 'queue' || field === 'lang') meta[field] = decodeString(value, 'Meta', path) ?? meta[field];
  }
}

function decodeDeadLetter(object: ObjectNode, deadLetter: GoDeadLetter, folded: Folded): void {
  for (const property of object.properties) {
    const value = property.value;
    const field = goField('dead_letter', property.key);
    if (!value || !field) continue;
    folded(property.key, field, 'dead_letter.', property);
    const path = `dead_letter.${field}`;
    switch (field) {
      case 'failed_at':
        deadLetter.failed_at = decodeInt(value, 'DeadLetter', path, 'int64') ?? deadLetter.failed_at;
        break;
      case 'attempts':
        deadLetter.attempts = decodeInt(value, 'DeadLetter', path, 'int') ?? deadLetter.attempts;
        break;
      case 'error':
      case 'exception':
        // *string: null makes it nil again.
        deadLetter[field] = value.kind === 'null' ? null : (decodeString(value, 'DeadLetter', path) ?? null);
        break;
      case 'reason':
      case 'original_queue':
      case 'lang':
        deadLetter[field] = decodeString(value, 'DeadLetter', path) ?? deadLetter[field];
        break;
    }
  }
}

function str(value: string, path: string): Out {
  return { kind: 'string', value, path: dottedPath(path) };
}

function raw(value: bigint | string): Out {
  return { kind: 'raw', text: String(value) };
}

/** The text of the first number below `value` beyond the float64 range, if any. */
function firstInfinite(value: ValueNode): string | undefined {
  let found: string | undefined;
  forEachValue(value, (node) => {
    if (found === undefined && node.kind === 'number' && !Number.isFinite(node.value)) found = node.raw;
  });
  return found;
}
