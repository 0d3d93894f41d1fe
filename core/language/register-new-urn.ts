/**
 * "Register as a new URN…", the fix of a breaking-change in a schema file: BabelQueue's versioning
 * rule made into one edit. The schema as it is now (the new shape) is copied to a `.v2` file
 * beside it, registry.json gets an entry for the next URN (`…:created` → `…:created.v2`) copied
 * from the old one (its owner and layout kept), and the old entry is marked `"deprecated"`, which
 * the compat check accepts: its producers keep sending the old shape until they move.
 */
import { nextVersion } from '../rules/schema-file-diagnostics';
import { getProperty, type ObjectNode, type ParsedDocument, type ValueNode } from '../model/tree';
import type { RegistryIndexEntry } from '../registry/types';
import type { TextEdit } from '../model/edits';

export interface NewUrnRegistration {
  /** The URN minted for the new shape. */
  readonly urn: string;
  /** The new schema's path as registry.json writes it (relative to the registry, as the old one was). */
  readonly schemaRef: string;
  /** The edits of registry.json: the new entry after the old one, and the old one deprecated. */
  readonly registryEdits: readonly TextEdit[];
}

/** `schemas/orders-created.json` → `schemas/orders-created.v2.json`; `….v2.json` → `….v3.json`. */
export function nextSchemaRef(schemaRef: string): string {
  const versioned = /^(.*)\.v(\d+)\.json$/i.exec(schemaRef);
  if (versioned) return `${versioned[1]}.v${Number(versioned[2]) + 1}.json`;
  const plain = /^(.*)\.json$/i.exec(schemaRef);
  return plain ? `${plain[1]}.v2.json` : `${schemaRef}.v2`;
}

/**
 * The registry edits that register the next free URN of `entry` (`.v2`, else `.v3`, …: `taken`
 * says which are registered already) with the next schema file, or undefined when the entry
 * cannot be found in `registry`.
 */
export function registerNewUrn(registry: ParsedDocument, entry: RegistryIndexEntry, taken: (urn: string) => boolean = () => false): NewUrnRegistration | undefined {
  const text = registry.text;
  const node = entryNode(registry.root, entry.offset);
  if (!node) return undefined;
  let urn = nextVersion(entry.urn);
  let schemaRef = nextSchemaRef(entry.schemaRef);
  for (let tries = 0; taken(urn) && tries < 100; tries++) {
    urn = nextVersion(urn);
    schemaRef = nextSchemaRef(schemaRef);
  }
  if (taken(urn)) return undefined;
  // The registry's own line break, so a CRLF file stays CRLF.
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  // The new entry is the old one's text with its urn, schema and status values swapped: same owner, same layout.
  const status = getProperty(node, 'status');
  const swaps = [
    { offset: entry.urnOffset, end: entry.urnEnd, newText: JSON.stringify(urn) },
    { offset: entry.schemaOffset, end: entry.schemaEnd, newText: JSON.stringify(schemaRef) },
    ...(status?.value ? [{ offset: status.value.offset, end: status.value.end, newText: '"active"' }] : []),
  ].sort((a, b) => a.offset - b.offset);
  let newEntry = '';
  let at = entry.offset;
  for (const swap of swaps) {
    newEntry += text.slice(at, swap.offset) + swap.newText;
    at = swap.end;
  }
  newEntry += text.slice(at, entry.end);
  const lineStart = text.lastIndexOf('\n', entry.offset - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, entry.offset))![0];
  const edits: TextEdit[] = [];
  if (status?.value) edits.push({ offset: status.value.offset, end: status.value.end, newText: '"deprecated"' });
  else edits.push(...appendProperty(node, text, '"status": "deprecated"', newline));
  edits.push({ offset: entry.end, end: entry.end, newText: `,${newline}${indent}${newEntry}` });
  return { urn, schemaRef, registryEdits: edits };
}

/** The entry object that starts at `offset` in registry.json's `schemas` list. */
function entryNode(root: ValueNode | undefined, offset: number): ObjectNode | undefined {
  if (root?.kind !== 'object') return undefined;
  const schemas = getProperty(root, 'schemas')?.value;
  if (schemas?.kind !== 'array') return undefined;
  const found = schemas.items.find((item) => item.offset === offset);
  return found?.kind === 'object' ? found : undefined;
}

/** `property` added as the object's last member, on its own line when the members are on lines of their own. */
function appendProperty(node: ObjectNode, text: string, property: string, newline: string): TextEdit[] {
  const last = node.properties[node.properties.length - 1];
  if (!last?.value) return [{ offset: node.offset + 1, end: node.offset + 1, newText: ` ${property} ` }];
  const lineStart = text.lastIndexOf('\n', last.keyOffset - 1) + 1;
  const between = text.slice(lineStart, last.keyOffset);
  const separator = /^[ \t]*$/.test(between) && lineStart > node.offset ? `,${newline}${between}` : ', ';
  return [{ offset: last.value.end, end: last.value.end, newText: `${separator}${property}` }];
}
