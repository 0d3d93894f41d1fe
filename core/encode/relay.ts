/**
 * Envelope-level helpers the SDK encoders share: the keys each scope knows, what a typed SDK
 * drops, the notes on `urn` and forbidden keys, and the depth refusal.
 */
import { DEAD_LETTER_FIELDS, forbiddenKey, META_FIELDS, ROOT_FIELDS, type EnvelopeScope } from '../contract/envelope';
import { asObject, type ObjectNode, type ValueNode } from '../model/tree';
import { integerText } from './numbers';
import { isPlainNode } from './plain-subtree';
import { child, lastValue, type Notes, type Path } from './writer';
import { SDK_LABELS, type EncodeResult, type SdkName } from './types';
import { digitGroups } from '../model/count-words';

/** The fields a typed SDK (Go, Java, .NET) decodes in each scope; everything else is dropped. */
export const TYPED_FIELDS: Readonly<Record<EnvelopeScope, readonly string[]>> = {
  root: ROOT_FIELDS.map((field) => field.name),
  meta: META_FIELDS.map((field) => field.name),
  dead_letter: DEAD_LETTER_FIELDS.map((field) => field.name),
};

/** A key a typed SDK does not keep: where it is and whether the contract forbids it anyway. */
export interface DroppedKey {
  readonly path: string;
  readonly forbidden: boolean;
}

/**
 * The keys a typed SDK drops on relay (facts §1.4, §1.6, §3), given how it matches a key to a
 * field (`match`: exact for Java and .NET, case-insensitive for Go) and which `meta` and
 * `dead_letter` objects it reads. The `urn` alias (`isAlias`) is not listed: it feeds `job`.
 */
export function droppedKeys(
  root: ObjectNode,
  match: (scope: EnvelopeScope, key: string) => string | undefined,
  isAlias: (key: string) => boolean,
  metas: readonly ObjectNode[],
  deadLetters: readonly ObjectNode[],
): DroppedKey[] {
  const dropped: DroppedKey[] = [];
  const seen = new Set<string>();
  const visit = (scope: EnvelopeScope, object: ObjectNode, prefix: string) => {
    for (const property of object.properties) {
      if (match(scope, property.key) !== undefined || (scope === 'root' && isAlias(property.key))) continue;
      const path = prefix + property.key;
      if (seen.has(path)) continue;
      seen.add(path);
      dropped.push({ path, forbidden: forbiddenKey(scope, property.key) !== undefined });
    }
  };
  visit('root', root, '');
  for (const meta of metas) visit('meta', meta, 'meta.');
  for (const deadLetter of deadLetters) visit('dead_letter', deadLetter, 'dead_letter.');
  return dropped;
}

/** The contract and representation notes for the keys a typed SDK drops. */
export function noteDropped(sdk: SdkName, dropped: readonly DroppedKey[], notes: Notes): void {
  const unknown = dropped.filter((key) => !key.forbidden).map((key) => key.path);
  const forbidden = dropped.filter((key) => key.forbidden).map((key) => key.path);
  const label = SDK_LABELS[sdk];
  if (unknown.length > 0) {
    notes.add('contract', `${label} drops the keys it does not know: ${unknown.join(', ')} (the contract says a relay keeps unknown keys).`);
  }
  if (forbidden.length > 0) {
    notes.add('representation', `${label} drops the forbidden legacy keys ${forbidden.join(', ')}, as the contract wants.`);
  }
}

/**
 * Notes for the SDKs that relay a plain map (PHP, Python, Node): the forbidden legacy keys they
 * re-emit (facts §1.4) and, for PHP and Python, the `urn` alias they keep (facts §1.5, §8).
 */
export function noteMapRelay(sdk: SdkName, root: ObjectNode, notes: Notes): void {
  const label = SDK_LABELS[sdk];
  const forbidden: string[] = [];
  for (const property of root.properties) if (forbiddenKey('root', property.key)) forbidden.push(property.key);
  const meta = asObject(lastValue(root, 'meta'));
  if (meta) for (const property of meta.properties) if (forbiddenKey('meta', property.key)) forbidden.push(`meta.${property.key}`);
  if (forbidden.length > 0) {
    notes.add('contract', `${label} re-emits the forbidden legacy keys ${[...new Set(forbidden)].join(', ')} (the contract says they are never written).`);
  }
  if (sdk === 'node') return;
  if (lastValue(root, 'urn') === undefined) return;
  if (lastValue(root, 'job') === undefined) {
    notes.add('contract', `${label} keeps the inbound alias "urn" and writes no "job" (the contract says a relay writes "job", never "urn").`, 'urn');
  } else {
    notes.add('contract', `${label} keeps "urn" beside "job" (the contract says a relay writes "job" only).`, 'urn');
  }
}

/** The refusal for a document nested deeper than the SDK's decoder or encoder goes. */
export function tooDeep(sdk: SdkName, depth: number, limit: number, why: string): EncodeResult | undefined {
  if (depth <= limit) return undefined;
  return { ok: false, error: `The document nests ${digitGroups(depth)} levels deep, beyond the ${digitGroups(limit)} the ${SDK_LABELS[sdk]} preview allows: ${why}`, notes: [] };
}

/** The decoded string of a JSON string node, else undefined. */
export function stringValue(node: ValueNode | undefined): string | undefined {
  return node?.kind === 'string' ? node.value : undefined;
}

/**
 * How an SDK's relay writes a key repeated in one object. `field`: the field a key fills in a scope
 * of the envelope, undefined for a key the SDK drops with everything below it (noteDropped names
 * it); absent for the SDKs that relay a plain map and keep every key. `kept`: the words after
 * `the key "k" appears more than once: `, given the scope the object is read into (undefined inside
 * data and below) and every copy of the key, in order.
 */
export interface RepeatedKeys {
  readonly field?: (scope: EnvelopeScope, key: string) => string | undefined;
  readonly kept: (scope: EnvelopeScope | undefined, field: string | undefined, copies: readonly ValueNode[]) => string;
}

/** PHP, Python and Node relay a plain map: a repeated key's last value, where the key first stood. */
const MAP_REPEATS: RepeatedKeys = { kept: () => "the last value is kept, at the first key's place" };

/** Java and .NET read a field's last copy (written in the model's field order) and keep data's order of first keys. */
export function typedRepeats(field: (scope: EnvelopeScope, key: string) => string | undefined): RepeatedKeys {
  return { field, kept: (scope) => (scope ? 'the last value is kept' : "the last value is kept, at the first key's place") };
}

/** One note per later copy of a repeated key, anywhere the SDK's relay keeps it, in the SDK's words. */
export function noteDuplicates(root: ObjectNode, notes: Notes, repeats: RepeatedKeys = MAP_REPEATS): void {
  const stack: { node: ValueNode; path: Path | undefined; scope: EnvelopeScope | undefined }[] = [{ node: root, path: undefined, scope: 'root' }];
  while (stack.length > 0) {
    const { node, path, scope } = stack.pop()!;
    // A plain subtree has no key twice (./plain-subtree.ts).
    if (isPlainNode(node)) continue;
    if (node.kind === 'array') {
      node.items.forEach((item, i) => {
        if (item.kind === 'object' || item.kind === 'array') stack.push({ node: item, path: child(path, i), scope: undefined });
      });
    } else if (node.kind === 'object') {
      const seen = new Set<string>();
      // Each repeated key's words, made once from every copy (gathered in one pass when a key first repeats).
      let copies: Map<string, ValueNode[]> | undefined;
      const kept = new Map<string, string>();
      for (const property of node.properties) {
        const field = scope && repeats.field ? repeats.field(scope, property.key) : undefined;
        // A typed relay drops an unknown key and its subtree: nothing of it is written.
        const dropped = scope !== undefined && repeats.field !== undefined && field === undefined;
        if (seen.has(property.key) && !dropped) {
          let words = kept.get(property.key);
          if (words === undefined) {
            copies ??= copiesByKey(node);
            words = repeats.kept(scope, field, copies.get(property.key) ?? []);
            kept.set(property.key, words);
          }
          notes.add('lossy', `the key "${property.key}" appears more than once: ${words}.`, child(path, property.key));
        }
        seen.add(property.key);
        const value = property.value;
        if (dropped || !value || (value.kind !== 'object' && value.kind !== 'array')) continue;
        const inner = repeats.field && scope === 'root' && (field === 'meta' || field === 'dead_letter') ? field : undefined;
        // A typed relay reads no object inside meta or dead_letter (their fields are strings and integers).
        if (repeats.field && scope !== undefined && scope !== 'root') continue;
        stack.push({ node: value, path: child(path, property.key), scope: inner });
      }
    }
  }
}

/** The values of every copy of each key in `object`, in order, by key. */
function copiesByKey(object: ObjectNode): Map<string, ValueNode[]> {
  const copies = new Map<string, ValueNode[]>();
  for (const property of object.properties) {
    if (!property.value) continue;
    const values = copies.get(property.key);
    if (values) values.push(property.value);
    else copies.set(property.key, [property.value]);
  }
  return copies;
}

/** Notes a typed integer field whose written value (or only its text) differs from the JSON. */
export function noteIntegral(label: string, node: ValueNode | undefined, value: bigint, type: string, path: string, notes: Notes): void {
  if (!node) return;
  if (node.kind !== 'number') {
    notes.add('lossy', `${label} reads this ${node.kind} as the ${type} ${value}.`, path);
  } else if (!node.isIntegerLiteral || integerText(node.raw) !== value.toString()) {
    const same = Number(node.raw) === Number(value) && !Object.is(Number(node.raw), -0);
    notes.add(same ? 'representation' : 'lossy', `${label} reads ${node.raw} as the ${type} ${value}.`, path);
  }
}
