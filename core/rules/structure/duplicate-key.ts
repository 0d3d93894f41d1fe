/**
 * duplicate-key in every object of the document, read straight from the parser's columns (the
 * tree walk is the reference for documents without them).
 */
import { ChildSlots, Flag, keysOf, Kind, sameKeys, type Columns } from '../../parse/columns';
import { columnsOf } from '../../parse/document';
import { forEachValue } from '../../model/tree';
import type { Range, RuleContext } from '../context';
import { defineRule } from '../definition';
import { keyRange } from '../ranges';

export const rule = defineRule({
  codes: [
    {
      code: 'duplicate-key',
      family: 'structure',
      severity: 'error',
      summary: 'The same key appears twice in one object; decoders silently keep the last copy (Go merges two data objects).',
      docs: {
        fires: 'The same key twice in one object (on every later copy).',
        instead: 'One copy of each key: every SDK decoder keeps only the last copy without a word, except that Go merges two top-level `data` objects.',
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
  forEachValue(root, (node) => {
    if (node.kind !== 'object') return;
    reportDuplicates(context, node.properties.length, (i) => node.properties[i].key, (i) => keyRange(node.properties[i]), node === root);
  });
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
  const { info, next, keys, keyStart, keyEnd } = columns;
  if (distinctShapes.size > 1_000) distinctShapes.clear();
  let duplicates = 0;
  for (let object = from, last = next[from]; object < last; object++) {
    if ((info[object] & Flag.KindMask) !== Kind.Object || next[object] - object < 3) continue;
    const count = childSlots.collect(next, object);
    const children = childSlots.slots;
    // The items of an array repeat one key sequence: a sequence found free of duplicates once is free again.
    if (sameKeys(distinctShapes.get(keys[children[0]]!), keys, children, count)) continue;
    const before = duplicates;
    if (count > PAIRWISE_LIMIT) {
      duplicates += reportManyDuplicates(context, columns, children, count, object === from);
      if (duplicates === before) rememberDistinct(keysOf(keys, children, count));
      continue;
    }
    for (let i = 1; i < count; i++) {
      const key = keys[children[i]]!;
      for (let j = 0; j < i; j++) {
        // Most keys differ in length; repeated keys are usually the very same string (the parser shares them).
        const other = keys[children[j]]!;
        if (other.length === key.length && other === key) {
          reportDuplicate(context, key, { offset: keyStart[children[i]], end: keyEnd[children[i]] }, object === from);
          duplicates++;
          break;
        }
      }
    }
    if (duplicates === before) rememberDistinct(keysOf(keys, children, count));
  }
}

/**
 * `reportDuplicates` for the property slots `children[0..count)` of a large object. A function of
 * its own: closures made in the loop above would make every turn of it allocate their scope, and
 * that loop turns once per slot of the document.
 */
function reportManyDuplicates(context: RuleContext<'duplicate-key'>, columns: Columns, children: Int32Array, count: number, atRoot: boolean): number {
  const { keys, keyStart, keyEnd } = columns;
  return reportDuplicates(context, count, (i) => keys[children[i]]!, (i) => ({ offset: keyStart[children[i]], end: keyEnd[children[i]] }), atRoot);
}

/** Reports each property whose key an earlier property of the same object already has; returns how many. */
function reportDuplicates(context: RuleContext<'duplicate-key'>, count: number, keyAt: (i: number) => string, rangeAt: (i: number) => Range, atRoot: boolean): number {
  let reported = 0;
  if (count < 2) return reported;
  if (count <= PAIRWISE_LIMIT) {
    for (let i = 1; i < count; i++) {
      const key = keyAt(i);
      for (let j = 0; j < i; j++) {
        if (keyAt(j) === key) {
          reportDuplicate(context, key, rangeAt(i), atRoot);
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
      reportDuplicate(context, key, rangeAt(i), atRoot);
      reported++;
    }
    seen.add(key);
  }
  return reported;
}

/**
 * Every SDK decoder keeps the last copy (facts part 2, §2); Go decodes a top-level `data` into the
 * map its first copy made, so there the two objects merge.
 */
function reportDuplicate(context: RuleContext<'duplicate-key'>, key: string, range: Range, atRoot: boolean): void {
  const kept =
    atRoot && key === 'data'
      ? 'PHP, Python, Node and Java keep only the last copy, and Go merges two data objects into one'
      : 'every SDK decoder keeps only the last copy, and drops the earlier one without a word';
  context.report('duplicate-key', range, `Duplicate key "${key}": ${kept}. Keep one.`);
}
