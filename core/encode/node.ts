/**
 * Node core (`babelqueue-node` codec.ts): the relay is `JSON.parse`, then `decode()` copies
 * `urn` into `job` when `job` is falsy (keeping `urn`), then `JSON.stringify` (facts §3, §8).
 */
import type { ValueNode } from '../model/tree';
import { formatNode } from './numbers';
import { forEachValueOutsidePlain } from './plain-subtree';
import { noteMapRelay, noteDuplicates, tooDeep } from './relay';
import { JSON_STRINGIFY_STYLE } from './strings';
import { child, dedupe, finish, Notes, type Entry, type OutEntry, type SdkEncoder, type ValueModel } from './writer';

/**
 * JSON.parse is iterative in V8 but JSON.stringify recurses: Node 20 with its default stack
 * throws RangeError near 4,170 levels (measured), so the preview stops at 4,000.
 */
export const NODE_MAX_DEPTH = 4000;

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;
const MAX_ARRAY_INDEX = 2 ** 32 - 2;

/** True for keys a JavaScript object orders first, ascending: array indexes (0 … 2^32−2). */
export function isArrayIndexKey(key: string): boolean {
  return ARRAY_INDEX.test(key) && Number(key) <= MAX_ARRAY_INDEX;
}

/**
 * True when JavaScript's own-key order is the written order of every object outside a plain
 * subtree (whose keys are never digits only): no array-index key after another key, none after a
 * larger one. Otherwise Node writes the keys in another order, which it does not note (the
 * divergence check reports it).
 */
export function keepsWrittenKeyOrder(root: ValueNode): boolean {
  let kept = true;
  forEachValueOutsidePlain(root, (node) => {
    if (!kept || node.kind !== 'object') return;
    let named = false;
    let lastIndex = -1;
    for (const property of node.properties) {
      if (!isArrayIndexKey(property.key)) {
        named = true;
        continue;
      }
      const index = Number(property.key);
      if (named || index <= lastIndex) kept = false;
      lastIndex = index;
    }
  });
  return kept;
}

/** Entries in JavaScript's own-key order: array-index keys ascending, then the rest as inserted. */
export function javascriptKeyOrder(entries: readonly Entry[]): Entry[] {
  const indexes: Entry[] = [];
  const names: Entry[] = [];
  for (const entry of entries) (isArrayIndexKey(entry.key) ? indexes : names).push(entry);
  if (indexes.length === 0) return names;
  indexes.sort((a, b) => Number(a.key) - Number(b.key));
  return indexes.concat(names);
}

/** Node's view of JSON values: every number a float64, objects in JavaScript key order. */
export const nodeModel: ValueModel = {
  sdk: 'node',
  // Well-formed JSON.stringify (ES2019) is the reference style: a lone surrogate becomes \ud800.
  style: JSON_STRINGIFY_STYLE,
  number(raw) {
    const x = Number(raw);
    const text = formatNode(x);
    if (!Number.isFinite(x)) return { text, why: 'JSON.parse reads it as Infinity and JSON.stringify writes null' };
    if (Object.is(x, -0)) return { text, why: 'JSON.stringify writes -0 as 0' };
    return { text, why: 'Node holds every number as a float64' };
  },
  object: (node) => ({ kind: 'object', entries: javascriptKeyOrder(dedupe(node)) }),
  loneSurrogateError: () => 'unreachable: Node escapes lone surrogates',
};

/** What the Node core writes when it decodes this envelope and encodes it again. */
export const encodeNode: SdkEncoder = ({ root, depth }) => {
  const refused = tooDeep('node', depth, NODE_MAX_DEPTH, `Node's JSON.stringify recurses and throws RangeError (call stack exceeded) near 4,170 levels with Node 20's default stack.`);
  if (refused) return refused;
  const notes = new Notes();
  noteMapRelay('node', root, notes);
  noteDuplicates(root, notes);

  const entries: OutEntry[] = javascriptKeyOrder(dedupe(root)).map((entry) => ({ key: entry.key, value: { kind: 'node', node: entry.value, path: child(undefined, entry.key) } }));
  const job = entries.find((entry) => entry.key === 'job');
  const urn = entries.find((entry) => entry.key === 'urn');
  const urnValue = urn?.value.kind === 'node' && urn.value.node.kind === 'string' ? urn.value.node : undefined;
  const jobFalsy = !job || (job.value.kind === 'node' && isFalsy(job.value.node));
  // decode(): `if (!envelope.job && typeof envelope.urn === "string") envelope.job = envelope.urn;`
  if (jobFalsy && urnValue) {
    const copied: OutEntry = { key: 'job', value: { kind: 'node', node: urnValue, path: child(undefined, 'job') } };
    if (job) {
      entries[entries.indexOf(job)] = copied;
      notes.add('contract', 'Node copies "urn" into the empty "job" and keeps "urn" too (the contract says a relay writes "job" only).', 'job');
    } else {
      entries.push(copied);
      notes.add('contract', 'Node keeps the inbound alias "urn" and adds "job" last, so both are written (the contract says a relay writes "job", never "urn").', 'urn');
    }
  } else if (urn) {
    notes.add('contract', job ? 'Node keeps "urn" beside "job" (the contract says a relay writes "job" only).' : 'Node keeps "urn" (it is not a string, so no "job" is made).', 'urn');
  }
  return finish({ kind: 'object', entries, path: undefined }, nodeModel, notes);
};

/** JavaScript falsiness of a decoded JSON value. */
export function isFalsy(node: ValueNode): boolean {
  switch (node.kind) {
    case 'null':
      return true;
    case 'boolean':
      return !node.value;
    case 'string':
      return node.value === '';
    case 'number':
      return Number(node.raw) === 0;
    default:
      return false;
  }
}
