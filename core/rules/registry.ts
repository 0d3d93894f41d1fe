/**
 * Registry rules: unknown-urn, deprecated-urn, payload-schema, registry-error, pii-in-fixture.
 * They run only when the envelope has a registry (found by the adapters, passed in as a value).
 */
import { isMasked, isSensitive, sensitiveCategory } from '../registry/pii';
import { mapSchemaErrors } from '../registry/schema-errors';
import { toJsValue } from '../registry/schema-compiler';
import { closest } from '../model/edit-distance';
import { DEPRECATED_STATUSES, type Registry, type RegistryEntry } from '../registry/types';
import { columnsOf, documentPlainValue } from '../parse/document';
import { getProperty, type ValueNode } from '../model/tree';
import type { Range, Rule, RuleContext } from './context';
import { resolveUrn } from '../contract/urn';

/** The registry rules for the envelope's URN and payload. */
export const checkRegistry: Rule = (context) => {
  const { root, data } = context.envelope;
  const state = context.registry;
  if (!root || state.kind === 'none') return;
  const job = getProperty(root, 'job');
  const urn = getProperty(root, 'urn');
  const resolved = resolveUrn(job, urn);
  const anchor: Range = resolved?.node ?? job?.value ?? { offset: root.offset, end: root.offset + 1 };
  if (state.kind === 'broken') {
    context.report('registry-error', anchor, `The registry ${state.path} cannot be used: ${state.error}`);
    return;
  }
  if (!resolved) return;
  const entry = state.registry.byUrn.get(resolved.node.value);
  if (!entry) {
    reportUnknown(context, state.registry, resolved.node.value, resolved.node);
    return;
  }
  if (entry.status && DEPRECATED_STATUSES.includes(entry.status.toLowerCase())) {
    context.report('deprecated-urn', resolved.node, `"${entry.urn}" is ${entry.status} in the registry${entry.owner ? ` (owner: ${entry.owner})` : ''}: mint or move to its successor URN.`, { tags: ['deprecated'] });
  }
  const schema = entry.schema;
  if (!schema?.compiled) {
    context.report('registry-error', resolved.node, `The schema for "${entry.urn}" cannot be used: ${schema?.error ?? 'it was not loaded'}`);
    return;
  }
  const dataProperty = getProperty(root, 'data');
  if (!data || !dataProperty) return;
  const parsed = columnsOf(data);
  let errors;
  if (!parsed) {
    errors = schema.compiled.validate(toJsValue(data));
  } else {
    // Straight from the parser's columns: the payload is built for ajv only when they cannot vouch
    // for it (after typing in a string value, derived from the previous version's where there is one).
    errors = schema.compiled.validateParsed(parsed.columns, parsed.text, parsed.slot, () => documentPlainValue(parsed.document, parsed.slot));
  }
  for (const problem of mapSchemaErrors(data, dataProperty, errors)) {
    context.report('payload-schema', problem, `${problem.message} (schema of ${entry.urn})`);
  }
  checkSensitive(context, entry, data);
};

function reportUnknown(context: RuleContext, registry: Registry, urn: string, node: Range): void {
  const suggestions = closest(urn, registry.byUrn.keys());
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : ' Register it, or check the spelling.';
  context.report('unknown-urn', node, `"${urn}" is not in the registry.${hint}`);
}

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
function checkSensitive(context: RuleContext, entry: RegistryEntry, data: ValueNode): void {
  if (!reachesSensitive(entry.schema?.value)) return;
  const stack: { node: ValueNode; schema: unknown; path: PathStep }[] = [{ node: data, schema: entry.schema?.value, path: ROOT_PATH }];
  while (stack.length > 0) {
    const { node, schema, path } = stack.pop()!;
    if (typeof schema !== 'object' || schema === null) continue;
    if (!path.empty && isSensitive(schema) && !isMasked(toJsValue(node))) {
      const category = sensitiveCategory(schema);
      context.report('pii-in-fixture', node, `"${pathText(path)}" is marked x-gdpr-sensitive${category ? ` (${category})` : ''} but holds an unmasked value; fixtures live in git. Mask it ("a***" or "***").`);
      continue;
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
