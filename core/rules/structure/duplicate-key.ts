/**
 * duplicate-key in every object of the document, read straight from the parser's columns (the
 * tree walk is the reference for documents without them).
 */
import type { EnvelopeScope } from '../../contract/envelope';
import { copyKind, goField, goRepeat, type CopyKind } from '../../encode/go';
import { ChildSlots, Flag, keysOf, Kind, sameKeys, type Columns } from '../../parse/columns';
import { columnsOf } from '../../parse/document';
import { forEachValue, type ObjectNode, type ValueNode } from '../../model/tree';
import { shortened } from '../../model/describe-value';
import type { Range, RuleContext } from '../context';
import { defineRule } from '../definition';
import { keyRange } from '../ranges';

export const rule = defineRule({
  codes: [
    {
      code: 'duplicate-key',
      family: 'structure',
      severity: 'error',
      summary: 'The same key appears twice in one object; decoders silently keep the last copy (Go merges repeated data, meta and dead_letter objects, skips most later nulls).',
      docs: {
        fires: 'The same key twice in one object (on every later copy).',
        instead:
          'One copy of each key: every SDK decoder keeps only the last copy without a word, except Go\'s: it merges repeated top-level `data`, `meta` and `dead_letter` objects key by key (a null between two `data` or `dead_letter` objects starts afresh; a `meta` null changes nothing), and a later null leaves a string, an integer or `meta` as an earlier copy set it (`"job": "a", "job": null` is "a" in Go, null elsewhere).',
        example: { fires: '"data": { "order_id": 1, "order_id": 2 }', clean: '"data": { "order_id": 2 }' },
      },
    },
  ],
  check: checkDuplicateKeys,
  // Only keys and structure matter, and a string edit changes neither.
  afterEdit: (_context, previous, edit, keep) => previous.forEach((diagnostic) => keep(edit.moved(diagnostic))),
});

/** Objects with more properties than this use a set; smaller ones compare keys pairwise (no allocation). */
const PAIRWISE_LIMIT = 12;

/** duplicate-key in every object of the document. */
function checkDuplicateKeys(context: RuleContext<'duplicate-key'>): void {
  const root = context.doc.root;
  if (!root) return;
  const parsed = columnsOf(root);
  if (parsed) {
    duplicateKeysInColumns(context, parsed.columns, parsed.slot);
    return;
  }
  const scopes = goScopes(root);
  forEachValue(root, (node) => {
    if (node.kind !== 'object') return;
    const kindAt = (i: number) => copyKind(node.properties[i].value);
    reportDuplicates(context, node.properties.length, (i) => node.properties[i].key, (i) => keyRange(node.properties[i]), scopes.get(node), kindAt);
  });
}

/** The objects Go decodes into its typed structs: the envelope and each top-level meta or dead_letter object (keys matched as Go does). */
function goScopes(root: ValueNode): Map<ObjectNode, EnvelopeScope> {
  const scopes = new Map<ObjectNode, EnvelopeScope>();
  if (root.kind !== 'object') return scopes;
  scopes.set(root, 'root');
  for (const property of root.properties) {
    const scope = typedObjectScope(property.key);
    if (scope && property.value?.kind === 'object') scopes.set(property.value, scope);
  }
  return scopes;
}

/** `meta` or `dead_letter` for a top-level key Go decodes into that struct. */
function typedObjectScope(key: string): EnvelopeScope | undefined {
  const field = goField('root', key);
  return field === 'meta' || field === 'dead_letter' ? field : undefined;
}

function slotCopyKind(info: Uint16Array, slot: number): CopyKind {
  const kind = info[slot] & Flag.KindMask;
  return kind === Kind.Object ? 'object' : kind === Kind.Null ? 'null' : 'other';
}

/** The property slots of the object being checked. */
const childSlots = new ChildSlots();

/**
 * Key sequences (by first key) known to hold no duplicate: the items of an array repeat one, so
 * each is checked once. Pure in the keys, so it is kept across analyses (bounded).
 */
const distinctShapes = new Map<string, string[]>();

/** A key sequence free of duplicates, by its first key (the shape's own copy, which holds no document alive). */
function rememberDistinct(shape: string[]): void {
  distinctShapes.set(shape[0]!, shape);
}

/** The same walk over the parser's columns: every object slot in document order, its property slots in order. */
function duplicateKeysInColumns(context: RuleContext<'duplicate-key'>, columns: Columns, from: number): void {
  const { info, next, keys, parent } = columns;
  if (distinctShapes.size > 1_000) distinctShapes.clear();
  let duplicates = 0;
  for (let object = from, last = next[from]; object < last; object++) {
    if ((info[object] & Flag.KindMask) !== Kind.Object || next[object] - object < 3) continue;
    // The items of an array repeat one key sequence: a sequence found free of duplicates once is free again.
    if (sameKeys(distinctShapes.get(keys[object + 1]!), columns, object)) continue;
    const count = childSlots.collect(next, object);
    const children = childSlots.slots;
    const before = duplicates;
    const scope = object === from ? 'root' : parent[object] === from && (info[object] & Flag.Keyed) !== 0 ? typedObjectScope(keys[object]!) : undefined;
    if (count > PAIRWISE_LIMIT) {
      duplicates += reportManyDuplicates(context, columns, children, count, scope);
      if (duplicates === before) rememberDistinct(keysOf(keys, children, count));
      continue;
    }
    for (let i = 1; i < count; i++) {
      const key = keys[children[i]]!;
      for (let j = 0; j < i; j++) {
        // Most keys differ in length; repeated keys are usually the very same string (the parser shares them).
        const other = keys[children[j]]!;
        if (other.length === key.length && other === key) {
          reportColumnDuplicate(context, columns, children, count, i, scope);
          duplicates++;
          break;
        }
      }
    }
    if (duplicates === before) rememberDistinct(keysOf(keys, children, count));
  }
}

/** Reports the property slot `children[i]` as a later copy of a key (a function of its own for the reason below). */
function reportColumnDuplicate(context: RuleContext<'duplicate-key'>, columns: Columns, children: Int32Array, count: number, i: number, scope: EnvelopeScope | undefined): void {
  const { info, keys, keyStart, keyEnd } = columns;
  const key = keys[children[i]]!;
  const copies = scope && copyKinds(count, (k) => keys[children[k]]!, (k) => slotCopyKind(info, children[k]), key);
  reportDuplicate(context, key, { offset: keyStart[children[i]], end: keyEnd[children[i]] }, keptCopies(key, scope, copies));
}

/**
 * `reportDuplicates` for the property slots `children[0..count)` of a large object. A function of
 * its own: closures made in the loop above would make every turn of it allocate their scope, and
 * that loop turns once per slot of the document.
 */
function reportManyDuplicates(context: RuleContext<'duplicate-key'>, columns: Columns, children: Int32Array, count: number, scope: EnvelopeScope | undefined): number {
  const { info, keys, keyStart, keyEnd } = columns;
  return reportDuplicates(
    context,
    count,
    (i) => keys[children[i]]!,
    (i) => ({ offset: keyStart[children[i]], end: keyEnd[children[i]] }),
    scope,
    (i) => slotCopyKind(info, children[i]),
  );
}

/**
 * Reports each property whose key an earlier property of the same object already has; returns how
 * many. `scope` names the Go struct the object decodes into (none inside data and below).
 */
function reportDuplicates(
  context: RuleContext<'duplicate-key'>,
  count: number,
  keyAt: (i: number) => string,
  rangeAt: (i: number) => Range,
  scope: EnvelopeScope | undefined,
  copyKindAt: (i: number) => CopyKind,
): number {
  // What each repeated key's copies make in Go, worded once per key from every copy's kind,
  // gathered in one pass over the object: 60,000 copies of a key are not each a walk of them all.
  let kindsByKey: Map<string, CopyKind[]> | undefined;
  const keptByKey = new Map<string, string>();
  const keptFor = (key: string): string => {
    let kept = keptByKey.get(key);
    if (kept === undefined) {
      if (scope && !kindsByKey) {
        kindsByKey = new Map();
        for (let i = 0; i < count; i++) {
          const kinds = kindsByKey.get(keyAt(i));
          if (kinds) kinds.push(copyKindAt(i));
          else kindsByKey.set(keyAt(i), [copyKindAt(i)]);
        }
      }
      kept = keptCopies(key, scope, kindsByKey?.get(key));
      keptByKey.set(key, kept);
    }
    return kept;
  };
  const report = (i: number, key: string) => reportDuplicate(context, key, rangeAt(i), keptFor(key));
  let reported = 0;
  if (count < 2) return reported;
  if (count <= PAIRWISE_LIMIT) {
    for (let i = 1; i < count; i++) {
      const key = keyAt(i);
      for (let j = 0; j < i; j++) {
        if (keyAt(j) === key) {
          report(i, key);
          reported++;
          break;
        }
      }
    }
    return reported;
  }
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    const key = keyAt(i);
    if (seen.has(key)) {
      report(i, key);
      reported++;
    }
    seen.add(key);
  }
  return reported;
}

/** The kinds of every copy of `key` among the first `count` properties, in order (for the few properties of the pairwise walk). */
function copyKinds(count: number, keyAt: (i: number) => string, copyKindAt: (i: number) => CopyKind, key: string): CopyKind[] {
  const kinds: CopyKind[] = [];
  for (let i = 0; i < count; i++) if (keyAt(i) === key) kinds.push(copyKindAt(i));
  return kinds;
}

/**
 * PHP, Python, Node, Java and .NET keep the last copy (facts part 2, §2). Go's encoding/json does
 * too, except where the object decodes into one of its structs (keptCopies is given the `copies`): there it merges
 * repeated data, meta and dead_letter objects, and a later null leaves a string, an int or the
 * Meta struct as an earlier copy set it (`goRepeat`). The message depends only on the keys and the
 * kinds of the copies, which an edit inside a string or a number leaves as they were, so the
 * findings are reused after such an edit.
 */
function reportDuplicate(context: RuleContext<'duplicate-key'>, key: string, range: Range, kept: string): void {
  context.report('duplicate-key', range, `Duplicate key "${shortened(key)}": ${kept}. Keep one.`);
}

function keptCopies(key: string, scope: EnvelopeScope | undefined, copies: readonly CopyKind[] | undefined): string {
  const go = scope && copies ? goRepeat(scope, goField(scope, key), copies) : undefined;
  if (!go || (go.merged < 2 && !go.keepsEarlier)) return 'every SDK decoder keeps only the last copy, and drops the earlier one without a word';
  const others = `PHP, Python, Node, Java and .NET keep only the last copy${go.keepsEarlier ? ', the null' : ''}`;
  const merges = `Go merges the ${go.merged} ${key} objects into one, key by key`;
  if (go.merged < 2) return `${others}, but Go ignores that null and keeps the ${key} an earlier copy set`;
  return go.keepsEarlier ? `${others}, but ${merges}, and ignores the null after them` : `${others}, and ${merges}`;
}
