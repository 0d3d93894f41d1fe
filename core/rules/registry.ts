/**
 * Registry rules: unknown-urn, deprecated-urn, payload-schema, registry-error, pii-in-fixture.
 * They run only when the envelope has a registry (found by the adapters, passed in as a value).
 */
import { isMasked, isSensitive, sensitiveCategory } from '../registry/pii';
import { mapSchemaErrors } from '../registry/schema-errors';
import { toJsValue } from '../registry/schema-compiler';
import { closest } from '../registry/suggest';
import { DEPRECATED_STATUSES, type Registry, type RegistryEntry } from '../registry/types';
import { getProperty, type ValueNode } from '../tree';
import type { Range, Rule, RuleContext } from './context';
import { resolveUrn } from './urn';

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
  const errors = schema.compiled.validate(toJsValue(data));
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

/** Walks data alongside its schema (iteratively) and reports unmasked sensitive values. */
function checkSensitive(context: RuleContext, entry: RegistryEntry, data: ValueNode): void {
  const stack: { node: ValueNode; schema: unknown; path: string }[] = [{ node: data, schema: entry.schema?.value, path: '' }];
  while (stack.length > 0) {
    const { node, schema, path } = stack.pop()!;
    if (typeof schema !== 'object' || schema === null) continue;
    if (path !== '' && isSensitive(schema) && !isMasked(toJsValue(node))) {
      const category = sensitiveCategory(schema);
      context.report('pii-in-fixture', node, `"${path}" is marked x-gdpr-sensitive${category ? ` (${category})` : ''} but holds an unmasked value; fixtures live in git. Mask it ("a***" or "***").`);
      continue;
    }
    const record = schema as Record<string, unknown>;
    if (node.kind === 'object' && typeof record.properties === 'object' && record.properties !== null) {
      const properties = record.properties as Record<string, unknown>;
      for (const property of node.properties) {
        if (property.value && Object.prototype.hasOwnProperty.call(properties, property.key)) {
          stack.push({ node: property.value, schema: properties[property.key], path: path ? `${path}.${property.key}` : property.key });
        }
      }
    } else if (node.kind === 'array' && typeof record.items === 'object' && record.items !== null && !Array.isArray(record.items)) {
      for (const item of node.items) stack.push({ node: item, schema: record.items, path: `${path}[]` });
    }
  }
}
