/** pii-in-fixture: a value the URN's schema marks x-gdpr-sensitive that is not masked. */
import { toJsValue } from '../../model/js-value';
import { literal } from '../../model/describe-value';
import { replaceValue } from '../../model/property-edits';
import type { ValueNode } from '../../model/tree';
import { isMasked, isSensitive, maskFits, maskValue, sensitiveCategory } from '../../registry/pii';
import type { RegistryEntry } from '../../registry/types';
import type { RuleContext } from '../context';
import { defineRule } from '../definition';
import { payloadEntry } from './payload-entry';

export const rule = defineRule({
  codes: [
    {
      code: 'pii-in-fixture',
      family: 'registry',
      severity: 'information',
      summary: 'A field marked x-gdpr-sensitive holds an unmasked value.',
      docs: {
        fires: 'A `data` field the schema marks `x-gdpr-sensitive` holds a value that is not masked (`a***`, `***`). Fixtures live in git. A field whose own schema cannot hold the mask (an integer, an `enum`, a `pattern`, length or `format` such as `email` or `date` the mask does not meet) is not reported: no masked value would pass its schema, so write a made-up value there. Inside a sensitive object, its own sensitive fields are checked.',
        instead: 'The value masked as the registry tool masks it: the first character then `***` for a string, `"***"` otherwise.',
        example: { fires: '"email": "ada@example.com"', clean: '"email": "a***"' },
        fixes: 'Mask the value as the registry tool does: first character then `***` for strings, `"***"` otherwise.',
      },
      fixes: ({ valueAt }) => {
        const value = valueAt();
        if (!value) return [];
        const masked = maskValue(toJsValue(value));
        return [{ title: `Mask the value as ${literal(masked)}`, edits: [replaceValue(value, JSON.stringify(masked))] }];
      },
    },
  ],
  check: (context) => {
    const found = payloadEntry(context);
    if (found) checkSensitive(context, found.entry, found.data);
  },
});

/**
 * Where a value sits in data, as a chain of steps joined into text only for a report: a property
 * step adds `.key` (just `key` while the text so far is empty), an item step adds `[]`.
 */
interface PathStep {
  readonly parent: PathStep | undefined;
  readonly key: string;
  readonly item: boolean;
  /** True while the joined text is still empty (only properties named "" so far). */
  readonly empty: boolean;
}

const ROOT_PATH: PathStep = { parent: undefined, key: '', item: false, empty: true };

function propertyStep(parent: PathStep, key: string): PathStep {
  return { parent, key, item: false, empty: parent.empty && key === '' };
}

function itemStep(parent: PathStep): PathStep {
  return { parent, key: '', item: true, empty: false };
}

function pathText(step: PathStep): string {
  const steps: PathStep[] = [];
  for (let at: PathStep | undefined = step; at && at !== ROOT_PATH; at = at.parent) steps.push(at);
  let path = '';
  for (let i = steps.length - 1; i >= 0; i--) {
    const at = steps[i];
    path = at.item ? `${path}[]` : path ? `${path}.${at.key}` : at.key;
  }
  return path;
}

/** Walks data alongside its schema (iteratively) and reports unmasked sensitive values. */
function checkSensitive(context: RuleContext<'pii-in-fixture'>, entry: RegistryEntry, data: ValueNode): void {
  if (!reachesSensitive(entry.schema?.value)) return;
  const stack: { node: ValueNode; schema: unknown; path: PathStep }[] = [{ node: data, schema: entry.schema?.value, path: ROOT_PATH }];
  while (stack.length > 0) {
    const { node, schema, path } = stack.pop()!;
    if (typeof schema !== 'object' || schema === null) continue;
    if (!path.empty && isSensitive(schema)) {
      const value = toJsValue(node);
      if (isMasked(value)) continue;
      // The mask the fix writes; where the field's schema would reject it, no value there can be
      // told masked from real, and the mask would only trade this note for a schema error: the
      // walk goes on below it instead (an object's own sensitive fields can hold one).
      const masked = maskValue(value);
      if (maskFits(schema, masked)) {
        const category = sensitiveCategory(schema);
        context.report('pii-in-fixture', node, `"${pathText(path)}" is marked x-gdpr-sensitive${category ? ` (${category})` : ''} but holds an unmasked value; fixtures live in git. Mask it as ${JSON.stringify(masked)}.`);
        continue;
      }
    }
    // Nothing at or below this schema is marked: no value under this node can be reported.
    if (!reachesSensitive(schema)) continue;
    const record = schema as Record<string, unknown>;
    if (node.kind === 'object' && typeof record.properties === 'object' && record.properties !== null) {
      const properties = record.properties as Record<string, unknown>;
      for (const property of node.properties) {
        if (property.value && Object.prototype.hasOwnProperty.call(properties, property.key)) {
          stack.push({ node: property.value, schema: properties[property.key], path: propertyStep(path, property.key) });
        }
      }
    } else if (node.kind === 'array' && typeof record.items === 'object' && record.items !== null && !Array.isArray(record.items)) {
      for (const item of node.items) stack.push({ node: item, schema: record.items, path: itemStep(path) });
    }
  }
}

/** Per schema object: whether it or a schema the walk can reach from it is marked sensitive. */
const reaches = new WeakMap<object, boolean>();

/**
 * True when `schema` or a schema `checkSensitive` can descend to from it (through `properties`
 * and a single-schema `items`) is marked sensitive. Computed once per schema object, iteratively;
 * a schema reached again while it is being computed (a cycle) counts as marked, so the walk runs.
 */
function reachesSensitive(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const known = reaches.get(schema);
  if (known !== undefined) return known;
  const entered = new Set<object>();
  const stack: { schema: object; leaving: boolean }[] = [{ schema, leaving: false }];
  while (stack.length > 0) {
    const { schema: current, leaving } = stack.pop()!;
    if (leaving) {
      let result = isSensitive(current);
      for (const child of schemaChildren(current)) if (!result && reaches.get(child) !== false) result = true;
      reaches.set(current, result);
      continue;
    }
    if (reaches.has(current) || entered.has(current)) continue;
    entered.add(current);
    stack.push({ schema: current, leaving: true });
    for (const child of schemaChildren(current)) stack.push({ schema: child, leaving: false });
  }
  return reaches.get(schema) !== false;
}

function schemaChildren(schema: object): object[] {
  const record = schema as Record<string, unknown>;
  const children: object[] = [];
  const properties = record.properties;
  if (typeof properties === 'object' && properties !== null) {
    for (const key of Object.getOwnPropertyNames(properties)) {
      const child = (properties as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) children.push(child);
    }
  }
  const items = record.items;
  if (typeof items === 'object' && items !== null && !Array.isArray(items)) children.push(items);
  return children;
}
