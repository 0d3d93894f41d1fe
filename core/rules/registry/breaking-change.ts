/**
 * breaking-change: a schema edit that `bqschema compat OLD NEW` rejects, on the NEW schema file's
 * exact key. The rules are bqschema's (measured from bqschema's compat code: its rule table), on the validators' subset:
 * from the root and recursively into `properties` (path `a.b`) and `items` (path `a[]`), a changed
 * `type`, an `enum` added or a value of it removed (values compared as printed text), `minLength`
 * or `minimum` tightened, a newly `required` name, `additionalProperties` closed, a property
 * removed while `additionalProperties` is false. Any other change is compatible, as for bqschema.
 * BabelQueue's versioning rule: a breaking change is not made in place; a new URN is minted.
 */
import { asObject, getProperty, type ObjectNode, type PropertyNode, type ValueNode } from '../../model/tree';
import { keyRange, type Range } from '../context';
import { defineRule } from '../definition';

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
      },
    },
  ],
  check: () => {
    // Envelopes hold no schema; compatibility is between two versions of a schema file (compatibilityBreaks).
  },
});

/** One break, on NEW's key, with bqschema's words and the path in the payload. */
export interface CompatBreak extends Range {
  readonly path: string;
  /** bqschema compat's message for it (`type changed "integer" → "string"`). */
  readonly reason: string;
}

/** The breaks between two versions of a schema, located in the NEW document. */
export function compatibilityBreaks(oldRoot: ValueNode | undefined, newRoot: ValueNode | undefined, oldText: string, newText: string): CompatBreak[] {
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
    compareEnum(before, after, oldText, newText, report);
    for (const bound of ['minLength', 'minimum'] as const) {
      const now = getProperty(after, bound);
      if (now?.value?.kind !== 'number') continue;
      const was = getProperty(before, bound)?.value;
      if (was?.kind !== 'number' || was.value < now.value.value) report(now, undefined, `${bound} tightened`);
    }
    const oldRequired = names(getProperty(before, 'required')?.value);
    const required = getProperty(after, 'required')?.value;
    if (required?.kind === 'array') {
      for (const item of required.items) if (item.kind === 'string' && !oldRequired.has(item.value)) report(undefined, item, `property "${item.value}" is now required`);
    }
    const newAdditional = getProperty(after, 'additionalProperties');
    const closedNow = newAdditional?.value?.kind === 'boolean' && newAdditional.value.value === false;
    const oldAdditional = getProperty(before, 'additionalProperties')?.value;
    const openBefore = oldAdditional === undefined || (oldAdditional.kind === 'boolean' && oldAdditional.value === true);
    if (closedNow && openBefore) report(newAdditional, undefined, 'additionalProperties tightened to false');
    const oldProperties = asObject(getProperty(before, 'properties')?.value);
    const newPropertiesProperty = getProperty(after, 'properties');
    const newProperties = asObject(newPropertiesProperty?.value);
    for (const property of oldProperties?.properties ?? []) {
      const kept = getProperty(newProperties, property.key);
      if (!kept) {
        if (closedNow) report(newPropertiesProperty ?? newAdditional, undefined, `property "${property.key}" removed while additionalProperties is false`);
        continue;
      }
      stack.push([asObject(property.value), asObject(kept.value), path ? `${path}.${property.key}` : property.key]);
    }
    const oldItems = asObject(getProperty(before, 'items')?.value);
    const newItems = asObject(getProperty(after, 'items')?.value);
    if (oldItems && newItems) stack.push([oldItems, newItems, `${path}[]`]);
  }
  return breaks.sort((a, b) => a.offset - b.offset || a.end - b.end);
}

function compareEnum(before: ObjectNode, after: ObjectNode, oldText: string, newText: string, report: (property: PropertyNode | undefined, range: Range | undefined, reason: string) => void): void {
  const now = getProperty(after, 'enum');
  if (now?.value?.kind !== 'array') return;
  const was = getProperty(before, 'enum')?.value;
  if (was?.kind !== 'array') {
    report(now, undefined, 'enum constraint added where any value was allowed');
    return;
  }
  const current = now.value.items.map((item) => printed(item, newText));
  for (const item of was.items) {
    const text = printed(item, oldText);
    if (!current.includes(text)) report(now, undefined, `enum value ${text} removed`);
  }
}

/** A value as printed (numbers as written: `1` and `1.0` differ, as bqschema compares them). */
function printed(node: ValueNode, text: string): string {
  if (node.kind === 'number') return node.raw;
  if (node.kind === 'string') return JSON.stringify(node.value);
  if (node.kind === 'boolean') return String(node.value);
  if (node.kind === 'null') return 'null';
  return text.slice(node.offset, node.end);
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
