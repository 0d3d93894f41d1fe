/**
 * The JSON Pointer (RFC 6901) of the value or key at an offset: a name for a place in a document
 * that does not change when lines above it move, so reports can follow a finding across edits.
 */
import { indexOfItem, locate, type ParsedDocument, type PropertyNode, type ValueNode } from './tree';

/** Escapes one reference token: `~` as `~0` and `/` as `~1` (RFC 6901, section 3). */
export function encodePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The pointer of the innermost value at `offset`, or of the property whose key is there; `""`
 * for the root, or for a document without one. Walks parent links, so depth costs no stack.
 */
export function pointerAt(doc: ParsedDocument, offset: number): string {
  const located = locate(doc.root, offset);
  const node = located.node;
  // A finding on a key starts at its opening quote, which a cursor there is not yet inside.
  const inKeyOf = located.inKeyOf ?? (located.property?.keyOffset === offset ? located.property : undefined);
  const tokens: string[] = [];
  let property: PropertyNode | undefined = inKeyOf;
  let value: ValueNode | undefined = inKeyOf ? inKeyOf.parent : node;
  if (property) tokens.push(property.key);
  while (value?.parent) {
    property = value.property;
    tokens.push(property ? property.key : String(value.parent.kind === 'array' ? indexOfItem(value.parent.items, value) : 0));
    value = value.parent;
  }
  return tokens.reverse().map((token) => `/${encodePointerToken(token)}`).join('');
}

/**
 * The value a JSON Pointer names in a tree, with the property it is the value of (the last one of
 * a repeated key, as JSON.parse keeps it); undefined when the pointer names nothing there.
 */
export function valueAtPointer(root: ValueNode | undefined, pointer: string): { readonly node: ValueNode; readonly property?: PropertyNode } | undefined {
  if (!root) return undefined;
  if (pointer === '') return { node: root };
  let node: ValueNode = root;
  let property: PropertyNode | undefined;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node.kind === 'object') {
      property = undefined;
      for (const candidate of node.properties) if (candidate.key === token && candidate.value) property = candidate;
      if (!property) return undefined;
      node = property.value!;
    } else if (node.kind === 'array' && /^(0|[1-9]\d*)$/.test(token) && Number(token) < node.items.length) {
      property = undefined;
      node = node.items[Number(token)];
    } else return undefined;
  }
  return property ? { node, property } : { node };
}
