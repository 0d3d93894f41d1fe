/**
 * Smart-select ("expand selection") chains: from the token under the cursor outward through its
 * property and every enclosing container up to the root.
 */
import { locate, locateAtCursor, MAX_CHILDREN_LOOKED_INTO, propertyEnd, type NodeLocation, type ParsedDocument, type PropertyNode, type ValueNode } from '../model/tree';

/** A range of UTF-16 offsets, `end` exclusive. */
export interface OffsetRange {
  readonly offset: number;
  readonly end: number;
}

/**
 * For each offset, the ranges that contain it, innermost first, each strictly containing the one
 * before (the innermost `maxDepth` of them: the server keeps 1,000, since its reply nests one object
 * per range and is serialised recursively); a lone empty range where no value does (as VS Code answers),
 * so the result stays 1:1.
 */
export function selectionRanges(doc: ParsedDocument, offsets: readonly number[], maxDepth = Infinity): OffsetRange[][] {
  return selectionChains(doc, offsets, maxDepth).chains;
}

/** Selection chains, and whether any of them was cut at `maxDepth` with enclosing ranges left out. */
export interface SelectionChains {
  readonly chains: OffsetRange[][];
  readonly capped: boolean;
}

/**
 * `selectionRanges`, saying whether a chain was cut short (the editor cannot tell: expanding simply
 * stops). The offsets are located in ascending order, each from the innermost node around the one
 * before that strictly contains it: from the root, 10,000 cursors in a document 100,000 levels deep
 * walked down a billion levels (minutes); this way each level is entered about once.
 */
export function selectionChains(doc: ParsedDocument, offsets: readonly number[], maxDepth = Infinity): SelectionChains {
  const order = offsets.map((_, index) => index).sort((a, b) => offsets[a] - offsets[b]);
  const chains: OffsetRange[][] = new Array(offsets.length);
  let capped = false;
  let previous: ValueNode | undefined;
  for (const index of order) {
    const offset = offsets[index];
    let start = previous;
    while (start && !(start.offset < offset && offset < start.end)) start = start.parent;
    // Strictly inside `start`, the walk from the root would pass through it: the same location.
    const location = start ? locate(start, offset, MAX_CHILDREN_LOOKED_INTO) : locateAtCursor(doc.root, offset);
    previous = location.node;
    const result = selectionChain(location, offset, maxDepth);
    capped ||= result.capped;
    chains[index] = result.chain;
  }
  return { chains, capped };
}

function selectionChain(location: NodeLocation, offset: number, maxDepth: number): { chain: OffsetRange[]; capped: boolean } {
  const chain: OffsetRange[] = [];
  let capped = false;
  const add = (start: number, end: number): void => {
    const previous = chain[chain.length - 1];
    // Ranges of a broken document can be odd; skip anything that would break the nesting promise.
    if (previous && (start > previous.offset || end < previous.end || (start === previous.offset && end === previous.end))) return;
    if (chain.length >= maxDepth) {
      capped = true;
      return;
    }
    chain.push({ offset: start, end });
  };
  let node: ValueNode | undefined = location.node;
  if (!node) return { chain: [{ offset, end: offset }], capped };

  let keyOf: PropertyNode | undefined = location.inKeyOf;
  const around = location.property;
  // locate() does not count the opening quote's own offset as inside the key; a cursor there should.
  if (!keyOf && around && around.parent === node && offset === around.keyOffset) keyOf = around;
  if (keyOf) {
    add(keyOf.keyOffset, keyOf.keyEnd);
    add(keyOf.keyOffset, propertyEnd(keyOf));
  } else if (around && around.parent === node) {
    // On the colon or the whitespace around it: the property is the innermost thing selected.
    add(around.keyOffset, propertyEnd(around));
  }
  while (node && !capped) {
    add(node.offset, node.end);
    if (node.property) add(node.property.keyOffset, propertyEnd(node.property));
    node = node.parent;
  }
  return { chain, capped };
}
