/**
 * Where a completion request's cursor sits: in a key of an object (typed or about to be) or in a
 * property's value. Contract and registry completion both start from this.
 */
import { locateAtCursor, type ObjectNode, type ParsedDocument, type PropertyNode } from '../model/tree';

/** Where the cursor is, as far as completion cares. */
export type Slot =
  | { kind: 'key'; object: ObjectNode; replacing: PropertyNode | undefined; offset: number; end: number }
  | { kind: 'value'; property: PropertyNode; offset: number; end: number };

/** Finds what the cursor at `offset` would complete: a key of an object or a property's value. */
export function findSlot(doc: ParsedDocument, offset: number): Slot | undefined {
  const location = locateAtCursor(doc.root, offset);
  if (location.inKeyOf) {
    const property = location.inKeyOf;
    return { kind: 'key', object: property.parent, replacing: property, offset: property.keyOffset, end: keyTokenEnd(doc.text, property) };
  }
  const node = location.node;
  if (!node) return undefined;
  if (node.kind !== 'object' && node.kind !== 'array') {
    if (!node.property || offset < node.offset) return undefined;
    return { kind: 'value', property: node.property, offset: node.offset, end: node.end };
  }
  if (node.kind !== 'object' || offset <= node.offset) return undefined;
  const previous = previousSignificant(doc.text, offset);
  if (previous === undefined) return undefined;
  const char = doc.text[previous];
  if (char === ':') {
    const property = node.properties.find((candidate) => candidate.colonOffset === previous);
    return property && !property.value ? { kind: 'value', property, offset, end: offset } : undefined;
  }
  if (char === '{' || char === ',') return { kind: 'key', object: node, replacing: undefined, offset, end: offset };
  return undefined;
}

function previousSignificant(text: string, offset: number): number | undefined {
  for (let i = offset - 1; i >= 0; i--) if (!/\s/.test(text[i])) return i;
  return undefined;
}

/** The next non-whitespace character at or after `offset`. */
export function nextSignificant(text: string, offset: number): string | undefined {
  for (let i = offset; i < text.length; i++) if (!/\s/.test(text[i])) return text[i];
  return undefined;
}


const KEY_WORD = /[^"\s{}[\],:]*/y;

/**
 * Where a key being typed ends. An unterminated key (`{"jo}`) runs to the end of its line in the
 * tree, and replacing all of that would swallow the closing brace: stop at the typed word.
 */
function keyTokenEnd(text: string, property: PropertyNode): number {
  const closed = property.keyEnd - property.keyOffset >= 2 && text[property.keyEnd - 1] === text[property.keyOffset];
  if (closed) return property.keyEnd;
  KEY_WORD.lastIndex = property.keyOffset + 1;
  KEY_WORD.exec(text);
  return Math.min(KEY_WORD.lastIndex, property.keyEnd);
}
