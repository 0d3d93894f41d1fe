/**
 * `encoding-divergence` (docs/diagnostics.md): where the six SDK encoders would not write the
 * same bytes for a value, and what each writes (facts §3, §8). Lossy differences (a consumer
 * reads another value, or an SDK cannot relay the message, or drops a key) are warnings,
 * text-only ones are information. Key order alone is never reported: the catalogue names
 * integer-like keys (Node moves them first) and PHP's list-like maps, which are reported, but
 * Go's sorted `data` keys and any other pure reordering show only in the byte preview.
 */
import { DEAD_LETTER_FIELDS, FORBIDDEN_KEYS, fieldSpec, forbiddenKey, META_EXTENSION_KEY, misspeltFields, RESERVED_ROOT_KEY, type EnvelopeScope, type MisspeltField } from '../contract/envelope';
import { ChildSlots, Flag, keysOf, Kind, sameKeys, stringValue, type Columns } from '../parse/columns';
import { columnsOf } from '../parse/document';
import { asObject, getProperty, type ObjectNode, type PropertyNode, type ValueNode } from '../model/tree';
import { detachedString } from '../model/detached-string';
import { dotnetModel, DOTNET_MAX_DEPTH } from './dotnet';
import { goField, goModel, goNullEmpties, GO_MAX_DEPTH } from './go';
import { javaModel, JAVA_MAX_DEPTH } from './java';
import { isArrayIndexKey, nodeModel, NODE_MAX_DEPTH } from './node';
import { exactValueKey, formatJava19, sameNumber } from './numbers';
import { shiftToInteger } from '../model/decimal';
import { writtenAsIsByAll, writtenAsIsBySix } from '../contract/written-as-is';
import { phpModel, PHP_MAX_DEPTH } from './php';
import { pythonModel, PYTHON_MAX_DEPTH, PYTHON_MAX_INT_DIGITS } from './python';
import { codePointLabel, escapeCodePoint } from './strings';
import { SDK_LABELS, SDK_NAMES, type SdkName } from './types';
import type { ValueModel } from './writer';
import { digitGroups } from '../model/count-words';
import { literal, numberLiteral, shortened, stringOfDigits } from '../model/describe-value';

/** One place where the SDK encoders disagree. */
export interface Divergence {
  readonly offset: number;
  readonly end: number;
  readonly severity: 'information' | 'warning';
  readonly message: string;
  /**
   * `php-data-array`: PHP writes `data` as a JSON array (empty or list-like), which the other
   * consumers reject; `python-non-finite`: Python writes a number beyond the double range as bare
   * Infinity, which is not JSON. When that SDK is the fixture's own encoder, consumer-rejects
   * reports the value instead. `php-empty-object`: PHP writes an empty object inside data as [],
   * which is the fixture's own producer's doing when PHP is its encoder.
   */
  readonly cause?: 'php-data-array' | 'php-empty-object' | 'python-non-finite';
  /**
   * For a string value (not a key), the first character the SDKs write differently: its index in
   * the decoded value and its length in code units, so the finding can sit on that character
   * (`literalSpanOf`) instead of the whole string.
   */
  readonly character?: { readonly index: number; readonly width: number };
}

const MODELS: Readonly<Record<SdkName, ValueModel>> = {
  php: phpModel,
  python: pythonModel,
  node: nodeModel,
  go: goModel,
  java: javaModel,
  dotnet: dotnetModel,
};

/** What one SDK does with a value: writes some text, or (undefined) fails to relay it. */
interface Outcome {
  readonly text: string | undefined;
}

/** The encoding-divergence findings for a parsed envelope, in one linear pass. */
export function findDivergences(doc: { readonly root: ValueNode | undefined }): Divergence[] {
  const root = asObject(doc.root);
  if (!root) return [];
  const found: Divergence[] = [];
  droppedKeyDivergences(root, found);
  const tooDeep = depthDivergence(root);
  if (tooDeep) found.push(tooDeep);
  const data = asObject(getProperty(root, 'data')?.value);
  const parsed = data && columnsOf(data);
  if (parsed) dataDivergencesInColumns(parsed.columns, parsed.text, parsed.slot, found, sharedRenderings());
  else if (data) dataDivergences(data, found, sharedRenderings());
  keptAndCoreDivergences(root, found);
  return found.sort(byPlace);
}

/**
 * The findings of `findDivergences` that lie outside `data`'s value, computed without reading
 * data: for a document that differs from an analysed one only in a value outside data, whose
 * findings inside data stand (moved), and which a keystroke in meta.ext or job of a document with
 * megabytes of data must not scan again. `data` is the value `findDivergences` compares.
 */
export function divergencesOutsideData(doc: { readonly root: ValueNode | undefined }): { readonly found: Divergence[]; readonly data: ValueNode | undefined } {
  const root = asObject(doc.root);
  if (!root) return { found: [], data: undefined };
  const data = asObject(getProperty(root, 'data')?.value);
  const outside = (divergence: Divergence) => !data || divergence.offset < data.offset || divergence.offset >= data.end;
  const found: Divergence[] = [];
  droppedKeyDivergences(root, found);
  const tooDeep = depthDivergence(root);
  if (tooDeep && outside(tooDeep)) found.push(tooDeep);
  keptAndCoreDivergences(root, found);
  return { found: found.sort(byPlace), data };
}

/** The values only the map relays keep (compared between them), and the core strings every SDK writes back. */
function keptAndCoreDivergences(root: ObjectNode, found: Divergence[]): void {
  for (const value of keptByMapRelays(root)) dataDivergences(value, found, sharedRenderings(), MAP_RELAYS);
  for (const value of coreStrings(root)) stringDivergence(value.value, value.offset, value.end, found, sharedRenderings(), true);
}

const byPlace = (a: Divergence, b: Divergence) => a.offset - b.offset || a.end - b.end;

/**
 * The divergence of one string value inside data, as `findDivergences` reports it (for a
 * document that differs from an analysed one only in this string).
 */
export function stringValueDivergence(value: string, offset: number, end: number): Divergence | undefined {
  const found: Divergence[] = [];
  stringDivergence(value, offset, end, found, sharedRenderings(), true);
  return found[0];
}

/** The divergence of one number literal `text[offset..end)` inside data, as `findDivergences` reports it. */
export function numberValueDivergence(text: string, offset: number, end: number, isIntegerLiteral: boolean): Divergence | undefined {
  const found: Divergence[] = [];
  numberDivergence(text, offset, end, isIntegerLiteral, offset, end, found);
  return found[0];
}

/**
 * The SDKs that cannot read or relay an envelope nested deeper than their decoder or encoder goes
 * (facts part 2, decode acceptance: nesting depth 600 and 20,000; the encoders' own limits, as the
 * byte preview applies them), the shallowest limit first. Depth counts the nested arrays and
 * objects, the envelope's own object as 1.
 */
const DEPTH_LIMITS: readonly { readonly limit: number; readonly says: string }[] = [
  { limit: DOTNET_MAX_DEPTH, says: `the .NET SDK cannot decode or relay it beyond ${DOTNET_MAX_DEPTH} levels (JsonDocument's default MaxDepth)` },
  { limit: PHP_MAX_DEPTH, says: `the PHP consumer rejects the message beyond ${PHP_MAX_DEPTH} levels (json_decode at its default depth of 512), and PHP cannot relay it` },
  { limit: PYTHON_MAX_DEPTH, says: `the Python consumer crashes beyond ${PYTHON_MAX_DEPTH} levels (json.loads raises RecursionError)` },
  { limit: JAVA_MAX_DEPTH, says: `the Java consumer crashes beyond ${digitGroups(JAVA_MAX_DEPTH)} levels (StackOverflowError)` },
  { limit: NODE_MAX_DEPTH, says: `the Node consumer reads it but cannot relay it beyond ${digitGroups(NODE_MAX_DEPTH)} levels (JSON.stringify throws RangeError)` },
  { limit: GO_MAX_DEPTH, says: `the Go consumer rejects it beyond ${digitGroups(GO_MAX_DEPTH)} levels (json.Unmarshal's maximum depth)` },
];

/**
 * An envelope nested deeper than an SDK reads or relays: one finding, on the opening bracket of
 * the first container past the shallowest limit it crosses (where that SDK gives up), naming every
 * SDK that cannot read or relay it.
 */
function depthDivergence(root: ObjectNode): Divergence | undefined {
  const parsed = columnsOf(root);
  const depth = parsed ? parsed.columns.depth : treeDepth(root).depth;
  const crossed = DEPTH_LIMITS.filter(({ limit }) => depth > limit);
  if (crossed.length === 0) return undefined;
  const past = crossed[0].limit + 1;
  const offset = parsed ? containerAtDepth(parsed.columns, parsed.slot, past) : treeDepth(root, past).offset;
  if (offset === undefined) return undefined;
  const says = crossed.map((sdk) => sdk.says).join('; ');
  return { offset, end: offset + 1, severity: 'warning', message: `The envelope nests ${digitGroups(depth)} levels deep, and this value is level ${digitGroups(past)}: ${says}. Keep the envelope within ${digitGroups(crossed[0].limit)} levels.` };
}

/** The start of the first container `depth` levels deep in the subtree of `slot` (the slot itself is level 1). */
function containerAtDepth(columns: Columns, slot: number, depth: number): number | undefined {
  const { info, next, start } = columns;
  // The `next` of each open container, innermost last, as subtreeShape keeps it.
  const open: number[] = [];
  for (let at = slot, last = next[slot]; at < last; at++) {
    while (open.length > 0 && at >= open[open.length - 1]) open.pop();
    const kind = info[at] & Flag.KindMask;
    if (kind !== Kind.Object && kind !== Kind.Array) continue;
    open.push(next[at]);
    if (open.length === depth) return start[at];
  }
  return undefined;
}

/** The same from a tree without columns: the deepest nesting, and the first container `depth` levels deep. */
function treeDepth(root: ValueNode, depth = Infinity): { depth: number; offset?: number } {
  const stack: { node: ValueNode; level: number }[] = [{ node: root, level: 1 }];
  let deepest = 0;
  while (stack.length > 0) {
    const { node, level } = stack.pop()!;
    if (node.kind !== 'object' && node.kind !== 'array') continue;
    if (level === depth) return { depth: level, offset: node.offset };
    if (level > deepest) deepest = level;
    const children = node.kind === 'object' ? node.properties.map((property) => property.value) : node.items;
    // Pushed last first, so the first container in document order is met first.
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child) stack.push({ node: child, level: level + 1 });
    }
  }
  return { depth: deepest };
}

/** Unknown keys at the top level, in `meta` and in `dead_letter`: Go, Java and .NET drop them. */
function droppedKeyDivergences(root: ObjectNode, found: Divergence[]): void {
  // Looked up once: a top-level key's advice reads it, and a root may hold 60,000 keys.
  const rootMeta = asObject(getProperty(root, 'meta')?.value);
  // Whether meta (an object) lacks a field, found once per field: 40,000 top-level "queue" keys beside a meta of 40,000 keys stay one pass each.
  const lacks = new Map<string, boolean>();
  const metaLacks = (field: string): boolean => {
    let answer = lacks.get(field);
    if (answer === undefined) lacks.set(field, (answer = rootMeta !== undefined && !getProperty(rootMeta, field)));
    return answer;
  };
  const scan = (scope: EnvelopeScope, object: ObjectNode | undefined, prefix: string) => {
    if (!object) return;
    const keysFor = new Map<string, FieldKeys>();
    // The keys written for a required field the object lacks (`traceId`), found once the first unknown key is met.
    let misspelt: Map<PropertyNode, MisspeltField> | undefined;
    const renameTo = (property: PropertyNode) => (misspelt ??= misspeltFields(scope, object)).get(property)?.field.name;
    for (const property of object.properties) {
      const key = property.key;
      // Core keys are kept; forbidden and reserved keys have their own errors, `urn` its warning.
      if (fieldSpec(scope, key) || forbiddenKey(scope, key) || (scope === 'root' && key === RESERVED_ROOT_KEY)) continue;
      const goReads = goField(scope, key) ?? (scope === 'root' && key.toLowerCase() === 'urn' ? 'urn' : undefined);
      // The contract lets producers add meta keys (each SDK has an API for them) and puts vendor
      // keys under meta.ext; it says a relay keeps them. That the typed SDKs drop them on relay is
      // their departure, which the fixture's author cannot avoid: information. A key Go would read
      // as a core field is a mistake of case the author can fix, and so is an unknown top-level or
      // dead_letter key, which the contract does not offer: warnings.
      if (scope === 'meta' && !goReads) {
        const meant = key === META_EXTENSION_KEY ? undefined : renameTo(property);
        const message =
          key === META_EXTENSION_KEY
            ? `meta.ext, the contract's place for vendor keys: Go, Java and .NET drop it when they relay the message (the contract says a relay keeps it: nothing to change in the fixture), PHP, Python and Node keep it`
            : `meta.${shortened(key)}: Go, Java and .NET drop extra meta keys when they relay the message (the contract says a relay keeps them), PHP, Python and Node keep it${meant ? renameAdvice(meant, scope) : ''}`;
        found.push({ offset: property.keyOffset, end: property.keyEnd, severity: 'information', message });
        continue;
      }
      const message = goReads
        ? `${prefix}${shortened(key)}: Go reads it as "${goReads}" (its decoder matches field names case-insensitively)${goOutcome(scope, property, goReads, fieldKeys(keysFor, scope, object, goReads))}; Java and .NET drop it on relay, PHP, Python and Node keep it`
        : `${prefix}${shortened(key)}: Go, Java and .NET drop this key when they relay the message, PHP, Python and Node keep it${unknownKeyAdvice(scope, key, renameTo(property), metaLacks)}`;
      found.push({ offset: property.keyOffset, end: property.keyEnd, severity: 'warning', message });
    }
  };
  scan('root', root, '');
  scan('meta', rootMeta, 'meta.');
  scan('dead_letter', asObject(getProperty(root, 'dead_letter')?.value), 'dead_letter.');
}

/** What to do with a key written for a required field the object lacks. */
function renameAdvice(field: string, scope: EnvelopeScope): string {
  return `. Rename it to "${field}", the required field ${scope === 'root' ? 'the envelope' : scope} lacks.`;
}

/**
 * What to do with an unknown top-level key the typed SDKs drop: rename one written for a missing
 * field, remove one named after a forbidden or the reserved key, else move it where the contract
 * carries extra values (data, every SDK's payload, or meta.ext.<vendor>, where it puts vendor keys;
 * only meta keys have a producer API). A dead_letter key is removed: the contract names no place
 * for extra dead-letter values, and its block holds the fields the dead-lettering SDK writes.
 */
function unknownKeyAdvice(scope: EnvelopeScope, key: string, meant: string | undefined, metaLacks: (field: string) => boolean): string {
  if (meant) return renameAdvice(meant, scope);
  if (scope === 'dead_letter') return `. Remove it: the contract's dead_letter block holds ${list(DEAD_LETTER_FIELDS.map((field) => field.name))}.`;
  if (scope !== 'root') return '';
  // A meta field written at the top level (`"queue"` beside `meta`), where meta lacks it.
  if (fieldSpec('meta', key)?.required && metaLacks(key)) return `. Move it into meta: "${key}" is a meta field, and meta lacks it.`;
  const lower = key.toLowerCase();
  const forbidden = FORBIDDEN_KEYS.find((entry) => entry.key === lower);
  if (forbidden) return `. Remove it: it names the forbidden legacy key "${forbidden.scope === 'root' ? '' : `${forbidden.scope}.`}${forbidden.key}"; write ${forbidden.replacement} instead.`;
  if (lower === RESERVED_ROOT_KEY) return `. Remove it: "${RESERVED_ROOT_KEY}" is the Redis transport's header frame, never an envelope key.`;
  return '. Move it into data, which every SDK relays, or under meta.ext.<vendor>, where the contract puts vendor keys.';
}

/** The keys of one object that fill one Go field: those spelled exactly, and the last that sets it (see `goNullEmpties`). */
interface FieldKeys {
  readonly exact: readonly PropertyNode[];
  readonly lastSetting: PropertyNode | undefined;
}

/** `FieldKeys` of `field` in `object`, found once per field (a key repeated in thousands of spellings is not a walk of the object each). */
function fieldKeys(cache: Map<string, FieldKeys>, scope: EnvelopeScope, object: ObjectNode, field: string): FieldKeys {
  let keys = cache.get(field);
  if (keys) return keys;
  const exact: PropertyNode[] = [];
  let lastSetting: PropertyNode | undefined;
  for (const other of object.properties) {
    if (other.key === field) exact.push(other);
    if ((other.key === field || goField(scope, other.key) === field) && setsField(scope, field, other)) lastSetting = other;
  }
  keys = { exact, lastSetting };
  cache.set(field, keys);
  return keys;
}

/** A null sets no string, int or struct field (encoding/json leaves it as it was): such a key wins nothing. */
function setsField(scope: EnvelopeScope, field: string, property: PropertyNode): boolean {
  return property.value?.kind !== 'null' || goNullEmpties(scope, field);
}

/**
 * What Go makes of a key it reads as `field` beside the key spelled exactly: its decoder fills the
 * field from each matching key in turn, so the last one wins (facts part 2, §2: `job:"u1"` …
 * `JOB:"u2"` routes Go on u2) and a data object is merged into the one before it, as two `data`
 * keys are. Empty where no exact spelling is present.
 */
function goOutcome(scope: EnvelopeScope, property: PropertyNode, field: string, { exact, lastSetting }: FieldKeys): string {
  if (exact.length === 0) return '';
  if (!setsField(scope, field, property)) return `, but as a null it changes nothing: Go keeps the ${field} the other keys set`;
  if (lastSetting !== undefined && lastSetting.keyOffset > property.keyOffset) return `, but the "${field}" after it wins there`;
  const lastExact = exact[exact.length - 1];
  const value = property.value;
  const routes = scope === 'root' && field === 'job' && value?.kind === 'string';
  // The exact copies after this key are nulls that set nothing in Go, so this key's value stands.
  if (lastExact.keyOffset > property.keyOffset) {
    const kept = routes ? `Go routes on ${literal(value.value)}` : 'Go keeps this value';
    return `, and as the "${field}" after it is null, which sets nothing in Go, ${kept} where the other SDKs read "${field}" as null`;
  }
  const before = lastExact.value;
  if (before?.kind === 'null') return `, and as it comes last ${routes ? `Go routes on ${literal(value.value)}` : 'Go takes it'} where the other SDKs read "${field}" as null`;
  if (routes && before?.kind === 'string') {
    return `, and as it comes last Go routes on ${literal(value.value)} where the other SDKs route on ${literal(before.value)}`;
  }
  if (scope === 'root' && field === 'data' && before?.kind === 'object' && value?.kind === 'object') return ', and merges it into the "data" before it';
  return `, and as it comes last Go takes it instead of the "${field}" before it`;
}

/**
 * The string values of the core fields every SDK writes back (trace_id, meta.id, meta.queue,
 * meta.lang and dead_letter's strings): an SDK escapes them as it escapes data, and PHP's consumer
 * cannot decode a lone surrogate in any. Not the URN (job, and the urn alias the SDKs relay in their
 * own ways): the URN rules allow it no character an SDK escapes.
 */
export function coreStrings(root: ObjectNode): Extract<ValueNode, { kind: 'string' }>[] {
  const strings: Extract<ValueNode, { kind: 'string' }>[] = [];
  const scan = (scope: EnvelopeScope, object: ObjectNode | undefined) => {
    for (const property of object?.properties ?? []) {
      if (property.value?.kind === 'string' && isCoreString(scope, property.key)) strings.push(property.value);
    }
  };
  scan('root', root);
  scan('meta', asObject(getProperty(root, 'meta')?.value));
  scan('dead_letter', asObject(getProperty(root, 'dead_letter')?.value));
  return strings;
}

/**
 * A core field whose string value coreStrings compares: one the SDKs read as a string. A string
 * where the contract has an integer or an object (attempts, created_at, data) is no string the
 * typed SDKs write back (wrong-type says what it is).
 */
function isCoreString(scope: EnvelopeScope, key: string): boolean {
  const type = fieldSpec(scope, key)?.type;
  return (type === 'uuid' || type === 'string' || type === 'enum' || type === 'nullable-string') && !(scope === 'root' && (key === 'urn' || key === 'job'));
}

/** The SDKs whose relay keeps a key it does not know, with its value: they decode into plain maps. */
const MAP_RELAYS: readonly SdkName[] = ['php', 'python', 'node'];

/**
 * The values of the keys only PHP, Python and Node write back (the typed SDKs drop them, and
 * droppedKeyDivergences says so): extra top-level, meta (meta.ext) and dead_letter keys. Their
 * values are compared between those three, which the contract asks to keep them unchanged.
 */
function keptByMapRelays(root: ObjectNode): ValueNode[] {
  const values: ValueNode[] = [];
  const scan = (scope: EnvelopeScope, object: ObjectNode | undefined) => {
    for (const property of object?.properties ?? []) {
      const key = property.key;
      if (!property.value || fieldSpec(scope, key) || forbiddenKey(scope, key) || (scope === 'root' && key === RESERVED_ROOT_KEY)) continue;
      // A key Go reads as a core field is written by Go too, as that field.
      if (goField(scope, key) ?? (scope === 'root' && key.toLowerCase() === 'urn')) continue;
      values.push(property.value);
    }
  };
  scan('root', root);
  scan('meta', asObject(getProperty(root, 'meta')?.value));
  scan('dead_letter', asObject(getProperty(root, 'dead_letter')?.value));
  return values;
}

/**
 * The divergences below `value`, between the SDKs in `keepers`: `data` with all six, or the value
 * of a key only the map relays keep.
 */
function dataDivergences(value: ValueNode, found: Divergence[], cache: Map<string, Renderings>, keepers: readonly SdkName[] = SDK_NAMES): void {
  const isData = keepers === SDK_NAMES;
  if (isData && value.kind === 'object' && value.properties.length === 0) {
    found.push(emptyData(value.offset));
    return;
  }
  const stack: ValueNode[] = [value];
  while (stack.length > 0) {
    const node = stack.pop()!;
    switch (node.kind) {
      case 'number':
        numberDivergence(node.raw, 0, node.raw.length, node.isIntegerLiteral, node.offset, node.end, found, keepers);
        break;
      case 'string':
        stringDivergence(node.value, node.offset, node.end, found, cache, true, keepers);
        break;
      case 'array':
        for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
        break;
      case 'object':
        objectDivergences(node, propertyKeys(node.properties), isData && node === value, found, cache, keepers);
        for (let i = node.properties.length - 1; i >= 0; i--) {
          const value = node.properties[i].value;
          if (value) stack.push(value);
        }
        break;
      default:
        break;
    }
  }
}

/**
 * An empty `data` at `offset`: a JSON object as the contract asks, which PHP writes as []. That is
 * PHP's departure, not the author's: information (with PHP as the fixture's own encoder,
 * consumer-rejects says who fails to read it instead).
 */
function emptyData(offset: number): Divergence {
  return {
    offset,
    end: offset + 1,
    severity: 'information',
    cause: 'php-data-array',
    message: 'empty data: PHP writes [], Python, Node, Go, Java and .NET write {} (PHP arrays cannot tell {} from [], and the other SDKs\' consumers reject data: [])',
  };
}

/** The keys of an object's properties, from the tree or from the parser's columns. */
interface KeyList {
  readonly length: number;
  key(index: number): string;
  offset(index: number): number;
  end(index: number): number;
}

function propertyKeys(properties: readonly PropertyNode[]): KeyList {
  return {
    length: properties.length,
    key: (i) => properties[i].key,
    offset: (i) => properties[i].keyOffset,
    end: (i) => properties[i].keyEnd,
  };
}

function objectDivergences(object: { readonly offset: number }, properties: KeyList, isData: boolean, found: Divergence[], cache: Map<string, Renderings>, keepers: readonly SdkName[] = SDK_NAMES): void {
  const all = keepers === SDK_NAMES;
  if (properties.length === 0) {
    // As with an empty data: PHP's departure, not the author's.
    found.push({ offset: object.offset, end: object.offset + 1, severity: 'information', cause: 'php-empty-object', message: `{}: PHP writes [], ${labels(keepers, 'php')} write {} (PHP arrays cannot tell {} from [])` });
    return;
  }
  for (let i = 0; i < properties.length; i++) {
    const key = properties.key(i);
    // Keys repeat across the items of an array: one that every SDK writes as is is checked once.
    if (cleanKeys.has(key)) continue;
    const before = found.length;
    stringDivergence(key, properties.offset(i), properties.end(i), found, cache, false, keepers);
    // Clean between some SDKs is not clean between all six.
    if (found.length === before && all) cleanKeys.add(detachedString(key));
  }
  if (isListLike(properties)) {
    found.push({
      offset: properties.offset(0),
      end: properties.end(0),
      severity: 'warning',
      ...(isData ? { cause: 'php-data-array' as const } : {}),
      message: `${isData ? 'data' : 'this object'} has the keys "0", "1", …: PHP writes it as a JSON array, ${labels(keepers, 'php')} write an object${isData ? ' (the other SDKs\' consumers reject data that is not an object). Give data keys that are names.' : '. Write a JSON array, or keys that are names.'}`,
    });
    return;
  }
  // Node (JavaScript objects) writes array-index keys first, ascending; report each key it moves.
  let sawName = false;
  let largestIndex = -1;
  for (let i = 0; i < properties.length; i++) {
    const key = properties.key(i);
    const first = key.charCodeAt(0);
    if (!(first >= 0x30 && first <= 0x39) || !isArrayIndexKey(key)) {
      sawName = true;
      continue;
    }
    const index = Number(key);
    if (sawName || index < largestIndex) {
      found.push({
        offset: properties.offset(i),
        end: properties.end(i),
        severity: 'information',
        message: `"${key}": Node writes integer-like keys first, in ascending order, ${labels(keepers, 'node', 'go')} keep the written order${keepers.includes('go') ? ' (Go sorts every data key)' : ''}`,
      });
    }
    if (index > largestIndex) largestIndex = index;
  }
}

/** Keys exactly "0", "1", …, "n-1" in order: PHP's json_encode writes such an array as a list. */
function isListLike(properties: KeyList): boolean {
  for (let i = 0; i < properties.length; i++) if (properties.key(i) !== String(i)) return false;
  return true;
}

/** The property slots of the object being checked. */
const children = new ChildSlots();

/**
 * `dataDivergences` over the parser's columns: the same visits in the same order (every value
 * below data, in document order), so a large payload is checked without building its node tree.
 */
function dataDivergencesInColumns(columns: Columns, text: string, data: number, found: Divergence[], cache: Map<string, Renderings>): void {
  const { info, start, end, next, keys, keyStart, keyEnd } = columns;
  if (next[data] === data + 1) {
    found.push(emptyData(start[data]));
    return;
  }
  let count = 0;
  const childKeys: KeyList = {
    get length() {
      return count;
    },
    key: (i) => keys[children.slots[i]]!,
    offset: (i) => keyStart[children.slots[i]],
    end: (i) => keyEnd[children.slots[i]],
  };
  for (let at = data, last = next[data]; at < last; at++) {
    const flags = info[at];
    switch (flags & Flag.KindMask) {
      case Kind.Number:
        // The parser marked the literals every SDK writes as written (without reading them again here).
        if (!(flags & Flag.PlainNumber)) numberDivergence(text, start[at], end[at], (flags & Flag.Integer) !== 0, start[at], end[at], found);
        break;
      case Kind.String:
        // The parser marked the strings every SDK writes as is: most payload strings stop here.
        if (!(flags & Flag.WrittenAsIs)) stringDivergence(stringValue(columns, text, at), start[at], end[at], found, cache, true);
        break;
      case Kind.Object: {
        // Objects repeat key sequences (array items, and fixtures of one message type): a sequence found clean once is clean again.
        if (next[at] > at + 1 && sameKeys(cleanShapes.get(keys[at + 1]!), columns, at)) break;
        count = children.collect(next, at);
        const slots = children.slots;
        const before = found.length;
        objectDivergences({ offset: start[at] }, childKeys, at === data, found, cache);
        if (count > 0 && found.length === before) {
          const shape = keysOf(keys, slots, count);
          cleanShapes.set(shape[0]!, shape);
        }
        break;
      }
      default:
        break;
    }
  }
}

/** Integers every SDK writes as written: up to 15 digits (exact in a float64), never `-0`. */
const PLAIN_INTEGER = /^(?:0|-?[1-9][0-9]{0,14})$/;

/** A number token, `source.slice(from, to)`, reported at `offset..end`. */
function numberDivergence(source: string, from: number, to: number, isIntegerLiteral: boolean, offset: number, end: number, found: Divergence[], keepers: readonly SdkName[] = SDK_NAMES): void {
  if (writtenAsIsBySix(source, from, to, isIntegerLiteral)) return;
  const raw = from === 0 && to === source.length ? source : source.slice(from, to);
  if (PLAIN_INTEGER.test(raw)) return;
  const outcomes = new Map<SdkName, Outcome>();
  let first: string | undefined;
  let differs = false;
  for (const sdk of keepers) {
    const result = MODELS[sdk].number(raw, isIntegerLiteral);
    const text = 'error' in result ? undefined : result.text;
    outcomes.set(sdk, { text });
    if (sdk === keepers[0]) first = text;
    else if (text !== first) differs = true;
  }
  if (!differs) return;
  // Lossy when the SDKs do not all write the same number (or one cannot write it at all).
  const texts = [...outcomes.values()].map((outcome) => outcome.text);
  const differ = texts.some((text) => text === undefined || !sameNumber(text, texts[0]!));
  // Every SDK reads a number written with a fraction or an exponent as a double (facts §3: PHP's
  // float, Python's float, float64, Double, double): where no double holds the integral number
  // written (9007199254740993.0), each consumer reads another number, whatever the spelling it
  // writes. (A fraction no double holds, 99999999999999.99, is float-currency's or the texts'.)
  const read = isIntegerLiteral ? undefined : Number(raw);
  const written = read === undefined ? undefined : exactValueKey(raw);
  const readOtherwise = read !== undefined && Number.isFinite(read) && written !== undefined && isIntegral(written) && written !== exactValueKey(Object.is(read, -0) ? '-0' : String(read));
  const lossy = differ || readOtherwise;
  const python = outcomes.get('python')?.text;
  const nonFinite = python === 'Infinity' || python === '-Infinity';
  // Beyond the double range, Go's consumer cannot even decode the message (json.Unmarshal fails on
  // data's float64, facts part 2, §2): that comes first, and Go is no relay to describe.
  const beyondDouble = !Number.isFinite(Number(raw)) && keepers.includes('go');
  if (beyondDouble) outcomes.delete('go');
  // Python's json.loads refuses an integer of more than 4,300 digits: its consumer cannot decode the message either.
  const tooLongForPython = isIntegerLiteral && raw.length - (raw.startsWith('-') ? 1 : 0) > PYTHON_MAX_INT_DIGITS && keepers.includes('python');
  if (tooLongForPython) outcomes.delete('python');
  const undecodable = [...(beyondDouble ? ['Go'] : []), ...(tooLongForPython ? ['Python'] : [])];
  found.push({
    offset,
    end,
    severity: lossy ? 'warning' : 'information',
    ...(nonFinite ? { cause: 'python-non-finite' as const } : {}),
    // A literal of thousands of digits is quoted shortened, as the other findings quote numbers; the
    // SDKs' texts only as long as they are exact integers, which Python and Java write alike.
    message: `${numberLiteral(raw)}: ${readOtherwise ? `no double holds it, so every SDK reads it as ${numberLiteral(String(read))}; ` : ''}${undecodable.length > 0 ? `the ${list(undecodable)} ${undecodable.length > 1 ? 'consumers fail' : 'consumer fails'} to decode the message, ` : ''}${describe(outcomes, numberLiteral)}${jdk17Remark(raw, outcomes.get('java')?.text)}${lossy ? lossyNumberAdvice(raw, readOtherwise) : ''}`,
  });
}

/**
 * What to write instead of a number the SDKs read or write as another: 0 for a negative zero, the
 * integer it means as a string for a float no double holds, else the number as a string (an integer
 * beyond ±(2^53−1), a number beyond the double range; inside data, unsafe-integer says so too and
 * shows this finding, but in meta.ext or an extra key this finding is the only one).
 */
function lossyNumberAdvice(raw: string, readOtherwise: boolean): string {
  if (/^-0*(?:\.0*)?(?:[eE][+-]?\d+)?$/.test(raw)) return '. Write 0.';
  const integer = readOtherwise ? shiftToInteger(raw, 0) : undefined;
  return integer !== undefined ? `. Carry it as ${stringOfDigits(integer)}.` : '. Carry it as a string.';
}

/** Whether an `exactValueKey` (`-123e5`: digits, then the exponent of the first) is a whole number. */
function isIntegral(key: string): boolean {
  const [digits, exponent] = key.replace('-', '').split('e');
  return exponent === undefined ? digits === '0' : Number(exponent) >= digits.length - 1;
}

/** Java's text is JDK 17's (what the SDK runs on); where JDK 19+ writes other digits, say both. */
function jdk17Remark(raw: string, java: string | undefined): string {
  if (java === undefined || !/[.eE]/.test(raw)) return '';
  const newer = formatJava19(Number(raw));
  return newer === java ? '' : ` (Java as on JDK 17; JDK 19+ writes ${newer})`;
}

/**
 * What the SDKs write for each code point seen so far: a pure function of the code point, kept
 * across analyses (a tiny fixture with an "é" should not escape it six ways on every keystroke).
 */
const renderingCache = new Map<string, Renderings>();

function sharedRenderings(): Map<string, Renderings> {
  if (renderingCache.size > 10_000) renderingCache.clear();
  if (cleanKeys.size > 10_000) cleanKeys.clear();
  if (cleanShapes.size > 1_000) cleanShapes.clear();
  return renderingCache;
}

/** Keys every SDK writes as is (pure in the key), so a key repeated across array items is checked once. */
const cleanKeys = new Set<string>();

/** Key sequences (by first key) of objects with no divergence at all: array items repeat one, fixtures too. */
const cleanShapes = new Map<string, string[]>();

/** What each SDK writes for one code point, or undefined when all six write the same. */
type Renderings = Map<SdkName, Outcome> | undefined;

/** The first code point the SDKs write differently, with a count of the others; on a value or key token. */
function stringDivergence(value: string, offset: number, end: number, found: Divergence[], cache: Map<string, Renderings>, isValue = false, keepers: readonly SdkName[] = SDK_NAMES): void {
  let firstChar: string | undefined;
  let firstIndex = 0;
  let firstOutcomes: Map<SdkName, Outcome> | undefined;
  let others = 0;
  let lossy = false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (writtenAsIsByAll(code)) continue;
    const width = code >= 0xd800 && code <= 0xdbff && i + 1 < value.length && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    const char = value.slice(i, i + width);
    i += width - 1;
    const outcomes = among(cache.has(char) ? cache.get(char) : renderings(char, cache), keepers);
    if (!outcomes) continue;
    if (width === 1 && code >= 0xd800 && code <= 0xdfff) lossy = true;
    if (firstChar === undefined) {
      firstChar = char;
      firstIndex = i - (width - 1);
      firstOutcomes = outcomes;
    } else if (char !== firstChar) {
      others++;
    }
  }
  if (!firstChar || !firstOutcomes) return;
  const shown = /[\p{L}\p{N}\p{P}\p{S}]/u.test(firstChar) ? ` ${firstChar}` : '';
  const more = others > 0 ? ` (and ${others} more ${others === 1 ? 'character' : 'characters'})` : '';
  const lone = firstChar.length === 1 && firstChar.charCodeAt(0) >= 0xd800 && firstChar.charCodeAt(0) <= 0xdfff;
  const label = lone ? `lone surrogate ${codePointLabel(firstChar)}` : `${codePointLabel(firstChar)}${shown}`;
  // json_decode refuses the whole document for an unpaired surrogate escape (JSON_ERROR_UTF16):
  // the PHP consumer cannot decode the message, which matters more than how PHP would write it.
  const phpCannotDecode = lossy && firstOutcomes.has('php');
  const shown2 = phpCannotDecode ? new Map([...firstOutcomes].filter(([sdk]) => sdk !== 'php')) : firstOutcomes;
  const prefix = phpCannotDecode ? 'the PHP consumer fails to decode the message (json_decode refuses an unpaired surrogate escape), ' : '';
  const advice = lossy ? '. Remove the lone surrogate, or write its character whole (both halves of the surrogate pair).' : '';
  const message = `${label}: ${prefix}${describe(shown2, (text) => (text === firstChar ? 'it as is' : text === '\ufffd' ? 'U+FFFD (�)' : text))}${more}${advice}`;
  found.push({ offset, end, severity: lossy ? 'warning' : 'information', message, ...(isValue ? { character: { index: firstIndex, width: firstChar.length } } : {}) });
}

/** Each SDK's text for one code point (cached per scan), or undefined when they all agree. */
function renderings(char: string, cache: Map<string, Renderings>): Renderings {
  const outcomes = new Map<SdkName, Outcome>();
  let differs = false;
  for (const sdk of SDK_NAMES) {
    const text = escapeCodePoint(MODELS[sdk].style, char);
    if (outcomes.size > 0 && text !== outcomes.get(SDK_NAMES[0])!.text) differs = true;
    outcomes.set(sdk, { text });
  }
  const result = differs ? outcomes : undefined;
  cache.set(char, result);
  return result;
}

/** The renderings of the SDKs in `keepers`, or undefined when those agree. */
function among(outcomes: Renderings, keepers: readonly SdkName[]): Renderings {
  if (!outcomes || keepers === SDK_NAMES) return outcomes;
  const kept = new Map([...outcomes].filter(([sdk]) => keepers.includes(sdk)));
  const texts = new Set([...kept.values()].map((outcome) => outcome.text));
  return texts.size > 1 ? kept : undefined;
}

/** "Python, Node, Go, Java and .NET": the SDKs in `keepers` but those named. */
function labels(keepers: readonly SdkName[], ...except: SdkName[]): string {
  return list(keepers.filter((sdk) => !except.includes(sdk)).map((sdk) => SDK_LABELS[sdk]));
}

/** "Python and Java write 10.0, PHP, Node, Go and .NET write 10": smallest groups first. */
function describe(outcomes: ReadonlyMap<SdkName, Outcome>, show: (text: string) => string): string {
  const groups = new Map<string | undefined, SdkName[]>();
  for (const sdk of SDK_NAMES) {
    if (!outcomes.has(sdk)) continue;
    const { text } = outcomes.get(sdk)!;
    const group = groups.get(text);
    if (group) group.push(sdk);
    else groups.set(text, [sdk]);
  }
  return [...groups.entries()]
    .sort((a, b) => a[1].length - b[1].length || SDK_NAMES.indexOf(a[1][0]) - SDK_NAMES.indexOf(b[1][0]))
    .map(([text, sdks]) => {
      const names = list(sdks.map((sdk) => SDK_LABELS[sdk]));
      if (text === undefined) return `${names} ${sdks.length === 1 ? 'fails' : 'fail'} to relay it`;
      return `${names} ${sdks.length === 1 ? 'writes' : 'write'} ${show(text)}`;
    })
    .join(', ');
}

/** "A", "A and B", "A, B and C". */
export function list(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
