/**
 * breaking-change: a schema edit that `bqschema compat OLD NEW` rejects, on the NEW schema file's
 * exact key. The rules are bqschema's (measured from bqschema's compat code: its rule table), on the validators' subset:
 * from the root and recursively into `properties` (path `a.b`) and `items` (path `a[]`), a changed
 * `type`, an `enum` added or a value of it removed (values compared as printed text), `minLength`
 * or `minimum` tightened, a newly `required` name, `additionalProperties` closed, a property
 * removed while `additionalProperties` is false. Any other change is compatible, as for bqschema.
 * BabelQueue's versioning rule: a breaking change is not made in place; a new URN is minted.
 */
import { nextVersion, quotedUrn } from '../../contract/urn';
import type { TextEdit } from '../../model/edits';
import { eolOf, lineStartOf } from '../../model/property-edits';
import { asObject, getProperty, type ObjectNode, type ParsedDocument, type PropertyNode, type ValueNode } from '../../model/tree';
import { shortened } from '../../model/describe-value';
import { isDeprecatedStatus, type RegistryIndexEntry } from '../../registry/types';
import { keyRange, type Range } from '../context';
import { defineRule, type Fix, type FixContext, type SchemaChange } from '../definition';

export const rule = defineRule<'breaking-change'>({
  codes: [
    {
      code: 'breaking-change',
      family: 'registry',
      severity: 'error',
      summary: 'A schema change that data valid under the old schema can fail: bqschema compat rejects it.',
      docs: {
        fires:
          'In a schema file, against its version at a base (`babelq compat OLD NEW`, `babelq compat --base REF`, and in the editor while the file is typed, against `babelqueue.compat.base`, git `HEAD` by default, with the number of the URN\'s fixtures the schema as typed rejects): a `type` changed, an `enum` added or a value removed from it (compared as printed, so `1` and `1.0` differ), `minLength` or `minimum` added or raised, a name added to `required`, `additionalProperties` closed to `false`, or a property removed while `additionalProperties` is `false`. Checked from the root into `properties` and `items`, as bqschema compat does; keywords outside BabelQueue\'s validator subset are not compared.',
        instead: 'An additive change (a new optional property, a looser bound, an enum value added), or a new URN for the new shape (`urn:babel:orders:created.v2`) registered beside the old one, which is then deprecated: in the editor, the quick fix "Register as a new URN" does all three (the schema as typed copied to the next `.vN` file, its entry added after the old one, the old entry marked `"deprecated"`).',
        example: { fires: '"order_id": { "type": "string" }   (was "type": "integer")', clean: '"order_ref": { "type": "string" }   (a new optional field; order_id kept)' },
        fixes:
          'In the editor (it creates a file): "Register as a new URN", once per registry entry whose schema the file is: the schema as typed copied to the next `.vN` file beside the old one, an entry for the next URN added after the old entry (its owner and layout kept), the old entry marked `"deprecated"`. Never offered when the new file would leave the registry\'s folder or replace anything there.',
      },
      fixes: registerAsNewUrn,
    },
  ],
  files: {
    schemaChange: (change, report) => {
      const advice = change.urn ? `Mint a new URN (\`${quotedUrn(nextVersion(change.urn))}\`) for this shape instead of changing ${quotedUrn(change.urn)} in place.` : 'A breaking change is not made in place: mint a new URN for this shape.';
      const counted = change.urn && change.fixtures ? ` ${fixturesRejected(change.urn, change.fixtures)}` : '';
      for (const found of compatibilityBreaks(change.base.root, change.current.root)) {
        report('breaking-change', found, `${found.reason}${found.path ? ` (at ${found.path})` : ''}: data valid under the base schema can fail now (bqschema compat). ${advice}${counted}`);
      }
    },
    // A URN registered at the base and gone now breaks its producers and consumers (on registry.json's opening brace).
    registryChange: ({ baseName, baseUrns, current, currentUrns }, report) => {
      const root = current.root;
      if (!root) return;
      for (const urn of baseUrns) {
        if (!currentUrns.has(urn)) report('breaking-change', { offset: root.offset, end: root.offset + 1 }, `"${quotedUrn(urn)}" was registered at ${baseName} and is gone: its producers and consumers still use it. Keep the entry, marked "deprecated", until nothing sends it.`);
      }
    },
  },
});

/** How many of the URN's fixtures in the workspace the schema as it is now rejects, in words. */
function fixturesRejected(urn: string, { rejected, total }: NonNullable<SchemaChange['fixtures']>): string {
  if (total === 0) return `No fixture in this workspace routes on ${urn}.`;
  return `${rejected} of the ${total} fixture${total === 1 ? '' : 's'} of ${urn} in this workspace ${rejected === 1 ? 'fails' : 'fail'} the schema as it is now.`;
}

/** One break, on NEW's key, with bqschema's words and the path in the payload. */
export interface CompatBreak extends Range {
  readonly path: string;
  /** bqschema compat's message for it (`type changed "integer" → "string"`). */
  readonly reason: string;
}

/** The breaks between two versions of a schema, located in the NEW document. */
export function compatibilityBreaks(oldRoot: ValueNode | undefined, newRoot: ValueNode | undefined): CompatBreak[] {
  const breaks: CompatBreak[] = [];
  const stack: [ObjectNode | undefined, ObjectNode | undefined, string][] = [[asObject(oldRoot), asObject(newRoot), '']];
  while (stack.length > 0) {
    const [before, after, path] = stack.pop()!;
    if (!before || !after) continue;
    const report = (property: PropertyNode | undefined, range: Range | undefined, reason: string) => {
      const at = range ?? (property ? keyRange(property) : { offset: after.offset, end: after.offset + 1 });
      breaks.push({ ...at, path, reason });
    };
    const oldType = typeOf(before);
    const newType = getProperty(after, 'type');
    const newTypeName = newType?.value?.kind === 'string' ? newType.value.value : undefined;
    if (oldType !== undefined && newTypeName !== undefined && oldType !== newTypeName) {
      report(newType, undefined, `type changed "${oldType}" → "${newTypeName}"`);
      continue; // nothing below a changed type is compared
    }
    compareEnum(before, after, report);
    for (const bound of ['minLength', 'minimum'] as const) {
      const now = getProperty(after, bound);
      if (now?.value?.kind !== 'number') continue;
      const was = getProperty(before, bound)?.value;
      if (was?.kind !== 'number' || boundAsRead(bound, was.value) < boundAsRead(bound, now.value.value)) report(now, undefined, `${bound} tightened`);
    }
    const oldRequired = names(getProperty(before, 'required')?.value);
    const required = getProperty(after, 'required')?.value;
    if (required?.kind === 'array') {
      for (const item of required.items) if (item.kind === 'string' && !oldRequired.has(item.value)) report(undefined, item, `property "${shortened(item.value)}" is now required`);
    }
    const newAdditional = getProperty(after, 'additionalProperties');
    const closedNow = newAdditional?.value?.kind === 'boolean' && newAdditional.value.value === false;
    // Only a boolean closes or opens: a schema (or anything else) there is outside the subset, so open.
    const oldAdditional = getProperty(before, 'additionalProperties')?.value;
    const openBefore = oldAdditional?.kind !== 'boolean' || oldAdditional.value;
    if (closedNow && openBefore) report(newAdditional, undefined, 'additionalProperties tightened to false');
    const oldProperties = asObject(getProperty(before, 'properties')?.value);
    const newPropertiesProperty = getProperty(after, 'properties');
    const newProperties = asObject(newPropertiesProperty?.value);
    for (const property of oldProperties?.properties ?? []) {
      const kept = getProperty(newProperties, property.key);
      if (!kept) {
        if (closedNow) report(newPropertiesProperty ?? newAdditional, undefined, `property "${shortened(property.key)}" removed while additionalProperties is false`);
        continue;
      }
      stack.push([asObject(property.value), asObject(kept.value), path ? `${path}.${shortened(property.key)}` : shortened(property.key)]);
    }
    const oldItems = asObject(getProperty(before, 'items')?.value);
    const newItems = asObject(getProperty(after, 'items')?.value);
    if (oldItems && newItems) stack.push([oldItems, newItems, `${path}[]`]);
  }
  return breaks.sort((a, b) => a.offset - b.offset || a.end - b.end);
}

function compareEnum(before: ObjectNode, after: ObjectNode, report: (property: PropertyNode | undefined, range: Range | undefined, reason: string) => void): void {
  const now = getProperty(after, 'enum');
  if (now?.value?.kind !== 'array') return;
  const was = getProperty(before, 'enum')?.value;
  if (was?.kind !== 'array') {
    report(now, undefined, 'enum constraint added where any value was allowed');
    return;
  }
  const current = now.value.items.map(printed);
  for (const item of was.items) {
    const text = printed(item);
    if (!current.includes(text)) report(now, undefined, `enum value ${shortened(text)} removed`);
  }
}

/**
 * A value as printed (numbers as written: `1` and `1.0` differ, as bqschema compares them). An
 * object or array is printed compactly, member by member (an object's keys sorted), so a schema
 * laid out anew (indented, wrapped, its keys sorted) keeps its enum values: the file's spacing
 * and key order are no part of a value. Iterative, as the
 * parser is, so no nesting depth can overflow the call stack.
 */
function printed(value: ValueNode): string {
  let out = '';
  const pending: (ValueNode | string)[] = [value];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next === 'string') out += next;
    else if (next.kind === 'number') out += next.raw;
    else if (next.kind === 'string') out += JSON.stringify(next.value);
    else if (next.kind === 'boolean') out += String(next.value);
    else if (next.kind === 'null') out += 'null';
    else if (next.kind === 'array') {
      // Pushed in reverse: popped as `[`, item, `,`, item, …, `]`.
      pending.push(']');
      for (let i = next.items.length - 1; i >= 0; i--) pending.push(next.items[i], i > 0 ? ',' : '');
      pending.push('[');
    } else {
      // bqschema decodes an object into a map, which prints its keys sorted and holds a repeated
      // key's last copy: a schema whose keys were sorted anew (jq -S) keeps its enum values.
      const members = [...new Map(next.properties.map((property) => [property.key, property] as const)).values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      pending.push('}');
      for (let i = members.length - 1; i >= 0; i--) {
        const property = members[i];
        pending.push(property.value ?? '', `${i > 0 ? ',' : ''}${JSON.stringify(property.key)}:`);
      }
      pending.push('{');
    }
  }
  return out;
}

/** A bound as the validators read it: `minLength` as a whole number (1.5 counts as 1), `minimum` as it is. */
function boundAsRead(bound: 'minLength' | 'minimum', value: number): number {
  return bound === 'minLength' ? Math.trunc(value) : value;
}

/** The schema's `type` as the validators read it: one string, else none (a list is read as no type). */
function typeOf(schema: ObjectNode): string | undefined {
  const type = getProperty(schema, 'type')?.value;
  return type?.kind === 'string' ? type.value : undefined;
}

function names(value: ValueNode | undefined): Set<string> {
  const result = new Set<string>();
  if (value?.kind === 'array') for (const item of value.items) if (item.kind === 'string') result.add(item.value);
  return result;
}

/**
 * "Register as a new URN…": BabelQueue's versioning rule made into one edit, per registry entry
 * whose schema the file is (entries already deprecated have their successor). The schema as it is
 * now (the new shape) is copied to the next `.vN` file beside the old one, registry.json gets an
 * entry for the next URN (`…:created` → `…:created.v2`) copied from the old one (its owner and
 * layout kept), and the old entry is marked `"deprecated"`, which the compat check accepts: its
 * producers keep sending the old shape until they move.
 */
function registerAsNewUrn({ doc, owners }: FixContext): Fix[] {
  const fixes: Fix[] = [];
  for (const { registry, entry } of owners) {
    if (isDeprecatedStatus(entry.status)) continue;
    const registration = registerNewUrn(registry.doc, entry, (urn) => registry.byUrn.has(urn));
    if (!registration) continue;
    fixes.push({
      title: `Register as a new URN: ${quotedUrn(registration.urn)} with ${shortened(registration.schemaRef, 200)} (this shape), ${quotedUrn(entry.urn)} deprecated`,
      edits: [],
      preferred: true,
      otherFiles: [
        { kind: 'create', beside: registry.path, ref: registration.schemaRef, text: doc.text },
        { kind: 'edit', path: registry.path, text: registry.doc.text, edits: registration.registryEdits },
      ],
    });
  }
  return fixes;
}

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
  // The registry's own line break, so a CRLF (or CR) file stays so.
  const newline = eolOf(text);
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
  const lineStart = lineStartOf(text, entry.offset);
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
  const lineStart = lineStartOf(text, last.keyOffset);
  const between = text.slice(lineStart, last.keyOffset);
  const separator = /^[ \t]*$/.test(between) && lineStart > node.offset ? `,${newline}${between}` : ', ';
  return [{ offset: last.value.end, end: last.value.end, newText: `${separator}${property}` }];
}
