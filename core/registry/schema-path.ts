/**
 * Following a payload path (`items`, 0, `sku`) through a JSON Schema: to the subschema (for
 * completion, hover and sensitivity) and to the key in the schema file (for go-to-definition).
 * Only `properties` and `items` are followed, the subset the registry's validators share.
 */
import { asObject, getProperty, indexOfItem, type ObjectNode, type ParsedDocument, type PropertyNode, type ValueNode } from '../model/tree';

export type PayloadPath = readonly (string | number)[];

/** The subschema that governs the value at `path` inside data, if the schema says. */
export function subschemaAt(schema: unknown, path: PayloadPath): Record<string, unknown> | undefined {
  let current: unknown = schema;
  for (const step of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    const record = current as Record<string, unknown>;
    if (typeof step === 'number') current = typeof record.items === 'object' && !Array.isArray(record.items) ? record.items : undefined;
    else current = (record.properties as Record<string, unknown> | undefined)?.[step];
  }
  return typeof current === 'object' && current !== null ? (current as Record<string, unknown>) : undefined;
}

/** The property key in the schema file that defines the field at `path` (a key, not an index). */
export function schemaKeyAt(schemaDoc: ParsedDocument, path: PayloadPath): PropertyNode | undefined {
  let current: ValueNode | undefined = schemaDoc.root;
  let found: PropertyNode | undefined;
  for (const step of path) {
    const object = asObject(current);
    if (!object) return undefined;
    if (typeof step === 'number') {
      current = getProperty(object, 'items')?.value;
      found = undefined;
    } else {
      found = getProperty(asObject(getProperty(object, 'properties')?.value), step);
      current = found?.value;
    }
  }
  return found;
}

/** The path from data to `node` (which must lie inside data). */
export function payloadPathOf(node: ValueNode, data: ValueNode): (string | number)[] | undefined {
  const path: (string | number)[] = [];
  let current: ValueNode | undefined = node;
  while (current && current !== data) {
    const parent: ValueNode | undefined = current.parent;
    if (!parent) return undefined;
    if (current.property) path.push(current.property.key);
    else if (parent.kind === 'array') path.push(indexOfItem(parent.items, current));
    current = parent;
  }
  return current === data ? path.reverse() : undefined;
}

/**
 * The path to `node` from whichever `data` object of the envelope `root` holds it: of a `data`
 * written more than once, a key of an earlier copy is a payload field too (Go merges the copies,
 * key by key), so hover, definition and completion serve every copy.
 */
export function payloadPathInEnvelope(node: ValueNode, root: ObjectNode): (string | number)[] | undefined {
  for (const property of root.properties) {
    if (property.key !== 'data' || property.value?.kind !== 'object') continue;
    if (node.offset < property.value.offset || node.end > property.value.end) continue;
    return payloadPathOf(node, property.value);
  }
  return undefined;
}
