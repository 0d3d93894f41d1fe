/**
 * Where a completion request's cursor sits: in a key of an object (typed or about to be) or in a
 * property's value. Contract and registry completion both start from this.
 */
import { locateAtCursor, type ObjectNode, type ParsedDocument, type PropertyNode } from '../model/tree';

/** Where the cursor is, as far as completion cares. */
export type Slot =
  /** `commaAt`: where the property before the key ends when no comma follows it (a line added below the last one): the comma an item adds there. */
  | { kind: 'key'; object: ObjectNode; replacing: PropertyNode | undefined; offset: number; end: number; commaAt?: number }
  | { kind: 'value'; property: PropertyNode; offset: number; end: number };

/** Finds what the cursor at `offset` would complete: a key of an object or a property's value. */
export function findSlot(doc: ParsedDocument, offset: number): Slot | undefined {
  const location = locateAtCursor(doc.root, offset);
  if (location.inKeyOf) {
    const property = location.inKeyOf;
    const properties = property.parent.properties;
    const index = properties.lastIndexOf(property);
    const commaAt = index > 0 ? uncommaedEnd(doc.text, properties[index - 1], property.keyOffset) : undefined;
    return { kind: 'key', object: property.parent, replacing: property, offset: property.keyOffset, end: keyTokenEnd(doc.text, property), ...(commaAt !== undefined ? { commaAt } : {}) };
  }
  const node = location.node;
  if (!node) return undefined;
  if (node.kind !== 'object' && node.kind !== 'array') {
    if (!node.property || offset < node.offset) return undefined;
    return { kind: 'value', property: node.property, offset: node.offset, end: node.end };
  }
  if (node.kind !== 'object' || offset <= node.offset) return undefined;
  // A key typed without its quote yet (`qu` on a new line): the parser reads the word as stray, so
  // no property holds it; the key slot is where the word starts, and the word is replaced.
  const word = wordAround(doc.text, offset);
  if (word) {
    const slot = keySlotAt(doc, node, word.start);
    return slot && { ...slot, end: word.end };
  }
  return keySlotAt(doc, node, offset) ?? valueSlotAfterColon(doc, node, offset);
}

/** The word (letters, digits, `_`, `$`) that ends at or holds `offset`, or undefined. Looked for no further than the word itself. */
function wordAround(text: string, offset: number): { start: number; end: number } | undefined {
  let start = offset;
  while (start > 0 && /[A-Za-z0-9_$]/.test(text[start - 1])) start--;
  if (start === offset) return undefined;
  let end = offset;
  while (end < text.length && /[A-Za-z0-9_$]/.test(text[end])) end++;
  return { start, end };
}

/** The value slot right after a property's colon that has no value yet. */
function valueSlotAfterColon(doc: ParsedDocument, node: ObjectNode, offset: number): Slot | undefined {
  const previous = previousSignificant(doc.text, offset);
  if (previous === undefined || doc.text[previous] !== ':') return undefined;
  const property = node.properties.find((candidate) => candidate.colonOffset === previous);
  return property && !property.value ? { kind: 'value', property, offset, end: offset } : undefined;
}

/** A key slot of `node` at `offset`: after its "{" or a comma, or after a property's value with no comma yet. */
function keySlotAt(doc: ParsedDocument, node: ObjectNode, offset: number): Slot | undefined {
  const previous = previousSignificant(doc.text, offset);
  if (previous === undefined) return undefined;
  const char = doc.text[previous];
  if (char === ':') return undefined;
  if (char === '{' || char === ',') return { kind: 'key', object: node, replacing: undefined, offset, end: offset };
  // After the value of the object's property before the cursor, with no comma yet.
  const before = lastPropertyBefore(node, offset);
  const commaAt = before ? uncommaedEnd(doc.text, before, offset) : undefined;
  return commaAt !== undefined && commaAt === previous + 1 ? { kind: 'key', object: node, replacing: undefined, offset, end: offset, commaAt } : undefined;
}

/** The last property of `object` whose value ends at or before `offset` (properties come in text order). */
function lastPropertyBefore(object: ObjectNode, offset: number): PropertyNode | undefined {
  const { properties } = object;
  for (let i = properties.length - 1; i >= 0; i--) {
    const value = properties[i].value;
    if (value && value.end <= offset) return properties[i];
  }
  return undefined;
}

/** Where `property`'s value ends, when only whitespace lies from there to `next` (no comma): else undefined. */
function uncommaedEnd(text: string, property: PropertyNode, next: number): number | undefined {
  const value = property.value;
  if (!value || value.end > next) return undefined;
  for (let i = value.end; i < next; i++) if (!/\s/.test(text[i])) return undefined;
  return value.end;
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

/** A key item's additional edit: the comma after the property before the key, when it has none. */
export function commaBefore(slot: Extract<Slot, { kind: 'key' }>): { additionalEdits?: { offset: number; end: number; newText: string }[] } {
  return slot.commaAt === undefined ? {} : { additionalEdits: [{ offset: slot.commaAt, end: slot.commaAt, newText: ',' }] };
}
